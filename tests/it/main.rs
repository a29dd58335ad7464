//! marbles' integration tests, one binary: each module drives the built `marbles` binary
//! through real puzzle files and asserts real answers.

mod batch;
mod classic;
mod cli;
mod hostile;
mod html;
mod limits;
mod play;
mod search;
mod shard;
mod support;
