//! One puzzle end to end: spec → script → model → search → outcome.

use crate::diag::Result;
use crate::model::{self, HopModel, Model, NONE, TiltModel};
use crate::outcome::{Line, MoveOut, Outcome, Over, Replay, Stats, Status};
use crate::script::{self, RuleTables, Script, ScriptLimits};
use crate::search::{Budget, GaveUp, Limits, Verdict, dfs, fewest_moves, plan, tilt};
use crate::spec::{self, BoardSpec, MoveGoal, PegGoal, Piece, Spec};
use std::path::Path;
use std::time::Duration;

pub mod position;
pub mod rewrite;
pub mod slide;

/// The order a hop search tries moves in.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum MoveOrder {
    /// As the script lists them.
    #[default]
    Script,
    Reverse,
    /// A reproducible shuffle.
    Shuffle(u64),
    /// Cell by cell in board order, each cell's moves in this order of the family's direction
    /// names (every name once), as `--order up,down,left,right` gives them: the order the
    /// depth-first-search write-up prescribes. Checked against the family by [`check_order`].
    Directions(Vec<String>),
}

/// How to solve: limits given on the command line win over a spec's `solve:` section.
#[derive(Debug, Clone, Default)]
pub struct Options {
    pub limits: Limits,
    /// Applied when neither the command line nor the spec sets a memory limit.
    pub default_max_memory: Option<u64>,
    /// The project's limits (`marbles.toml`), below the spec's own and the command line's.
    pub project: Limits,
    /// The memory limit holds for the whole process (its code, the script engine's
    /// leftovers, the model and the search's tables): set for commands that search one
    /// puzzle (`solve`, `play`, `count`). A batch shares one process between jobs, so there
    /// each puzzle's limit holds for its search's tables.
    pub whole_process: bool,
    pub script: ScriptLimits,
    pub order: MoveOrder,
    /// Find the fewest pegs that can be left, whatever the spec's goal says.
    pub fewest: bool,
    /// Solve in the fewest moves (chains of one peg's jumps), whatever the spec's goal says.
    pub fewest_moves: bool,
    /// Outcomes are shown only as their verdicts and moves (`solve --format icpc|moves`):
    /// the moves are still replayed to the goal, but no drawing, spec hash or settings are
    /// kept (a 20,000-case ICPC file spent a fifth of its time making them).
    pub bare: bool,
    /// `--order` and `--shuffle` order the jumps of hop families, `--fewest` leaves the
    /// fewest pegs of hop and pieces boards with no goal board, and `--fewest-moves` finds the
    /// fewest moves to goals with no `reach:`; the other puzzles are solved as they would be
    /// without them (a batch over a mixed collection). Otherwise those refuse them.
    pub where_they_apply: bool,
    /// The folders a batch was given, by their real paths: a puzzle file the walk found is
    /// read only while it still lies inside them.
    pub inside: Option<std::sync::Arc<[std::path::PathBuf]>>,
}

/// The batch flags that passed over a puzzle of a kind they are not for (with
/// [`Options::where_they_apply`]), a bit each: [`ORDER_PASSED_OVER`], [`FEWEST_PASSED_OVER`],
/// [`FEWEST_MOVES_PASSED_OVER`]. A batch says so once, and only when one did.
static PASSED_OVER: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);
/// `--order` or `--shuffle` passed over a puzzle that is not of a hop family.
pub const ORDER_PASSED_OVER: u8 = 1;
/// `--fewest` passed over a tilt or slide puzzle, or a goal board.
pub const FEWEST_PASSED_OVER: u8 = 2;
/// `--fewest-moves` passed over a `reach:` goal.
pub const FEWEST_MOVES_PASSED_OVER: u8 = 4;

/// The flags that have passed over a puzzle in this process since this was last asked, a bit
/// each ([`ORDER_PASSED_OVER`], [`FEWEST_PASSED_OVER`], [`FEWEST_MOVES_PASSED_OVER`]).
pub fn take_passed_over() -> u8 {
    PASSED_OVER.swap(0, std::sync::atomic::Ordering::Relaxed)
}

fn pass_over(flag: u8) {
    PASSED_OVER.fetch_or(flag, std::sync::atomic::Ordering::Relaxed);
}

/// A spec with its script run and its model compiled, ready to search.
pub struct Prepared {
    pub spec: Spec,
    pub script: Script,
    pub tables: std::sync::Arc<RuleTables>,
    pub model: Model,
}

/// Reads, validates and compiles a puzzle without searching it.
pub fn prepare(path: &Path, opts: &Options) -> Result<Prepared> {
    prepare_spec(spec::load(path)?, opts)
}

/// Compiles an already-parsed spec (from YAML or another notation).
pub fn prepare_spec(spec: Spec, opts: &Options) -> Result<Prepared> {
    let script = script::resolve(&spec).map_err(|d| d.of_case(&spec.name))?;
    prepare_with(spec, script, opts)
}

/// Compiles a spec with a given rule script instead of the one it names (`marbles check
/// x.rhai` tries a script on a sample board).
pub fn prepare_with(spec: Spec, script: Script, opts: &Options) -> Result<Prepared> {
    // Its error row is named as its answer would be, not by the file's stem, and its family
    // given.
    let name = spec.name.clone();
    let (family, origin) = (script.name.clone(), script.origin.clone());
    compile_with(spec, script, opts).map_err(|d| d.of_case(&name).of_family(&family, &origin))
}

/// [`prepare_with`]'s work: the flags checked against the goal, the script run, the model
/// compiled.
fn compile_with(mut spec: Spec, script: Script, opts: &Options) -> Result<Prepared> {
    // In a batch, a goal board keeps its pegs and a `reach:` goal its first peg on the cell:
    // the flags apply to the other puzzles.
    let fewest = opts.fewest && !(opts.where_they_apply && spec.goal.board.is_some());
    let fewest_moves = opts.fewest_moves && !(opts.where_they_apply && spec.goal.reach.is_some());
    if fewest && spec.goal.board.is_some() {
        return Err(crate::diag::Diagnostic::new(
            &spec.path,
            "`--fewest` asks for the fewest pegs, but this puzzle's goal board says exactly where \
             they end: leave out --fewest",
        )
        .at(spec.goal.board_line, None));
    }
    let tables = script::run(&script, &spec, &opts.script).map_err(|d| d.stopping(&spec))?;
    let hop = tables.kind == script::Kind::Hop;
    let pegless = matches!(tables.kind, script::Kind::Tilt | script::Kind::Slide);
    if opts.fewest && (!fewest || (pegless && opts.where_they_apply)) {
        pass_over(FEWEST_PASSED_OVER);
    }
    // (A tilt or slide puzzle's `reach:` goal is its own: its search finds the fewest moves.)
    if opts.fewest_moves && !fewest_moves && hop {
        pass_over(FEWEST_MOVES_PASSED_OVER);
    }
    if fewest && pegless && !opts.where_they_apply {
        return Err(crate::diag::Diagnostic::new(
            &spec.path,
            format!(
                "`--fewest` asks for the fewest pegs left; `{}` moves {} that end where its goal says, \
                 whatever is left: leave out --fewest",
                script.name,
                if tables.kind == script::Kind::Tilt {
                    "marbles"
                } else {
                    "robots"
                }
            ),
        ));
    }
    if fewest_moves && spec.goal.reach.is_some() && hop {
        return Err(crate::diag::Diagnostic::new(
            &spec.path,
            "`--fewest-moves` and `goal: reach:` together are not supported: the fewest-moves search \
             ends on a peg count; leave out --fewest-moves",
        )
        .at(spec.goal.reach_line, None));
    }
    if fewest && !pegless {
        spec.goal.pegs = Some(PegGoal::Fewest);
    }
    // A goal's own `moves: N` stays: its search finds the fewest too, then holds them to N.
    if fewest_moves && spec.goal.moves.is_none() {
        spec.goal.moves = Some(MoveGoal::Fewest);
    }
    let model = model::compile(&spec, &script, &tables)?;
    match &model {
        Model::Hop(m) => check_order(&opts.order, m, &script.name)
            .map_err(|why| crate::diag::Diagnostic::new(&spec.path, why))?,
        _ if opts.order == MoveOrder::Script => {}
        _ if opts.where_they_apply => pass_over(ORDER_PASSED_OVER),
        // Silently ignored, a flag would seem to have been honoured.
        other => {
            let how = match other {
                Model::Rewrite(_) => "tries its moves in the order its script lists them",
                _ => "finds the fewest moves, whatever order they are tried in",
            };
            return Err(crate::diag::Diagnostic::new(
                &spec.path,
                format!(
                    "--order and --shuffle are for hop families; `{}` {how}: leave them out",
                    script.name
                ),
            ));
        }
    }
    unmeetable_expect(&spec, &model, &script.name)?;
    Ok(Prepared {
        spec,
        script,
        tables,
        model,
    })
}

/// Refuses an `expect:` of what the puzzle's family never counts (jumps off a hop board,
/// pegs on a tilt or robot board, tilts off a tilt board): it could never be met, and only a
/// run would say so.
fn unmeetable_expect(spec: &Spec, model: &Model, family: &str) -> Result<()> {
    let Some(spec::Expect::Solved {
        moves,
        jumps,
        pegs,
        tilts,
    }) = spec.expect
    else {
        return Ok(());
    };
    let why = match model {
        _ if tilts && !matches!(model, Model::Tilt(_)) => Some("tilts are counted on tilt boards only"),
        Model::Hop(m) => return hop_counts_unmeetable(spec, m, moves, jumps, pegs),
        _ if jumps.is_some() => Some("jumps are counted on hop boards only"),
        Model::Slide(_) | Model::Tilt(_) if pegs.is_some() => {
            Some("pegs are counted on hop boards and boards of pieces only")
        }
        // A start that does not meet its goal needs a move (a marble on its own hole never
        // leaves it, and is refused, so no tilt board starts home).
        _ if moves == Some(0)
            && let Some(why) = match model {
                Model::Tilt(m) => (!m.is_home(&m.start))
                    .then_some("no marble starts in its hole, so a line needs a tilt at least"),
                Model::Slide(m) => (!m.is_goal(&m.start))
                    .then_some("no robot starts on the target, so a line needs a move at least"),
                Model::Rewrite(m) => (!m.is_goal(&m.start)).then_some(START_IS_NOT_GOAL),
                Model::Hop(_) => None,
            } =>
        {
            return never_met(spec, Some(why.into()));
        }
        _ => None,
    };
    never_met(
        spec,
        why.map(|why| {
            format!(
                "{why}, which rule family `{family}` does not make; expect its moves (`N moves`) or `solved`"
            )
        }),
    )
}

/// Why `0 moves` can never be met on a board whose start does not meet its goal.
const START_IS_NOT_GOAL: &str = "the start does not meet the goal, so a line needs a move at least";

/// `spec`'s expectation refused, `why` no run could meet it, at the line that states it.
fn never_met(spec: &Spec, why: Option<String>) -> Result<()> {
    match why {
        None => Ok(()),
        Some(why) => Err(crate::diag::Diagnostic::new(
            &spec.path,
            format!(
                "expect: `{}` can never be met: {why}",
                spec.expect.map(spec::Expect::words).unwrap_or_default()
            ),
        )
        .at(
            spec::key_line(&spec.source, "expect")
                .or(spec.expect_line)
                .or(spec.line),
            None,
        )),
    }
}

/// Refuses an `expect:` of a hop board whose counts no line can have: more moves than jumps
/// (a move is one or more), more pegs than the start's or none (no jump adds one, and the
/// jumping peg stays), as many jumps as the start has pegs (each takes one at least), or pegs
/// other than a goal of a peg count leaves.
fn hop_counts_unmeetable(
    spec: &Spec,
    m: &crate::model::HopModel,
    moves: Option<u32>,
    jumps: Option<u32>,
    pegs: Option<u32>,
) -> Result<()> {
    let start = m.start.count_ones();
    let goal = match m.goal.pegs {
        PegGoal::Count(k) if !m.goal.reach => Some(k),
        _ => None,
    };
    let why = if let (Some(mv), Some(j)) = (moves, jumps)
        && mv > j
    {
        Some("a move is one jump or more, so never more moves than jumps".to_string())
    } else if let Some(p) = pegs
        && p > start
    {
        Some(format!("no jump adds a peg, and the start has {start}"))
    } else if pegs == Some(0) && start > 0 {
        Some("a jump leaves its peg on the board, so one is always left".to_string())
    } else if let Some(j) = jumps
        && start > 0
        && j >= start
    {
        Some(format!(
            "each jump takes a peg and one is always left: the start's {} allow {} at most",
            crate::diag::plural(start as usize, "peg"),
            crate::diag::plural(start as usize - 1, "jump")
        ))
    } else if let (Some(p), Some(k)) = (pegs, goal)
        && p != k
    {
        Some(format!(
            "the goal is {} left",
            crate::diag::plural(k as usize, "peg")
        ))
    } else if let Some(k) = goal
        && k <= start
        && let Some(taken) = m.moves.first().map(|mv| mv.over.len() as u32)
        && taken > 0
        && (start - k).is_multiple_of(taken)
        && m.moves.iter().all(|mv| mv.over.len() as u32 == taken)
    {
        so_many_a_jump(start, k, taken, moves, jumps)
    } else if goal.is_some() && (moves == Some(0) || jumps == Some(0)) && !m.is_goal(m.start, m.target_pegs())
    {
        Some(START_IS_NOT_GOAL.to_string())
    } else {
        None
    };
    never_met(spec, why)
}

/// Of a family whose every jump takes `taken` pegs, from `start` pegs to a goal of `k`: the
/// jumps are `(start - k) / taken` exactly, and the moves (chains of them) one to that many
/// (none when the start has the goal's count). Why `moves` or `jumps` is not such a count, if
/// it is not.
fn so_many_a_jump(start: u32, k: u32, taken: u32, moves: Option<u32>, jumps: Option<u32>) -> Option<String> {
    let need = (start - k) / taken;
    let fits =
        jumps.is_none_or(|j| j == need) && moves.is_none_or(|mv| mv <= need && (mv == 0) == (need == 0));
    let plural = |n: u32, what| crate::diag::plural(n as usize, what);
    (!fits).then(|| {
        format!(
            "each jump takes {}, so the start's {} reach the goal's {} in {} exactly, {}",
            match taken {
                1 => "one peg".to_string(),
                n => format!("{n} pegs"),
            },
            plural(start, "peg"),
            k,
            plural(need, "jump"),
            match need {
                0 => "0 moves".to_string(),
                1 => "1 move".to_string(),
                n => format!("1 to {n} moves"),
            }
        )
    })
}

/// The SHA-256 of a spec file's bytes, or `None` if it is not a readable puzzle-sized file
/// (a FIFO would block a plain read forever).
pub fn file_hash(path: &Path) -> Option<String> {
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_file() || meta.len() > spec::MAX_SPEC_BYTES {
        return None;
    }
    crate::spec::input::read_at_most(path, spec::MAX_SPEC_BYTES)
        .ok()
        .flatten()
        .map(|b| crate::fingerprint::hash_bytes(&b))
}

/// A puzzle's limit under the house's (the project's or the default): the lower of the two.
fn lower<T: Ord>(puzzle: Option<T>, house: Option<T>) -> Option<T> {
    match (puzzle, house) {
        (Some(p), Some(h)) => Some(p.min(h)),
        (p, h) => p.or(h),
    }
}

/// The limits for one puzzle: the command line's; else the spec's `solve:` limits, which
/// may lower the project's (or the default memory limit) and never raise them: a puzzle is
/// somebody else's file, and its `max_memory: 100000GB` would have lifted the budget that
/// keeps a search from taking the machine's memory.
pub fn limits_for(spec: &Spec, opts: &Options) -> Limits {
    let s = &spec.limits;
    Limits {
        timeout: opts
            .limits
            .timeout
            .or_else(|| lower(s.timeout.map(Duration::from_secs_f64), opts.project.timeout)),
        max_nodes: opts
            .limits
            .max_nodes
            .or_else(|| lower(s.max_nodes, opts.project.max_nodes)),
        max_memory: opts.limits.max_memory.or_else(|| {
            lower(
                s.max_memory.map(|b| b.0),
                opts.project.max_memory.or(opts.default_max_memory),
            )
        }),
    }
}

/// The search budget for one puzzle: [`limits_for`], counting the process too if
/// [`Options::whole_process`] says so.
pub fn budget_for(spec: &Spec, opts: &Options) -> Budget {
    let budget = Budget::new(limits_for(spec, opts));
    if opts.whole_process {
        budget.counting_process()
    } else {
        budget
    }
}

/// What besides the spec and script bytes decides a puzzle's answer, in words: the goal in
/// force (the spec's, or `--fewest`), the move order and the limits. `--resume` compares it.
pub fn settings(spec: &Spec, opts: &Options) -> String {
    let pegs = match spec.goal.pegs {
        _ if opts.fewest => "fewest".to_string(),
        Some(PegGoal::Fewest) => "fewest".to_string(),
        Some(PegGoal::Count(n)) => n.to_string(),
        None => "the family's default".to_string(),
    };
    let at = match (spec.goal.at, spec.goal.reach) {
        (Some([r, c]), _) => format!(" at [{r}, {c}]"),
        (None, Some([r, c])) => format!(" with one reaching [{r}, {c}]"),
        (None, None) => String::new(),
    };
    // Goals naming kinds: the kind on the cell, and the pieces of each kind left.
    let at = match spec.goal.piece {
        Some(k) => format!("{at} (kind {})", k as char),
        None => at,
    };
    let at = match spec.goal.left.is_empty() {
        true => at,
        false => {
            let left: Vec<String> = spec
                .goal
                .left
                .iter()
                .map(|(k, n)| format!("{n} {}", *k as char))
                .collect();
            format!("{at}; left: {}", left.join(", "))
        }
    };
    // A reach goal leaves any number of pegs, unless `fewest` asks for the least.
    let pegs = match spec.goal.reach {
        Some(_) if pegs == "the family's default" => "any".to_string(),
        _ => pegs,
    };
    // A goal board fixes the pegs; its drawing, rows joined by `/`, is the goal.
    let (pegs, at) = match &spec.goal.board {
        Some(b) => {
            let rows: Vec<String> = b
                .rows
                .iter()
                .map(|r| {
                    r.iter()
                        .map(|t| t.symbol().to_string())
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .collect();
            (
                "exactly the".to_string(),
                format!(" of the goal board {}", rows.join("/")),
            )
        }
        None => (pegs, at),
    };
    let order = match &opts.order {
        MoveOrder::Script => "script".to_string(),
        MoveOrder::Reverse => "reverse".to_string(),
        MoveOrder::Shuffle(seed) => format!("shuffle, seed {seed}"),
        MoveOrder::Directions(names) => names.join(","),
    };
    let moves = match spec.goal.moves {
        Some(goal) => format!("; moves: {goal}"),
        None if opts.fewest_moves => "; moves: fewest".to_string(),
        None => String::new(),
    };
    // Script limits change what a script may do before it fails: said when not the default.
    let script = match &opts.script {
        l if *l == ScriptLimits::default() => String::new(),
        l => format!(
            "; script limits: {} operations, {} s",
            l.max_operations,
            l.timeout.as_secs_f64()
        ),
    };
    // The default memory limit is the machine's share for each job, so it changes with `-j`:
    // named, not measured, so that a verdict reached under it is reused at any `-j` (a give-up
    // is retried when its limits differ, see `Outcome::limits`).
    let mut chosen = limits_for(spec, opts);
    chosen.max_memory = opts.limits.max_memory.or_else(|| {
        let puzzle = spec.limits.max_memory.map(|b| b.0);
        match (puzzle, opts.project.max_memory, opts.default_max_memory) {
            // A puzzle's limit over the default is the default (see `limits_for`).
            (Some(p), None, Some(d)) if p >= d => None,
            (p, house, _) => lower(p, house),
        }
    });
    let limits = match (chosen.max_memory, opts.default_max_memory, chosen.describe()) {
        (None, Some(_), none) if none == "none" => "max memory the default".to_string(),
        (None, Some(_), some) => format!("{some}, max memory the default"),
        (_, _, described) => described,
    };
    // Reaching a square with any number left: a piece, as a robot or a kind of piece is one.
    let goal = match at.strip_prefix(" with one reaching ") {
        // A tilt board's goal is its own: every marble home, or every slider off the board.
        _ if let crate::spec::BoardSpec::Tilt(b) = &spec.board => match b.exits.is_empty() {
            true => "every marble home".to_string(),
            false => "every slider off the board".to_string(),
        },
        Some(rest) if pegs == "any" && spec.goal.at.is_none() => format!("a piece reaching {rest}"),
        _ if pegs == "1" => format!("1 peg{at}"),
        _ => format!("{pegs} pegs{at}"),
    };
    format!("goal: {goal}{moves}; order: {order}; limits: {limits}{script}")
}

/// Searches a prepared puzzle.
pub fn solve_prepared(p: &Prepared, opts: &Options) -> Outcome {
    solve_observed(p, opts, &mut dfs::Quiet)
}

/// Searches a prepared puzzle, reporting hop search events to `obs`.
pub fn solve_observed(p: &Prepared, opts: &Options, obs: &mut impl dfs::Observer) -> Outcome {
    let mut budget = budget_for(&p.spec, opts);
    let found = plan::solve(&p.model, |m| move_order(m, &opts.order), &mut budget, obs);
    let stats = Stats {
        nodes: budget.nodes,
        seconds: budget.elapsed().as_secs_f64(),
        // A search stopped by a limit returns no figure of its own: the budget saw it.
        memory_bytes: found.memory.max(budget.peak_memory()),
    };
    outcome(p, opts, found.verdict, &found.path, stats)
}

/// The outcome of a search that ended in `verdict` with `path` (move or tilt indices). Every
/// figure shown (pegs left, boards, rating) comes from replaying `path` through the model,
/// not from the search's own account; a solution that does not replay to the goal is an
/// internal error asking for a bug report, never an answer.
/// The answer is checked against the file's `expect:`.
pub fn outcome(p: &Prepared, opts: &Options, verdict: Verdict, path: &[usize], stats: Stats) -> Outcome {
    let mut out = unjudged(p, opts, verdict, path, stats);
    out.judge(p.spec.expect);
    out
}

/// Whether `o`, an earlier run's outcome for `p` read back by `--resume`, is what its moves do
/// now: it names this puzzle and family, each of its steps is a legal move where it is made,
/// and what is shown from its line (the steps, the boards, pegs left, moves and jumps, and
/// for a solution the goal reached, its rating and its floor of moves) is the replay's own.
/// Its verdict, reason and a give-up's floors, which no line shows, are as its seal keeps them
/// (a give-up's floor of moves no more than its line's).
pub fn replays(p: &Prepared, opts: &Options, o: &Outcome) -> bool {
    if o.puzzle != p.spec.name || o.rules != p.script.name {
        return false;
    }
    let Some(path) = position::path_of(&p.model, &o.moves.steps) else {
        return false;
    };
    let now = unjudged(p, opts, Verdict::Solved, &path, o.stats.clone());
    // A figure a record leaves out is one its verdict does not show.
    let shown = |was: Option<u32>, is: Option<u32>| was.is_none() || was == is;
    // A solution's floor is its own count where the search was exact, else none; a give-up's
    // floor is no more than its line's moves.
    let solution = match o.status {
        Status::Solved => {
            now.status == Status::Solved
                && (o.pegs_left, o.move_count, o.moves_floor, &o.goal, &o.rating)
                    == (
                        now.pegs_left,
                        now.move_count,
                        now.moves_floor,
                        &now.goal,
                        &now.rating,
                    )
        }
        _ => o.moves_floor.is_none_or(|f| o.move_count.is_none_or(|c| f <= c)),
    };
    o.moves == now.moves
        && (o.replay.is_none() || o.replay == now.replay)
        && shown(o.pegs_left, now.pegs_left)
        && shown(o.move_count, now.move_count)
        && shown(o.jump_count, now.jump_count)
        && solution
}

/// What an answer may hold at most, its moves and boards counted as `answer_bytes` does:
/// an answer is held, checked and written whole, by every report, outside the search's tables.
pub const MAX_ANSWER_BYTES: u64 = 8 << 20;

/// What an answer of `p` may hold: [`MAX_ANSWER_BYTES`], or under a memory limit a 32nd of it
/// (holding and writing an answer takes about 20 times what this counts).
fn answer_room(p: &Prepared, opts: &Options) -> u64 {
    let by_memory = limits_for(&p.spec, opts).max_memory.map_or(u64::MAX, |m| m / 32);
    MAX_ANSWER_BYTES.min(by_memory)
}

/// About what a line of `moves` takes as an answer's JSON writes it: a move's words and a
/// board after it (a character a cell; a tilt board lists its marbles).
fn answer_bytes(model: &Model, moves: usize) -> u64 {
    let board = match model {
        Model::Hop(m) => m.geo.cells.len(),
        Model::Rewrite(m) => m.geo.cells.len(),
        Model::Slide(m) => m.squares(),
        Model::Tilt(m) => 8 * m.start.len(),
    };
    moves as u64 * (128 + board as u64)
}

/// [`outcome`] before it is checked against an expectation.
fn unjudged(p: &Prepared, opts: &Options, verdict: Verdict, path: &[usize], stats: Stats) -> Outcome {
    // A line too long to hold as an answer gives up, saying how long it is.
    let (bytes, most) = (answer_bytes(&p.model, path.len()), answer_room(p, opts));
    let (verdict, path) = match bytes > most {
        true => {
            let moves = path.len() as u64;
            (
                Verdict::GaveUp(GaveUp::AnswerTooLong { moves, bytes, most }),
                &[][..],
            )
        }
        false => (verdict, path),
    };
    // A hop search that gave up shows a line only as the best it found towards an optimising
    // goal: where a search for a first solution happened to stop is neither an answer nor
    // the nearest one to it.
    let path = match &p.model {
        Model::Hop(m) if matches!(verdict, Verdict::GaveUp(_)) && !best_so_far(m, &verdict) => &[][..],
        _ => path,
    };
    let mut out = Outcome {
        puzzle: p.spec.name.clone(),
        rules: p.script.name.clone(),
        script: Some(p.script.origin.display().to_string()),
        error: None,
        stats,
        spec_hash: (!opts.bare).then(|| crate::fingerprint::hash(&p.spec.source)),
        script_hash: (!opts.bare).then(|| p.script.hash.clone()),
        settings: (!opts.bare).then(|| settings(&p.spec, opts)),
        ..Outcome::error(&p.spec.path.display().to_string(), String::new())
    };
    let solved = verdict == Verdict::Solved;
    let replayed = match &p.model {
        Model::Hop(m) => hop_end(m, path).and_then(|end| {
            out.goal = match (m.goal.pattern, m.goal.at) {
                (Some(g), _) => Some(goal_words(m, g)),
                (None, Some(a)) if m.goal.reach => Some(reach_words(m, a)),
                _ => None,
            };
            out.moves = Line::jumps(path.iter().map(|&i| hop_move(m, i)).collect());
            out.replay = (!opts.bare).then(|| hop_replay(&p.spec, m, path));
            // Pegs left describe an end position: only a solution has one, or a `fewest` search
            // stopped early (its best so far, marked not proven in the reason; the start
            // itself when no move was kept, as the reason says).
            out.pegs_left = (solved || best_so_far(m, &verdict)).then(|| end.count_ones());
            // A line's moves are its chains of one peg's jumps, whatever the goal counts.
            let line = solved || !path.is_empty();
            out.move_count = line.then(|| fewest_moves::count_moves(m, path));
            out.jump_count = line.then_some(path.len() as u32);
            let goal = m.is_goal(
                end,
                match m.goal.pegs {
                    PegGoal::Count(n) => n,
                    PegGoal::Fewest => end.count_ones(),
                },
            );
            match (solved, goal) {
                (true, false) => Err(format!(
                    "its {} jumps leave {} pegs, which is not the goal",
                    path.len(),
                    end.count_ones()
                )),
                _ => Ok(()),
            }
        }),
        Model::Rewrite(m) => rewrite::states(m, path).and_then(|states| {
            let end = states.last().copied().unwrap_or(m.start);
            out.moves = Line::moves(path.iter().map(|&i| rewrite::move_out(m, i)).collect());
            out.replay = (!opts.bare).then(|| rewrite::replay(&p.spec, m, &states));
            out.goal = Some(rewrite::goal_words(m));
            // A fewest-moves search stopped with a line: the line is to the goal too.
            let line = matches!(
                verdict,
                Verdict::GaveUp(GaveUp::UnprovenMoves { best: Some(_), .. })
            );
            let best_so_far =
                line || m.goal.pieces == Some(PegGoal::Fewest) && matches!(verdict, Verdict::GaveUp(_));
            out.pegs_left =
                (solved || best_so_far).then(|| crate::model::rewrite::occupied(&end).count_ones());
            out.move_count = (solved || !path.is_empty()).then_some(path.len() as u32);
            match (solved || line, m.is_goal(&end)) {
                (true, false) => Err(format!("its {} moves do not end at the goal", path.len())),
                _ => Ok(()),
            }
        }),
        Model::Slide(m) => slide::states(m, path).and_then(|states| {
            out.moves = Line::moves(
                (0..path.len())
                    .map(|k| slide::move_out(m, &states, k, path[k]))
                    .collect(),
            );
            out.replay = (!opts.bare).then(|| slide::replay(&p.spec, m, &states));
            out.goal = Some(slide::goal_words(m));
            // Robots never leave the board: the answer says which is on the target instead.
            out.pegs_left = None;
            out.move_count = solved.then_some(path.len() as u32);
            let end = states.last().unwrap_or(&m.start);
            match (solved, m.is_goal(end)) {
                (true, false) => Err(format!("its {} moves do not end at the goal", path.len())),
                _ => Ok(()),
            }
        }),
        Model::Tilt(m) => tilt_states(m, path).and_then(|states| {
            out.moves = Line::moves(
                path.iter()
                    .map(|&d| MoveOut::Tilt {
                        tilt: m.dirs[d].name.clone(),
                    })
                    .collect(),
            );
            out.move_count = (solved || !path.is_empty()).then_some(path.len() as u32);
            let home = states.last().is_some_and(|s| m.is_home(s));
            out.replay = (!opts.bare).then(|| tilt_replay(m, &states));
            match (solved, home) {
                (true, false) if !m.exits.is_empty() => {
                    Err(format!("its {} tilts leave a slider on the board", path.len()))
                }
                (true, false) => Err(format!("its {} tilts leave a marble out of its hole", path.len())),
                _ => Ok(()),
            }
        }),
    };
    if let Err(why) = replayed {
        out.error = Some(format!(
            "{}: internal error: the solution found does not replay to the goal ({why}); please report this bug",
            out.file
        ));
        return out;
    }
    // A solution of an exact search for the fewest moves is its own floor: hop and rewrite
    // searches asked for moves (`moves: N` too, the fewest then held to N), tilts
    // (breadth-first) and robots (iterative deepening on an admissible bound) always.
    let exact = match &p.model {
        Model::Hop(m) => m.goal.moves.is_some(),
        Model::Rewrite(m) => m.goal.moves.is_some(),
        Model::Slide(_) | Model::Tilt(_) => true,
    };
    if solved && exact {
        out.moves_floor = out.move_count;
    }
    match verdict {
        Verdict::Solved => out.status = Status::Solved,
        Verdict::Unsolvable(why) => {
            out.status = Status::Unsolvable;
            out.reason = why;
        }
        Verdict::GaveUp(why) => {
            out.status = Status::GaveUp;
            out.reason = Some(why.to_string());
            match &why {
                GaveUp::Unproven { floor, .. } => out.pegs_floor = *floor,
                GaveUp::UnprovenMoves { least, pegs, .. } => {
                    out.moves_floor = Some(*least);
                    out.pegs_floor = *pegs;
                }
                _ => {}
            }
            out.gave_up = Some(why);
            out.limits = Some(limits_for(&p.spec, opts).describe());
        }
    }
    if out.status == Status::Solved {
        out.rating = out.pegs_left.and_then(|n| rating(&p.spec, n));
    }
    out
}

/// Whether `verdict` is a hop search's give-up with a best so far: an optimising search's
/// line (a fewest-moves search's, where it found one) or a `fewest` search's position.
fn best_so_far(m: &HopModel, verdict: &Verdict) -> bool {
    match verdict {
        // Without a line, no position: the start is no line to the fewest pegs a first
        // search may have proven.
        Verdict::GaveUp(GaveUp::UnprovenMoves { best, .. }) => best.is_some(),
        Verdict::GaveUp(_) => m.goal.pegs == PegGoal::Fewest,
        _ => false,
    }
}

/// A goal board in words: `the goal board: 2 pegs at [0, 1], [2, 2]`.
pub fn goal_words(m: &HopModel, pattern: u128) -> String {
    let cells: Vec<String> = (0..m.geo.cells.len())
        .filter(|&k| pattern >> k & 1 == 1)
        .map(|k| format!("[{}, {}]", m.geo.cells[k][0], m.geo.cells[k][1]))
        .collect();
    let n = cells.len();
    format!(
        "the goal board: {n} peg{} at {}",
        if n == 1 { "" } else { "s" },
        cells.join(", ")
    )
}

/// A reach goal in words: `reach [0, 5]: a peg there, however many are left`.
pub fn reach_words(m: &HopModel, cell: usize) -> String {
    let [r, c] = m.geo.cells[cell];
    format!("reach [{r}, {c}]: a peg there, however many are left")
}

/// Where `path` leads from the model's start, each move checked to be legal where it is made.
pub fn hop_end(m: &HopModel, path: &[usize]) -> std::result::Result<u128, String> {
    let mut s = m.start;
    for (k, &i) in path.iter().enumerate() {
        match m.moves.get(i) {
            Some(mv) if s & mv.mask == mv.need => s ^= mv.mask,
            _ => return Err(format!("move {} cannot be made where it is", k + 1)),
        }
    }
    Ok(s)
}

/// The marble positions a tilt path passes through, from the model's start, each tilt
/// checked to drop no marble into another's hole and no blocker into an exit.
pub fn tilt_states(m: &TiltModel, path: &[usize]) -> std::result::Result<Vec<Vec<model::TiltCell>>, String> {
    let mut occ = vec![NONE; m.geo.cells.len()];
    let mut states = vec![m.start.clone()];
    for (k, &d) in path.iter().enumerate() {
        let here = states.last().filter(|_| d < m.dirs.len());
        match here.and_then(|s| tilt::roll(m, d, s, &mut occ)) {
            Some(next) => states.push(next),
            None => return Err(format!("tilt {} cannot be made where it is", k + 1)),
        }
    }
    Ok(states)
}

/// The rating words for `pegs` left: the entry with the largest count not above it.
pub fn rating(spec: &Spec, pegs: u32) -> Option<String> {
    spec.ratings.range(..=pegs).next_back().map(|(_, w)| w.clone())
}

/// Refuses an order of direction names that is not a permutation of `family`'s directions,
/// naming them; any other order fits every hop model.
pub fn check_order(order: &MoveOrder, m: &HopModel, family: &str) -> std::result::Result<(), String> {
    let MoveOrder::Directions(names) = order else {
        return Ok(());
    };
    let known = if m.directions.is_empty() {
        format!("{family} names no directions")
    } else {
        format!("the directions of {family} are {}", m.directions.join(", "))
    };
    let given = names.join(",");
    for (i, name) in names.iter().enumerate() {
        if !m.directions.contains(name) {
            return Err(format!("--order {given}: unknown direction `{name}`: {known}"));
        }
        if names[..i].contains(name) {
            return Err(format!(
                "--order {given}: `{name}` is named twice: {known}, each once"
            ));
        }
    }
    let missing: Vec<&str> = m
        .directions
        .iter()
        .filter(|d| !names.contains(d))
        .map(String::as_str)
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "--order {given}: {} missing: {known}, each once",
            missing.join(", ")
        ));
    }
    Ok(())
}

/// Move indices in the order the search should try them.
pub fn move_order(m: &HopModel, order: &MoveOrder) -> Vec<usize> {
    let mut v: Vec<usize> = (0..m.moves.len()).collect();
    match order {
        MoveOrder::Script => {}
        MoveOrder::Directions(names) => {
            // A move without a direction, or one not named, goes after its cell's named ones.
            let rank = |i: usize| {
                let name = m.moves[i].dir.map(|d| &m.directions[d]);
                name.and_then(|n| names.iter().position(|x| x == n))
                    .unwrap_or(names.len())
            };
            v.sort_by_key(|&i| (m.moves[i].from, rank(i)));
        }
        MoveOrder::Reverse => v.reverse(),
        MoveOrder::Shuffle(seed) => {
            // SplitMix64 driving a Fisher–Yates shuffle: reproducible across platforms.
            let mut x = *seed;
            let mut next = || {
                x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
                let mut z = x;
                z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
                z ^ (z >> 31)
            };
            for i in (1..v.len()).rev() {
                let j = (next() % (i as u64 + 1)) as usize;
                v.swap(i, j);
            }
        }
    }
    v
}

/// Move `i` of a hop model as users see it.
pub fn hop_move(m: &HopModel, i: usize) -> MoveOut {
    let mv = &m.moves[i];
    let cell = |k: usize| m.geo.cells[k];
    MoveOut::Hop {
        from: cell(mv.from),
        over: match mv.over.as_slice() {
            [one] => Over::One(cell(*one)),
            many => Over::Many(many.iter().map(|&k| cell(k)).collect()),
        },
        to: cell(mv.to),
        dir: mv.dir.map(|d| m.directions[d].clone()),
    }
}

/// The boards a hop path passes through, from `m.start`.
pub fn hop_replay(spec: &Spec, m: &HopModel, path: &[usize]) -> Replay {
    let n = m.geo.cells.len();
    let bits = |s: u128| {
        (0..n)
            .map(|k| if s >> k & 1 == 1 { '1' } else { '0' })
            .collect::<String>()
    };
    let mut s = m.start;
    let mut frames = vec![bits(s)];
    for &i in path {
        s ^= m.moves[i].mask;
        frames.push(bits(s));
    }
    drawn_replay(spec, &m.geo, frames)
}

/// The replay of a drawn board (hop families, pieces of kinds): its shape from `spec` and
/// `geo`, and `frames`, one string a position.
pub fn drawn_replay(spec: &Spec, geo: &model::Geometry, frames: Vec<String>) -> Replay {
    let (widths, walls) = match &spec.board {
        BoardSpec::Grid(g) => (g.rows.iter().map(Vec::len).collect(), g.walls.clone()),
        BoardSpec::Tilt(_) => (Vec::new(), Vec::new()),
    };
    Replay::Hop {
        layout: geo.layout,
        widths,
        cells: geo.cells.clone(),
        pictured: geo.pictured.clone(),
        blocked: geo.blocked.clone(),
        frames,
        walls,
        targets: Vec::new(),
    }
}

/// The boards of a tilt game, one per state.
pub fn tilt_replay(m: &TiltModel, states: &[Vec<model::TiltCell>]) -> Replay {
    let frames = states
        .iter()
        .map(|s| {
            s.iter()
                .map(|&p| (p != model::NO_CELL).then(|| m.geo.cells[p as usize]))
                .collect()
        })
        .collect();
    Replay::Tilt {
        size: m.size,
        walls: m.walls.clone(),
        holes: m.holes.iter().map(|&h| m.geo.cells[h as usize]).collect(),
        exits: m.exits.iter().map(|&h| m.geo.cells[h as usize]).collect(),
        pieces: match m.exits.is_empty() {
            true => String::new(),
            false => m
                .pieces
                .iter()
                .map(|&p| if p == Piece::Blocker { 'b' } else { 's' })
                .collect(),
        },
        frames,
    }
}

/// A hop model from board rows (`o` peg, `.` hole, `#` none, one character each; a leading
/// space is half a step, as in a centred triangle), compiled from in-memory YAML.
pub fn hop_model(rules: &str, rows: &[impl AsRef<str>], goal: &str) -> std::result::Result<HopModel, String> {
    let board: String = rows
        .iter()
        .map(|r| {
            let r = r.as_ref();
            let body = r.trim_start();
            let toks: Vec<String> = body.chars().map(String::from).collect();
            format!("  {}{}\n", &r[..r.len() - body.len()], toks.join(" "))
        })
        .collect();
    let yaml = format!("name: bench\nrules: {rules}\nboard: |2\n{board}goal: {goal}\n");
    let spec = spec::parse(Path::new("bench.yaml"), &yaml).map_err(|d| d.to_string())?;
    match prepare_spec(spec, &Options::default())
        .map_err(|d| d.to_string())?
        .model
    {
        Model::Hop(m) => Ok(m),
        Model::Tilt(_) | Model::Rewrite(_) | Model::Slide(_) => Err("expected a hop family".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prepared(yaml: &str) -> Prepared {
        let spec = spec::parse(Path::new("t.yaml"), yaml).expect("spec");
        prepare_spec(spec, &Options::default()).expect("prepared")
    }

    /// No search is known to claim a false solution; should one, it must become a bug report.
    #[test]
    fn a_solution_that_does_not_replay_to_the_goal_is_an_internal_error() {
        let hop = prepared("rules: peg_hop\nboard: |\n  o o . o\ngoal:\n  pegs: 1\n");
        let opts = Options::default();
        // No moves at all, and a move made where it cannot be.
        for path in [&[][..], &[0, 0][..]] {
            let o = outcome(&hop, &opts, Verdict::Solved, path, Stats::default());
            assert_eq!(o.status, Status::Error);
            let e = o.error.unwrap();
            assert!(
                e.contains("internal error: the solution found does not replay to the goal"),
                "{e}"
            );
            assert!(e.ends_with("please report this bug"), "{e}");
        }
        let tilt = prepared("rules: tilt_roll\nsize: 3\nmarbles: [[0, 0]]\nholes: [[2, 0]]\n");
        let o = outcome(&tilt, &opts, Verdict::Solved, &[], Stats::default());
        assert!(
            o.error
                .unwrap()
                .contains("its 0 tilts leave a marble out of its hole")
        );
    }

    #[test]
    fn figures_come_from_the_replayed_moves() {
        let hop = prepared("rules: peg_hop\nboard: |\n  o o . o\ngoal:\n  pegs: 2\nratings:\n  2: fine\n");
        let Model::Hop(m) = &hop.model else {
            panic!("a hop model")
        };
        let first = (0..m.moves.len()).find(|&i| m.start & m.moves[i].mask == m.moves[i].need);
        let o = outcome(
            &hop,
            &Options::default(),
            Verdict::Solved,
            &[first.unwrap()],
            Stats::default(),
        );
        assert_eq!(
            (o.status, o.pegs_left, o.rating.as_deref()),
            (Status::Solved, Some(2), Some("fine"))
        );
    }
}
