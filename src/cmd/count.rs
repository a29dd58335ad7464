//! `marbles count`: every position reachable from a hop puzzle's start, layer by layer, as a
//! table or JSON.

use super::{Error, ExitCode};
use crate::diag::Diagnostic;
use crate::model::Model;
use crate::process::human_bytes;
use crate::search::count::{self, CountResult};
use crate::search::meet::{self, Counted, MeetResult, Stop};
use crate::search::{GaveUp, Verdict};
use crate::solve::{self, MoveOrder, Options};
use crate::spec::PegGoal;
use std::io::{self, Write};
use std::path::PathBuf;
use tabled::settings::Alignment;

/// What to count, and how to show it.
#[derive(Debug, Clone)]
pub struct Config {
    pub file: PathBuf,
    /// Enumerate every reachable position instead of meeting in the middle.
    pub all: bool,
    /// Also count the positions that can still reach the goal (implies `all`).
    pub feasible: bool,
    /// Count positions only, not jump sequences (implies `all`).
    pub positions_only: bool,
    /// The figures as one JSON object instead of a table.
    pub json: bool,
    /// The file's notation, instead of guessing it from the extension.
    pub notation: Option<&'static crate::formats::Notation>,
    /// Which puzzle of a file holding several, from 1.
    pub case: usize,
    pub options: Options,
}

pub fn run(config: &Config) -> Result<ExitCode, Error> {
    let o = &config.options;
    let shuffled = matches!(o.order, MoveOrder::Shuffle(_));
    // (`--fewest` counts to the fewest pegs, as a goal of `pegs: fewest` does.)
    let ignored: Vec<&str> = [
        (o.fewest_moves, "--fewest-moves"),
        (shuffled, "--shuffle"),
        (!shuffled && o.order != MoveOrder::Script, "--order"),
    ]
    .into_iter()
    .filter_map(|(given, flag)| given.then_some(flag))
    .collect();
    if !ignored.is_empty() {
        return Err(Error::Usage(format!(
            "count counts every jump sequence, whatever its order or length: {} would change \
             nothing here ({} for solve and batch)",
            crate::diag::listed(&ignored, "and"),
            if ignored.len() == 1 { "it is" } else { "they are" }
        )));
    }
    // Before the rule script runs: a Ctrl-C while it builds the board stops the count too.
    crate::process::stop_on_signals();
    let (p, cases) = match super::prepare_counted(&config.file, config.notation, &config.options, config.case)
    {
        Err(Error::Input(d)) if d.gave_up.is_some() => {
            let interrupted = d.gave_up.as_deref() == Some(&GaveUp::Interrupted);
            return gave_up(config, d.message, interrupted, 0, None);
        }
        p => p?,
    };
    // One count a run: a file of several says which of them this is.
    if cases > 1 {
        eprintln!(
            "{}",
            crate::render::terminal(&format!(
                "marbles: note: {} holds {cases} puzzles; counting case {} (`--case K` picks another)",
                config.file.display(),
                config.case
            ))
        );
    }
    let Model::Hop(m) = &p.model else {
        return Err(Diagnostic::new(&config.file, "count works on hop puzzles only").into());
    };
    if m.goal.reach {
        // Its tables count games to their last jump; a reach goal is met part way through one.
        return Err(Diagnostic::new(
            &config.file,
            "count does not count games to a `goal: reach:` (it counts jump sequences to a peg \
             count); solve it instead",
        )
        .at(p.spec.goal.reach_line, None)
        .into());
    }
    if let Some(moves) = p.spec.goal.moves {
        return Err(Diagnostic::new(
            &config.file,
            format!(
                "count counts every jump sequence to the goal's pegs, whatever its moves: it cannot \
                 hold them to `moves: {moves}` (a goal for solve and batch); leave `moves:` out to count"
            ),
        )
        .at(p.spec.goal.moves_line, None)
        .into());
    }
    let mut budget = solve::budget_for(&p.spec, &config.options);
    // `pegs: fewest` counts the sequences to the fewest pegs the goal allows (with one on its
    // `at:` cell, if it names one): found first, by the search `solve` runs.
    let fewest = match m.goal.pegs {
        PegGoal::Fewest => match fewest_pegs(m, &mut budget) {
            Ok(k) => k,
            Err(why) => {
                let interrupted = matches!(why.stop(), GaveUp::Interrupted);
                let floor = match &why {
                    GaveUp::Unproven { floor, .. } => *floor,
                    _ => None,
                };
                let why = format!("the fewest pegs to count to are not proven: {why}");
                return gave_up(config, why, interrupted, budget.peak_memory(), floor);
            }
        },
        PegGoal::Count(_) => None,
    };
    let resolved;
    let m = match fewest {
        Some(k) => {
            let mut to_k = m.clone();
            to_k.goal.pegs = PegGoal::Count(k);
            resolved = to_k;
            &resolved
        }
        None => m,
    };
    let line = crate::render::progress::Ticker::start("counting");
    let counted = if config.all || config.feasible || config.positions_only {
        let options = count::Options {
            feasible: config.feasible,
            sequences: !config.positions_only,
            ..count::Options::default()
        };
        count::count_with(m, &options, &mut budget)
            .map(Counted::All)
            .map_err(Stop::GaveUp)
    } else {
        meet::count(m, &mut budget)
    };
    drop(line);
    let counted = counted.map(|mut c| {
        match &mut c {
            Counted::All(r) => r.fewest_pegs = fewest,
            Counted::Meet(r) => r.fewest_pegs = fewest,
        }
        c
    });
    match counted {
        Ok(r) => {
            let mut stdout = io::stdout().lock();
            if config.json {
                let mut v = serde_json::to_value(&r)?;
                // What `--positions-only` does not count is null, as the text's "not
                // counted" says: it read `"solutions": 0`, `"games": 0`.
                if v["positions_only"] == true {
                    v["solutions"] = serde_json::Value::Null;
                    v["games"] = serde_json::Value::Null;
                    for layer in v["layers"].as_array_mut().into_iter().flatten() {
                        layer["games"] = serde_json::Value::Null;
                    }
                }
                serde_json::to_writer_pretty(&mut stdout, &v)?;
                writeln!(stdout)?;
            } else {
                match &r {
                    Counted::All(r) => write!(stdout, "{}", table(r))?,
                    Counted::Meet(r) => write!(stdout, "{}", meet_table(r))?,
                }
            }
            Ok(ExitCode::Solved)
        }
        Err(Stop::Internal(why)) => Err(Diagnostic::new(
            &config.file,
            format!("internal error while counting: {why} (please report this as a bug)"),
        )
        .into()),
        Err(why) => {
            let interrupted = matches!(&why, Stop::GaveUp(g) if matches!(g.stop(), GaveUp::Interrupted));
            let why = match why {
                Stop::GaveUp(g) => g.to_string(),
                other => format!("{other:?}"),
            };
            gave_up(config, why, interrupted, budget.peak_memory(), None)
        }
    }
}

/// Says on stderr, and in the JSON asked for, that the count gave up, and why; `pegs_floor`
/// is the fewest pegs proven possible at best when the search for them gave up (JSON
/// `pegs_floor`, as `solve` gives it).
fn gave_up(
    config: &Config,
    why: String,
    interrupted: bool,
    memory: u64,
    pegs_floor: Option<u32>,
) -> Result<ExitCode, Error> {
    // A search cut says `interrupted`: which signal cut it is said as everywhere else.
    let why = match interrupted && !why.starts_with("interrupted (") {
        true => why.replacen(
            "interrupted",
            &format!("interrupted ({})", crate::process::stopped_by()),
            1,
        ),
        false => why,
    };
    eprintln!("marbles: gave up counting {}: {why}", config.file.display());
    if config.json {
        // A reader of the JSON gets the verdict too, not an empty stream.
        let mut gave_up = serde_json::json!({
            "file": config.file.display().to_string(),
            "status": "gave_up",
            "reason": why,
            "memory_bytes": memory,
        });
        if let Some(floor) = pegs_floor {
            gave_up["pegs_floor"] = floor.into();
        }
        let mut stdout = io::stdout().lock();
        serde_json::to_writer_pretty(&mut stdout, &gave_up)?;
        writeln!(stdout)?;
    }
    Ok(match interrupted {
        true => ExitCode::Interrupted,
        false => ExitCode::Unsolved,
    })
}

/// The fewest pegs `m`'s goal allows, proven by the search `solve` runs for `pegs: fewest`;
/// `None` when no reachable position meets the goal's cells at all.
fn fewest_pegs(
    m: &crate::model::HopModel,
    budget: &mut crate::search::Budget,
) -> Result<Option<u32>, GaveUp> {
    let order = solve::move_order(m, &MoveOrder::Script);
    let r = crate::search::plan::hop(m, &order, budget, &mut crate::search::dfs::Quiet);
    match r.verdict {
        Verdict::Solved => Ok(Some(r.end.count_ones())),
        Verdict::Unsolvable(_) => Ok(None),
        Verdict::GaveUp(why) => Err(why),
    }
}

/// The figures as a text table, fullest layer first, then the totals.
pub fn table(r: &CountResult) -> String {
    let feasible = r.layers.iter().any(|l| l.feasible.is_some());
    let mut b = tabled::builder::Builder::default();
    let mut head = vec!["pegs", "positions", "canonical", "dead ends"];
    if feasible {
        head.extend(["feasible", "feas. canon."]);
    }
    b.push_record(head);
    let show = |n: Option<u64>| n.map(|n| n.to_string()).unwrap_or_default();
    for l in &r.layers {
        let mut row = vec![
            l.pegs.to_string(),
            l.positions.to_string(),
            l.canonical.to_string(),
            l.dead_ends.to_string(),
        ];
        if feasible {
            row.extend([show(l.feasible), show(l.feasible_canonical)]);
        }
        b.push_record(row);
    }
    let mut all = vec![
        "all".to_string(),
        r.positions.to_string(),
        r.canonical.to_string(),
        String::new(),
    ];
    if feasible {
        let f: u64 = r.layers.iter().filter_map(|l| l.feasible).sum();
        let fc: u64 = r.layers.iter().filter_map(|l| l.feasible_canonical).sum();
        all.extend([f.to_string(), fc.to_string()]);
    }
    b.push_record(all);
    let mut t = b.build();
    t.with(Alignment::right());
    let counted = |n: u128| match r.positions_only {
        true => "not counted (--positions-only)".to_string(),
        false => n.to_string(),
    };
    let goal = goal_words(r.fewest_pegs);
    format!(
        "{}\nsolutions (jump sequences to {goal}): {}\ncomplete games (jump sequences played until no jump is left, wins included): {}\nsymmetries used: {}; {:.3} s; tables at most ~{} (as --max-memory counts them)\n",
        super::plain(t),
        counted(r.solutions),
        counted(r.games),
        r.symmetries,
        r.seconds,
        human_bytes(r.memory)
    )
}

/// What the solutions reach: the goal, or for `pegs: fewest` the count it allows.
fn goal_words(fewest: Option<u32>) -> String {
    match fewest {
        Some(n) => format!("the fewest pegs the goal allows, {n}"),
        None => "the goal".to_string(),
    }
}

/// The bidirectional count's figures: feasible positions per layer, then the totals.
pub fn meet_table(r: &MeetResult) -> String {
    let mut b = tabled::builder::Builder::default();
    b.push_record(["pegs", "feasible", "feas. canon.", "searched", "pass"]);
    for l in &r.layers {
        b.push_record([
            l.pegs.to_string(),
            l.feasible.to_string(),
            l.feasible_canonical.to_string(),
            l.searched_canonical.to_string(),
            l.pass.to_string(),
        ]);
    }
    b.push_record([
        "all".to_string(),
        r.feasible.to_string(),
        r.feasible_canonical.to_string(),
        r.searched_canonical.to_string(),
        String::new(),
    ]);
    let mut t = b.build();
    t.with(Alignment::right());
    let complemented = if r.self_dual {
        "; here the forward pass's, complemented"
    } else {
        ""
    };
    format!(
        "{}\nfeasible: positions on some solution; searched: canonical positions a pass stored \
         (forward: reachable from the start; backward: able to reach the goal{complemented}; \
         either way not ruled out by a pagoda).\n\
         The passes met between {} and {} pegs. `--all` counts every reachable position, and \
         the complete games.\n\
         solutions (jump sequences to {}): {}\nsymmetries used: {}; {:.3} s; tables at most ~{} (as --max-memory counts them)\n",
        super::plain(t),
        r.meeting[0],
        r.meeting[1],
        goal_words(r.fewest_pegs),
        r.solutions,
        r.symmetries,
        r.seconds,
        human_bytes(r.memory)
    )
}
