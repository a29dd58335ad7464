//! marbles' integration tests, one binary: each module drives the built `marbles` binary
//! through real puzzle files and asserts real answers.

mod answers;
mod batch;
mod classic;
pub mod cli;
mod exits;
mod expect;
mod fewest;
mod fewest_brute;
mod geometry;
mod goals;
mod hostile;
mod hostile_batch;
mod hostile_files;
mod html;
mod kinds;
mod library;
mod limits;
mod many;
mod messages;
mod play;
mod play_app;
mod play_lines;
mod project;
mod reach;
mod sandbox;
mod search;
mod seeds;
mod shard;
mod soldiers;
mod support;
mod tables;
mod tools;
mod tui;
mod words;
