//! `marbles play` on a terminal: a full-screen board (ratatui + crossterm). The game is an
//! [`App`] changed only by [`App::update`] with an [`Input`] and drawn by [`App::draw`], so
//! tests play it with in-memory inputs and read the screen from a `TestBackend` buffer.

use super::{End, Position, finished, from, legal_moves, lost, pieces_text};
use crate::cmd::ExitCode;
use crate::model::rewrite::occupied;
use crate::model::{Geometry, Model, NONE};
use crate::outcome::{MoveOut, Status};
use crate::render;
use crate::search::tilt::roll;
use crate::solve::{self, Options, Prepared};
use ratatui::Frame;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEventKind, MouseButton, MouseEventKind};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};
use std::collections::VecDeque;
use std::io;
use std::time::Duration;

/// What the player did, from the keyboard or the mouse, or a clock tick.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Input {
    Up,
    Down,
    Left,
    Right,
    /// Enter or space: pick the peg (or piece) under the cursor, or move the picked one there.
    Pick,
    /// A mouse click at a screen position: the cursor goes there and picks.
    Click {
        column: u16,
        row: u16,
    },
    Undo,
    Redo,
    Hint,
    /// Let marbles finish from here, one move a tick.
    Solve,
    Restart,
    /// `q`: quits, asking first when a game is in progress.
    Quit,
    /// Esc: drops a picked peg, else as `q`.
    Back,
    /// Ctrl-C: quits at once.
    Interrupt,
    /// Time passing: the next move of a solve being shown.
    Tick,
    /// A digit key, 1 to 9: which of several moves between the same two holes to make.
    Choose(u8),
}

const KEYS: &str = "arrows move · enter/click pick, again or esc to drop · u undo · r redo · h hint · s solve · x restart · q quit";
const TILT_KEYS: &str = "arrows tilt · u undo · r redo · h hint · s solve · x restart · q quit";

/// Columns between neighbouring holes of a row, and rows between rows of holes.
const CELL_W: u16 = 4;

/// The game on screen: the positions played, the cursor and the picked peg, and a message.
pub struct App<'a> {
    p: &'a Prepared,
    opts: &'a Options,
    history: Vec<Position>,
    redo: Vec<Position>,
    /// Hop puzzles and pieces of kinds: the hole under the cursor, and the peg (or piece)
    /// picked to move.
    cursor: usize,
    picked: Option<usize>,
    /// Moves between the picked hole and the chosen one, when several are legal: each one's
    /// words (`over [0, 1]`) and the position it leads to, chosen by its number.
    choices: Vec<(String, Position)>,
    message: String,
    /// Positions of a solve still to be shown, one per tick.
    playing: VecDeque<Position>,
    /// Where the board was last drawn, to find the hole under a click.
    board: Rect,
    won: bool,
    /// `q` was pressed during a game: a second `q` quits, anything else plays on.
    confirming: bool,
    pub done: bool,
}

impl<'a> App<'a> {
    pub fn new(p: &'a Prepared, opts: &'a Options) -> Self {
        let start = Position::start(&p.model);
        let cursor = (0..128).find(|&k| holds(&start, k)).unwrap_or(0);
        App {
            p,
            opts,
            history: vec![start],
            redo: Vec::new(),
            cursor,
            picked: None,
            choices: Vec::new(),
            message: String::new(),
            playing: VecDeque::new(),
            board: Rect::default(),
            won: false,
            confirming: false,
            done: false,
        }
    }

    fn here(&self) -> &Position {
        self.history.last().expect("the start is never undone")
    }

    /// Whether the player (or the solver) reached the goal.
    pub fn exit_code(&self) -> ExitCode {
        if self.won {
            ExitCode::Solved
        } else {
            ExitCode::Unsolved
        }
    }

    /// The line under the board: what the last input did.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Applies one input.
    pub fn update(&mut self, input: Input) {
        let leaving = matches!(input, Input::Quit | Input::Back | Input::Interrupt);
        if !self.playing.is_empty() && !leaving && input != Input::Tick {
            self.message = "marbles is playing: wait, or q to quit".into();
            return;
        }
        let confirming = std::mem::take(&mut self.confirming);
        if input == Input::Tick {
            self.confirming = confirming;
        }
        // A move being chosen: its number makes it; any other key leaves it unmade and does
        // what it does.
        if input != Input::Tick && !self.choices.is_empty() {
            let choices = std::mem::take(&mut self.choices);
            if let Input::Choose(n) = input {
                match choices.into_iter().nth(usize::from(n).wrapping_sub(1)) {
                    Some((_, next)) => self.play(next),
                    None => self.message = format!("no move {n} to choose: pick again"),
                }
                return;
            }
            self.picked = None;
        }
        let tilt = matches!(self.p.model, Model::Tilt(_));
        match input {
            Input::Interrupt => self.done = true,
            Input::Back if self.picked.is_some() => {
                self.picked = None;
                self.message = "dropped: pick a peg".into();
            }
            // Moves made and the goal not reached: one keystroke must not throw them away.
            Input::Quit | Input::Back if self.history.len() > 1 && !self.won && !confirming => {
                self.confirming = true;
                self.message = "quit and lose this game? q again to quit, any other key plays on".into();
            }
            Input::Quit | Input::Back => self.done = true,
            Input::Tick => {
                if let Some(next) = self.playing.pop_front() {
                    self.step(next);
                }
            }
            Input::Up | Input::Down | Input::Left | Input::Right if tilt => {
                let name = match input {
                    Input::Up => "up",
                    Input::Down => "down",
                    Input::Left => "left",
                    _ => "right",
                };
                self.tilt(name);
            }
            Input::Up | Input::Down | Input::Left | Input::Right => self.walk(input),
            Input::Pick if !tilt => self.pick(self.cursor),
            Input::Click { column, row } if !tilt => {
                if let Some(k) = self.hole_at(column, row) {
                    self.cursor = k;
                    self.pick(k);
                }
            }
            Input::Pick | Input::Click { .. } => self.message = "tilt with the arrow keys".into(),
            Input::Undo => match self.history.len() {
                1 => self.message = "nothing to undo".into(),
                _ => {
                    self.redo.push(self.history.pop().expect("more than the start"));
                    self.after_jump_back("undone");
                }
            },
            Input::Redo => match self.redo.pop() {
                None => self.message = "nothing to redo".into(),
                Some(pos) => {
                    self.history.push(pos);
                    self.after_jump_back("redone");
                }
            },
            Input::Restart => {
                self.history.truncate(1);
                self.redo.clear();
                self.after_jump_back("back at the start");
            }
            Input::Hint | Input::Solve => self.ask_solver(input == Input::Solve),
            Input::Choose(_) => self.message = "no move to choose: pick a peg first".into(),
        }
    }

    fn after_jump_back(&mut self, what: &str) {
        self.picked = None;
        self.won = false;
        self.message = what.into();
    }

    /// Makes a move: the new position joins the history and the redo list is gone.
    fn play(&mut self, next: Position) {
        self.redo.clear();
        self.step(next);
    }

    fn step(&mut self, next: Position) {
        self.history.push(next);
        self.picked = None;
        self.message = match finished(self.p, self.here(), self.history.len() - 1) {
            Some(End { won, words }) => {
                self.won = won;
                words
            }
            None => String::new(),
        };
    }

    fn tilt(&mut self, name: &str) {
        let (Model::Tilt(m), Position::Tilt(s)) = (&self.p.model, self.here()) else {
            return;
        };
        let Some(d) = m.dirs.iter().position(|d| d.name == name) else {
            self.message = format!("this puzzle has no tilt {name}");
            return;
        };
        let mut occ = vec![NONE; m.geo.cells.len()];
        match roll(m, d, s, &mut occ) {
            None => {
                self.message =
                    format!("tilting {name} drops a marble into another marble's hole: not allowed")
            }
            Some(next) if next == *s => self.message = format!("tilting {name} moves no marble: not a move"),
            Some(next) => self.play(Position::Tilt(next)),
        }
    }

    /// Hop moves (or moves of pieces of kinds) from `pos`: (from, to, the position after), and
    /// the cells each takes, which tell apart several moves between the same two holes.
    fn jumps(&self, pos: &Position) -> Vec<(usize, usize, Position, Vec<usize>)> {
        solve::position::legal_moves(&self.p.model, pos)
            .into_iter()
            .filter_map(|(i, _, next)| match &self.p.model {
                Model::Hop(m) => Some((m.moves[i].from, m.moves[i].to, next, m.moves[i].over.clone())),
                Model::Rewrite(m) => Some((m.moves[i].from, m.moves[i].to, next, m.moves[i].takes.clone())),
                _ => None,
            })
            .collect()
    }

    fn pick(&mut self, k: usize) {
        let jumps = self.jumps(self.here());
        let peg = holds(self.here(), k);
        if let Some(from) = self.picked {
            let mut between: Vec<_> = jumps.iter().filter(|(f, t, ..)| *f == from && *t == k).collect();
            if between.len() == 1 {
                self.play(between.remove(0).2.clone());
                return;
            }
            // Several: the player says which, by the pegs each takes.
            if !between.is_empty() {
                let over = |cells: &[usize]| {
                    let cells: Vec<String> = cells.iter().map(|&c| self.cell_text(c)).collect();
                    match cells.is_empty() {
                        true => "taking none".to_string(),
                        false => format!("over {}", cells.join(" ")),
                    }
                };
                self.choices = between
                    .iter()
                    .take(9)
                    .map(|(.., next, cells)| (over(cells), next.clone()))
                    .collect();
                let listed: Vec<String> = self
                    .choices
                    .iter()
                    .enumerate()
                    .map(|(i, (words, _))| format!("{} {words}", i + 1))
                    .collect();
                let moves = match self.p.model {
                    Model::Hop(_) => "jumps",
                    _ => "moves",
                };
                self.message = format!(
                    "{} {moves} go from {} to {} here: press {}",
                    between.len(),
                    self.cell_text(from),
                    self.cell_text(k),
                    listed.join(", ")
                );
                return;
            }
        }
        // A second press on the picked peg puts it down.
        if self.picked == Some(k) {
            self.picked = None;
            self.message = "dropped: pick a peg".into();
            return;
        }
        // The words for a peg that jumps, or for a piece of a kind that moves.
        let (piece, jumps_to, jump, can) = match (&self.p.model, self.here()) {
            (Model::Rewrite(m), Position::Rewrite(s)) => {
                let kind = (0..m.kinds.len()).find(|&i| s[i] >> k & 1 == 1);
                let letter = kind.map_or(String::new(), |i| (m.kinds[i] as char).to_string());
                (letter, "goes", "move", "pick a piece that can move (highlighted)")
            }
            _ => (
                "peg".to_string(),
                "jumps",
                "jump",
                "pick a peg that can jump (highlighted)",
            ),
        };
        if peg && jumps.iter().any(|(f, ..)| *f == k) {
            self.picked = Some(k);
            self.message = format!("{} picked: choose where it {jumps_to}", self.cell_text(k));
        } else if peg {
            self.picked = None;
            self.message = format!("the {piece} at {} cannot {jump}", self.cell_text(k));
        } else {
            self.message = match self.picked {
                Some(from) => format!("{} cannot {jump} to {}", self.cell_text(from), self.cell_text(k)),
                None => can.into(),
            };
        }
    }

    fn cell_text(&self, k: usize) -> String {
        match &self.p.model {
            Model::Hop(m) => format!("[{}, {}]", m.geo.cells[k][0], m.geo.cells[k][1]),
            Model::Rewrite(m) => format!("[{}, {}]", m.geo.cells[k][0], m.geo.cells[k][1]),
            Model::Tilt(_) | Model::Slide(_) => String::new(),
        }
    }

    fn ask_solver(&mut self, finish: bool) {
        let o = solve::solve_prepared(&from(self.p, self.here()), self.opts);
        match o.status {
            Status::Solved if o.moves.is_empty() => self.message = "already solved".into(),
            Status::Solved if !finish => {
                self.message = format!("try: {}", render::move_text(&o.moves[0]));
                if let Some((f, _)) = self.hop_cells(&o.moves[0]) {
                    self.cursor = f;
                    self.picked = Some(f);
                }
            }
            Status::Solved => {
                let mut pos = self.here().clone();
                for mv in o.moves.iter() {
                    let Some(next) = self.after(&pos, mv) else { break };
                    self.playing.push_back(next.clone());
                    pos = next;
                }
                self.redo.clear();
                self.picked = None;
                let from_here = self.history.len() > 1;
                self.message = format!("marbles finishes: {}", render::verdict_from(&o, from_here));
            }
            Status::Unsolvable => self.message = lost(self.p, self.opts, &self.history, o.reason),
            _ => self.message = format!("the solver gave up from here: {}", o.reason.unwrap_or_default()),
        }
    }

    /// A hop move's (or a piece's move's) (from, to) hole indices.
    fn hop_cells(&self, mv: &MoveOut) -> Option<(usize, usize)> {
        let (MoveOut::Hop { from, to, .. } | MoveOut::Step { from, to, .. }) = mv else {
            return None;
        };
        let geo = self.geo()?;
        Some((*geo.index.get(from)?, *geo.index.get(to)?))
    }

    /// The holes of a hop board or of a board of pieces of kinds.
    fn geo(&self) -> Option<&Geometry> {
        match &self.p.model {
            Model::Hop(m) => Some(&m.geo),
            Model::Rewrite(m) => Some(&m.geo),
            Model::Tilt(_) | Model::Slide(_) => None,
        }
    }

    /// The position after the solver's move `mv` from `pos`.
    fn after(&self, pos: &Position, mv: &MoveOut) -> Option<Position> {
        // The move itself, not the first between its two holes: they may differ.
        legal_moves(self.p, pos)
            .into_iter()
            .find(|(text, _)| *text == render::move_text(mv))
            .map(|(_, next)| next)
    }

    /// Hop boards: where hole `k` is drawn, in columns and rows from the board's corner: its
    /// pictured place (half steps across, rows down), as answers and reports draw it.
    fn spot(&self, k: usize) -> (u16, u16) {
        let Some(geo) = self.geo() else {
            return (0, 0);
        };
        let [x, y] = geo.pictured[k];
        // Clamped, not wrapped, on a board drawn wider than any screen.
        let x = x.clamp(0, i64::from(u16::MAX / CELL_W)) as u16;
        (x * CELL_W / 2, y.clamp(0, i64::from(u16::MAX)) as u16)
    }

    fn hole_at(&self, column: u16, row: u16) -> Option<usize> {
        let geo = self.geo()?;
        let (x, y) = (column.checked_sub(self.board.x)?, row.checked_sub(self.board.y)?);
        (0..geo.cells.len()).find(|&k| {
            let (sx, sy) = self.spot(k);
            sy == y && (sx..sx + CELL_W - 1).contains(&x)
        })
    }

    /// Moves the cursor to the nearest hole that way: the nearest row first, then the
    /// nearest column.
    fn walk(&mut self, way: Input) {
        let Some(geo) = self.geo() else { return };
        let (x, y) = self.spot(self.cursor);
        let (x, y) = (i32::from(x), i32::from(y));
        let best = (0..geo.cells.len())
            .filter_map(|k| {
                let (kx, ky) = self.spot(k);
                let (dx, dy) = (i32::from(kx) - x, i32::from(ky) - y);
                let ahead = match way {
                    Input::Up => dy < 0,
                    Input::Down => dy > 0,
                    Input::Left => dy == 0 && dx < 0,
                    _ => dy == 0 && dx > 0,
                };
                ahead.then_some(((dy.abs(), dx.abs()), k))
            })
            .min();
        if let Some((_, k)) = best {
            self.cursor = k;
        }
    }

    /// Draws the whole screen.
    pub fn draw(&mut self, frame: &mut Frame) {
        let keys_text = if matches!(self.p.model, Model::Tilt(_)) {
            TILT_KEYS
        } else {
            KEYS
        };
        // The message and the keys wrap onto a second line on a narrow screen.
        let width = usize::from(frame.area().width.max(1));
        let rows = |text: &str| text.chars().count().div_ceil(width).clamp(1, 2) as u16;
        let [title, board, status, message, keys] = Layout::vertical([
            Constraint::Length(1),
            Constraint::Min(3),
            Constraint::Length(1),
            Constraint::Length(rows(&self.message)),
            Constraint::Length(rows(keys_text)),
        ])
        .areas(frame.area());
        let head = format!("{} ({})", self.p.spec.name, self.p.script.name);
        frame.render_widget(
            Line::from(head).style(Style::new().add_modifier(Modifier::BOLD)),
            title,
        );
        let block = Block::bordered();
        let inner = block.inner(board);
        frame.render_widget(block, board);
        let lines = match (&self.p.model, self.here()) {
            (_, Position::Hop(s)) => {
                let s = *s;
                self.hop_lines(|k| (if s >> k & 1 == 1 { '●' } else { '○' }, None))
            }
            (Model::Rewrite(m), Position::Rewrite(s)) => {
                let colours: Vec<Color> = render::kind_colours(&m.kinds).into_iter().map(colour).collect();
                self.hop_lines(|k| match (0..m.kinds.len()).find(|&i| s[i] >> k & 1 == 1) {
                    Some(i) => (m.kinds[i] as char, Some(colours[i])),
                    None => ('○', None),
                })
            }
            _ => self.tilt_lines(),
        };
        // The board in the middle of its frame (clicks are read against where it is drawn).
        let area = Rect {
            x: inner.x + 1,
            width: inner.width.saturating_sub(1),
            ..inner
        };
        let (w, h) = (
            lines.iter().map(Line::width).max().unwrap_or(0) as u16,
            lines.len() as u16,
        );
        self.board = Rect {
            x: area.x + area.width.saturating_sub(w) / 2,
            y: area.y + area.height.saturating_sub(h) / 2,
            width: w.min(area.width),
            height: h.min(area.height),
        };
        frame.render_widget(Paragraph::new(lines), self.board);
        frame.render_widget(Line::from(self.status()), status);
        let wrapped = |text: &str, colour| {
            Paragraph::new(text.to_string())
                .style(Style::new().fg(colour))
                .wrap(ratatui::widgets::Wrap { trim: true })
        };
        frame.render_widget(wrapped(&self.message, Color::Yellow), message);
        frame.render_widget(wrapped(keys_text, Color::DarkGray), keys);
    }

    /// Pegs (or marbles home) and the rating.
    fn status(&self) -> String {
        match self.here() {
            Position::Hop(s) => {
                let n = s.count_ones();
                let rating = solve::rating(&self.p.spec, n)
                    .map(|r| format!(" · rating: {r}"))
                    .unwrap_or_default();
                // Jumps, counted as such: a move is one peg's chain of them, and `solve` said
                // "12 moves (13 jumps)" where this said "move 13".
                format!(
                    "{n} peg{} left{rating} · jump {}",
                    if n == 1 { "" } else { "s" },
                    self.history.len() - 1
                )
            }
            Position::Tilt(s) => format!(
                "{} of {} marble{} home · tilt {}",
                s.iter().filter(|&&c| c == crate::model::NO_CELL).count(),
                s.len(),
                if s.len() == 1 { "" } else { "s" },
                self.history.len() - 1
            ),
            Position::Rewrite(s) => match &self.p.model {
                Model::Rewrite(m) => format!("{} · move {}", pieces_text(m, s), self.history.len() - 1),
                _ => String::new(),
            },
            Position::Slide(_) => unreachable!("the full-screen game refuses sliding robots"),
        }
    }

    /// A hop board: `●` pegs, `○` holes, the cursor in brackets; pegs that can jump (or,
    /// once one is picked, the holes it can reach) in green, the picked peg in cyan. Pieces of
    /// kinds are `glyph(k)`'s letters in their kind's colour: bold and underlined when they
    /// can move, reversed when picked.
    fn hop_lines(&self, glyph: impl Fn(usize) -> (char, Option<Color>)) -> Vec<Line<'static>> {
        let Some(geo) = self.geo() else {
            return Vec::new();
        };
        let jumps = self.jumps(self.here());
        let lit = |k: usize| match self.picked {
            Some(f) => jumps.iter().any(|(a, b, ..)| *a == f && *b == k),
            None => jumps.iter().any(|(a, ..)| *a == k),
        };
        let rows = self.spot_rows();
        let mut lines: Vec<Vec<Span<'static>>> = vec![Vec::new(); rows];
        let mut order: Vec<usize> = (0..geo.cells.len()).collect();
        order.sort_by_key(|&k| (self.spot(k).1, self.spot(k).0));
        let mut x_at = vec![0u16; rows];
        for k in order {
            let (x, y) = self.spot(k);
            let (y, pad) = (y as usize, x.saturating_sub(x_at[y as usize]));
            lines[y].push(Span::raw(" ".repeat(pad as usize)));
            let (glyph, kind) = glyph(k);
            let text = if k == self.cursor {
                format!("[{glyph}]")
            } else {
                format!(" {glyph} ")
            };
            let bold = Style::new().add_modifier(Modifier::BOLD);
            let style = match (self.picked == Some(k), lit(k), kind) {
                (true, _, None) => bold.fg(Color::Cyan),
                (true, _, Some(c)) => bold.fg(c).add_modifier(Modifier::REVERSED),
                (false, true, None) => bold.fg(Color::Green),
                (false, true, Some(c)) => bold.fg(c).add_modifier(Modifier::UNDERLINED),
                (false, false, c) => c.map_or(Style::new(), |c| Style::new().fg(c)),
            };
            lines[y].push(Span::styled(text, style));
            x_at[y] = x + 3;
        }
        lines.into_iter().map(Line::from).collect()
    }

    fn spot_rows(&self) -> usize {
        let Some(geo) = self.geo() else { return 0 };
        (0..geo.cells.len())
            .map(|k| self.spot(k).1 as usize + 1)
            .max()
            .unwrap_or(0)
    }

    fn tilt_lines(&self) -> Vec<Line<'static>> {
        let (Model::Tilt(m), Position::Tilt(s)) = (&self.p.model, self.here()) else {
            return Vec::new();
        };
        let replay = solve::tilt_replay(m, std::slice::from_ref(s));
        render::board(&replay, 0, None)
            .lines()
            .map(|l| Line::from(l.to_string()))
            .collect()
    }
}

/// Whether hole `k` holds a peg or a piece in `pos` (never, on a tilt board).
fn holds(pos: &Position, k: usize) -> bool {
    match pos {
        Position::Hop(s) => s >> k & 1 == 1,
        Position::Rewrite(s) => occupied(s) >> k & 1 == 1,
        Position::Tilt(_) | Position::Slide(_) => false,
    }
}

/// The terminal colour of a kind's colour name ([`render::KIND_COLOURS`]).
fn colour(name: &str) -> Color {
    match name {
        "green" => Color::Green,
        "yellow" => Color::Yellow,
        "blue" => Color::LightBlue,
        "red" => Color::LightRed,
        "purple" => Color::Magenta,
        _ => Color::Cyan,
    }
}

/// Plays `p` full-screen until the player quits; `Solved` if the goal was reached.
pub fn run(p: &Prepared, opts: &Options) -> io::Result<ExitCode> {
    use ratatui::crossterm::event::{DisableMouseCapture, EnableMouseCapture};
    use ratatui::crossterm::execute;
    let mut terminal = ratatui::init();
    execute!(io::stdout(), EnableMouseCapture)?;
    let mut app = App::new(p, opts);
    let result = (|| -> io::Result<()> {
        while !app.done {
            terminal.draw(|f| app.draw(f))?;
            let input = match event::poll(Duration::from_millis(300))? {
                true => match input_of(event::read()?) {
                    Some(i) => i,
                    None => continue,
                },
                false => Input::Tick,
            };
            if matches!(input, Input::Hint | Input::Solve) {
                app.message = "thinking… (Esc, q or Ctrl-C stops)".into();
                terminal.draw(|f| app.draw(f))?;
                ask_stoppably(&mut app, input)?;
            } else {
                app.update(input);
            }
        }
        Ok(())
    })();
    let _ = execute!(io::stdout(), DisableMouseCapture);
    ratatui::restore();
    result?;
    Ok(app.exit_code())
}

/// The input a terminal event means, if any.
fn input_of(e: Event) -> Option<Input> {
    use ratatui::crossterm::event::KeyModifiers;
    Some(match e {
        Event::Key(k) if k.kind == KeyEventKind::Press => match k.code {
            // Raw mode turns Ctrl-C into a key: it quits, as it would anywhere else.
            KeyCode::Char('c') if k.modifiers.contains(KeyModifiers::CONTROL) => Input::Interrupt,
            KeyCode::Up => Input::Up,
            KeyCode::Down => Input::Down,
            KeyCode::Left => Input::Left,
            KeyCode::Right => Input::Right,
            KeyCode::Enter | KeyCode::Char(' ') => Input::Pick,
            KeyCode::Char('u') | KeyCode::Backspace => Input::Undo,
            KeyCode::Char('r') => Input::Redo,
            KeyCode::Char('h') => Input::Hint,
            KeyCode::Char('s') => Input::Solve,
            KeyCode::Char('x') => Input::Restart,
            KeyCode::Char('q') => Input::Quit,
            KeyCode::Char(d @ '1'..='9') => Input::Choose(d as u8 - b'0'),
            KeyCode::Esc => Input::Back,
            _ => return None,
        },
        Event::Mouse(m) if m.kind == MouseEventKind::Down(MouseButton::Left) => Input::Click {
            column: m.column,
            row: m.row,
        },
        _ => return None,
    })
}

/// Runs a hint or solve on a thread of its own while the keys are still read: quitting keys
/// stop the search (in raw mode Ctrl-C sends no signal), and the game goes on.
fn ask_stoppably(app: &mut App, input: Input) -> io::Result<()> {
    use std::sync::atomic::Ordering;
    let stop = || crate::process::CANCELLED.store(true, Ordering::SeqCst);
    let key = || -> io::Result<Option<Input>> {
        match event::poll(Duration::from_millis(50))? {
            true => Ok(input_of(event::read()?)),
            false => Ok(None),
        }
    };
    let polled = std::thread::scope(|s| {
        let search = s.spawn(|| app.update(input));
        let mut failed = Ok(());
        while !search.is_finished() {
            match key() {
                Ok(Some(Input::Quit | Input::Back | Input::Interrupt)) => stop(),
                Ok(_) => {}
                Err(e) => {
                    // The keys can no longer be read: stop rather than search on unstoppably.
                    stop();
                    failed = Err(e);
                    break;
                }
            }
        }
        let joined = search
            .join()
            .map_err(|_| io::Error::other("the solver's thread panicked"));
        failed.and(joined)
    });
    crate::process::CANCELLED.store(false, Ordering::SeqCst);
    polled
}
