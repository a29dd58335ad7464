//! Fuzz target: the Lisp peg-list and ICPC marble-game readers must return specs or located
//! errors, never panic — and every spec they accept must compile with its rule script.
#![no_main]

use libfuzzer_sys::fuzz_target;
use marbles::formats::{icpc, lisp};
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let opts = marbles::solve::Options::default();
    if let Ok(spec) = lisp::parse(Path::new("fuzz.lisp"), text) {
        let _ = marbles::solve::prepare_spec(spec, &opts);
    }
    if let Ok(specs) = icpc::parse(Path::new("fuzz.icpc"), text) {
        for spec in specs.into_iter().take(4) {
            let _ = marbles::solve::prepare_spec(spec, &opts);
        }
    }
});
