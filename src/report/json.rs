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
    /// Why a run that stopped short did (Ctrl-C, `--fail-fast`), and the files it did not run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stopped: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_run: Vec<String>,
}

pub struct Json;

impl Format for Json {
    fn file_name(&self) -> &'static str {
        FILE
    }

    fn render(&self, outcomes: &[Outcome]) -> anyhow::Result<String> {
        Json::listed(outcomes, None, Vec::new())
    }

    /// As any format writes, with a run's stop and the files it did not run as fields.
    fn write(&self, results: &Finished) -> anyhow::Result<String> {
        match &results.every {
            Some(all) => Json::listed(all, results.stopped.clone(), results.not_run.clone()),
            None => self.summarise(results),
        }
    }

    fn summarise(&self, results: &Finished) -> anyhow::Result<String> {
        Json::summarised(results)
    }
}

impl Json {
    /// Every result, and why the run stopped short if it did.
    fn listed(outcomes: &[Outcome], stopped: Option<String>, not_run: Vec<String>) -> anyhow::Result<String> {
        let doc = Summary {
            results: outcomes.to_vec(),
            stopped,
            not_run,
        };
        Ok(serde_json::to_string_pretty(&doc)? + "\n")
    }

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
