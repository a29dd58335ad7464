//! `marbles play`: a person plays a puzzle move by move, and may ask the solver to take over
//! from wherever they are (the "solve" button of the classic CS106B assignment). On a
//! terminal the game is a full-screen board (`tui`); piped, it reads one command a line.

pub mod tui;

use super::{Error, ExitCode};
use crate::formats::Notation;
use crate::model::rewrite::{Kinds, RewriteModel, occupied};
use crate::model::{Geometry, HopModel, Model, NONE, SlideModel, TiltModel};
use crate::outcome::{Replay, Status};
use crate::render;
use crate::search::tilt::roll;
use crate::solve::position::{Position, rewrites, slides};
use crate::solve::{self, Options, Prepared};
use crate::spec::{Cell, MoveGoal, PegGoal};
use std::io::{self, BufRead, IsTerminal, Write};
use std::path::PathBuf;

/// What to play.
#[derive(Debug, Clone)]
pub struct Config {
    pub file: PathBuf,
    /// Which case of a several-case ICPC file, from 1.
    pub case: usize,
    /// The file's notation, instead of guessing it from the extension.
    pub notation: Option<&'static Notation>,
    pub options: Options,
}

/// Plays on the terminal: commands from stdin, the board on stdout.
pub fn run(config: &Config) -> Result<ExitCode, Error> {
    let p = super::prepare_case(&config.file, config.notation, &config.options, config.case)?;
    if io::stdin().is_terminal() && io::stdout().is_terminal() {
        if let Model::Slide(_) = p.model {
            return Err(crate::diag::Diagnostic::new(
                &p.spec.path,
                format!(
                    "`{}` has sliding robots, which the full-screen `marbles play` does not play yet: \
                     pipe the moves in (`marbles play FILE < moves`), or `marbles solve` answers it",
                    p.spec.name
                ),
            )
            .into());
        }
        return Ok(tui::run(&p, &config.options)?);
    }
    let prompt = io::stdin().is_terminal();
    crate::process::stop_searches_only();
    Ok(play(
        &p,
        &config.options,
        io::stdin().lock(),
        io::stdout().lock(),
        prompt,
    )?)
}

/// The first command of `help` for hop puzzles.
pub const HOP_MOVE: &str = concat!(
    "  R C R2 C2      jump the peg at [R, C] to [R2, C2] (also written R,C R2,C2);\n",
    "                 where two jumps join those holes, add the holes taken: `… over R3 C3`"
);

/// The first command of `help` for tilt puzzles.
pub const TILT_MOVE: &str = concat!(
    "  up down left right (or u d l r)\n",
    "                 tilt the board that way (or any direction the rules name)"
);

/// The first command of `help` for puzzles of pieces of kinds.
pub const PIECES_MOVE: &str = concat!(
    "  R C R2 C2      move the piece at [R, C] to [R2, C2] (also written R,C R2,C2); of\n",
    "                 several moves between the two, the first the rules list that fits"
);

/// The first command of `help` for puzzles of sliding robots.
const SLIDE_MOVE: &str = concat!(
    "  R C R2 C2      slide the robot at [R, C] until it stops at [R2, C2] (also written\n",
    "                 R,C R2,C2)"
);

/// The commands after a move, the same for every puzzle.
const COMMANDS: &str = concat!(
    "  moves          list the legal moves\n",
    "  hint           the next move of a solution from here\n",
    "  solve          let marbles finish the game from here, showing every move\n",
    "                 (hint and solve search 10 s at most, unless --timeout or the\n",
    "                 puzzle's `solve: timeout:` says otherwise)\n",
    "  undo           take back the last move\n",
    "  restart        back to the start\n",
    "  help           this list\n",
    "  quit           leave (end of input does too)"
);

/// Every command of every kind of puzzle, for `marbles play --help`.
pub fn help_all() -> String {
    let moves: Vec<String> = [
        ("hop puzzles", HOP_MOVE),
        ("tilt puzzles", TILT_MOVE),
        ("pieces of kinds", PIECES_MOVE),
        ("sliding robots", SLIDE_MOVE),
    ]
    .iter()
    .map(|(of, text)| format!("{of}:\n{text}"))
    .collect();
    format!(
        "Commands, typed one a line (also piped: `marbles play FILE < moves.txt`), a move as\n\
         the kind of puzzle reads it:\n\n{}\n\nthen, for every puzzle:\n{COMMANDS}",
        moves.join("\n")
    )
}

/// The commands for `p`: its kind's move, then the rest.
fn help(p: &Prepared) -> String {
    let first = match &p.model {
        Model::Hop(_) => HOP_MOVE,
        Model::Tilt(_) => TILT_MOVE,
        Model::Rewrite(_) => PIECES_MOVE,
        Model::Slide(_) => SLIDE_MOVE,
    };
    format!("commands:\n{first}\n{COMMANDS}")
}

/// How long `hint` and `solve` search when neither `--timeout` nor the puzzle sets a limit:
/// nothing else would stop them (end of piped input is read only after they answer).
const HINT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// `opts` with [`HINT_TIMEOUT`] when they and the puzzle set no time limit.
fn bounded(p: &Prepared, opts: &Options) -> Options {
    let mut o = opts.clone();
    if solve::limits_for(&p.spec, opts).timeout.is_none() {
        o.limits.timeout = Some(HINT_TIMEOUT);
    }
    o
}

/// Plays `p` reading commands from `input`, writing to `out`. Returns `Solved` when the
/// player (or `solve`) reached the goal, `Unsolved` otherwise.
/// With `prompt`, a `> ` invites each command (for a person at a terminal, not a pipe).
pub fn play(
    p: &Prepared,
    opts: &Options,
    input: impl BufRead,
    out: impl Write,
    prompt: bool,
) -> io::Result<ExitCode> {
    let mut out = crate::render::Escaping(out);
    let mut history = vec![Position::start(&p.model)];
    // Of a hop family each command is one jump, a move being one peg's chain of them.
    let what = match p.model {
        Model::Hop(_) => "a jump",
        _ => "a move",
    };
    let heading = format!("{} ({}): type {what}, or `help`", p.spec.name, p.script.name);
    writeln!(out, "{}", crate::render::terminal(&heading))?;
    show(p, history.last().unwrap(), None, &mut out)?;
    // A start that already meets the goal is won before any move; one with no move is said.
    if let Some(end) = finished(p, &history[0], 0) {
        writeln!(out, "{}", end.words)?;
        if end.won {
            return Ok(ExitCode::Solved);
        }
    }
    let mut won = false;
    let mut input = input;
    let mut bytes = Vec::new();
    loop {
        if prompt {
            write!(out, "> ")?;
            out.flush()?;
        }
        bytes.clear();
        match read_line_at_most(&mut input, &mut bytes, MAX_LINE)? {
            Line::End => break,
            Line::TooLong => {
                writeln!(
                    out,
                    "that line is too long (over {MAX_LINE} bytes): write a move, or `help`"
                )?;
                continue;
            }
            Line::Read => {}
        }
        // A line that is not text is a bad line like any other: the game goes on.
        let Ok(line) = std::str::from_utf8(&bytes) else {
            writeln!(out, "that line is not text (UTF-8): write a move, or `help`")?;
            continue;
        };
        // A move as the hint writes it reads back too: `[2, 0] over [1, 0] to [0, 0]
        // (up-right)`, its direction in brackets dropped.
        let typed = line;
        let line = line.split('(').next().unwrap_or_default();
        let words: Vec<&str> = line
            .split(|c: char| c.is_whitespace() || matches!(c, ',' | '[' | ']'))
            .filter(|w| !w.is_empty())
            .collect();
        // Commands in any case (`Undo`, `HINT`); a move's words as written.
        let lower = match words.as_slice() {
            [one] => Some(one.to_ascii_lowercase()),
            _ => None,
        };
        let command: Vec<&str> = match &lower {
            Some(one) => vec![one.as_str()],
            None => words.clone(),
        };
        let here = history.last().unwrap().clone();
        match command.as_slice() {
            [] => continue,
            ["quit" | "exit" | "q"] => break,
            ["help" | "?"] => writeln!(out, "{}", help(p))?,
            ["undo"] if history.len() > 1 => {
                history.pop();
                show(p, history.last().unwrap(), None, &mut out)?;
            }
            ["undo"] => writeln!(out, "nothing to undo")?,
            ["restart"] => {
                history.truncate(1);
                show(p, &history[0], None, &mut out)?;
            }
            ["moves"] => {
                let legal = legal_moves(p, &here);
                if legal.is_empty() {
                    writeln!(out, "no legal moves")?;
                }
                for (text, _) in legal {
                    writeln!(out, "  {text}")?;
                }
            }
            ["hint"] | ["solve"] => {
                let opts = &bounded(p, opts);
                // A signal stops the search (and the undos `lost` tries), not the game.
                crate::process::searching(true);
                let o = solve::solve_prepared(&from(p, &here), opts);
                let lost =
                    (o.status == Status::Unsolvable).then(|| lost(p, opts, &history, o.reason.clone()));
                if crate::process::searching(false) {
                    let by = crate::process::stopped_by();
                    writeln!(out, "{} stopped ({by}): the game goes on", command[0])?;
                    continue;
                }
                match (o.status, command[0]) {
                    (Status::Solved, _) if o.moves.is_empty() => writeln!(out, "already solved")?,
                    (Status::Solved, "hint") => writeln!(out, "try: {}", render::move_text(&o.moves[0]))?,
                    (Status::Solved, _) => {
                        // Counted from where the player stands, which is said: "solved in 9
                        // moves" read as the whole game's count.
                        let text = match history.len() - 1 {
                            0 => render::solution(&o),
                            played => render::solution_from_here(
                                &o,
                                &format!(
                                    "your {}",
                                    crate::diag::plural(played, what.trim_start_matches("a "))
                                ),
                            ),
                        };
                        write!(out, "{text}")?;
                        won = true;
                        break;
                    }
                    (Status::Unsolvable, _) => writeln!(out, "{}", lost.unwrap_or_default())?,
                    _ => writeln!(
                        out,
                        "the solver gave up from here: {}",
                        o.reason.unwrap_or_default()
                    )?,
                }
            }
            _ => match parse_move(p, &here, &words, typed) {
                Err(why) => writeln!(out, "{why}")?,
                Ok((next, mark)) => {
                    show(p, &next, mark, &mut out)?;
                    history.push(next);
                    if let Some(end) = finished(p, history.last().unwrap(), history.len() - 1) {
                        writeln!(out, "{}", end.words)?;
                        won = end.won;
                        if won {
                            break;
                        }
                    }
                }
            },
        }
    }
    // Piped, what follows a won game is said to be left unplayed, not dropped without a word.
    if won && !prompt {
        let left = unplayed(&mut input, &mut bytes)?;
        if left > 0 {
            let more = if left >= UNPLAYED_COUNTED { " or more" } else { "" };
            let lines = crate::diag::plural(left, "more line");
            writeln!(out, "the game is won: {lines}{more} of input not played")?;
        }
    }
    Ok(if won { ExitCode::Solved } else { ExitCode::Unsolved })
}

/// The lines of input [`unplayed`] counts at most: piped input may never end (`yes hint`).
const UNPLAYED_COUNTED: usize = 10_000;

/// The lines left in `input` that hold more than white space, counted up to
/// [`UNPLAYED_COUNTED`].
fn unplayed(input: &mut impl BufRead, bytes: &mut Vec<u8>) -> io::Result<usize> {
    let mut left = 0;
    while left < UNPLAYED_COUNTED {
        bytes.clear();
        match read_line_at_most(input, bytes, MAX_LINE)? {
            Line::End => break,
            Line::TooLong => left += 1,
            Line::Read => left += usize::from(bytes.iter().any(|b| !b.is_ascii_whitespace())),
        }
    }
    Ok(left)
}

/// Why the last position of `history` cannot be won, and how many undos reach one that can.
fn lost(p: &Prepared, opts: &Options, history: &[Position], reason: Option<String>) -> String {
    let mut undo = "no position of this game can be won, not even the start".to_string();
    for (k, pos) in history.iter().rev().enumerate().skip(1) {
        let o = solve::solve_prepared(&from(p, pos), opts);
        match o.status {
            Status::Unsolvable => continue,
            Status::Solved if k == 1 => undo = "1 undo reaches a winnable position".to_string(),
            Status::Solved => undo = format!("{k} undos reach a winnable position"),
            // A search that gave up proves nothing: say how far back is known lost.
            _ => {
                let known = match k - 1 {
                    0 => String::new(),
                    1 => "so is the position 1 undo back; ".to_string(),
                    n => format!("so are the positions up to {n} undos back; "),
                };
                let undos = if k == 1 { "1 undo" } else { &format!("{k} undos") };
                undo = format!(
                    "{known}the solver gave up on the position {undos} back ({})",
                    o.reason.unwrap_or_default()
                );
            }
        }
        break;
    }
    // A refutation's reason helps a player; "every position tried" is the search's business.
    let why = reason
        .filter(|r| !r.starts_with("exhaustive search"))
        .map(|r| format!(" ({r})"))
        .unwrap_or_default();
    format!("no solution from here{why}: lost; {undo}")
}

/// The prepared puzzle with its start moved to `pos`.
fn from(p: &Prepared, pos: &Position) -> Prepared {
    let model = match (&p.model, pos) {
        (Model::Hop(m), Position::Hop(s)) => Model::Hop(HopModel {
            start: *s,
            ..m.clone()
        }),
        (Model::Tilt(m), Position::Tilt(s)) => Model::Tilt(TiltModel {
            start: s.clone(),
            ..m.clone()
        }),
        (Model::Rewrite(m), Position::Rewrite(s)) => Model::Rewrite(Box::new(RewriteModel {
            start: *s,
            ..(**m).clone()
        })),
        (Model::Slide(m), Position::Slide(s)) => Model::Slide(Box::new(SlideModel {
            start: s.clone(),
            ..(**m).clone()
        })),
        _ => unreachable!("positions match their model"),
    };
    Prepared {
        spec: p.spec.clone(),
        script: p.script.clone(),
        tables: p.tables.clone(),
        model,
    }
}

fn show(p: &Prepared, pos: &Position, mark: Option<Cell>, out: &mut impl Write) -> io::Result<()> {
    let replay: Replay = match (&p.model, pos) {
        (Model::Hop(m), Position::Hop(s)) => solve::hop_replay(
            &p.spec,
            &HopModel {
                start: *s,
                ..m.clone()
            },
            &[],
        ),
        (Model::Tilt(m), Position::Tilt(s)) => solve::tilt_replay(m, std::slice::from_ref(s)),
        (Model::Rewrite(m), Position::Rewrite(s)) => {
            solve::rewrite::replay(&p.spec, m, std::slice::from_ref(s))
        }
        (Model::Slide(m), Position::Slide(s)) => solve::slide::replay(&p.spec, m, std::slice::from_ref(s)),
        _ => unreachable!("positions match their model"),
    };
    let board = render::board(&replay, 0, mark);
    for line in board.lines() {
        writeln!(out, "    {line}")?;
    }
    match pos {
        Position::Hop(s) => writeln!(out, "{}", crate::diag::plural(s.count_ones() as usize, "peg")),
        Position::Tilt(s) => writeln!(
            out,
            "{} of {} marble{} home",
            s.iter().filter(|&&c| c == crate::model::NO_CELL).count(),
            s.len(),
            if s.len() == 1 { "" } else { "s" }
        ),
        Position::Rewrite(s) => match &p.model {
            Model::Rewrite(m) => writeln!(out, "{}", pieces_text(m, s)),
            _ => unreachable!("positions match their model"),
        },
        Position::Slide(_) => match &p.model {
            Model::Slide(m) => writeln!(out, "goal: {}", solve::slide::goal_words(m)),
            _ => unreachable!("positions match their model"),
        },
    }
}

/// `6 pieces (3 F, 3 T)`: the pieces in all, then of each kind.
fn pieces_text(m: &RewriteModel, s: &Kinds) -> String {
    let n = occupied(s).count_ones();
    let each: Vec<String> = m
        .kinds
        .iter()
        .zip(s)
        .map(|(&k, bits)| format!("{} {}", bits.count_ones(), k as char))
        .collect();
    format!("{n} piece{} ({})", if n == 1 { "" } else { "s" }, each.join(", "))
}

/// Every legal move from `pos`: its words and the position it leads to.
fn legal_moves(p: &Prepared, pos: &Position) -> Vec<(String, Position)> {
    solve::position::legal_moves(&p.model, pos)
        .into_iter()
        .map(|(_, out, next)| (render::move_text(&out), next))
        .collect()
}

/// The player's words as a message quotes them: at most 80 characters, then `…`, control
/// characters escaped as names are (`\u{1b}`), so a line is never replayed to the terminal.
fn echo(text: &str) -> String {
    const MAX: usize = 80;
    let text = text.trim();
    let cut = match text.char_indices().nth(MAX) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    };
    render::one_line(&cut).into_owned()
}

/// Reads one move, its `words` split from the line as `typed` (which a refusal quotes);
/// returns the new position and the cell to mark.
fn parse_move(
    p: &Prepared,
    pos: &Position,
    words: &[&str],
    typed: &str,
) -> Result<(Position, Option<Cell>), String> {
    match (&p.model, pos) {
        (Model::Hop(m), Position::Hop(s)) => {
            // `R C R2 C2`, or, where jumps between two holes take different pegs, `… over R3 C3`;
            // or as a hint says it, `R C over R3 C3 to R2 C2`.
            let to = words.iter().position(|w| w.eq_ignore_ascii_case("to"));
            let said: Vec<&str>;
            let words = match (to, words.iter().position(|w| w.eq_ignore_ascii_case("over"))) {
                (Some(t), Some(k)) if k < t => {
                    said = [&words[..k], &words[t + 1..], &words[k..t]].concat();
                    &said[..]
                }
                _ => words,
            };
            let (ends, over) = match words.iter().position(|w| w.eq_ignore_ascii_case("over")) {
                Some(k) => {
                    // The holes taken, in any order.
                    let mut over = over_cells(&m.geo, &words[k + 1..])?;
                    over.sort_unstable();
                    (&words[..k], Some(over))
                }
                None => (words, None),
            };
            let ((f, t), [[r, c], [r2, c2]]) = from_to(&m.geo, ends, typed, ("a jump", "hole"))?;
            let named = |c: &usize| format!("[{}, {}]", m.geo.cells[*c][0], m.geo.cells[*c][1]);
            let between: Vec<&crate::model::HopMove> = m
                .moves
                .iter()
                .filter(|mv| mv.from == f && mv.to == t)
                .filter(|mv| {
                    over.as_ref().is_none_or(|o| {
                        let mut taken = mv.over.clone();
                        taken.sort_unstable();
                        *o == taken
                    })
                })
                .collect();
            if between.is_empty() {
                return Err(match over {
                    Some(_) => {
                        format!("no jump goes from [{r}, {c}] over those holes to [{r2}, {c2}] on this board")
                    }
                    None => format!("no jump goes from [{r}, {c}] to [{r2}, {c2}] on this board"),
                });
            }
            let legal: Vec<_> = between.iter().filter(|mv| s & mv.mask == mv.need).collect();
            match legal[..] {
                [mv] => Ok((Position::Hop(s ^ mv.mask), Some([r2, c2]))),
                // Only what stands in the way is named.
                [] => {
                    let mut why = Vec::new();
                    if s >> f & 1 == 0 {
                        why.push(format!("[{r}, {c}] holds no peg"));
                    }
                    let empty = |mv: &crate::model::HopMove| -> Vec<String> {
                        mv.over.iter().filter(|&&o| s >> o & 1 == 0).map(named).collect()
                    };
                    match &between[..] {
                        [mv] => match &empty(mv)[..] {
                            [] => {}
                            [one] => why.push(format!("{one}, the hole jumped over, is empty")),
                            many => why.push(format!("{}, holes jumped over, are empty", many.join(" and "))),
                        },
                        ways if ways.iter().all(|mv| !empty(mv).is_empty()) => {
                            why.push("every way between them jumps over an empty hole".to_string())
                        }
                        _ => {}
                    }
                    if s >> t & 1 == 1 {
                        why.push(format!("[{r2}, {c2}] is not empty"));
                    }
                    Err(format!("not now: {}", crate::diag::listed(&why, "and")))
                }
                _ => {
                    let ways: Vec<String> = legal
                        .iter()
                        .map(|mv| {
                            format!(
                                "over {}",
                                mv.over.iter().map(named).collect::<Vec<_>>().join(" and ")
                            )
                        })
                        .collect();
                    let first = &legal[0].over;
                    let cells: Vec<String> = first
                        .iter()
                        .map(|c| format!("{} {}", m.geo.cells[*c][0], m.geo.cells[*c][1]))
                        .collect();
                    Err(format!(
                        "{} jumps go from [{r}, {c}] to [{r2}, {c2}] here: {}; say which, as `{r} {c} {r2} {c2} over {}`",
                        legal.len(),
                        crate::diag::listed(&ways, "or"),
                        cells.join(" ")
                    ))
                }
            }
        }
        (Model::Rewrite(m), Position::Rewrite(s)) => {
            let ((f, t), [[r, c], [r2, c2]]) = from_to(&m.geo, &as_typed(words), typed, ("a move", "hole"))?;
            if !m.moves.iter().any(|mv| mv.from == f && mv.to == t) {
                return Err(format!(
                    "no move goes from [{r}, {c}] to [{r2}, {c2}] on this board"
                ));
            }
            let (_, next) = rewrites(m, s)
                .find(|&(i, _)| (m.moves[i].from, m.moves[i].to) == (f, t))
                .ok_or_else(
                    || match m.kinds.iter().zip(s).find(|(_, bits)| *bits >> f & 1 == 1) {
                        None => format!("not now: [{r}, {c}] holds no piece"),
                        Some((&k, _)) => format!(
                            "not now: the {} at [{r}, {c}] cannot go to [{r2}, {c2}] as the board stands",
                            k as char
                        ),
                    },
                )?;
            Ok((Position::Rewrite(next), Some([r2, c2])))
        }
        (Model::Slide(m), Position::Slide(s)) => {
            let ((f, t), [[r, c], [r2, c2]]) =
                from_to(&m.geo, &as_typed(words), typed, ("a slide", "square"))?;
            let robot = s
                .iter()
                .position(|&sq| sq as usize == f)
                .ok_or_else(|| format!("not now: [{r}, {c}] holds no robot"))?;
            match slides(m, s).find(|(i, next)| m.unpack(*i).0 == robot && next[robot] as usize == t) {
                Some((_, next)) => Ok((Position::Slide(next), Some([r2, c2]))),
                None => {
                    let stops: Vec<String> = slides(m, s)
                        .filter(|(i, _)| m.unpack(*i).0 == robot)
                        .map(|(i, next)| {
                            let [r, c] = m.geo.cells[next[robot] as usize];
                            format!("[{r}, {c}] ({})", m.directions[m.unpack(i).1])
                        })
                        .collect();
                    let letter = m.kinds[m.kind_of[robot]] as char;
                    Err(match stops.is_empty() {
                        true => format!("not now: the {letter} robot at [{r}, {c}] cannot slide anywhere"),
                        false => format!(
                            "no slide stops the {letter} robot at [{r}, {c}] on [{r2}, {c2}]: it stops at {}",
                            stops.join(", ")
                        ),
                    })
                }
            }
        }
        (Model::Tilt(m), Position::Tilt(s)) => {
            let name = match words {
                [w] => match *w {
                    "u" => "up",
                    "d" => "down",
                    "l" => "left",
                    "r" => "right",
                    w => w,
                },
                _ => "",
            };
            let d = m.dirs.iter().position(|d| d.name == name).ok_or_else(|| {
                let names: Vec<&str> = m.dirs.iter().map(|d| d.name.as_str()).collect();
                format!(
                    "`{}` is not a tilt: write one of {}",
                    echo(typed),
                    names.join(", ")
                )
            })?;
            let mut occ = vec![NONE; m.geo.cells.len()];
            let next = roll(m, d, s, &mut occ).ok_or_else(|| {
                format!("tilting {name} drops a marble into another marble's hole: not allowed")
            })?;
            if next == *s {
                return Err(format!("tilting {name} moves no marble: not a move"));
            }
            Ok((Position::Tilt(next), None))
        }
        _ => Err("this puzzle cannot be played".into()),
    }
}

/// A piece's move or a robot's slide as a hint writes it, `G [0, 0] to [4, 0], taking
/// [2, 0]`, in the words [`from_to`] reads: the piece's letter, `to`, and what it takes
/// (which the two squares decide) left out.
fn as_typed<'a>(words: &[&'a str]) -> Vec<&'a str> {
    let letter = |w: &str| w.len() == 1 && w.chars().all(|c| c.is_ascii_alphabetic());
    let words = match words.split_first() {
        Some((first, rest)) if letter(first) => rest,
        _ => words,
    };
    let end = (words.iter())
        .position(|w| w.eq_ignore_ascii_case("taking"))
        .unwrap_or(words.len());
    (words[..end].iter().copied())
        .filter(|w| !w.eq_ignore_ascii_case("to"))
        .collect()
}

/// The two cells of a move written `R C R2 C2` (from, to), as hole indices and as cells;
/// a refusal quotes the line `typed` and calls the move `what` and the board's cells `place`
/// (holes, squares).
fn from_to(
    geo: &Geometry,
    words: &[&str],
    typed: &str,
    (what, place): (&str, &str),
) -> Result<((usize, usize), [Cell; 2]), String> {
    let nums: Vec<i64> = words
        .iter()
        .map(|w| w.parse::<i64>())
        .collect::<Result<_, _>>()
        .map_err(|_| {
            format!(
                "`{}` is not {what}: write `R C R2 C2` (from, to), or `help`",
                echo(typed)
            )
        })?;
    let [r, c, r2, c2] = nums[..] else {
        return Err(format!(
            "{what} is four numbers: R C R2 C2 (from [R, C] to [R2, C2])"
        ));
    };
    let cell = |[r, c]: Cell| {
        geo.index
            .get(&[r, c])
            .copied()
            .ok_or_else(|| format!("[{r}, {c}] is not a {place} of this board"))
    };
    Ok(((cell([r, c])?, cell([r2, c2])?), [[r, c], [r2, c2]]))
}

/// The holes of `over R C [R C …]` (the words after `over`), in the order written.
fn over_cells(geo: &Geometry, words: &[&str]) -> Result<Vec<usize>, String> {
    let nums: Vec<i64> = words
        .iter()
        .map(|w| w.parse::<i64>())
        .collect::<Result<_, _>>()
        .map_err(|_| {
            format!(
                "`over {}` is no list of holes: write `over R C`",
                echo(&words.join(" "))
            )
        })?;
    if nums.is_empty() || nums.len() % 2 == 1 {
        return Err("`over` takes holes, two numbers each: `over R C`".into());
    }
    nums.chunks(2)
        .map(|rc| {
            geo.index
                .get(&[rc[0], rc[1]])
                .copied()
                .ok_or_else(|| format!("[{}, {}] is not a hole of this board", rc[0], rc[1]))
        })
        .collect()
}

/// How a game ended: won or stuck, and the words that say so.
struct End {
    won: bool,
    words: String,
}

/// The verdict once the game is over: the goal reached, or no move left. `moves`: the moves
/// played to reach `pos`.
///
/// Pieces of kinds: the goal is [`RewriteModel::is_goal`], in at most the moves a `moves: N`
/// goal allows. A `pegs: fewest` goal has no fixed count to reach: the game is won when the rest
/// of the goal holds and one piece is left or no move is (the pieces left are the score).
fn finished(p: &Prepared, pos: &Position, moves: usize) -> Option<End> {
    match (&p.model, pos) {
        (Model::Hop(m), Position::Hop(s)) => {
            let pegs = s.count_ones();
            let rating = solve::rating(&p.spec, pegs)
                .map(|r| format!(" ({r})"))
                .unwrap_or_default();
            // A `pegs: fewest` goal is met by any count once no move is left (the pegs left
            // are the score), as for pieces of kinds.
            let stuck = || legal_moves(p, pos).is_empty();
            let fewest = m.goal.pegs == PegGoal::Fewest && m.is_goal(*s, pegs) && stuck();
            if m.is_goal(*s, m.target_pegs()) || fewest {
                Some(End {
                    won: true,
                    words: format!(
                        "solved: {} left{rating}{}",
                        crate::diag::plural(pegs as usize, "peg"),
                        if fewest && pegs > 1 { ", no moves left" } else { "" }
                    ),
                })
            } else if stuck() {
                Some(End {
                    won: false,
                    words: format!(
                        "no moves left: {}{rating}. `undo`, `restart`, or `solve` to see what marbles would do",
                        crate::diag::plural(pegs as usize, "peg")
                    ),
                })
            } else {
                None
            }
        }
        (Model::Tilt(m), Position::Tilt(s)) => m.is_home(s).then(|| End {
            won: true,
            words: "solved: every marble is home".to_string(),
        }),
        (Model::Rewrite(m), Position::Rewrite(s)) => rewrite_end(m, s, moves),
        (Model::Slide(m), Position::Slide(s)) => slide_end(m, s, moves),
        _ => None,
    }
}

/// How a game that reached its goal in more moves than its `moves: N` allows ends.
fn over_limit(moves: usize, most: u32) -> End {
    End {
        won: false,
        words: format!(
            "the goal, but in {moves} moves: this puzzle allows {most}. `undo`, `restart`, or `solve` to see \
             what marbles would do"
        ),
    }
}

/// [`finished`] for pieces of kinds.
fn rewrite_end(m: &RewriteModel, s: &Kinds, moves: usize) -> Option<End> {
    let stuck = rewrites(m, s).next().is_none();
    let fewest = m.goal.pieces == Some(PegGoal::Fewest);
    let goal = m.is_goal(s) && (!fewest || occupied(s).count_ones() <= 1 || stuck);
    let pieces = pieces_text(m, s);
    let plural = if moves == 1 { "" } else { "s" };
    match m.goal.moves {
        Some(MoveGoal::Within(most)) if goal && moves > most as usize => Some(over_limit(moves, most)),
        _ if goal => Some(End {
            won: true,
            words: format!(
                "solved in {moves} move{plural}: {pieces}{}",
                if fewest && stuck { ", no moves left" } else { "" }
            ),
        }),
        _ if stuck => Some(End {
            won: false,
            words: format!(
                "no moves left: {pieces}. `undo`, `restart`, or `solve` to see what marbles would do"
            ),
        }),
        _ => None,
    }
}

/// [`finished`] for sliding robots: the goal's robot on its square, in at most the moves a
/// `moves: N` goal allows.
fn slide_end(m: &SlideModel, s: &[u16], moves: usize) -> Option<End> {
    if !m.is_goal(s) {
        return None;
    }
    let plural = if moves == 1 { "" } else { "s" };
    Some(match m.goal.within {
        Some(most) if moves > most as usize => over_limit(moves, most),
        _ => End {
            won: true,
            words: format!("solved in {moves} move{plural}: {}", solve::slide::goal_words(m)),
        },
    })
}

/// The longest input line `play` reads; a move or command is a few dozen bytes.
const MAX_LINE: usize = 4096;

/// What [`read_line_at_most`] found.
enum Line {
    Read,
    TooLong,
    End,
}

/// Reads one line into `bytes`, holding at most `max` bytes of it: the rest of a longer line
/// is skipped without being kept, so a line of any length costs no memory.
fn read_line_at_most(input: &mut impl BufRead, bytes: &mut Vec<u8>, max: usize) -> io::Result<Line> {
    let n = std::io::Read::take(&mut *input, max as u64 + 1).read_until(b'\n', bytes)?;
    if n == 0 {
        return Ok(Line::End);
    }
    if bytes.len() <= max || bytes.ends_with(b"\n") {
        return Ok(Line::Read);
    }
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Ok(Line::TooLong);
        }
        match buf.iter().position(|&b| b == b'\n') {
            Some(i) => {
                input.consume(i + 1);
                return Ok(Line::TooLong);
            }
            None => {
                let len = buf.len();
                input.consume(len);
            }
        }
    }
}
