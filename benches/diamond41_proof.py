#!/usr/bin/env python3
"""Proves that no game on the 41-hole diamond from a tip, or from a hole next to the centre,
ends with one peg: `diamond41_proof.c` lists every position a game reaches, jump by jump,
dropping those that a pagoda function of `diamond41_pagodas.txt.xz` (6,565 functions, each
checked against every jump as it is read) shows cannot end on any hole the start's position
class allows; a layer left empty proves it. By the board's symmetry the tip (0, 4) stands for
the four tips and (3, 4) for the four holes next to the centre. `--only control` runs the
same program and certificate where a game does exist, from (6, 4) to a lone peg on (2, 4)
(`marbles solve` finds one): the pruning must keep it.

    python3 benches/diamond41_proof.py [--only tip|centre|control] [--threads N]

Needs gcc with OpenMP. Prints each start's layers as the program goes, then a table: start,
verdict, positions listed, time, peak memory."""
import argparse
import lzma
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
# The holes a lone last peg may hold from either start, by position class: `marbles solve`
# refutes a goal of one peg on any other hole by class at once (docs/benchmarks.md).
FINISHES = "2.4,5.1,5.4,5.7,8.4"
STARTS = {"tip": ((0, 4), FINISHES), "centre": ((3, 4), FINISHES), "control": ((6, 4), "2.4")}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", choices=sorted(STARTS), help="one start")
    ap.add_argument("--threads", type=int, default=os.cpu_count(), help="OpenMP threads")
    a = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as work:
        prog = os.path.join(work, "diamond41_proof")
        subprocess.run(["gcc", "-O3", "-march=native", "-fopenmp", "-o", prog,
                        os.path.join(HERE, "diamond41_proof.c")], check=True)
        pagodas = os.path.join(work, "pagodas.txt")
        with lzma.open(os.path.join(HERE, "diamond41_pagodas.txt.xz")) as f, open(pagodas, "wb") as out:
            out.write(f.read())
        env = dict(os.environ, OMP_NUM_THREADS=str(a.threads))
        chosen = [a.only] if a.only else ["tip", "centre"]
        for name, ((r, c), finishes) in STARTS.items():
            if name not in chosen:
                continue
            print(f"({r}, {c}):", flush=True)
            run = subprocess.Popen([prog, str(r), str(c), finishes, pagodas], env=env,
                                   stdout=subprocess.PIPE, text=True, bufsize=1)
            last = ""
            for line in run.stdout:
                sys.stdout.write(line)
                sys.stdout.flush()
                last = line.strip() or last
            m = re.match(r"proved: no position after (\d+) jumps .*; (\d+) positions in all, ([\d.]+) s, peak (\d+) MiB", last)
            if run.wait() == 0 and m:
                verdict = f"no game ends with one peg (none left after {m[1]} jumps)"
                rows.append((f"({r}, {c})", verdict, f"{int(m[2]):,}", f"{m[3]} s", f"{m[4]} MiB"))
            elif name == "control" and run.returncode == 1:
                rows.append((f"({r}, {c}) to (2, 4)", f"kept, as it must be: {last}", "", "", ""))
            else:
                rows.append((f"({r}, {c})", f"not proved: {last}", "", "", ""))
    print("\n| start | verdict | positions listed | time | peak memory |\n|---|---|--:|--:|--:|")
    for row in rows:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
