//! Fuzz target: any rule-script text, run on a small board, must end in tables or a located
//! error within the sandbox's limits — never a panic, a hang or unbounded memory.
#![no_main]

use libfuzzer_sys::fuzz_target;
use marbles::script::{self, Script, ScriptLimits};
use std::path::{Path, PathBuf};
use std::time::Duration;

fuzz_target!(|data: &[u8]| {
    let Ok(source) = std::str::from_utf8(data) else { return };
    let spec = marbles::spec::parse(Path::new("fuzz.yaml"), "rules: fuzz\nboard: |\n  o o .\n  . o o\n").unwrap();
    let script = Script { name: "fuzz".into(), origin: PathBuf::from("fuzz.rhai"), source: source.to_string() };
    let limits = ScriptLimits { max_operations: 100_000, timeout: Duration::from_millis(200), ..ScriptLimits::default() };
    if let Ok(tables) = script::run(&script, &spec, &limits) {
        let _ = marbles::model::compile(&spec, &script, &tables);
    }
});
