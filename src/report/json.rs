//! summary.json: `{"results": [...]}`, one object per puzzle, drawing data included; for a
//! batch too large to list, `{"results_file": "results.jsonl", "summary": {...}}` instead.

use super::{Finished, Format};
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

    fn summarise(&self, results: &Finished) -> anyhow::Result<String> {
        Json::summarised(results)
    }
}

impl Json {
    /// The summary of a large batch, pointing at the file of every result.
    fn summarised(results: &Finished) -> anyhow::Result<String> {
        #[derive(Serialize)]
        struct Summarised<'a> {
            results_file: Option<&'static str>,
            summary: &'a Finished,
        }
        let doc = Summarised {
            results_file: results.listed.then_some(super::RESULTS_FILE),
            summary: results,
        };
        Ok(serde_json::to_string_pretty(&doc)? + "\n")
    }
}
