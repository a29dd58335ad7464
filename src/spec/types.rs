//! The spec itself: one puzzle as its file describes it ([`Spec`]), its board (hop rows or a
//! tilt box), its goal and its limits. Only plain values and their small helpers live here;
//! reading and checking them is `yaml`, `board` and `tilt`.

use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// A cell as the user writes it: `[row, col]`.
pub type Cell = [i64; 2];

/// One puzzle, as its YAML file describes it.
#[derive(Debug, Clone)]
pub struct Spec {
    pub path: PathBuf,
    pub source: String,
    pub name: String,
    /// The `rules:` value as written.
    pub rules: String,
    pub board: BoardSpec,
    pub goal: GoalSpec,
    pub limits: LimitSpec,
    /// Pegs left → the words for it, e.g. 1 → "genius".
    pub ratings: BTreeMap<u32, String>,
    /// The file asks for the search to be traced, as `--trace` does (a Lisp call's `#t`).
    pub trace: bool,
    /// The line the puzzle starts on, in a file holding several (Lisp, matrix, ICPC): errors
    /// found after reading (its goal, its rule script) name it there.
    pub line: Option<usize>,
    /// `expect:`, what the answer should be (see [`super::expect`]).
    pub expect: Option<super::Expect>,
    /// The line of the comment above a case that gave its `expect:` (Lisp, matrix, ICPC).
    pub expect_line: Option<usize>,
}

impl Spec {
    /// A hop puzzle of a seed's notation (Lisp, matrix): `rows` drawn as a triangle of the
    /// `triangle_hop` family when they are one, else aligned as a `peg_hop` square grid; its
    /// goal, limits and the rest the defaults.
    pub fn of_rows(
        path: &std::path::Path,
        source: String,
        name: String,
        rows: Vec<Vec<Token>>,
        triangle: bool,
    ) -> Self {
        Spec {
            path: path.to_path_buf(),
            source,
            name,
            rules: if triangle { "triangle_hop" } else { "peg_hop" }.into(),
            board: BoardSpec::Grid(match triangle {
                true => GridBoard::triangle(rows),
                false => GridBoard::aligned(rows),
            }),
            goal: GoalSpec::default(),
            limits: LimitSpec::default(),
            ratings: Default::default(),
            trace: false,
            line: None,
            expect: None,
            expect_line: None,
        }
    }
}

/// The board in one of the two shapes families take.
#[derive(Debug, Clone, PartialEq)]
pub enum BoardSpec {
    /// Hop families: rows of tokens.
    Grid(GridBoard),
    /// Tilt families: an N×N box of numbered marbles, holes and walls.
    Tilt(TiltBoard),
}

#[derive(Debug, Clone, PartialEq)]
pub struct GridBoard {
    /// `rows[r][c]`: the token at `[r, c]`.
    pub rows: Vec<Vec<Token>>,
    /// `xs[r][c]`: the character column where the token at `[r, c]` is drawn, leading
    /// spaces included; row `r` is drawn on the board's line `r`.
    pub xs: Vec<Vec<i64>>,
    /// `walls:`, each a wall on the edge between two side-by-side squares (slide families).
    pub walls: Vec<[Cell; 2]>,
}

impl GridBoard {
    /// Its holes: every token but `#`.
    pub fn holes(&self) -> usize {
        self.rows
            .iter()
            .flatten()
            .filter(|t| **t != Token::Blocked)
            .count()
    }

    /// Rows of 1, 2, 3, … tokens drawn as a triangle: centred, one space between tokens.
    pub fn triangle(rows: Vec<Vec<Token>>) -> Self {
        let height = rows.len() as i64;
        let xs = (0..height)
            .zip(&rows)
            .map(|(r, row)| (0..row.len() as i64).map(|c| height - r - 1 + 2 * c).collect())
            .collect();
        GridBoard {
            rows,
            xs,
            walls: Vec::new(),
        }
    }

    /// Rows drawn left-aligned, one space between tokens (a square grid, or a triangle in the
    /// skewed convention the hop families also read).
    pub fn aligned(rows: Vec<Vec<Token>>) -> Self {
        let xs = rows
            .iter()
            .map(|row| (0..row.len() as i64).map(|c| 2 * c).collect())
            .collect();
        GridBoard {
            rows,
            xs,
            walls: Vec::new(),
        }
    }

    /// Row `r` as drawn: each token at its column.
    pub fn drawn_row(&self, r: usize) -> String {
        let mut line = String::new();
        // Every symbol and pad is one char: `width` counts them without rescanning the line.
        let mut width = 0;
        for (t, &x) in self.rows[r].iter().zip(&self.xs[r]) {
            let pad = (x as usize).saturating_sub(width).max(usize::from(width > 0));
            line.extend(std::iter::repeat_n(' ', pad));
            line.push(t.symbol());
            width += pad + 1;
        }
        line
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Token {
    Peg,
    Hole,
    Blocked,
    /// A piece of a kind, drawn as its capital letter (`F`, `T`, `R`, …): for families whose
    /// moves are rewrites (see [`crate::model::rewrite`]); hop families refuse it.
    Piece(u8),
}

impl Token {
    pub fn symbol(self) -> char {
        match self {
            Token::Peg => 'o',
            Token::Hole => '.',
            Token::Blocked => '#',
            Token::Piece(k) => k as char,
        }
    }

    /// Whether the token is a piece of any kind: a peg or a lettered piece.
    pub fn is_piece(self) -> bool {
        matches!(self, Token::Peg | Token::Piece(_))
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct TiltBoard {
    pub size: usize,
    /// Numbered marbles; or, on a board with exits, the sliders then the blockers.
    pub marbles: Vec<Cell>,
    pub holes: Vec<Cell>,
    pub walls: Vec<[Cell; 2]>,
    /// Exit holes: a slider that rolls in leaves the board (empty on a numbered board).
    pub exits: Vec<Cell>,
    /// Each marble's kind, as `marbles`; empty when every marble is numbered.
    pub pieces: Vec<Piece>,
}

/// What a tilt marble is for: its own numbered hole, or an exit that it must or must not take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Piece {
    /// Marble k, which must drop into hole k.
    Numbered,
    /// A marble that must leave the board by an exit.
    Slider,
    /// A marble that must never fall into an exit.
    Blocker,
}

/// What counts as solved.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GoalSpec {
    pub pegs: Option<PegGoal>,
    pub at: Option<Cell>,
    /// `moves:`, a limit on moves, each one peg's chain of jumps.
    pub moves: Option<MoveGoal>,
    /// 1-based line of the goal's `moves:` key, for the commands that cannot hold to it.
    pub moves_line: Option<usize>,
    /// 1-based line of the `at:` key, for errors found once the geometry is known.
    pub at_line: Option<usize>,
    /// `board:`, a drawing of where pegs must stand at the end: the goal is exactly it.
    pub board: Option<GridBoard>,
    /// 1-based line of the goal's `board:` key.
    pub board_line: Option<usize>,
    /// `reach:`, a cell some peg must stand on, however many pegs are left then (Conway's
    /// soldiers): the goal is met the moment a peg lands there.
    pub reach: Option<Cell>,
    /// 1-based line of the goal's `reach:` key.
    pub reach_line: Option<usize>,
    /// `piece:`, the kind (its capital letter) that must stand on the `at:` or `reach:` cell,
    /// for families with kinds.
    pub piece: Option<u8>,
    /// `left:`, how many pieces of each named kind are left at the end (`{R: 1, G: 0}`), for
    /// families with kinds; kinds not named may be left in any number.
    pub left: BTreeMap<u8, u32>,
    /// 1-based line of the goal's `left:` or `piece:` key, for errors found once the family's
    /// kinds are known.
    pub kinds_line: Option<usize>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PegGoal {
    Count(u32),
    Fewest,
}

/// A goal on moves, where a move is one peg's chain of consecutive jumps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoveGoal {
    /// As few moves as possible.
    Fewest,
    /// At most this many moves.
    Within(u32),
}

/// As the goal's `moves:` is written: `fewest`, or the number.
impl std::fmt::Display for MoveGoal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MoveGoal::Fewest => f.write_str("fewest"),
            MoveGoal::Within(n) => write!(f, "{n}"),
        }
    }
}

impl MoveGoal {
    /// The most moves a line meeting the goal may have.
    pub fn most(self) -> u32 {
        match self {
            MoveGoal::Fewest => u32::MAX,
            MoveGoal::Within(n) => n,
        }
    }
}

/// Per-puzzle limits from the spec's `solve:` section; the command line may override them.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a map of `timeout:`, `max_nodes:`, `max_memory:`"
)]
pub struct LimitSpec {
    /// Seconds of wall time: a number, or a time with its unit (`10s`, `2min`).
    #[serde(default, deserialize_with = "timeout")]
    pub timeout: Option<f64>,
    pub max_nodes: Option<u64>,
    /// Bytes, or a size such as `512MB`.
    pub max_memory: Option<ByteSize>,
}

/// `timeout:` as seconds: a number, or text such as `10s` (see [`crate::limits::parse_seconds`]).
pub fn timeout<'de, D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Option<f64>, D::Error> {
    use serde::de::{Error, Visitor};
    struct V;
    impl Visitor<'_> for V {
        type Value = f64;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a time: a number of seconds or e.g. 10s, 2min")
        }
        fn visit_f64<E: Error>(self, n: f64) -> std::result::Result<f64, E> {
            Ok(n)
        }
        fn visit_u64<E: Error>(self, n: u64) -> std::result::Result<f64, E> {
            Ok(n as f64)
        }
        fn visit_i64<E: Error>(self, n: i64) -> std::result::Result<f64, E> {
            Ok(n as f64)
        }
        fn visit_str<E: Error>(self, s: &str) -> std::result::Result<f64, E> {
            crate::limits::parse_seconds(s).map_err(E::custom)
        }
    }
    d.deserialize_any(V).map(Some)
}

/// A byte count written as a number or with a unit (`64KB`, `1.5GiB`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ByteSize(pub u64);

impl std::str::FromStr for ByteSize {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        let t = s.trim();
        let split = t
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(t.len());
        let (num, unit) = t.split_at(split);
        // A count of bytes is read whole: as a float, the largest rounds up past 64 bits.
        if matches!(unit.trim(), "" | "b" | "B")
            && let Ok(n) = num.parse::<u64>()
        {
            return Ok(ByteSize(n));
        }
        let n: f64 = num
            .parse()
            .map_err(|_| format!("`{s}` is not a size: write a number of bytes or e.g. 512MB, 2GiB"))?;
        let mult: f64 = match unit.trim().to_ascii_lowercase().as_str() {
            "" | "b" => 1.0,
            "k" | "kb" => 1e3,
            "kib" => 1024.0,
            "m" | "mb" => 1e6,
            "mib" => 1024.0 * 1024.0,
            "g" | "gb" => 1e9,
            "gib" => 1024.0 * 1024.0 * 1024.0,
            other => {
                return Err(format!(
                    "unknown size unit `{other}` in `{s}`: use B, KB, MB, GB, KiB, MiB or GiB"
                ));
            }
        };
        // Whole bytes, as many as 64 bits hold: `0.5` and `1e30` are no size to hold to
        // (`1.1GB` is, to the nearest byte).
        let bytes = (n * mult).round();
        if (mult == 1.0 && n.fract() != 0.0) || bytes >= u64::MAX as f64 {
            return Err(format!(
                "`{s}` is not a whole number of bytes up to {} (16 EiB)",
                u64::MAX
            ));
        }
        Ok(ByteSize(bytes as u64))
    }
}

impl<'de> Deserialize<'de> for ByteSize {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        number_or_text(
            d,
            "a size: a number of bytes or e.g. 512MB",
            |n| {
                u64::try_from(n)
                    .map(ByteSize)
                    .map_err(|_| format!("`{n}` is not a whole number of bytes up to {} (16 EiB)", u64::MAX))
            },
            str::parse,
        )
    }
}

/// Reads a value written either as a whole number or as text, with errors in the user's
/// terms (`expecting`) rather than serde's (an untagged enum's "did not match any variant").
pub(super) fn number_or_text<'de, D, T>(
    d: D,
    expecting: &'static str,
    number: fn(u128) -> std::result::Result<T, String>,
    text: fn(&str) -> std::result::Result<T, String>,
) -> std::result::Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
{
    use serde::de::{Error, Unexpected, Visitor};
    struct V<T> {
        expecting: &'static str,
        number: fn(u128) -> std::result::Result<T, String>,
        text: fn(&str) -> std::result::Result<T, String>,
    }
    impl<T> Visitor<'_> for V<T> {
        type Value = T;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str(self.expecting)
        }
        fn visit_u64<E: Error>(self, n: u64) -> std::result::Result<T, E> {
            self.visit_u128(n.into())
        }
        fn visit_i64<E: Error>(self, n: i64) -> std::result::Result<T, E> {
            match u64::try_from(n) {
                Ok(n) => self.visit_u64(n),
                Err(_) => Err(E::invalid_value(Unexpected::Signed(n), &self)),
            }
        }
        // YAML reads an integer past 64 bits as 128 bits wide.
        fn visit_u128<E: Error>(self, n: u128) -> std::result::Result<T, E> {
            (self.number)(n).map_err(E::custom)
        }
        fn visit_i128<E: Error>(self, n: i128) -> std::result::Result<T, E> {
            match u128::try_from(n) {
                Ok(n) => self.visit_u128(n),
                Err(_) => Err(E::custom(format!(
                    "invalid value: integer `{n}`, expected {}",
                    self.expecting
                ))),
            }
        }
        fn visit_str<E: Error>(self, s: &str) -> std::result::Result<T, E> {
            (self.text)(s).map_err(E::custom)
        }
    }
    d.deserialize_any(V {
        expecting,
        number,
        text,
    })
}

/// A YAML map whose keys are each written once: a key given twice is refused, as a struct's
/// field given twice is (a plain map keeps the last silently: `ratings:` with `1:` twice, or
/// `expect: {moves: 12, moves: 13}`).
#[derive(Debug, Clone, Default)]
pub(super) struct UniqueMap<K, V>(pub BTreeMap<K, V>);

impl<'de, K, V> Deserialize<'de> for UniqueMap<K, V>
where
    K: Deserialize<'de> + Ord + std::fmt::Display,
    V: Deserialize<'de>,
{
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Keys<K, V>(std::marker::PhantomData<(K, V)>);
        impl<'de, K, V> serde::de::Visitor<'de> for Keys<K, V>
        where
            K: Deserialize<'de> + Ord + std::fmt::Display,
            V: Deserialize<'de>,
        {
            type Value = UniqueMap<K, V>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut a: A) -> Result<Self::Value, A::Error> {
                let mut map = BTreeMap::new();
                while let Some((k, v)) = a.next_entry::<K, V>()? {
                    if map.contains_key(&k) {
                        // The words serde gives a struct's field, which the YAML errors place.
                        return Err(serde::de::Error::custom(format!("duplicate field `{k}`")));
                    }
                    map.insert(k, v);
                }
                Ok(UniqueMap(map))
            }
        }
        d.deserialize_map(Keys(std::marker::PhantomData))
    }
}
