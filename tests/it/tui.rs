//! `marbles play` on a real (pseudo-)terminal, driven through tmux: the full-screen board
//! comes up, keys move and jump a peg, `q` leaves. Skipped, saying so, where tmux is absent.

use crate::support::root;
use std::process::Command;
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

#[test]
fn the_full_screen_board_plays_in_a_terminal() {
    if Command::new("tmux").arg("-V").output().is_err() {
        println!("note: tmux is not installed; the terminal run of `marbles play` was skipped");
        return;
    }
    let socket = format!("marbles-test-{}", std::process::id());
    let cmd = format!(
        "cd {} && {} play puzzles/triangle_hop/corner.yaml; echo exit=$?; sleep 30",
        root().display(),
        env!("CARGO_BIN_EXE_marbles")
    );
    tmux(
        &socket,
        &["new-session", "-d", "-s", "play", "-x", "100", "-y", "40", &cmd],
    );
    let pane = wait_for(&socket, "14 pegs left");
    let result = std::panic::catch_unwind(|| {
        assert!(pane.contains("Triangle corner (triangle_hop)"), "{pane}");
        assert!(pane.contains("       [●]  ●"), "{pane}");
        // Down to [2, 0], pick it, up twice to [0, 0], jump.
        for key in ["Down", "Enter", "Up", "Up", "Enter"] {
            tmux(&socket, &["send-keys", "-t", "play", key]);
            sleep(Duration::from_millis(150));
        }
        let pane = wait_for(&socket, "13 pegs left");
        assert!(
            pane.contains("13 pegs left · rating: mental midget · move 1"),
            "{pane}"
        );
        assert!(pane.contains("[●]"), "{pane}");
        tmux(&socket, &["send-keys", "-t", "play", "q"]);
        let pane = wait_for(&socket, "exit=");
        assert!(
            pane.contains("exit=1"),
            "quitting before the goal is not a win: {pane}"
        );
    });
    tmux(&socket, &["kill-server"]);
    if let Err(e) = result {
        std::panic::resume_unwind(e);
    }
}
