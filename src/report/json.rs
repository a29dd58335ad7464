//! summary.json: `{"results": [...]}`, one object per puzzle, drawing data included.

use super::Format;
use crate::outcome::Outcome;
use serde::{Deserialize, Serialize};

pub const FILE: &str = "summary.json";

/// The document: an object, so it can grow fields without breaking readers.
#[derive(Debug, Serialize, Deserialize)]
pub struct Summary {
    pub results: Vec<Outcome>,
}

pub struct Json;

impl Format for Json {
    fn file_name(&self) -> &'static str {
        FILE
    }

    fn render(&self, outcomes: &[Outcome]) -> anyhow::Result<String> {
        let doc = Summary {
            results: outcomes.to_vec(),
        };
        Ok(serde_json::to_string_pretty(&doc)? + "\n")
    }
}
