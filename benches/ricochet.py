#!/usr/bin/env python3
"""Ricochet Robots side by side with fogleman's C solver, in one run: prints a Markdown table.

    python3 benches/ricochet.py --driver /work/peers/ricochet/driver [--count 1000] [--seed 1]
                                [--chunk 100] [--robots 4] [--marbles target/release/marbles]

Random positions of the original board (the A sides of the four quadrants: random robots, a
random target of the board's 16 coloured ones) come from tools/ricochet.py, as puzzles for
marbles and as lines for the driver. The driver is a few lines of C of one's own around
fogleman/Ricochet's ricochet.c, built outside this repository (see docs/benchmarks.md): it
reads a position a line and prints the fewest moves and the search's microseconds. The two
take turns a chunk at a time (C first, then marbles, then C …) so that load on the machine
falls on both alike. Every move count must agree. Times are each search's own (marbles: the
`seconds` of its JSON stats; C: around its `search` call), summed and as medians, and the
whole processes' wall time beside them.
"""
import argparse, json, os, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--driver", required=True)
    ap.add_argument("--marbles", default=os.path.join(ROOT, "target/release/marbles"))
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--chunk", type=int, default=100)
    ap.add_argument("--robots", type=int, default=4)
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="ricochet-bench-")
    subprocess.run([sys.executable, os.path.join(ROOT, "tools/ricochet.py"), "random", str(a.count),
                    str(a.seed), work, str(a.robots)], check=True)
    lines = open(os.path.join(work, "positions.txt")).read().splitlines()
    files = sorted(f for f in os.listdir(work) if f.endswith(".yaml"))
    c_moves, c_us, m_moves, m_s = [], [], [], []
    c_wall = m_wall = 0.0
    for start in range(0, a.count, a.chunk):
        part = lines[start:start + a.chunk]
        if a.robots == 4:
            t = time.perf_counter()
            out = subprocess.run([a.driver], input="\n".join(part) + "\n", capture_output=True,
                                 text=True, check=True).stdout
            c_wall += time.perf_counter() - t
            for line in out.splitlines():
                n, us = line.split()
                c_moves.append(int(n))
                c_us.append(float(us))
        t = time.perf_counter()
        out = subprocess.run([a.marbles, "solve", "--format", "json", "--timeout", "60"]
                             + [os.path.join(work, f) for f in files[start:start + a.chunk]],
                             capture_output=True, text=True).stdout
        m_wall += time.perf_counter() - t
        for o in json.loads(out):
            m_moves.append(o.get("move_count"))
            m_s.append(o["stats"]["seconds"])
    counts = {}
    for n in m_moves:
        counts[n] = counts.get(n, 0) + 1
    print(f"{a.count} random positions of the A-side board, {a.robots} robots, seed {a.seed}\n")
    print("| solver | positions | same moves | search total s | search median ms | processes wall s |")
    print("|---|---|---|---|---|---|")
    if c_moves:
        same = sum(x == y for x, y in zip(c_moves, m_moves))
        print(f"| fogleman C | {len(c_moves)} | | {sum(c_us) / 1e6:.2f} | {statistics.median(c_us) / 1e3:.3f} "
              f"| {c_wall:.2f} |")
        print(f"| marbles | {len(m_moves)} | {same} | {sum(m_s):.2f} | {statistics.median(m_s) * 1e3:.3f} "
              f"| {m_wall:.2f} |")
        print(f"\nratio marbles / C: search total {sum(m_s) / (sum(c_us) / 1e6):.2f}, "
              f"median {statistics.median(m_s) / (statistics.median(c_us) / 1e6):.2f}, wall {m_wall / c_wall:.2f}")
        bad = [i for i, (x, y) in enumerate(zip(c_moves, m_moves)) if x != y]
        if bad:
            print(f"\nDISAGREE on {len(bad)}: first {files[bad[0]]} C {c_moves[bad[0]]} marbles {m_moves[bad[0]]}")
    else:
        print(f"| marbles | {len(m_moves)} | | {sum(m_s):.2f} | {statistics.median(m_s) * 1e3:.3f} | {m_wall:.2f} |")
    print("\nmoves: " + ", ".join(f"{k}: {v}" for k, v in sorted(counts.items(), key=lambda kv: (kv[0] is None, kv[0] or 0))))
    print(f"longest marbles search {max(m_s):.2f} s")


if __name__ == "__main__":
    main()
