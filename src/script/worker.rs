//! The thread a caller's rule scripts run on: started once per calling thread, kept for the life of the process.
//!
//! A script, and everything it builds, lives and dies on a thread of its own: one metered by
//! the counting allocator (see [`super::alloc`]), with a stack that data nested as deep as
//! the sandbox allows can be walked and dropped on (a rayon worker's 2 MiB could not). Each
//! thread that runs scripts (a batch's workers, `solve`'s main thread) gets one such
//! companion on first use and hands it each run in turn, so its engine and compiled scripts
//! (see `sandbox`) serve every run; starting a thread per run cost more than most runs.

use super::sandbox::{self, Failed};
use super::{RuleTables, Script, ScriptBoard, ScriptLimits};
use crate::diag::Diagnostic;
use std::cell::RefCell;
use std::sync::mpsc;

/// One run asked of the script thread.
struct Job {
    script: Script,
    board: ScriptBoard,
    limits: ScriptLimits,
    reply: mpsc::SyncSender<Result<RuleTables, Failed>>,
}

thread_local! {
    /// This thread's script thread, once started.
    static WORKER: RefCell<Option<mpsc::Sender<Job>>> = const { RefCell::new(None) };
}

fn start() -> std::io::Result<mpsc::Sender<Job>> {
    let (tx, rx) = mpsc::channel::<Job>();
    std::thread::Builder::new()
        .name("rule script".into())
        .stack_size(sandbox::STACK_BYTES)
        .spawn(move || {
            // Ends when the thread it serves is gone (its sender dropped).
            for job in rx {
                let ran = super::run_here(&job.script, job.board, &job.limits);
                let _ = job.reply.send(ran);
            }
        })?;
    Ok(tx)
}

/// Under an address-space cap, held while a script thread exists: one stack's reservation at
/// a time. Two jobs' threads at once passed a 500 MB cap, and a puzzle here or there failed
/// to start its script, as the two happened to meet.
static CAPPED: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Runs `script` on `board` on this thread's script thread, starting it if need be. Under
/// an address-space cap the thread is not kept: its stack's reservation would stay counted
/// against the cap while the search runs (a 300 MiB cap left the search too little), so each
/// run gets a thread of its own, gone before the search starts, and one such thread runs at
/// a time.
pub fn run(script: &Script, board: ScriptBoard, limits: &ScriptLimits) -> Result<RuleTables, Failed> {
    let failed = |why: String| Failed::Script(Diagnostic::new(&script.origin, why));
    if crate::process::address_space_capped() {
        let _one = CAPPED.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        return std::thread::scope(|s| {
            std::thread::Builder::new()
                .name("rule script".into())
                .stack_size(sandbox::STACK_BYTES)
                .spawn_scoped(s, || super::run_here(script, board, limits))
                .map_err(|e| {
                    failed(format!(
                        "cannot start the rule script: its thread's {} stack does not fit under this \
                         process's address-space limit (ulimit -v): {e}",
                        crate::process::human_bytes(sandbox::STACK_BYTES as u64)
                    ))
                })?
                .join()
                .unwrap_or_else(|_| Err(failed("the rule script's thread panicked".into())))
        });
    }
    WORKER.with_borrow_mut(|slot| {
        let sender = match slot {
            Some(s) => s,
            None => slot.insert(start().map_err(|e| failed(format!("cannot start the rule script: {e}")))?),
        };
        let (reply, answer) = mpsc::sync_channel(1);
        let job = Job {
            script: script.clone(),
            board,
            limits: limits.clone(),
            reply,
        };
        let ran = sender.send(job).ok().and_then(|()| answer.recv().ok());
        ran.unwrap_or_else(|| {
            // The thread is gone (a panic): the next run starts another.
            *slot = None;
            Err(failed("the rule script's thread panicked".into()))
        })
    })
}
