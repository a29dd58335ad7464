//! What the native model can hold, and the one check each board passes through whatever
//! notation it was read from (YAML, ICPC, or a spec built in code), before any script runs.
//!
//! The limits come from the model's representation: hop positions are `u128` bitboards, tilt
//! cells are `u16` indices with `u16::MAX` meaning "home", up to the ICPC problem's 40 × 40 =
//! 1,600 cells, and a tilt search keeps two bytes per marble in every state it has seen.

/// Hop boards are bitboards of this many cells at most.
pub const MAX_HOP_CELLS: usize = 128;
/// Tilt boards are at most this many cells wide: the ICPC "Marble Game"'s 2 ≤ N ≤ 40.
pub const MAX_TILT_SIZE: usize = 40;
/// The most characters a puzzle's name may have (it is shown in every report row).
pub const MAX_NAME_CHARS: usize = 1000;
/// Tilt boards hold at most this many marbles.
pub const MAX_TILT_MARBLES: usize = 64;

/// A family of pieces has at most this many kinds: a position is one bitboard a kind.
pub const MAX_KINDS: usize = 4;

/// A slide family has at most this many kinds of robot (they cost nothing per position: a
/// position is each robot's square).
pub const MAX_SLIDE_KINDS: usize = 8;

/// A rule table (a script's `moves` or `links`) holds at most this many entries. The sandbox's
/// per-value limits are sized so that a table this long fits (see
/// [`crate::script::ScriptLimits`]); past it the script gets this limit's own message.
pub const MAX_RULE_MOVES: usize = 20_000;

/// A family names at most this many directions. A tilt or slide family's tables and every
/// search's moves grow with each one, and no lattice has more than a few: 40,000 directions
/// on a 40 × 40 tilt board built 2.7 GB of tables before any limit was checked.
pub const MAX_DIRECTIONS: usize = 64;

/// A drawn board holds at most this many squares: slide families keep a robot's square in a
/// `u16`, and a position packs its robots' squares into 64 bits (12 bits a square here).
pub const MAX_DRAWN_CELLS: usize = 4096;

/// Checks a drawn board's hole count before its family is known: the largest any family takes
/// (hop and rewrite families check [`check_hop`] as their model is compiled).
pub fn check_drawn(holes: usize) -> Result<(), String> {
    if holes > MAX_DRAWN_CELLS {
        return Err(format!(
            "the board has {holes} holes; a drawn board may have at most {MAX_DRAWN_CELLS} (hop families and pieces of kinds {MAX_HOP_CELLS}, slide families {MAX_DRAWN_CELLS})"
        ));
    }
    Ok(())
}

/// Checks a hop board's hole count against the bitboard's width.
pub fn check_hop(holes: usize) -> Result<(), String> {
    if holes > MAX_HOP_CELLS {
        return Err(format!(
            "the board has {holes} holes; a drawn board (hop families, pieces of kinds) may have at most {MAX_HOP_CELLS}"
        ));
    }
    Ok(())
}

/// Checks the length of a script's rule table (`what` is `moves` or `links`).
pub fn check_rule_table(what: &str, len: usize) -> Result<(), String> {
    if len > MAX_RULE_MOVES {
        return Err(format!(
            "`{what}` has {len} entries; a rule table may hold at most {MAX_RULE_MOVES}"
        ));
    }
    Ok(())
}

/// The longest time limit accepted, in seconds: a year. Longer ones (and infinities) would
/// overflow the clock arithmetic they are added to; no search wants one.
pub const MAX_TIMEOUT_SECS: f64 = 365.0 * 24.0 * 3600.0;

/// A time limit in seconds, checked: a number from 0 to [`MAX_TIMEOUT_SECS`] (not negative,
/// infinite or NaN). The message is the same for the command line and for YAML.
/// A time written as seconds (`10`, `2.5`) or with a unit (`10s`, `500ms`, `2min`, `1h`), as
/// `solve: timeout:` and `--timeout` take it: the number of seconds, not yet checked by
/// [`seconds`].
pub fn parse_seconds(text: &str) -> Result<f64, String> {
    let t = text.trim();
    if let Ok(n) = t.parse::<f64>() {
        return Ok(n);
    }
    let (number, unit) = t.split_at(t.find(char::is_alphabetic).unwrap_or(t.len()));
    let not_a_time =
        || format!("`{text}` is not a time: give seconds (10, 2.5) or a time such as 500ms, 10s, 2min, 1h");
    if number.trim().is_empty() {
        return Err(not_a_time());
    }
    let scale = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "s" | "sec" | "secs" | "second" | "seconds" => 1.0,
        "ms" => 1e-3,
        "m" | "min" | "mins" | "minute" | "minutes" => 60.0,
        "h" | "hour" | "hours" => 3600.0,
        other => {
            return Err(format!(
                "unknown time unit `{other}` in `{text}`: give seconds (10, 2.5) or a time such as 500ms, 10s, 2min, 1h"
            ));
        }
    };
    number
        .trim()
        .parse::<f64>()
        .map(|n| n * scale)
        .map_err(|_| not_a_time())
}

/// A rule script's time limit: more than 0 (no script runs in no time), else as [`seconds`].
pub fn script_seconds(s: f64) -> Result<std::time::Duration, String> {
    if s == 0.0 {
        return Err(
            "`0` is no time for a rule script: give it more than 0 seconds (2 is the default)".into(),
        );
    }
    seconds(s)
}

/// A time limit in seconds: from 0 to a year.
pub fn seconds(s: f64) -> Result<std::time::Duration, String> {
    if (0.0..=MAX_TIMEOUT_SECS).contains(&s) {
        Ok(std::time::Duration::from_secs_f64(s))
    } else {
        // 1e300 as written, not as three hundred digits.
        let shown = if s.abs() < 1e15 {
            s.to_string()
        } else {
            format!("{s:e}")
        };
        Err(format!(
            "`{shown}` is not a time limit: give seconds from 0 to {MAX_TIMEOUT_SECS} (a year)"
        ))
    }
}

/// The part of a tilt board a limit refused, for readers to locate the message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TiltPart {
    Size,
    Marbles,
}

impl TiltPart {
    /// The YAML key that gives this part.
    pub fn key(self) -> &'static str {
        match self {
            TiltPart::Size => "size",
            TiltPart::Marbles => "marbles",
        }
    }
}

/// Checks a tilt board's size and marble count against the model's limits; the message is
/// the same whichever reader calls it.
pub fn check_tilt(size: i64, marbles: i64) -> Result<(), (TiltPart, String)> {
    if !(1..=MAX_TILT_SIZE as i64).contains(&size) {
        return Err((
            TiltPart::Size,
            format!("size {size} is out of range: tilt boards are 1 to {MAX_TILT_SIZE} cells wide"),
        ));
    }
    let most = (MAX_TILT_MARBLES as i64).min(size * size);
    if !(1..=most).contains(&marbles) {
        return Err((
            TiltPart::Marbles,
            format!("{marbles} marbles: a {size}×{size} tilt board takes 1 to {most}"),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hop_and_table_limits_follow_the_constants() {
        assert!(check_hop(MAX_HOP_CELLS).is_ok());
        assert_eq!(
            check_hop(129).unwrap_err(),
            "the board has 129 holes; a drawn board (hop families, pieces of kinds) may have at most 128"
        );
        assert!(check_rule_table("moves", MAX_RULE_MOVES).is_ok());
        assert_eq!(
            check_rule_table("links", MAX_RULE_MOVES + 1).unwrap_err(),
            "`links` has 20001 entries; a rule table may hold at most 20000"
        );
    }

    #[test]
    fn time_limits_are_finite_and_not_negative() {
        assert_eq!(seconds(1.5), Ok(std::time::Duration::from_millis(1500)));
        assert!(seconds(MAX_TIMEOUT_SECS).is_ok());
        for bad in [-1.0, f64::INFINITY, f64::NAN, 1e300, MAX_TIMEOUT_SECS + 1.0] {
            assert!(seconds(bad).is_err(), "{bad}");
        }
        assert_eq!(
            seconds(-1.0).unwrap_err(),
            "`-1` is not a time limit: give seconds from 0 to 31536000 (a year)"
        );
    }

    #[test]
    fn tilt_limits_follow_the_constants() {
        assert!(check_tilt(MAX_TILT_SIZE as i64, 1).is_ok());
        assert_eq!(
            check_tilt(41, 1).unwrap_err().1,
            "size 41 is out of range: tilt boards are 1 to 40 cells wide"
        );
        assert_eq!(check_tilt(0, 1).unwrap_err().0, TiltPart::Size);
        assert_eq!(
            check_tilt(9, 65).unwrap_err().1,
            "65 marbles: a 9×9 tilt board takes 1 to 64"
        );
        assert_eq!(
            check_tilt(2, 5).unwrap_err().1,
            "5 marbles: a 2×2 tilt board takes 1 to 4"
        );
    }
}
