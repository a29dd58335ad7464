#!/usr/bin/env python3
"""Sweeps `--max-memory` over every command and search, and prints the peak RSS each limit allowed.

Each workload needs more memory than the limits swept (or finishes under them): the
default `count` (meet in the middle), `count --all`, `--feasible` and `--positions-only` on
the English edge board; `solve` on a 6x7 board (depth-first and guided turns with endgame
tables); `solve` of the fewest pegs on Diamond 41 with one peg at [1, 4]; `solve
--fewest-moves` on the English central game; `solve` on a 15-wide tilt board (six marbles,
six holes, 90 walls placed with a fixed seed); `batch` of the diamond and tilt puzzles.

The peak is the child's own (`wait4`'s ru_maxrss), the limit `--max-memory` exactly as the
CLI reads it (MB = 10^6 bytes); a peak more than 2 MiB over it is marked OVER and makes the
exit status 1. In a batch the limit bounds each puzzle's tables, not the process (one process
serves every job), so a batch's peak is held against the limit plus what the same batch holds
on a one-move puzzle (its baseline, measured first). Prints a Markdown table (the one in docs/robustness.md), one row a search.

    cargo build --release
    tools/limit_sweep.py                                 # every limit, one run each
    tools/limit_sweep.py --limits 95MB,240MB --runs 3 --only count
"""

import argparse
import os
import random
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIMITS = ["30MB", "50MB", "60MB", "95MB", "200MB", "336MB", "500MB", "1GB"]
SLACK_MIB = 2.0


def bytes_of(limit):
    """`95MB` as the CLI reads it (decimal units), in bytes."""
    units = [("GB", 10**9), ("MB", 10**6), ("KB", 10**3)]
    for unit, size in units:
        if limit.upper().endswith(unit):
            return int(float(limit[: -len(unit)]) * size)
    return int(limit)


def diamond_at_1_4():
    text = open(os.path.join(ROOT, "benches/diamond41.yaml")).read()
    return text.replace("  pegs: fewest\n", "  pegs: fewest\n  at: [1, 4]\n")


def six_by_seven():
    rows = ["o . o o o o o"] + ["o o o o o o o"] * 5
    board = "".join(f"  {r}\n" for r in rows)
    return f"rules: peg_hop\nboard: |\n{board}goal:\n  pegs: 1\n  at: [3, 4]\n"


def tilt15():
    rng = random.Random(15)
    cells = [(r, c) for r in range(15) for c in range(15)]
    picked = rng.sample(cells, 12)
    walls = set()
    while len(walls) < 90:
        r, c = rng.randrange(15), rng.randrange(15)
        dr, dc = rng.choice([(0, 1), (1, 0)])
        if r + dr < 15 and c + dc < 15:
            walls.add(((r, c), (r + dr, c + dc)))
    fmt = lambda cs: "[" + ", ".join(f"[{r},{c}]" for r, c in cs) + "]"
    w = "[" + ", ".join(f"[[{a[0]},{a[1]}],[{b[0]},{b[1]}]]" for a, b in sorted(walls)) + "]"
    return (
        f"rules: tilt_roll\nsize: 15\nmarbles: {fmt(picked[:6])}\n"
        f"holes: {fmt(picked[6:])}\nwalls: {w}\n"
    )


def workloads(tmp):
    files = {"six.yaml": six_by_seven(), "diamond.yaml": diamond_at_1_4(), "tilt15.yaml": tilt15()}
    os.makedirs(os.path.join(tmp, "set"), exist_ok=True)
    os.makedirs(os.path.join(tmp, "tiny"), exist_ok=True)
    with open(os.path.join(tmp, "tiny", "one.yaml"), "w") as f:
        f.write("rules: peg_hop\nboard: |\n  o o .\n")
    for name, text in files.items():
        with open(os.path.join(tmp, name), "w") as f:
            f.write(text)
    for name in ["diamond.yaml", "tilt15.yaml"]:
        with open(os.path.join(tmp, "set", name), "w") as f:
            f.write(files[name])
    edge = os.path.join(ROOT, "puzzles/peg_hop/english_edge.yaml")
    central = os.path.join(ROOT, "puzzles/peg_hop/english_central.yaml")
    t = lambda name: os.path.join(tmp, name)
    return [
        ("count", "`count` (meet in the middle)", ["count", edge]),
        ("count-all", "`count --all` (layer by layer)", ["count", "--all", edge]),
        ("count-feasible", "`count --feasible`", ["count", "--feasible", edge]),
        ("count-positions", "`count --positions-only`", ["count", "--positions-only", edge]),
        ("solve", "`solve`: depth-first, guided, endgame", ["solve", t("six.yaml")]),
        ("fewest", "`solve --fewest`", ["solve", t("diamond.yaml")]),
        ("fewest-moves", "`solve --fewest-moves`", ["solve", "--fewest-moves", central]),
        ("tilt", "`solve`: tilt breadth-first", ["solve", t("tilt15.yaml")]),
        ("batch", "`batch` (diamond and tilt, `-j 1`)", ["batch", t("set"), "--no-report", "-j", "1"]),
    ]


def ending(code, err, out):
    """How a run ended, in one word."""
    text = (err + out).lower()
    if "memory limit" in text:
        return "memory"
    if "time limit" in text:
        return "time"
    if "node limit" in text:
        return "nodes"
    if code == 0:
        return "done"
    if code == 1 and "unsolvable" in text:
        return "done"
    return f"exit {code}"


def run(binary, args, limit, timeout):
    cmd = [binary] + args + ["--max-memory", limit, "--timeout", str(timeout)]
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        child = subprocess.Popen(cmd, stdout=out, stderr=err, cwd=ROOT)
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        said = ending(child.returncode, err.read().decode(errors="replace"), out.read().decode(errors="replace"))
    return usage.ru_maxrss / 1024.0, said


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", default=os.path.join(ROOT, "target/release/marbles"))
    ap.add_argument("--limits", default=",".join(LIMITS))
    ap.add_argument("--runs", type=int, default=1, help="runs per cell; the highest peak is shown")
    ap.add_argument("--timeout", type=int, default=30, help="--timeout for each run, seconds")
    ap.add_argument("--only", default="", help="comma-separated workload keys (default: all)")
    a = ap.parse_args()
    limits = [l for l in a.limits.split(",") if l]
    only = {k for k in a.only.split(",") if k}
    over = 0
    with tempfile.TemporaryDirectory() as tmp:
        loads = [w for w in workloads(tmp) if not only or w[0] in only]
        head = [f"{l} ({bytes_of(l) / 2**20:.1f} MiB)" for l in limits]
        print("| search | " + " | ".join(head) + " |")
        print("|---|" + "---|" * len(limits))
        base, _ = run(a.binary, ["batch", os.path.join(tmp, "tiny"), "--no-report", "-j", "1"], "1GB", a.timeout)
        for key, label, args in loads:
            cells = []
            for limit in limits:
                cap = bytes_of(limit) / 2**20 + (base if key == "batch" else 0)
                peaks = [run(a.binary, args, limit, a.timeout) for _ in range(a.runs)]
                peak = max(p for p, _ in peaks)
                said = "/".join(sorted({s for _, s in peaks}))
                mark = ""
                if peak > cap + SLACK_MIB:
                    mark = " **OVER**"
                    over += 1
                cells.append(f"{peak:.1f}, {said}{mark}")
                print(f"  {key} {limit}: {peak:.1f} MiB ({cap:.1f}), {said}{mark}", file=sys.stderr, flush=True)
            print(f"| {label} | " + " | ".join(cells) + " |", flush=True)
        print(f"\nbatch baseline (a one-move puzzle): {base:.1f} MiB", flush=True)
    sys.exit(1 if over else 0)


if __name__ == "__main__":
    main()
