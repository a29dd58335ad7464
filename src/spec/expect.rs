//! `expect:`, what a puzzle file says its answer is, so that a collection runs as a test suite:
//! `unsolvable`, `solved`, and for a solution its moves, jumps and pegs left (`18 moves, 1 peg`;
//! on a hop board a move is one peg's chain of jumps, so `31 jumps` counts the single jumps).
//!
//! A YAML puzzle writes it as a key (`expect: unsolvable`, `expect: 13 moves, 1 peg`, or the map
//! `expect: {moves: 13, pegs: 1}`); a Lisp, matrix or ICPC file, which has no keys, as a
//! comment on the line or lines just above a case (`; expect: unsolvable`, `# expect: …`).
//! A search that gives up has no answer, so `gave up` is refused as an expectation.

use crate::diag::plural;
use serde::Deserialize;

/// What a puzzle is expected to come to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expect {
    /// Proved to have no solution.
    Unsolvable,
    /// Solved, in this many moves (on a hop board, chains of one peg's jumps), this many jumps
    /// (hop boards only) and with this many pegs left, where given.
    Solved {
        moves: Option<u32>,
        jumps: Option<u32>,
        pegs: Option<u32>,
        /// The moves were written as tilts (`12 tilts`), which only a tilt board makes.
        tilts: bool,
    },
}

impl Expect {
    /// The expectation in words, as the reports show it: `unsolvable`, `solved`,
    /// `solved: 13 moves, 1 peg` (`5 tilts` where it was written so).
    pub fn words(self) -> String {
        match self {
            Expect::Unsolvable => "unsolvable".into(),
            Expect::Solved {
                moves,
                jumps,
                pegs,
                tilts,
            } => {
                let mut parts = Vec::new();
                let move_noun = if tilts { "tilt" } else { "move" };
                let counted = [(moves, move_noun), (jumps, "jump"), (pegs, "peg")];
                for (n, noun) in counted {
                    if let Some(n) = n {
                        parts.push(plural(n as usize, noun));
                    }
                }
                match parts.is_empty() {
                    true => "solved".into(),
                    false => format!("solved: {}", parts.join(", ")),
                }
            }
        }
    }
}

/// The values `expect:` takes, for messages.
pub const EXPECT_VALUES: &str = "`unsolvable`, `solved`, or a solution's moves, jumps and pegs left such as `10 moves, 1 peg` or `13 jumps`";

/// Reads an expectation written as text: `unsolvable`, `solved`, `13 moves`, `13 jumps`,
/// `1 peg`, `solved, 10 moves, 13 jumps, 1 peg` (commas or spaces between the parts, in any case).
pub fn parse_words(text: &str) -> Result<Expect, String> {
    let t = text.trim().to_ascii_lowercase();
    let words: Vec<&str> = t
        .split(|c: char| c == ',' || c == ':' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .collect();
    let refuse = || {
        format!(
            "expect: `{}` is not an expectation: write {EXPECT_VALUES}",
            text.trim()
        )
    };
    match words.as_slice() {
        // `impossible`: the word the ICPC problem's output uses for it.
        ["unsolvable"] | ["impossible"] => return Ok(Expect::Unsolvable),
        ["gave", "up"] | ["gave_up"] | ["gives", "up"] => {
            return Err(format!(
                "expect: `{}` is not an expectation: a search that gives up has no answer to check \
                 (raise its limits, or leave `expect:` out); write {EXPECT_VALUES}",
                text.trim()
            ));
        }
        [] => return Err(refuse()),
        _ => {}
    }
    let (mut moves, mut jumps, mut pegs, mut tilts) = (None, None, None, false);
    let mut rest = words.as_slice();
    if let ["solved", tail @ ..] = rest {
        rest = tail;
    }
    while let [n, unit, tail @ ..] = rest {
        let n: u32 = n.parse().map_err(|_| refuse())?;
        tilts |= matches!(*unit, "tilt" | "tilts");
        let slot = match *unit {
            // A tilt is a move, as `solve` calls a tilt board's moves.
            "move" | "moves" | "tilt" | "tilts" => &mut moves,
            "jump" | "jumps" => &mut jumps,
            "peg" | "pegs" => &mut pegs,
            _ => return Err(refuse()),
        };
        if slot.replace(n).is_some() {
            return Err(refuse());
        }
        rest = tail;
    }
    match rest {
        [] => Ok(Expect::Solved {
            moves,
            jumps,
            pegs,
            tilts,
        }),
        _ => Err(refuse()),
    }
}

/// `expect:` as YAML writes it: text, or a map of `moves:`, `jumps:` and `pegs:`.
/// What `expect:` written without a value is told.
pub(super) const NO_VALUE: &str = "expect: has no value: write `unsolvable`, `solved`, text such as \
     `10 moves, 1 peg`, or a map of `moves:`, `jumps:` and `pegs:` (or leave the key out)";

/// A present key, even with no value: `Some(None)` for `key:` or `key: ~`.
pub(super) fn present<'de, D, T>(d: D) -> Result<Option<Option<T>>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(d).map(Some)
}

pub(super) enum RawExpect {
    Text(String),
    Map(std::collections::BTreeMap<String, serde_yaml::Value>),
}

/// Text or a map, read by hand rather than as an untagged enum: that one's error hid its
/// variants' own (a key given twice read as "not an expectation").
impl<'de> Deserialize<'de> for RawExpect {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Either;
        impl<'de> serde::de::Visitor<'de> for Either {
            type Value = RawExpect;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str(
                    "`unsolvable`, `solved`, text such as `10 moves, 1 peg`, or a map of `moves:`, `jumps:` and `pegs:`",
                )
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<RawExpect, E> {
                Ok(RawExpect::Text(v.to_string()))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, a: A) -> Result<RawExpect, A::Error> {
                let map =
                    super::types::UniqueMap::deserialize(serde::de::value::MapAccessDeserializer::new(a))?;
                Ok(RawExpect::Map(map.0))
            }
        }
        d.deserialize_any(Either)
    }
}

impl RawExpect {
    pub(super) fn read(self) -> Result<Expect, String> {
        match self {
            RawExpect::Text(t) => parse_words(&t),
            // `expect: {}` states nothing, as `expect:` alone does.
            RawExpect::Map(map) if map.is_empty() => Err(NO_VALUE.to_string()),
            RawExpect::Map(map) => {
                const KEYS: [&str; 4] = ["moves", "jumps", "pegs", "tilts"];
                let (mut moves, mut jumps, mut pegs) = (None, None, None);
                let tilts = map.contains_key("tilts");
                for (key, value) in map {
                    let slot = match key.as_str() {
                        "moves" | "tilts" => &mut moves,
                        "jumps" => &mut jumps,
                        "pegs" => &mut pegs,
                        _ => {
                            return Err(format!(
                                "expect: `{key}` is not a key of an expectation: {}the keys are {}",
                                crate::diag::did_you_mean(&key, &KEYS),
                                KEYS.join(", ")
                            ));
                        }
                    };
                    let n = value
                        .as_u64()
                        .and_then(|n| u32::try_from(n).ok())
                        .ok_or_else(|| {
                            format!("expect: `{key}` must be a whole number, not `{}`", shown(&value))
                        })?;
                    if slot.replace(n).is_some() {
                        return Err("expect: `moves` and `tilts` both count moves: keep one".into());
                    }
                }
                Ok(Expect::Solved {
                    moves,
                    jumps,
                    pegs,
                    tilts,
                })
            }
        }
    }
}

/// A YAML value in one line, for messages.
fn shown(v: &serde_yaml::Value) -> String {
    serde_yaml::to_string(v)
        .map(|s| s.trim().replace('\n', " "))
        .unwrap_or_default()
}

/// The expectation written in a comment just above line `line` (1-based) of `source`, which
/// starts at byte `at`, in a file whose comments start with `;` or `#`: the nearest line of the
/// run of comment lines above it (blank lines between them and the case allowed) that reads
/// `expect: …`, in any case. `Ok(None)` when there is none; the reason and the comment's line
/// when it cannot be read, or when a comment's first word is a near miss of `expect:` (such a
/// typo must not drop the expectation silently). Only the lines above it that are comments or
/// blank are read (a file of 300,000 cases is read once, not once a case).
pub fn in_comment_above(
    source: &str,
    at: usize,
    line: usize,
) -> Result<Option<(Expect, usize)>, (String, usize)> {
    let mut run = comments_above(source, at, line);
    while let Some((n, body)) = run.next() {
        if let Some(value) = expect_comment(body).map_err(|why| (why, n))? {
            let found = parse_words(value).map_err(|why| (why, n))?;
            // A second one above it in the same run would be dropped: refused instead.
            if let Some((other, _)) = run.find(|(_, b)| matches!(expect_comment(b), Ok(Some(_)))) {
                return Err((
                    format!("two `expect:` comments above one case, at lines {other} and {n}: keep one"),
                    n,
                ));
            }
            return Ok(Some((found, n)));
        }
    }
    Ok(None)
}

/// The line numbers of the comments just above line `line` (at byte `at`) of `source`: those
/// [`in_comment_above`] reads for the case there.
pub fn comment_lines_above(source: &str, at: usize, line: usize) -> Vec<usize> {
    comments_above(source, at, line).map(|(n, _)| n).collect()
}

/// The comment lines (each line number and text, from its `;` or `#`) of the run of comment
/// and blank lines that ends just above byte `at`, line `line` of `source`, nearest first.
fn comments_above(source: &str, at: usize, line: usize) -> impl Iterator<Item = (usize, &str)> {
    let (mut end, mut n) = (at, line);
    std::iter::from_fn(move || {
        while end > 0 && n > 1 {
            let before = &source[..end - 1];
            let start = before.rfind('\n').map_or(0, |i| i + 1);
            n -= 1;
            end = start;
            let text = before[start..].trim();
            if text.is_empty() {
                continue;
            }
            if !text.starts_with([';', '#']) {
                end = 0; // the run ends at the first line that is no comment
                return None;
            }
            return Some((n, text));
        }
        None
    })
}

/// The value of a comment (the line from its `;` or `#`) that reads `expect: …` (any case),
/// `Ok(None)` for any other comment, and the reason for one whose first word is a near miss of
/// `expect:` (`expext:`), told in the file's own comment mark.
pub fn expect_comment(comment: &str) -> Result<Option<&str>, String> {
    let mark = if comment.starts_with('#') { '#' } else { ';' };
    let body = comment.trim_start_matches([';', '#']).trim();
    let Some((word, value)) = body.split_once(':') else {
        return Ok(None);
    };
    let word = word.trim().to_ascii_lowercase();
    if word == "expect" {
        return Ok(Some(value));
    }
    let near = !word.contains(char::is_whitespace) && strsim::levenshtein(&word, "expect") <= 2;
    match near {
        true => Err(format!(
            "`{}:` is not `expect:`: write the expectation as `{mark} expect: {}`",
            body.split_once(':').map_or("", |(w, _)| w.trim()),
            value.trim()
        )),
        false => Ok(None),
    }
}

/// Byte offsets of line starts, found moving forwards only: each case of a file starts on a
/// later line than the one before, so finding them all reads the file once.
#[derive(Debug, Default)]
pub struct Lines {
    line: usize,
    at: usize,
}

impl Lines {
    /// Where line `line` (1-based) of `source` starts.
    pub fn start(&mut self, source: &str, line: usize) -> usize {
        if self.line == 0 || line < self.line {
            *self = Lines { line: 1, at: 0 };
        }
        while self.line < line {
            match source[self.at..].find('\n') {
                Some(i) => self.at += i + 1,
                None => return source.len(),
            }
            self.line += 1;
        }
        self.at
    }
}

/// Whether an answer meets `expect`: its status, and for a solution its moves and pegs left.
pub fn met(
    expect: Expect,
    solved: bool,
    unsolvable: bool,
    moves: usize,
    jumps: Option<usize>,
    pegs: Option<u32>,
) -> bool {
    match expect {
        Expect::Unsolvable => unsolvable,
        Expect::Solved {
            moves: m,
            jumps: j,
            pegs: p,
            ..
        } => {
            solved
                && m.is_none_or(|m| m as usize == moves)
                && j.is_none_or(|j| jumps == Some(j as usize))
                && p.is_none_or(|p| pegs == Some(p))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_read_back_to_what_they_say() {
        assert_eq!(parse_words("unsolvable"), Ok(Expect::Unsolvable));
        assert_eq!(
            parse_words("Solved"),
            Ok(Expect::Solved {
                moves: None,
                jumps: None,
                pegs: None,
                tilts: false
            })
        );
        assert_eq!(
            parse_words("solved, 10 moves, 13 jumps, 1 peg"),
            Ok(Expect::Solved {
                moves: Some(10),
                jumps: Some(13),
                pegs: Some(1),
                tilts: false
            })
        );
        assert_eq!(
            parse_words("2 pegs"),
            Ok(Expect::Solved {
                moves: None,
                jumps: None,
                pegs: Some(2),
                tilts: false
            })
        );
        let words = Expect::Solved {
            moves: Some(10),
            jumps: Some(13),
            pegs: None,
            tilts: false,
        }
        .words();
        assert_eq!(parse_words(&words).map(Expect::words), Ok(words));
        assert_eq!(
            parse_words("winnable"),
            Err("expect: `winnable` is not an expectation: write `unsolvable`, `solved`, or a solution's moves, \
                 jumps and pegs left such as `10 moves, 1 peg` or `13 jumps`"
                .into())
        );
        assert_eq!(parse_words("Impossible"), Ok(Expect::Unsolvable));
        assert!(parse_words("1 peg 2 pegs").is_err());
        assert!(parse_words("13 hops").is_err());
        assert!(
            parse_words("gave up")
                .unwrap_err()
                .contains("a search that gives up has no answer")
        );
    }

    #[test]
    fn a_comment_above_a_case_is_its_expectation() {
        let src = "1 1 0\n0 0\n0 0\n; the second one cannot be done\n; expect: unsolvable\n3 2 2\n";
        let mut lines = Lines::default();
        let mut above = |line| in_comment_above(src, lines.start(src, line), line);
        assert_eq!(above(1), Ok(None));
        assert_eq!(above(3), Ok(None));
        assert_eq!(above(6), Ok(Some((Expect::Unsolvable, 5))));
        assert_eq!(
            in_comment_above("# expect: never\n[1]\n", 16, 2).unwrap_err().1,
            1
        );
    }
}
