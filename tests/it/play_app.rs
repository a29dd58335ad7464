//! `marbles play`'s full-screen app driven in memory: inputs in, the screen read from a
//! `TestBackend` buffer.

use marbles::cmd::ExitCode;
use marbles::cmd::play::tui::{App, Input};
use marbles::solve::{self, Options, Prepared};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::style::{Color, Modifier, Style};
use std::path::Path;

fn prepared(puzzle: &str) -> Prepared {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(puzzle);
    solve::prepare(&path, &Options::default()).expect("shipped puzzle")
}

/// The app drawn on a 90×14 test terminal.
fn drawn(app: &mut App) -> ratatui::buffer::Buffer {
    let mut t = Terminal::new(TestBackend::new(90, 14)).unwrap();
    t.draw(|f| app.draw(f)).unwrap();
    t.backend().buffer().clone()
}

/// The screen as text, one line per row, trailing spaces dropped.
fn screen(app: &mut App) -> String {
    let buf = drawn(app);
    (0..buf.area.height)
        .map(|y| {
            let row: String = (0..buf.area.width)
                .map(|x| buf[(x, y)].symbol().to_string())
                .collect();
            row.trim_end().to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The style of the first place `text` is drawn.
fn style_at(app: &mut App, text: &str) -> Style {
    let buf = drawn(app);
    let s = screen(app);
    let (y, line) = s.lines().enumerate().find(|(_, l)| l.contains(text)).expect(text);
    let x = line[..line.find(text).unwrap()].chars().count();
    buf[(x as u16, y as u16)].style()
}

/// The screen after `n` ticks of a solve being shown.
fn ticked(app: &mut App, n: usize) -> String {
    for _ in 0..n {
        app.update(Input::Tick);
    }
    screen(app)
}

#[test]
fn a_picked_peg_is_dropped_and_quitting_a_game_in_progress_asks_first() {
    let opts = Options::default();
    let p = prepared("puzzles/triangle_hop/corner.yaml");
    let mut app = App::new(&p, &opts);
    // At the start nothing is lost: q quits at once.
    app.update(Input::Quit);
    assert!(app.done);
    let mut app = App::new(&p, &opts);
    app.update(Input::Down);
    app.update(Input::Pick);
    app.update(Input::Back);
    assert_eq!((app.message(), app.done), ("dropped: pick a peg", false));
    app.update(Input::Pick);
    app.update(Input::Pick);
    assert_eq!((app.message(), app.done), ("dropped: pick a peg", false));
    // Jump [2, 0] over [1, 0] to [0, 0]: a game in progress.
    for i in [Input::Pick, Input::Up, Input::Up, Input::Pick] {
        app.update(i);
    }
    app.update(Input::Quit);
    assert!(!app.done);
    assert_eq!(
        app.message(),
        "quit and lose this game? q again to quit, any other key plays on"
    );
    app.update(Input::Left);
    app.update(Input::Quit);
    assert!(!app.done, "another key played on: asked again");
    app.update(Input::Quit);
    assert!(app.done);
    let mut app = App::new(&p, &opts);
    app.update(Input::Interrupt);
    assert!(app.done, "Ctrl-C quits at once");
}

#[test]
fn keys_pick_a_peg_and_a_target_and_undo_redo_walk_the_history() {
    let opts = Options::default();
    let p = prepared("puzzles/triangle_hop/corner.yaml");
    let mut app = App::new(&p, &opts);
    let start = screen(&mut app);
    // The cursor starts on the first peg, [1, 0]; [2, 0] below it can jump up to [0, 0].
    // The board's rows, drawn in the middle of the frame: its indentation taken off.
    let rows: Vec<&str> = start
        .lines()
        .map(|l| l.trim_matches('│').trim_end())
        .filter(|l| l.contains(['●', '○']))
        .collect();
    let indent = rows
        .iter()
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    let rows: Vec<&str> = rows.iter().map(|l| &l[indent..]).collect();
    assert_eq!(
        rows,
        [
            "        ○",
            "     [●]  ●",
            "    ●   ●   ●",
            "  ●   ●   ●   ●",
            "●   ●   ●   ●   ●"
        ]
    );
    // Centred: as much room on the left of the widest row as on its right, give or take one.
    let widest = start.lines().find(|l| l.contains("●   ●   ●   ●   ●")).unwrap();
    let inside = widest.trim_matches('│');
    let room = |s: &str| inside.chars().count() - s.chars().count();
    let (left, right) = (room(inside.trim_start()), room(inside.trim_end()));
    assert!(left > 10 && left.abs_diff(right) <= 2, "{widest:?}");
    assert!(
        start.contains("\n14 pegs left · rating: mental midget · jump 0\n"),
        "{start}"
    );
    app.update(Input::Down);
    app.update(Input::Pick);
    assert_eq!(app.message(), "[2, 0] picked: choose where it jumps");
    // Only [0, 0] is lit as a target now.
    assert_eq!(style_at(&mut app, "○").fg, Some(Color::Green));
    app.update(Input::Up);
    app.update(Input::Up);
    app.update(Input::Pick);
    let after = screen(&mut app);
    assert!(
        after.contains("13 pegs left · rating: mental midget · jump 1"),
        "{after}"
    );
    app.update(Input::Undo);
    assert!(screen(&mut app).contains("14 pegs left · rating: mental midget · jump 0"));
    app.update(Input::Redo);
    assert!(screen(&mut app).contains("13 pegs left · rating: mental midget · jump 1"));
    app.update(Input::Redo);
    assert_eq!(app.message(), "nothing to redo");
}

#[test]
fn a_click_picks_and_jumps() {
    let opts = Options::default();
    let p = prepared("puzzles/triangle_hop/corner.yaml");
    let mut app = App::new(&p, &opts);
    let s = screen(&mut app);
    let at = |s: &str, row: usize, nth: usize| {
        let line = s.lines().nth(row).unwrap();
        let x = line
            .char_indices()
            .filter(|(_, c)| *c == '●' || *c == '○')
            .nth(nth)
            .unwrap()
            .0;
        (line[..x].chars().count() as u16, row as u16)
    };
    // The board's first row (the hole [0, 0]) is where the board is centred; two rows below
    // it are [2, 0] [2, 1] [2, 2].
    let top = s.lines().position(|l| l.contains(['●', '○'])).unwrap();
    let (c, r) = at(&s, top + 2, 2);
    app.update(Input::Click { column: c, row: r });
    assert_eq!(app.message(), "[2, 2] picked: choose where it jumps");
    let (c, r) = at(&s, top, 0);
    app.update(Input::Click { column: c, row: r });
    assert!(screen(&mut app).contains("13 pegs left · rating: mental midget · jump 1"));
}

#[test]
fn solve_from_here_plays_the_rest_one_tick_at_a_time_and_wins() {
    let opts = Options::default();
    let p = prepared("puzzles/triangle_hop/corner.yaml");
    let mut app = App::new(&p, &opts);
    app.update(Input::Solve);
    assert_eq!(
        app.message(),
        "marbles finishes: solved in 12 moves (13 jumps), 1 peg left (genius)"
    );
    app.update(Input::Tick);
    assert!(screen(&mut app).contains("13 pegs left · rating: mental midget · jump 1"));
    for _ in 0..12 {
        app.update(Input::Tick);
    }
    let end = screen(&mut app);
    assert!(end.contains("1 peg left · rating: genius · jump 13"), "{end}");
    assert!(end.contains("solved: 1 peg left (genius)"), "{end}");
    assert_eq!(app.exit_code(), ExitCode::Solved);
    // After a jump of the player's, the count is from where the game stands.
    let mut app = App::new(&p, &opts);
    for key in [
        Input::Down,
        Input::Pick,
        Input::Up,
        Input::Up,
        Input::Pick,
        Input::Solve,
    ] {
        app.update(key);
    }
    assert_eq!(
        app.message(),
        "marbles finishes: solved from here in 11 moves (12 jumps), 1 peg left (genius)"
    );
}

#[test]
fn pieces_of_kinds_show_their_colours_and_the_solver_finishes_with_them() {
    let opts = Options::default();
    let p = prepared("puzzles/frogs_toads/frogs_toads_3.yaml");
    let mut app = App::new(&p, &opts);
    assert!(screen(&mut app).contains("[F]  F   F   ○   T   T   T"));
    // The frog at [0, 2] and the toad at [0, 4] can move: underlined in their colours.
    let toad = style_at(&mut app, " T   T   T");
    assert_eq!(toad.fg, Some(Color::Yellow));
    assert_eq!(toad.add_modifier, Modifier::BOLD | Modifier::UNDERLINED);
    let frog = style_at(&mut app, " F ");
    assert_eq!(
        (frog.fg, frog.add_modifier),
        (Some(Color::Green), Modifier::empty())
    );
    app.update(Input::Pick);
    assert_eq!(app.message(), "the F at [0, 0] cannot move");
    app.update(Input::Right);
    app.update(Input::Right);
    app.update(Input::Pick);
    assert_eq!(app.message(), "[0, 2] picked: choose where it goes");
    assert!(
        style_at(&mut app, "[F]")
            .add_modifier
            .contains(Modifier::REVERSED)
    );
    for key in [Input::Right, Input::Right, Input::Right, Input::Pick] {
        app.update(key);
    }
    assert_eq!(app.message(), "the T at [0, 5] cannot move");
    for key in [Input::Left, Input::Left, Input::Pick] {
        app.update(key);
    }
    assert_eq!(app.message(), "pick a piece that can move (highlighted)");
    for key in [Input::Left, Input::Pick, Input::Right, Input::Pick] {
        app.update(key);
    }
    assert!(screen(&mut app).contains("6 pieces (3 F, 3 T) · move 1"));
    app.update(Input::Undo);
    // A click picks the toad at [0, 4], a second one moves it to the hole at [0, 3].
    let s = screen(&mut app);
    let (row, line) = s.lines().enumerate().find(|(_, l)| l.contains(" T ")).unwrap();
    let column = |nth: usize| {
        let x = line
            .char_indices()
            .filter(|(_, c)| "FT○".contains(*c))
            .nth(nth)
            .unwrap()
            .0;
        line[..x].chars().count() as u16
    };
    let (toad, hole, row) = (column(4), column(3), row as u16);
    app.update(Input::Click { column: toad, row });
    assert_eq!(app.message(), "[0, 4] picked: choose where it goes");
    app.update(Input::Click { column: hole, row });
    assert!(screen(&mut app).contains(" F   F   F  [T]  ○   T   T"));
    app.update(Input::Undo);
    app.update(Input::Solve);
    assert_eq!(
        app.message(),
        "marbles finishes: solved in 15 moves, proven the fewest, 6 pieces left"
    );
    let end = ticked(&mut app, 15);
    assert!(end.contains(" T   T   T  [○]  F   F   F"), "{end}");
    assert!(end.contains("solved in 15 moves: 6 pieces (3 F, 3 T)"), "{end}");
    assert_eq!(app.exit_code(), ExitCode::Solved);
}

#[test]
fn a_tilt_that_moves_nothing_is_not_a_move() {
    let opts = Options::default();
    let p = prepared("puzzles/tilt_roll/four_by_four.yaml");
    let mut app = App::new(&p, &opts);
    for key in [Input::Left, Input::Left] {
        app.update(key);
    }
    assert_eq!(app.message(), "tilting left moves no marble: not a move");
    assert!(screen(&mut app).contains("· tilt 1"));
    for key in [Input::Down, Input::Up, Input::Right, Input::Down] {
        app.update(key);
    }
    let end = screen(&mut app);
    assert!(end.contains("3 of 3 marbles home · tilt 5"), "{end}");
    assert!(end.contains("solved: every marble is home"), "{end}");
}

#[test]
fn of_two_jumps_between_the_same_holes_the_player_chooses_by_number() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("two.rhai"), crate::play::TWO_WAYS).unwrap();
    let puzzle = dir.path().join("both.yaml");
    std::fs::write(&puzzle, "rules: ./two.rhai\nboard: |\n  o o .\n  # o #\n").unwrap();
    let opts = Options::default();
    let p = solve::prepare(&puzzle, &opts).expect("puzzle");
    let mut app = App::new(&p, &opts);
    // The cursor starts on [0, 0]: pick it, then [0, 2] two holes right.
    app.update(Input::Pick);
    app.update(Input::Right);
    app.update(Input::Right);
    app.update(Input::Pick);
    assert_eq!(
        app.message(),
        "2 jumps go from [0, 0] to [0, 2] here: press 1 over [0, 1], 2 over [1, 1]"
    );
    // Time passing keeps the question; the second is taken, [0, 1] keeps its peg.
    app.update(Input::Tick);
    app.update(Input::Choose(2));
    let s = screen(&mut app);
    assert!(s.contains("2 pegs"), "{s}");
    // Any other key leaves the jump unmade, and does what it does.
    app.update(Input::Undo);
    app.update(Input::Left);
    app.update(Input::Left);
    app.update(Input::Pick);
    app.update(Input::Right);
    app.update(Input::Right);
    app.update(Input::Pick);
    app.update(Input::Restart);
    assert_eq!(app.message(), "back at the start");
    // marbles finishing shows its own jump, not the first between the same two holes.
    let goal = dir.path().join("goal.yaml");
    std::fs::write(
        &goal,
        "rules: ./two.rhai\nboard: |\n  o o .\n  # o #\ngoal:\n  board: |\n    . o o\n    # . #\n",
    )
    .unwrap();
    let g = solve::prepare(&goal, &opts).expect("puzzle");
    let mut finish = App::new(&g, &opts);
    finish.update(Input::Solve);
    let s = ticked(&mut finish, 2);
    assert_eq!(finish.exit_code(), ExitCode::Solved, "{s}");
    app.update(Input::Choose(1));
    assert_eq!(app.message(), "no move to choose: pick a peg first");
    assert!(screen(&mut app).contains("3 pegs"));
}

#[test]
fn every_key_is_named_on_a_screen_narrower_than_the_keys_line() {
    let opts = Options::default();
    let p = prepared("puzzles/triangle_hop/corner.yaml");
    let mut app = App::new(&p, &opts);
    let s = screen(&mut app);
    // 90 columns: the keys take two lines, the last ones on the second.
    assert!(s.contains("x restart · q quit"), "{s}");
    assert!(s.contains("arrows move · enter/click pick"), "{s}");
}
