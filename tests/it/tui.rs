//! `marbles play` on a real (pseudo-)terminal, driven through tmux: the full-screen board
//! comes up, keys move and jump a peg, `q` leaves; Ctrl-C stops a long hint, then quits.
//! Skipped, saying so, where tmux is absent.

use crate::support::root;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread::sleep;
use std::time::{Duration, Instant};

/// tmux on a socket of this test's own, so no one else's sessions are touched.
fn tmux(socket: &str, args: &[&str]) -> String {
    let out = Command::new("tmux")
        .args(["-L", socket, "-f", "/dev/null"])
        .args(args)
        .output()
        .expect("run tmux");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Waits until the pane shows `text`; returns the pane.
fn wait_for(socket: &str, text: &str) -> String {
    let start = Instant::now();
    loop {
        let pane = tmux(socket, &["capture-pane", "-p", "-t", "play"]);
        if pane.contains(text) || start.elapsed() > Duration::from_secs(20) {
            return pane;
        }
        sleep(Duration::from_millis(100));
    }
}

/// Plays `puzzle` in a tmux session of its own and hands its socket to `body`; the session
/// goes however `body` ends. Skipped, saying so, where tmux is absent.
fn in_terminal(puzzle: &str, body: impl FnOnce(&str) + std::panic::UnwindSafe) {
    in_terminal_running(&format!("play {puzzle}"), body)
}

/// Runs `marbles ARGS` (a shell line: redirections work) from the crate root in a tmux
/// session of its own, then as [`in_terminal`].
fn in_terminal_running(args: &str, body: impl FnOnce(&str) + std::panic::UnwindSafe) {
    if Command::new("tmux").arg("-V").output().is_err() {
        println!("note: tmux is not installed; the terminal run of `marbles {args}` was skipped");
        return;
    }
    static SESSIONS: AtomicUsize = AtomicUsize::new(0);
    let n = SESSIONS.fetch_add(1, Ordering::Relaxed);
    let socket = format!("marbles-test-{}-{n}", std::process::id());
    let cmd = format!(
        "cd {} && {} {args}; echo exit=$?; sleep 30",
        root().display(),
        env!("CARGO_BIN_EXE_marbles")
    );
    tmux(
        &socket,
        &["new-session", "-d", "-s", "play", "-x", "100", "-y", "40", &cmd],
    );
    let result = std::panic::catch_unwind(|| body(&socket));
    tmux(&socket, &["kill-server"]);
    if let Err(e) = result {
        std::panic::resume_unwind(e);
    }
}

#[test]
fn the_full_screen_board_plays_in_a_terminal() {
    in_terminal("puzzles/triangle_hop/corner.yaml", |socket| {
        let pane = wait_for(socket, "14 pegs left");
        assert!(pane.contains("Triangle corner (triangle_hop)"), "{pane}");
        assert!(pane.contains("       [●]  ●"), "{pane}");
        // Esc puts a picked peg down, and the game goes on.
        for key in ["Down", "Enter", "Escape"] {
            tmux(socket, &["send-keys", "-t", "play", key]);
            sleep(Duration::from_millis(150));
        }
        let pane = wait_for(socket, "dropped");
        assert!(pane.contains("dropped: pick a peg"), "{pane}");
        // Pick [2, 0] again, up twice to [0, 0], jump.
        for key in ["Enter", "Up", "Up", "Enter"] {
            tmux(socket, &["send-keys", "-t", "play", key]);
            sleep(Duration::from_millis(150));
        }
        let pane = wait_for(socket, "13 pegs left");
        assert!(
            pane.contains("13 pegs left · rating: mental midget · jump 1"),
            "{pane}"
        );
        assert!(pane.contains("[●]"), "{pane}");
        // A game in progress: `q` asks first, a second `q` quits.
        tmux(socket, &["send-keys", "-t", "play", "q"]);
        let pane = wait_for(socket, "lose this game");
        assert!(
            pane.contains("quit and lose this game? q again to quit, any other key plays on"),
            "{pane}"
        );
        tmux(socket, &["send-keys", "-t", "play", "q"]);
        let pane = wait_for(socket, "exit=");
        assert!(
            pane.contains("exit=1"),
            "quitting before the goal is not a win: {pane}"
        );
    });
}

#[test]
fn pieces_of_kinds_are_drawn_by_their_letters_and_moved_with_the_keys() {
    in_terminal("puzzles/frogs_toads/frogs_toads_3.yaml", |socket| {
        let pane = wait_for(socket, "6 pieces (3 F, 3 T) · move 0");
        assert!(pane.contains("[F]  F   F   ○   T   T   T "), "{pane}");
        // Right twice to the frog at [0, 2], pick it, right to the hole, move there.
        for key in ["Right", "Right", "Enter"] {
            tmux(socket, &["send-keys", "-t", "play", key]);
            sleep(Duration::from_millis(150));
        }
        let pane = wait_for(socket, "picked");
        assert!(pane.contains("[0, 2] picked: choose where it goes"), "{pane}");
        for key in ["Right", "Enter"] {
            tmux(socket, &["send-keys", "-t", "play", key]);
            sleep(Duration::from_millis(150));
        }
        let pane = wait_for(socket, "· move 1");
        assert!(pane.contains(" F   F   ○  [F]  T   T   T "), "{pane}");
        // Each kind in its own colour: frogs green (SGR 32 or 256-colour 2), toads yellow.
        let coloured = tmux(socket, &["capture-pane", "-p", "-e", "-t", "play"]);
        let sgr = |letter: &str| {
            let at = coloured.find(&format!(" {letter} ")).expect(letter);
            coloured[..at]
                .rsplit("\x1b[")
                .next()
                .unwrap_or_default()
                .to_string()
        };
        assert!(matches!(sgr("F").as_str(), "38;5;2m" | "32m"), "{coloured:?}");
        assert!(matches!(sgr("T").as_str(), "38;5;3m" | "33m"), "{coloured:?}");
        // A move made: `q` asks, and a second one quits.
        tmux(socket, &["send-keys", "-t", "play", "q"]);
        wait_for(socket, "lose this game");
        tmux(socket, &["send-keys", "-t", "play", "q"]);
        let pane = wait_for(socket, "exit=");
        assert!(pane.contains("exit=1"), "{pane}");
    });
}

#[test]
fn ctrl_c_stops_a_long_hint_then_quits() {
    // The diamond from its tip: no search of marbles ends it (a hint on Wiegleb's 45 holes
    // came back in a tenth of a second, before a Ctrl-C sent under load).
    let dir = tempfile::tempdir().unwrap();
    let puzzle = dir.path().join("tip.yaml");
    std::fs::write(&puzzle, crate::support::diamond41_from_tip()).unwrap();
    in_terminal(&puzzle.display().to_string(), |socket| {
        wait_for(socket, "40 pegs left");
        tmux(socket, &["send-keys", "-t", "play", "h"]);
        let pane = wait_for(socket, "thinking");
        assert!(pane.contains("thinking… (Esc, q or Ctrl-C stops)"), "{pane}");
        tmux(socket, &["send-keys", "-t", "play", "C-c"]);
        let pane = wait_for(socket, "gave up");
        assert!(
            pane.contains("the solver gave up from here: interrupted"),
            "{pane}"
        );
        assert!(!pane.contains("exit="), "stopping a hint keeps the game: {pane}");
        tmux(socket, &["send-keys", "-t", "play", "C-c"]);
        let pane = wait_for(socket, "exit=");
        assert!(pane.contains("exit=1"), "{pane}");
    });
}

#[test]
fn a_long_fewest_solve_shows_the_best_so_far_on_the_terminal() {
    // Diamond 41, centre empty, the fewest pegs with one at [1, 4]: beams find 3, then the
    // search for 2 (impossible there) runs to the time limit. The answer goes to a file;
    // stderr, the terminal, shows the progress line, counting only positions with a peg at
    // [1, 4] (others reach 2).
    let dir = tempfile::tempdir().unwrap();
    let plain = std::fs::read_to_string(root().join("benches/diamond41.yaml")).unwrap();
    let yaml = dir.path().join("p.yaml");
    let fewest = plain.replace("  pegs: fewest\n", "  pegs: fewest\n  at: [1, 4]\n");
    std::fs::write(&yaml, fewest).unwrap();
    let out = dir.path().join("out.txt");
    let args = format!("solve {} --timeout 6 > {}", yaml.display(), out.display());
    in_terminal_running(&args, |socket| {
        let pane = wait_for(socket, "fewest pegs so far 3");
        assert!(pane.contains(" M nodes ("), "{pane}");
        assert!(pane.contains("fewest pegs so far 3"), "{pane}");
        // Until the end, never 2: those positions have no peg at [1, 4].
        let started = Instant::now();
        let pane = loop {
            let pane = tmux(socket, &["capture-pane", "-p", "-t", "play"]);
            assert!(!pane.contains("so far 2"), "{pane}");
            if pane.contains("exit=") || started.elapsed() > Duration::from_secs(30) {
                break pane;
            }
            sleep(Duration::from_millis(100));
        };
        assert!(pane.contains("exit=1"), "{pane}");
        assert!(
            !pane.contains("fewest pegs so far"),
            "the line is erased at the end: {pane}"
        );
    });
    let answer = std::fs::read_to_string(&out).unwrap();
    assert!(
        answer.contains("gave up, 3 pegs left: time limit (6.000 s); best found so far 3 pegs, at least 2"),
        "{answer}"
    );
}

#[test]
fn the_full_screen_board_refuses_sliding_robots_saying_to_pipe_the_moves_in() {
    in_terminal("puzzles/ricochet/red_circle.yaml", |socket| {
        let pane = wait_for(socket, "exit=");
        // One message, which the pane wraps at its width: the full-screen game, not `play`,
        // refuses.
        let text: String = pane.lines().collect();
        assert!(
            text.contains(
                "has sliding robots, which the full-screen `marbles play` does not play yet: pipe the moves in"
            ),
            "{pane}"
        );
        assert!(pane.contains("exit=2"), "{pane}");
    });
}
