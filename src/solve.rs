//! One puzzle end to end: spec → script → model → search → outcome.

use crate::diag::Result;
use crate::model::{self, HopModel, Model, NONE, TiltModel};
use crate::outcome::{MoveOut, Outcome, Over, Replay, Stats, Status};
use crate::script::{self, RuleTables, Script, ScriptLimits};
use crate::search::invariants::Invariants;
use crate::search::{Budget, Limits, Verdict, dfs, portfolio, tilt};
use crate::spec::{self, BoardSpec, PegGoal, Spec};
use sha2::{Digest, Sha256};
use std::path::Path;
use std::time::Duration;

/// The order a hop search tries moves in.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum MoveOrder {
    /// As the script lists them.
    #[default]
    Script,
    Reverse,
    /// A reproducible shuffle.
    Shuffle(u64),
}

/// How to solve: limits given on the command line win over a spec's `solve:` section.
#[derive(Debug, Clone, Default)]
pub struct Options {
    pub limits: Limits,
    /// Applied when neither the command line nor the spec sets a memory limit.
    pub default_max_memory: Option<u64>,
    pub script: ScriptLimits,
    pub order: MoveOrder,
    /// Find the fewest pegs that can be left, whatever the spec's goal says.
    pub fewest: bool,
}

/// A spec with its script run and its model compiled, ready to search.
pub struct Prepared {
    pub spec: Spec,
    pub script: Script,
    pub tables: RuleTables,
    pub model: Model,
}

/// Reads, validates and compiles a puzzle without searching it.
pub fn prepare(path: &Path, opts: &Options) -> Result<Prepared> {
    prepare_spec(spec::load(path)?, opts)
}

/// Compiles an already-parsed spec (from YAML or another notation).
pub fn prepare_spec(spec: Spec, opts: &Options) -> Result<Prepared> {
    let script = script::resolve(&spec)?;
    prepare_with(spec, script, opts)
}

/// Compiles a spec with a given rule script instead of the one it names (`marbles check
/// x.rhai` tries a script on a sample board).
pub fn prepare_with(mut spec: Spec, script: Script, opts: &Options) -> Result<Prepared> {
    if opts.fewest {
        spec.goal.pegs = Some(PegGoal::Fewest);
    }
    let tables = script::run(&script, &spec, &opts.script)?;
    let model = model::compile(&spec, &script, &tables)?;
    Ok(Prepared {
        spec,
        script,
        tables,
        model,
    })
}

fn hash(text: &str) -> String {
    hex::encode(Sha256::digest(text.as_bytes()))
}

/// The SHA-256 of a spec file's bytes, or `None` if it is not a readable puzzle-sized file
/// (a FIFO would block a plain read forever).
pub fn file_hash(path: &Path) -> Option<String> {
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_file() || meta.len() > spec::MAX_SPEC_BYTES {
        return None;
    }
    std::fs::read(path).ok().map(|b| hex::encode(Sha256::digest(&b)))
}

/// The default memory limit per puzzle: a quarter of the machine's memory, split between jobs.
pub fn default_memory_limit(jobs: usize) -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let kb: u64 = meminfo
        .lines()
        .find(|l| l.starts_with("MemTotal:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()?;
    Some(kb * 1024 / 4 / jobs.max(1) as u64)
}

/// The limits for one puzzle: command line, then spec, then defaults.
pub fn limits_for(spec: &Spec, opts: &Options) -> Limits {
    let s = &spec.limits;
    Limits {
        timeout: opts.limits.timeout.or(s.timeout.map(Duration::from_secs_f64)),
        max_nodes: opts.limits.max_nodes.or(s.max_nodes),
        max_memory: opts
            .limits
            .max_memory
            .or(s.max_memory.map(|b| b.0))
            .or(opts.default_max_memory),
    }
}

/// Searches a prepared puzzle.
pub fn solve_prepared(p: &Prepared, opts: &Options) -> Outcome {
    solve_observed(p, opts, &mut dfs::Quiet)
}

/// Searches a prepared puzzle, reporting hop search events to `obs`.
pub fn solve_observed(p: &Prepared, opts: &Options, obs: &mut impl dfs::Observer) -> Outcome {
    let mut budget = Budget::new(limits_for(&p.spec, opts));
    let mut out = Outcome {
        file: p.spec.path.display().to_string(),
        puzzle: p.spec.name.clone(),
        rules: p.script.name.clone(),
        status: Status::Error,
        reason: None,
        moves: Vec::new(),
        pegs_left: None,
        rating: None,
        error: None,
        stats: Stats::default(),
        limits: None,
        spec_hash: Some(hash(&p.spec.source)),
        script_hash: Some(hash(&p.script.source)),
        replay: None,
        gave_up: None,
    };
    let (verdict, memory) = match &p.model {
        Model::Hop(m) => {
            let order = move_order(m, opts.order);
            let r = hop_search(m, &order, &mut budget, obs);
            out.moves = r.path.iter().map(|&i| hop_move(m, i)).collect();
            // Pegs left describe an end position: only a solution (or `fewest`) has one.
            out.pegs_left = (r.verdict == Verdict::Solved).then(|| r.end.count_ones());
            out.replay = Some(hop_replay(&p.spec, m, &r.path));
            (r.verdict, r.memory)
        }
        Model::Tilt(m) => {
            let r = tilt::solve(m, &mut budget);
            out.moves = r
                .path
                .iter()
                .map(|&d| MoveOut::Tilt {
                    tilt: m.dirs[d].name.clone(),
                })
                .collect();
            out.replay = Some(tilt_replay(m, &r.states));
            (r.verdict, r.memory)
        }
    };
    out.stats = Stats {
        nodes: budget.nodes,
        seconds: budget.elapsed().as_secs_f64(),
        memory_bytes: memory,
    };
    match verdict {
        Verdict::Solved => out.status = Status::Solved,
        Verdict::Unsolvable(why) => {
            out.status = Status::Unsolvable;
            out.reason = why;
        }
        Verdict::GaveUp(why) => {
            out.status = Status::GaveUp;
            out.reason = Some(why.to_string());
            out.gave_up = Some(why);
            out.limits = Some(limits_for(&p.spec, opts).describe());
        }
    }
    if out.status == Status::Solved {
        out.rating = out.pegs_left.and_then(|n| rating(&p.spec, n));
    }
    out
}

/// Refutes the goal by position classes when it can, else searches with every pruning found.
pub fn hop_search(
    m: &HopModel,
    order: &[usize],
    budget: &mut Budget,
    obs: &mut impl dfs::Observer,
) -> dfs::HopResult {
    if let Some(why) = Invariants::find(m).refute(m) {
        return dfs::HopResult {
            verdict: Verdict::Unsolvable(Some(why)),
            path: Vec::new(),
            end: m.start,
            nodes: 0,
            memory: 0,
        };
    }
    portfolio::solve(m, order, budget, obs, portfolio::FIRST_CAP)
}

/// The rating words for `pegs` left: the entry with the largest count not above it.
pub fn rating(spec: &Spec, pegs: u32) -> Option<String> {
    spec.ratings.range(..=pegs).next_back().map(|(_, w)| w.clone())
}

/// Move indices in the order the search should try them.
pub fn move_order(m: &HopModel, order: MoveOrder) -> Vec<usize> {
    let mut v: Vec<usize> = (0..m.moves.len()).collect();
    match order {
        MoveOrder::Script => {}
        MoveOrder::Reverse => v.reverse(),
        MoveOrder::Shuffle(seed) => {
            // SplitMix64 driving a Fisher–Yates shuffle: reproducible across platforms.
            let mut x = seed;
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
    let widths = match &spec.board {
        BoardSpec::Grid(g) => g.rows.iter().map(Vec::len).collect(),
        BoardSpec::Tilt(_) => Vec::new(),
    };
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
    Replay::Hop {
        layout: m.geo.layout,
        widths,
        cells: m.geo.cells.clone(),
        frames,
    }
}

/// The boards of a tilt game, one per state.
pub fn tilt_replay(m: &TiltModel, states: &[Vec<u8>]) -> Replay {
    let frames = states
        .iter()
        .map(|s| {
            s.iter()
                .map(|&p| (p != NONE).then(|| m.geo.cells[p as usize]))
                .collect()
        })
        .collect();
    Replay::Tilt {
        size: m.size,
        walls: m.walls.clone(),
        holes: m.holes.iter().map(|&h| m.geo.cells[h as usize]).collect(),
        frames,
    }
}
