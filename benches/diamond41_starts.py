#!/usr/bin/env python3
"""Every single vacancy of the 41-hole diamond, one peg anywhere: prints a Markdown table.

    python3 benches/diamond41_starts.py [--marbles PATH] [--timeout 60] [--max-memory 2GB]
                                        [--only R,C ...]

One row per start (41, or those named by --only): the vacant hole, the verdict, its reason
(the first clause: position class, the exhaustive search's size, or the limit that stopped
it), the wall time and the peak resident memory of the whole `marbles solve` process (GNU
time, /usr/bin/time). Each start is its own puzzle file, benches/diamond41.yaml's board with
that hole empty and `pegs: 1` as the goal, solved under --timeout and --max-memory (the
budget the diamond's starts are held to: 60 s and 2 GB); a solved row's answer has been
replayed by marbles like every answer. The last line counts the verdicts.
"""
import argparse, json, os, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIZE = 9
MIDDLE = SIZE // 2


def holes():
    """The diamond's holes, row by row: |r - 4| + |c - 4| <= 4."""
    return [(r, c) for r in range(SIZE) for c in range(SIZE)
            if abs(r - MIDDLE) + abs(c - MIDDLE) <= MIDDLE]


def puzzle(vacant):
    rows = []
    for r in range(SIZE):
        cells = []
        for c in range(SIZE):
            if abs(r - MIDDLE) + abs(c - MIDDLE) > MIDDLE:
                cells.append("#")
            else:
                cells.append("." if (r, c) == vacant else "o")
        rows.append("  " + " ".join(cells))
    board = "\n".join(rows)
    return (f"name: Diamond 41 from {list(vacant)}\nrules: peg_hop\nboard: |\n{board}\n"
            "goal:\n  pegs: 1\n")


def timed(cmd):
    """Runs cmd; returns (stdout, wall seconds, peak RSS bytes)."""
    with tempfile.NamedTemporaryFile("r") as peak:
        start = time.monotonic()
        out = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", peak.name] + cmd,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        wall = time.monotonic() - start
        kb = int(peak.read().split()[-1])
    return out.stdout, wall, kb * 1024


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--marbles", default=os.path.join(ROOT, "target", "release", "marbles"))
    ap.add_argument("--timeout", default="60")
    ap.add_argument("--max-memory", default="2GB")
    ap.add_argument("--only", nargs="*", default=None, help="starts as R,C")
    args = ap.parse_args()
    starts = holes()
    if args.only:
        starts = [tuple(int(x) for x in s.split(",")) for s in args.only]
    print("| start | verdict | reason | time | peak memory |")
    print("|---|---|---|---:|---:|")
    tally = {}
    with tempfile.TemporaryDirectory() as work:
        for v in starts:
            path = os.path.join(work, f"diamond41_{v[0]}_{v[1]}.yaml")
            with open(path, "w") as f:
                f.write(puzzle(v))
            out, wall, peak = timed([args.marbles, "solve", path, "--format", "json",
                                     "--timeout", args.timeout, "--max-memory", args.max_memory])
            try:
                o = json.loads(out)[0]
                status, reason = o["status"], o.get("reason") or ""
            except (ValueError, LookupError):
                status, reason = "error", out.strip()[:60]
            tally[status] = tally.get(status, 0) + 1
            first = reason.split(";")[0]
            print(f"| [{v[0]}, {v[1]}] | {status} | {first} | {wall:.2f} s | "
                  f"{peak / 2**20:.0f} MiB |", flush=True)
    print()
    print(", ".join(f"{n} {s}" for s, n in sorted(tally.items())))


if __name__ == "__main__":
    sys.exit(main())
