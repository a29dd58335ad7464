//! Fuzz target: the YAML spec parser and validator must return an error, never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = marbles::spec::parse(Path::new("fuzz.yaml"), text);
    }
});
