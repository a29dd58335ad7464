//! index.html: one self-contained page drawing every puzzle as SVG, with a move stepper.
//!
//! The page is built here in full: the summary table, one card per puzzle and each board's
//! start position as inline SVG, so it reads (and prints) without scripts. The inline script
//! (`html/report.js`) only switches classes and positions to step through a solution, using
//! the frames embedded as JSON. Nothing is fetched: no fonts, images or external scripts.

use super::tally::Brief;
use super::{
    Finished, Format, MAX_DRAWN_BYTES, Totals, left_out_note, moves_cell, summarised_note, table::seconds,
    thousands,
};
use crate::outcome::{MoveOut, Outcome, Over, Replay, Status};
use crate::render;
use crate::script::Layout;
use crate::spec::Cell;
use serde::Serialize;
use std::fmt::Write;

const CSS: &str = include_str!("html/report.css");
const JS: &str = include_str!("html/report.js");

/// Marble colours cycle through this many classes (`c1` … `c8`, defined in the CSS).
const PALETTE: usize = 8;

pub struct Html;

impl Format for Html {
    fn file_name(&self) -> &'static str {
        "index.html"
    }

    fn render(&self, outcomes: &[Outcome]) -> anyhow::Result<String> {
        page(outcomes, None)
    }

    fn summarise(&self, results: &Finished) -> anyhow::Result<String> {
        page(&results.sample, Some(results))
    }

    fn stopped_short(&self, page: String, note: &str) -> String {
        let banner = format!(
            "<p class=\"wrap incomplete\" role=\"alert\"><strong>{}</strong></p>\n",
            escape(note)
        );
        page.replacen("<body>\n", &format!("<body>\n{banner}"), 1)
    }
}

/// Escapes text for HTML element content and quoted attribute values; control characters
/// but line breaks and tabs are written as the terminal shows them (`\u{1b}`).
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            c if c.is_control() && c != '\n' && c != '\t' => {
                out.push_str(&format!("\\u{{{:x}}}", c as u32));
            }
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// JSON that is safe inside a `<script>` element: no `<`, `>` or `&` at all (they can only
/// occur in strings, where `\u003c` and friends mean the same), so neither `</script>` nor
/// `<!--` can appear, and no line separators that older parsers choke on.
pub fn script_json<T: Serialize + ?Sized>(value: &T) -> anyhow::Result<String> {
    let s = serde_json::to_string(value)?;
    Ok(s.replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029"))
}

/// A number for SVG attributes: at most three decimals, no trailing zeros.
fn num(x: f64) -> String {
    let s = format!("{x:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    match s {
        "-0" | "" => "0".to_string(),
        s => s.to_string(),
    }
}

/// The anchor of puzzle `i`'s section.
fn anchor(i: usize) -> String {
    format!("puzzle-{}", i + 1)
}

fn status_label(s: Status) -> &'static str {
    match s {
        Status::Solved => "solved",
        Status::Unsolvable => "unsolvable",
        Status::GaveUp => "gave up",
        Status::Error => "error",
    }
}

fn badge(s: Status) -> String {
    format!("<span class=\"badge {}\">{}</span>", s.as_str(), status_label(s))
}

/// What the script needs to step one puzzle: the frames, each move in words and, for hops,
/// the cells each move touches (as indices into the board's cell list).
#[derive(Serialize)]
struct Player<'a> {
    kind: &'static str,
    /// The move that led to frame k+1, in words.
    words: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    hop: Option<HopPlay<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tilt: Option<TiltPlay<'a>>,
}

#[derive(Serialize)]
struct HopPlay<'a> {
    frames: &'a [String],
    /// Per move: `[from, to, over…]` as cell indices (-1 when a cell is not on the board).
    marks: Vec<Vec<i64>>,
    /// On a board of pieces of kinds, each kind's letter and its colour ([`Kinds`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    kinds: Vec<(char, &'static str)>,
}

/// The kinds a hop replay's frames show, by their letters in order of first appearance, and
/// the colour each is drawn in ([`render::kind_colours`]); none on a board of pegs.
struct Kinds(Vec<(char, &'static str)>);

impl Kinds {
    fn of(frames: &[String]) -> Kinds {
        let mut letters: Vec<u8> = Vec::new();
        for b in frames.iter().flat_map(|f| f.bytes()) {
            if b.is_ascii_alphabetic() && !letters.contains(&b) {
                letters.push(b);
            }
        }
        let colours = render::kind_colours(&letters);
        Kinds(letters.into_iter().map(char::from).zip(colours).collect())
    }

    /// The colour of the piece drawn as `letter`.
    fn colour(&self, letter: u8) -> &'static str {
        self.0
            .iter()
            .find(|(l, _)| *l == char::from(letter))
            .map_or(render::KIND_COLOURS[0], |k| k.1)
    }

    /// Each kind's letter on a disc of its colour, under the board.
    fn legend(&self, s: &mut String) {
        if self.0.is_empty() {
            return;
        }
        s.push_str("<p class=\"legend\">");
        for (letter, colour) in &self.0 {
            let _ = write!(
                s,
                "<span class=\"kind k-{colour}\">{}</span>",
                escape(&letter.to_string())
            );
        }
        s.push_str("</p>\n");
    }
}

#[derive(Serialize)]
struct TiltPlay<'a> {
    holes: &'a [Cell],
    frames: &'a [Vec<Option<Cell>>],
}

fn player<'a>(o: &'a Outcome, replay: &'a Replay) -> Player<'a> {
    let words = o
        .moves
        .iter()
        .map(|m| match m {
            MoveOut::Tilt { tilt } => format!("{} {}", render::move_text(m), arrow(tilt)),
            _ => render::move_text(m),
        })
        .collect();
    match replay {
        Replay::Hop { cells, frames, .. } => {
            let index = |c: &Cell| cells.iter().position(|x| x == c).map_or(-1, |i| i as i64);
            let marks = o
                .moves
                .iter()
                .map(|m| match m {
                    MoveOut::Hop { from, over, to, .. } => {
                        let mut v = vec![index(from), index(to)];
                        match over {
                            Over::One(c) => v.push(index(c)),
                            Over::Many(cs) => v.extend(cs.iter().map(index)),
                        }
                        v
                    }
                    MoveOut::Step { from, to, takes, .. } => {
                        let mut v = vec![index(from), index(to)];
                        v.extend(takes.iter().map(index));
                        v
                    }
                    MoveOut::Tilt { .. } => Vec::new(),
                })
                .collect();
            Player {
                kind: "hop",
                words,
                hop: Some(HopPlay {
                    frames,
                    marks,
                    kinds: Kinds::of(frames).0,
                }),
                tilt: None,
            }
        }
        Replay::Tilt { holes, frames, .. } => Player {
            kind: "tilt",
            words,
            hop: None,
            tilt: Some(TiltPlay { holes, frames }),
        },
    }
}

fn arrow(dir: &str) -> &'static str {
    match dir {
        "left" => "←",
        "right" => "→",
        "up" => "↑",
        "down" => "↓",
        _ => "",
    }
}

/// The whole page: every puzzle of `outcomes`, or, for a batch too large to list, the
/// `summary` of its results and `outcomes` as a sample.
fn page(outcomes: &[Outcome], summary: Option<&Finished>) -> anyhow::Result<String> {
    let totals = summary.map_or_else(|| Totals::of(outcomes), |f| f.totals);

    let mut s = String::new();
    s.push_str("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    s.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    s.push_str("<meta name=\"color-scheme\" content=\"light dark\">\n");
    s.push_str("<title>marbles report</title>\n<style>\n");
    s.push_str(CSS);
    s.push_str("</style>\n</head>\n<body>\n");

    // Heading and totals.
    let total = summary.map_or(outcomes.len(), Finished::count);
    let _ = write!(
        s,
        "<header class=\"top\">\n<div class=\"wrap\">\n<h1>marbles <span>report</span></h1>\n\
         <p class=\"lede\">{} puzzle{}, {} solving</p>\n<div class=\"tiles\">\n",
        total,
        if total == 1 { "" } else { "s" },
        seconds(totals.seconds)
    );
    for (n, label, class) in [
        (totals.solved, "solved", "solved"),
        (totals.unsolvable, "unsolvable", "unsolvable"),
        (totals.gave_up, "gave up", "gave_up"),
        (totals.errors, "errors", "error"),
    ] {
        let _ = writeln!(
            s,
            "<div class=\"tile {class}{}\"><b>{n}</b><span>{label}</span></div>",
            if n == 0 { " zero" } else { "" }
        );
    }
    s.push_str("</div>\n</div>\n</header>\n<main class=\"wrap\">\n");

    // Table rows until they take a quarter of MAX_DRAWN_BYTES; then cards, and each card's
    // frames for the script (`null` for a card not drawn), until all take MAX_DRAWN_BYTES.
    let start = s.len();
    match summary {
        None => summary_table(&mut s, outcomes, &totals),
        Some(f) => summary_sections(&mut s, f),
    }
    let mut players = vec!["null".to_string(); outcomes.len()];
    let mut data = 0;
    s.push_str("<div class=\"grid\">\n");
    for (i, o) in outcomes.iter().enumerate() {
        if s.len() - start + data > MAX_DRAWN_BYTES {
            let note = left_out_note(outcomes.len() - i, "index.html");
            let _ = writeln!(s, "<p class=\"note\">{}</p>", escape(&note));
            break;
        }
        section(&mut s, i, o);
        if let Some(r) = &o.replay {
            players[i] = script_json(&player(o, r))?;
            data += players[i].len();
        }
    }
    s.push_str("</div>\n</main>\n");
    s.push_str(
        "<footer class=\"wrap\">Generated by <code>marbles batch</code>. \
         Step with the buttons, the slider or the <kbd>←</kbd> <kbd>→</kbd> keys \
         (<kbd>Home</kbd>/<kbd>End</kbd> for first/last); \
         add <code>#step=last</code> to the address to open every puzzle at its last move.</footer>\n",
    );
    let _ = write!(
        s,
        "<script type=\"application/json\" id=\"marbles-data\">[{}]</script>\n<script>\n{}</script>\n</body>\n</html>\n",
        players.join(","),
        JS
    );
    Ok(s)
}

/// A histogram as an SVG bar chart: one bar a bin, its count above it, its label below.
fn chart(s: &mut String, title: &str, bins: &[u64], label: impl Fn(usize) -> String) {
    const W: usize = 64;
    const H: u64 = 120;
    let max = bins.iter().copied().max().unwrap_or(0).max(1);
    let width = W * bins.len();
    let _ = write!(
        s,
        "<figure class=\"chart\"><figcaption>{}</figcaption>\n<svg viewBox=\"0 0 {width} {}\" \
         width=\"{width}\" role=\"img\" aria-label=\"{}\">\n",
        escape(title),
        H + 40,
        escape(title)
    );
    for (b, &n) in bins.iter().enumerate() {
        let h = (n * H).div_ceil(max);
        let x = b * W;
        let _ = writeln!(
            s,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{h}\" fill=\"currentColor\" opacity=\"0.55\"><title>{}: {}</title></rect>\
             <text x=\"{}\" y=\"{}\" font-size=\"11\" text-anchor=\"middle\" fill=\"currentColor\">{}</text>\
             <text x=\"{}\" y=\"{}\" font-size=\"11\" text-anchor=\"middle\" fill=\"currentColor\">{}</text>",
            x + 6,
            H + 14 - h,
            W - 12,
            escape(&label(b)),
            thousands(n),
            x + W / 2,
            H + 10 - h,
            thousands(n),
            x + W / 2,
            H + 30,
            escape(&label(b)),
        );
    }
    s.push_str("</svg></figure>\n");
}

/// Briefs as an HTML table.
fn brief_table(s: &mut String, title: &str, list: &[Brief]) {
    let _ = write!(
        s,
        "<h3>{}</h3>\n<div class=\"scroll\">\n<table>\n<thead><tr><th>puzzle</th><th>file</th>\
         <th>family</th><th>status</th><th class=\"n\">nodes</th><th class=\"n\">time</th><th>note</th></tr></thead>\n<tbody>\n",
        escape(title)
    );
    for b in list {
        let _ = writeln!(
            s,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td>{}</td></tr>",
            escape(&b.puzzle),
            escape(&b.file),
            escape(&b.rules),
            badge(b.status),
            thousands(b.nodes),
            seconds(b.seconds),
            escape(&b.note)
        );
    }
    s.push_str("</tbody>\n</table>\n</div>\n");
}

/// The summary of a batch too large to list: counts by family and status, charts of time and
/// nodes, the slowest and the failed, before the sample's cards.
fn summary_sections(s: &mut String, f: &Finished) {
    let _ = write!(
        s,
        "<section class=\"summary\">\n<h2>Summary</h2>\n<p class=\"note\">{}</p>\n<div class=\"scroll\">\n<table>\n\
         <thead><tr><th>family</th><th>status</th><th class=\"n\">puzzles</th><th class=\"n\">time</th>\
         <th class=\"n\">slowest</th><th class=\"n\">nodes</th></tr></thead>\n<tbody>\n",
        escape(&summarised_note(f))
    );
    for g in &f.groups {
        let _ = writeln!(
            s,
            "<tr><td>{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
            escape(&g.family),
            g.status.map(badge).unwrap_or_default(),
            thousands(g.puzzles),
            seconds(g.seconds),
            seconds(g.max_seconds),
            thousands(g.nodes)
        );
    }
    // The totals line, expectations met and not met with it, as the listed report's foot.
    let _ = writeln!(
        s,
        "</tbody>\n</table>\n</div>\n<p class=\"totals\">{}</p>",
        escape(&f.totals.line())
    );
    chart(s, "Time per puzzle", &f.time_bins, Finished::time_edge);
    chart(s, "Nodes per puzzle", &f.node_bins, Finished::node_edge);
    brief_table(s, &format!("The slowest {}", f.slowest.len()), &f.slowest);
    let failed = f.totals.failing;
    if failed > 0 {
        let title = format!(
            "Failed: {} (errors, give-ups, answers not as expected or unsolvable stating none; the first {} listed)",
            thousands(failed as u64),
            f.failed.len()
        );
        brief_table(s, &title, &f.failed);
    }
    let _ = writeln!(s, "<h3>The first {} puzzles</h3>\n</section>", f.sample.len());
}

fn summary_table(s: &mut String, outcomes: &[Outcome], totals: &Totals) {
    s.push_str(
        "<section class=\"summary\">\n<h2>Summary</h2>\n<div class=\"scroll\">\n<table>\n<thead><tr>\
         <th>file</th><th>puzzle</th><th>family</th><th>status</th><th>expected</th>\
         <th class=\"n\">moves</th><th class=\"n\">jumps</th><th class=\"n\">pegs left</th><th class=\"n\">nodes</th>\
         <th class=\"n\">time</th><th>reason</th></tr></thead>\n<tbody>\n",
    );
    let start = s.len();
    for (i, o) in outcomes.iter().enumerate() {
        if s.len() - start > MAX_DRAWN_BYTES / 4 {
            let _ = writeln!(
                s,
                "<tr><td colspan=\"11\">… {} more puzzles: every result is in summary.json and summary.csv</td></tr>",
                thousands((outcomes.len() - i) as u64)
            );
            break;
        }
        let expected = match &o.expect {
            Some(e) => format!("{} ({})", escape(e), super::met_cell(o)),
            None => String::new(),
        };
        let _ = writeln!(
            s,
            "<tr{}><td>{}</td><td><a href=\"#{}\">{}</a></td><td>{}</td><td>{}</td><td>{expected}</td>\
             <td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>\
             <td class=\"n\">{}</td><td>{}</td></tr>",
            if o.passed() { "" } else { " class=\"failing\"" },
            escape(&o.file),
            anchor(i),
            escape(&o.puzzle),
            escape(&o.rules),
            badge(o.status),
            moves_cell(o),
            super::jumps_cell(o),
            o.pegs_left.map(|p| p.to_string()).unwrap_or_default(),
            thousands(o.stats.nodes),
            seconds(o.stats.seconds),
            escape(&super::note(o)),
        );
    }
    let nodes: u64 = outcomes.iter().map(|o| o.stats.nodes).sum();
    let _ = write!(
        s,
        "</tbody>\n<tfoot><tr><td colspan=\"5\">{}</td>\
         <td></td><td></td><td class=\"n\">{}</td><td class=\"n\">{}</td><td></td></tr></tfoot>\n\
         </table>\n</div>\n</section>\n",
        escape(&totals.line()),
        thousands(nodes),
        seconds(totals.seconds)
    );
}

/// The verdict line without the reason or error, which get their own block.
fn headline(o: &Outcome) -> String {
    let mut o = o.clone();
    o.reason = None;
    o.error = None;
    o.replay = None;
    render::verdict(&o)
}

fn section(s: &mut String, i: usize, o: &Outcome) {
    let playable = o.replay.is_some();
    let _ = write!(
        s,
        "<section class=\"card {}\" id=\"{}\"{} tabindex=\"-1\">\n<header>\n<h2>{}</h2>\n{}\n</header>\n",
        o.status.as_str(),
        anchor(i),
        if playable {
            format!(" data-idx=\"{i}\"")
        } else {
            String::new()
        },
        escape(&o.puzzle),
        badge(o.status)
    );
    let _ = writeln!(
        s,
        "<p class=\"file\">{}<code>{}</code></p>",
        if o.rules.is_empty() {
            String::new()
        } else {
            format!(
                "<span class=\"family\" title=\"{}\">{}</span>",
                escape(super::script(o)),
                escape(&o.rules)
            )
        },
        escape(&o.file),
    );
    if o.status != Status::Error {
        let _ = writeln!(s, "<p class=\"verdict\">{}</p>", escape(&headline(o)));
    }
    if let Some(reason) = &o.reason {
        let _ = writeln!(s, "<p class=\"note\">{}</p>", escape(reason));
    }
    if let Some(err) = &o.error {
        let _ = writeln!(s, "<pre class=\"error\">{}</pre>", escape(err));
    }

    let mut facts: Vec<(&str, String)> = Vec::new();
    let step = if o.moves.hop { "jump" } else { "move" };
    if o.status == Status::Solved {
        facts.push(("moves", o.moves_made().to_string()));
        if let Some(j) = o.jumps_made() {
            facts.push(("jumps", j.to_string()));
        }
    } else if !o.moves.is_empty() {
        // Not a solution: the furthest the search got before it stopped.
        facts.push(("best try", format!("{} {step}s", o.moves.len())));
    }
    if let Some(p) = o.pegs_left {
        let what = if render::lettered(o) {
            "pieces left"
        } else {
            "pegs left"
        };
        facts.push((what, p.to_string()));
    }
    if let Some(r) = &o.rating {
        facts.push(("rating", escape(r)));
    }
    if let Some(g) = &o.goal {
        facts.push(("goal", escape(g)));
    }
    if o.status != Status::Error {
        facts.push(("nodes", thousands(o.stats.nodes)));
        facts.push(("time", seconds(o.stats.seconds)));
        if o.stats.memory_bytes > 0 {
            facts.push(("memory", crate::process::human_bytes(o.stats.memory_bytes)));
        }
    }
    if !facts.is_empty() {
        s.push_str("<dl class=\"facts\">");
        for (k, v) in facts {
            let _ = write!(s, "<div><dt>{k}</dt><dd>{v}</dd></div>");
        }
        s.push_str("</dl>\n");
    }

    if let Some(replay) = &o.replay {
        s.push_str("<figure class=\"board-wrap\">\n");
        let mut kinds = Kinds(Vec::new());
        match replay {
            Replay::Hop {
                layout,
                frames,
                cells,
                targets,
                ..
            } => {
                let (holes, _) = render::hop_picture(replay).unwrap_or_default();
                let pos: Vec<(f64, f64)> = holes.iter().map(|&p| render::hop_point(*layout, p)).collect();
                kinds = Kinds::of(frames);
                let point = |p| render::hop_point(*layout, p);
                let walls = render::wall_pairs(replay)
                    .into_iter()
                    .map(|(a, b)| (point(a), point(b)))
                    .collect::<Vec<_>>();
                let marked: Vec<(f64, f64)> = targets
                    .iter()
                    .filter_map(|t| {
                        cells
                            .iter()
                            .position(|c| c == t)
                            .and_then(|k| pos.get(k).copied())
                    })
                    .collect();
                hop_svg(
                    s,
                    (*layout, pos, &walls, &marked),
                    frames.first(),
                    &kinds,
                    &o.puzzle,
                )
            }
            Replay::Tilt {
                size,
                walls,
                holes,
                exits,
                pieces,
                frames,
            } => tilt_svg(s, *size, walls, (holes, exits, pieces), frames.first(), &o.puzzle),
        }
        s.push_str("</figure>\n");
        kinds.legend(s);
        stepper(s, o, replay);
    }
    s.push_str("</section>\n");
}

fn stepper(s: &mut String, o: &Outcome, replay: &Replay) {
    let frames = match replay {
        Replay::Hop { frames, .. } => frames.len(),
        Replay::Tilt { frames, .. } => frames.len(),
    };
    let n = o.moves.len().min(frames.saturating_sub(1));
    let off = if n == 0 { " disabled" } else { "" };
    let step = if o.moves.hop { "jump" } else { "move" };
    let what = if n == 0 {
        match o.status {
            Status::Solved => "already solved at the start".to_string(),
            _ => format!("no {step}s to step through"),
        }
    } else {
        "start position".to_string()
    };
    let count = if n == 0 {
        format!("no {step}s")
    } else {
        format!("{step} 0 of {n}")
    };
    let _ = write!(
        s,
        "<div class=\"stepper\">\n<div class=\"buttons\">\
         <button type=\"button\" data-go=\"first\" title=\"first (Home)\" aria-label=\"first move\"{off}><i class=\"ico bar\"></i><i class=\"ico left\"></i></button>\
         <button type=\"button\" data-go=\"prev\" title=\"previous (←)\" aria-label=\"previous move\"{off}><i class=\"ico left\"></i></button>\
         <button type=\"button\" data-go=\"next\" title=\"next (→)\" aria-label=\"next move\"{off}><i class=\"ico right\"></i></button>\
         <button type=\"button\" data-go=\"last\" title=\"last (End)\" aria-label=\"last move\"{off}><i class=\"ico right\"></i><i class=\"ico bar\"></i></button>\
         </div>\n<input type=\"range\" class=\"scrub\" min=\"0\" max=\"{n}\" value=\"0\" aria-label=\"move\"{off}>\n\
         <p class=\"where\" aria-live=\"polite\"><span class=\"count\" data-step=\"{step}\">{count}</span>\
         <span class=\"words\">{what}</span></p>\n</div>\n"
    );
}

/// A place on a board's picture.
type Point = (f64, f64);
/// A wall as the centres of the two squares it parts.
type Edge = (Point, Point);

/// A hop board as a picture: one tile and one hole per entry of `pos` (cell-index order,
/// from [`render::hop_point`]). On a board of pieces of `kinds`, each piece is a disc of its
/// kind's colour with its letter on it (every cell has the letter's `<text>`, for the script).
/// Each wall, given by the centres of the two squares it parts, is the edge between them.
fn hop_svg(
    s: &mut String,
    (layout, pos, walls, targets): (Layout, Vec<Point>, &[Edge], &[Point]),
    frame: Option<&String>,
    kinds: &Kinds,
    name: &str,
) {
    let fold = |f: fn(f64, f64) -> f64, start: f64, pick: fn(&(f64, f64)) -> f64| {
        pos.iter().map(pick).fold(start, f)
    };
    let (x0, x1) = (
        fold(f64::min, f64::INFINITY, |p| p.0),
        fold(f64::max, f64::NEG_INFINITY, |p| p.0),
    );
    let (y0, y1) = (
        fold(f64::min, f64::INFINITY, |p| p.1),
        fold(f64::max, f64::NEG_INFINITY, |p| p.1),
    );
    let (x0, x1, y0, y1) = if pos.is_empty() {
        (0.0, 0.0, 0.0, 0.0)
    } else {
        (x0, x1, y0, y1)
    };
    let m = 0.75;
    let (w, h) = (x1 - x0 + 2.0 * m, y1 - y0 + 2.0 * m);
    let frame = frame.map(|f| f.as_bytes()).unwrap_or(&[]);
    let lettered = !kinds.0.is_empty();
    let pegs = match lettered {
        false => format!("{} pegs", frame.iter().filter(|&&b| b == b'1').count()),
        true => format!(
            "{} pieces",
            frame.iter().filter(|b| b.is_ascii_alphabetic()).count()
        ),
    };
    let _ = writeln!(
        s,
        "<svg class=\"board hop {}\" viewBox=\"{} {} {} {}\" role=\"img\" aria-label=\"{}: {} holes, {}\">",
        match layout {
            Layout::Square => "square",
            Layout::Triangle => "triangle",
        },
        num(x0 - m),
        num(y0 - m),
        num(w),
        num(h),
        escape(name),
        pos.len(),
        pegs
    );
    // The plate: one tile per hole (squares, or hexagons on a triangle board), merged.
    let mut d = String::new();
    for &(x, y) in &pos {
        match layout {
            Layout::Square => {
                let _ = write!(d, "M{} {}h1v1h-1z", num(x - 0.5), num(y - 0.5));
            }
            Layout::Triangle => {
                let r = 0.5774;
                let _ = write!(
                    d,
                    "M{} {}L{} {}L{} {}L{} {}L{} {}L{} {}z",
                    num(x),
                    num(y - r),
                    num(x + 0.5),
                    num(y - r / 2.0),
                    num(x + 0.5),
                    num(y + r / 2.0),
                    num(x),
                    num(y + r),
                    num(x - 0.5),
                    num(y + r / 2.0),
                    num(x - 0.5),
                    num(y - r / 2.0)
                );
            }
        }
    }
    let _ = writeln!(s, "<path class=\"plate\" d=\"{d}\"/>");
    // A target square (a sliding robot's), a dashed ring under whatever stands on it.
    for &(x, y) in targets {
        let _ = writeln!(
            s,
            "<circle class=\"target\" cx=\"{}\" cy=\"{}\" r=\".44\"/>",
            num(x),
            num(y)
        );
    }
    for (i, &(x, y)) in pos.iter().enumerate() {
        let (state, letter) = match frame.get(i) {
            Some(&b'1') => ("peg".to_string(), String::new()),
            Some(&b) if b.is_ascii_alphabetic() => (
                format!("piece k-{}", kinds.colour(b)),
                escape(&char::from(b).to_string()),
            ),
            _ => ("empty".to_string(), String::new()),
        };
        let text = match lettered {
            true => format!("<text class=\"letter\" dy=\".02\">{letter}</text>"),
            false => String::new(),
        };
        let _ = writeln!(
            s,
            "<g class=\"cell {state}\" data-i=\"{i}\" transform=\"translate({} {})\">\
             <circle class=\"hole\" r=\".17\"/><circle class=\"ring\" r=\".45\"/>\
             <g class=\"ball\"><circle class=\"body\" r=\".34\"/>\
             <circle class=\"shine\" cx=\"-.11\" cy=\"-.12\" r=\".1\"/>{text}</g></g>",
            num(x),
            num(y)
        );
    }
    let mut wall_d = String::new();
    for &((xa, ya), (xb, yb)) in walls {
        let (x, y) = ((xa + xb) / 2.0, (ya + yb) / 2.0);
        // Half the step between the squares, turned a quarter: the edge they share.
        let (dx, dy) = ((yb - ya) / 2.0, (xb - xa) / 2.0);
        let _ = write!(
            wall_d,
            "M{} {}L{} {}",
            num(x - dx),
            num(y - dy),
            num(x + dx),
            num(y + dy)
        );
    }
    if !wall_d.is_empty() {
        let _ = writeln!(s, "<path class=\"wall\" d=\"{wall_d}\"/>");
    }
    s.push_str("</svg>\n");
}

/// A tilt board as a picture: numbered holes and marbles; on a board with exits, each exit a
/// dark hole marked `E`, each slider a marble marked `s` and each blocker a grey one marked `b`.
fn tilt_svg(
    s: &mut String,
    n: usize,
    walls: &[[Cell; 2]],
    (holes, exits, pieces): (&[Cell], &[Cell], &str),
    frame: Option<&Vec<Option<Cell>>>,
    name: &str,
) {
    let nf = n as f64;
    let m = 0.2;
    let _ = writeln!(
        s,
        "<svg class=\"board tilt\" viewBox=\"{} {} {} {}\" role=\"img\" aria-label=\"{}: {n}×{n} board, {} marbles\">",
        num(-m),
        num(-m),
        num(nf + 2.0 * m),
        num(nf + 2.0 * m),
        escape(name),
        frame.map_or(holes.len(), Vec::len)
    );
    let _ = writeln!(
        s,
        "<rect class=\"floor\" x=\"0\" y=\"0\" width=\"{n}\" height=\"{n}\" rx=\".08\"/>"
    );
    let mut grid = String::new();
    for k in 1..n {
        let _ = write!(grid, "M{k} 0V{n}M0 {k}H{n}");
    }
    if !grid.is_empty() {
        let _ = writeln!(s, "<path class=\"lines\" d=\"{grid}\"/>");
    }
    let mut wall_d = String::new();
    for [a, b] in walls {
        let (r, c) = (a[0].min(b[0]), a[1].min(b[1]));
        if a[0] == b[0] && (a[1] - b[1]).abs() == 1 {
            // Side by side: the wall is the vertical edge between them.
            let _ = write!(wall_d, "M{} {}V{}", c + 1, r, r + 1);
        } else if a[1] == b[1] && (a[0] - b[0]).abs() == 1 {
            let _ = write!(wall_d, "M{} {}H{}", c, r + 1, c + 1);
        }
    }
    if !wall_d.is_empty() {
        let _ = writeln!(s, "<path class=\"wall\" d=\"{wall_d}\"/>");
    }
    let _ = writeln!(
        s,
        "<rect class=\"rim\" x=\"0\" y=\"0\" width=\"{n}\" height=\"{n}\" rx=\".08\"/>"
    );
    let empty = Vec::new();
    let frame = frame.unwrap_or(&empty);
    let centre = |c: &Cell| (c[1] as f64 + 0.5, c[0] as f64 + 0.5);
    for (k, h) in holes.iter().enumerate() {
        let (x, y) = centre(h);
        let filled = matches!(frame.get(k), Some(None));
        let _ = writeln!(
            s,
            "<g class=\"goal c{}{}\" data-k=\"{k}\" transform=\"translate({} {})\">\
             <circle r=\".36\"/><text dy=\".02\">{}</text></g>",
            k % PALETTE + 1,
            if filled { " filled" } else { "" },
            num(x),
            num(y),
            k + 1
        );
    }
    for e in exits {
        let (x, y) = centre(e);
        let _ = writeln!(
            s,
            "<g class=\"exit\" transform=\"translate({} {})\"><circle r=\".38\"/><text dy=\".02\">E</text></g>",
            num(x),
            num(y)
        );
    }
    for (k, at) in frame.iter().enumerate() {
        let (cell, sunk) = match at {
            Some(c) => (c, ""),
            None => match holes.get(k) {
                Some(h) => (h, " sunk"),
                None => continue,
            },
        };
        let (x, y) = centre(cell);
        let (kind, label) = match pieces.as_bytes().get(k) {
            Some(b'b') => (" blocker".to_string(), "b".to_string()),
            Some(_) => (" slider".to_string(), "s".to_string()),
            None => (String::new(), (k + 1).to_string()),
        };
        let _ = writeln!(
            s,
            "<g class=\"marble c{}{kind}{sunk}\" data-k=\"{k}\" style=\"transform:translate({}px,{}px)\">\
             <g class=\"ball\"><circle class=\"body\" r=\".32\"/>\
             <circle class=\"shine\" cx=\"-.1\" cy=\"-.11\" r=\".09\"/><text dy=\".02\">{label}</text></g></g>",
            k % PALETTE + 1,
            num(x),
            num(y),
        );
    }
    s.push_str("</svg>\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A solved outcome with nothing but its names; tests fill in moves and boards.
    fn solved(file: &str, puzzle: &str, rules: &str) -> Outcome {
        Outcome {
            rules: rules.into(),
            status: Status::Solved,
            error: None,
            puzzle: puzzle.into(),
            ..Outcome::error(file, String::new())
        }
    }

    fn hop_outcome(name: &str) -> Outcome {
        Outcome {
            moves: crate::outcome::Line::jumps(vec![MoveOut::Hop {
                from: [0, 0],
                over: Over::One([0, 1]),
                to: [0, 2],
                dir: Some("right".into()),
            }]),
            move_count: Some(1),
            jump_count: Some(1),
            pegs_left: Some(1),
            replay: Some(Replay::Hop {
                layout: Layout::Square,
                widths: vec![3],
                cells: vec![[0, 0], [0, 1], [0, 2]],
                pictured: vec![[0, 0], [2, 0], [4, 0]],
                blocked: Vec::new(),
                frames: vec!["110".into(), "001".into()],
                walls: Vec::new(),
                targets: Vec::new(),
            }),
            ..solved("puzzles/x.yaml", name, "peg_hop")
        }
    }

    fn tilt_outcome() -> Outcome {
        Outcome {
            moves: crate::outcome::Line::moves(vec![MoveOut::Tilt { tilt: "left".into() }]),
            move_count: Some(1),
            replay: Some(Replay::Tilt {
                size: 2,
                walls: vec![[[0, 0], [0, 1]], [[0, 0], [1, 0]]],
                holes: vec![[1, 0]],
                exits: vec![],
                pieces: String::new(),
                frames: vec![vec![Some([1, 1])], vec![None]],
            }),
            ..solved("t.yaml", "tilt", "tilt_roll")
        }
    }

    const EVIL: &str = "<script>alert(1)</script>";

    #[test]
    fn escapes_names_and_errors() {
        let mut bad = Outcome::error("evil/<marquee>.yaml", format!("broken: {EVIL} & </script><!--"));
        bad.puzzle = EVIL.into();
        let page = Html.render(&[hop_outcome(EVIL), bad, tilt_outcome()]).unwrap();
        assert!(!page.contains(EVIL), "raw puzzle name in the page");
        assert!(!page.contains("alert(1)</script>"));
        assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        // Only our own two script elements open, and each closes exactly once.
        assert_eq!(page.matches("<script").count(), 2);
        assert_eq!(page.matches("</script>").count(), 2);
        assert!(!page.contains("<!--"));
        assert!(!page.contains("<marquee>"));
    }

    /// Past 16 MiB of cards, the rest are listed, not drawn, with a note saying so: 120
    /// outcomes named with 160 KB each (longer than a puzzle file may name one) make ~40 MB.
    #[test]
    fn cards_past_the_cap_are_left_out_with_a_note() {
        const N: usize = 120;
        let outcomes: Vec<Outcome> = (0..N)
            .map(|i| hop_outcome(&format!("p{i:04}-{}", "x".repeat(160_000))))
            .collect();
        let page = Html.render(&outcomes).unwrap();
        assert!(page.len() < 17 << 20, "index.html is {} bytes", page.len());
        let cards = page.matches("<section class=\"card").count();
        assert!(0 < cards && cards < N, "{cards} cards");
        assert!(page.contains(&format!(
            "{} more puzzles not drawn (index.html draws at most 16 MiB): every result is in \
             summary.json and summary.csv</p>",
            N - cards
        )));
        // The cards drawn can still be stepped through; those left out have no frames.
        assert!(page.contains(",null]</script>"));
    }

    #[test]
    fn embedded_json_round_trips() {
        let s = "</script><!-- & \u{2028} \"x\"";
        let j = script_json(&s).unwrap();
        assert!(!j.contains('<') && !j.contains('>') && !j.contains('&'));
        assert!(!j.contains('\u{2028}'));
        let back: String = serde_json::from_str(&j).unwrap();
        assert_eq!(back, s);
    }

    #[test]
    fn self_contained() {
        let page = Html
            .render(&[
                hop_outcome("a"),
                tilt_outcome(),
                Outcome::error("e.yaml", "no".into()),
            ])
            .unwrap();
        assert!(!page.contains("http://"));
        assert!(!page.contains("https://"));
        assert!(!page.contains("src="));
        assert!(!page.contains("@import"));
        assert!(!page.contains("url("));
    }

    #[test]
    fn memory_is_in_binary_units_as_the_other_reports_say_it() {
        let mut o = hop_outcome("a");
        o.stats.memory_bytes = 3 << 20;
        let page = Html.render(&[o]).unwrap();
        assert!(page.contains("<dt>memory</dt><dd>3.0 MiB</dd>"), "{page}");
    }

    #[test]
    fn boards_and_sections() {
        let err = Outcome::error("e.yaml", "cannot read".into());
        let page = Html.render(&[hop_outcome("a"), err, tilt_outcome()]).unwrap();
        // One board per puzzle with a replay; the error gets a section but no board.
        assert_eq!(page.matches("<svg").count(), 2);
        assert_eq!(page.matches("<section class=\"card").count(), 3);
        for i in 1..=3 {
            assert!(page.contains(&format!("href=\"#puzzle-{i}\"")));
            assert!(page.contains(&format!("id=\"puzzle-{i}\"")));
        }
        assert!(page.contains("cannot read"));
        // Start frame "110": two pegs, one empty hole.
        assert_eq!(page.matches("class=\"cell peg\"").count(), 2);
        assert_eq!(page.matches("class=\"cell empty\"").count(), 1);
        // Both walls of the tilt board are drawn: right of [0,0] and below it.
        assert!(page.contains("M1 0V1M0 1H1"));
        assert!(page.contains("move 0 of 1"));
        // Same outcomes, same bytes.
        let again = Html
            .render(&[
                hop_outcome("a"),
                Outcome::error("e.yaml", "cannot read".into()),
                tilt_outcome(),
            ])
            .unwrap();
        assert_eq!(page, again);
    }

    #[test]
    fn triangle_is_equilateral() {
        // Row 0's single hole sits above the middle of row 1's two, one apart.
        let top = render::hop_point(Layout::Triangle, [2, 0]);
        let (a, b) = (
            render::hop_point(Layout::Triangle, [1, 1]),
            render::hop_point(Layout::Triangle, [3, 1]),
        );
        assert!((top.0 - (a.0 + b.0) / 2.0).abs() < 1e-9);
        assert!((b.0 - a.0 - 1.0).abs() < 1e-9);
        assert!((a.1 - top.1 - 0.866).abs() < 1e-9);
        assert_eq!(render::hop_point(Layout::Square, [4, 3]), (2.0, 3.0));
    }

    #[test]
    fn numbers() {
        assert_eq!(num(1.5), "1.5");
        assert_eq!(num(2.0), "2");
        assert_eq!(num(-0.0001), "0");
        assert_eq!(thousands(1110348), "1,110,348");
        assert_eq!(thousands(14), "14");
    }
}
