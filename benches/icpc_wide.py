#!/usr/bin/env python3
"""ICPC "Marble Game" boards up to the contest's 40 × 40, each answer checked against a plain
breadth-first search written here from the problem statement: prints a Markdown table.

    python3 benches/icpc_wide.py [--marbles PATH] [--timeout 60] [--quick]

Each row is a file of random cases (seeded, so every run makes the same ones): N × N boards,
M marbles on cells of their own, M holes, W walls between side-by-side squares. marbles
solves the file (`solve --from icpc --format icpc --timeout T`, one process; wall time and
peak resident memory by GNU time, /usr/bin/time); the Python search answers each case too
(without a limit: it is skipped for rows whose states it cannot hold, marked "not checked"),
and the two must agree case by case on the fewest tilts or "impossible". A case marbles gave
up on is counted apart and not compared. --quick keeps the rows of 3 marbles.
"""
import argparse, collections, os, random, subprocess, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (N, marbles, walls, cases, seed, checked by the Python search)
ROWS = [
    (4, 3, 2, 20, 1, True),
    (15, 3, 28, 20, 1, True),
    (27, 4, 91, 30, 3, True),
    (40, 3, 200, 20, 1, True),
    (40, 5, 300, 10, 7, False),
]
STEPS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}


def cases(n, m, w, count, seed):
    """`count` random cases as (marbles, holes, walls) on an n × n board."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        cells = rng.sample([(r, c) for r in range(n) for c in range(n)], 2 * m)
        walls = set()
        while len(walls) < w:
            r, c = rng.randrange(n), rng.randrange(n)
            if rng.random() < 0.5 and c + 1 < n:
                walls.add((r, c, r, c + 1))
            elif r + 1 < n:
                walls.add((r, c, r + 1, c))
        out.append((cells[:m], cells[m:], sorted(walls)))
    return out


def icpc(n, all_cases):
    lines = []
    for marbles, holes, walls in all_cases:
        lines.append(f"{n} {len(marbles)} {len(walls)}")
        lines += [f"{r} {c}" for r, c in marbles + holes]
        lines += [" ".join(map(str, x)) for x in walls]
    return "\n".join(lines + ["0 0 0"]) + "\n"


def fewest(n, marbles, holes, walls):
    """The fewest tilts that drop every marble into its own hole, or None."""
    blocked = set()
    for a, b, c, d in walls:
        blocked |= {((a, b), (c, d)), ((c, d), (a, b))}
    hole = {h: k for k, h in enumerate(holes)}
    start = []
    for k, p in enumerate(marbles):
        if p in hole and hole[p] != k:
            return None  # on another's hole: it can never leave
        start.append(None if hole.get(p) == k else p)
    start = tuple(start)

    def tilt(state, dr, dc):
        pos = list(state)
        occupied = {p for p in pos if p is not None}
        home = {holes[k] for k, p in enumerate(pos) if p is None}
        for k in sorted((k for k, p in enumerate(pos) if p is not None),
                        key=lambda k: -(pos[k][0] * dr + pos[k][1] * dc)):
            r, c = pos[k]
            occupied.discard((r, c))
            while True:
                nr, nc = r + dr, c + dc
                if not (0 <= nr < n and 0 <= nc < n) or ((r, c), (nr, nc)) in blocked \
                        or (nr, nc) in occupied:
                    break
                r, c = nr, nc
                if (r, c) in hole and (r, c) not in home:
                    if hole[(r, c)] != k:
                        return None
                    home.add((r, c))
                    r = None
                    break
            if r is None:
                pos[k] = None
            else:
                pos[k] = (r, c)
                occupied.add((r, c))
        return tuple(pos)

    if all(p is None for p in start):
        return 0
    seen, queue = {start: 0}, collections.deque([start])
    while queue:
        s = queue.popleft()
        for dr, dc in STEPS.values():
            t = tilt(s, dr, dc)
            if t is None or t in seen:
                continue
            seen[t] = seen[s] + 1
            if all(p is None for p in t):
                return seen[t]
            queue.append(t)
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--marbles", default=os.path.join(ROOT, "target", "release", "marbles"))
    ap.add_argument("--timeout", default="60")
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    print("| cases | marbles | walls | solved | impossible | gave up | agrees with the Python BFS | time | peak |")
    print("|---|--:|--:|--:|--:|--:|---|--:|--:|")
    with tempfile.TemporaryDirectory() as work:
        for n, m, w, count, seed, checked in ROWS:
            if args.quick and m != 3:
                continue
            made = cases(n, m, w, count, seed)
            path = os.path.join(work, f"n{n}_m{m}.icpc")
            with open(path, "w") as f:
                f.write(icpc(n, made))
            peak = os.path.join(work, "peak")
            start = time.monotonic()
            out = subprocess.run(
                ["/usr/bin/time", "-f", "%M", "-o", peak, args.marbles, "solve", "--from", "icpc",
                 path, "--format", "icpc", "--timeout", args.timeout],
                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
            wall = time.monotonic() - start
            with open(peak) as f:
                kib = int(f.read().split()[-1])
            answers = [block.split(": ", 1)[1] for block in out.split("\n\n") if block.strip()]
            solved = sum(a.endswith("moves") for a in answers)
            impossible = sum(a == "impossible" for a in answers)
            gave_up = len(answers) - solved - impossible
            agrees = "not checked"
            if checked:
                wrong = 0
                for a, case in zip(answers, made):
                    if a.startswith("gave up"):
                        continue
                    want = fewest(n, *case)
                    wrong += a != ("impossible" if want is None else f"{want} moves")
                agrees = "every case" if wrong == 0 else f"**{wrong} differ**"
            print(f"| {count} of N = {n} | {m} | {w} | {solved} | {impossible} | {gave_up} | "
                  f"{agrees} | {wall:.2f} s | {kib / 1024:.1f} MiB |")


if __name__ == "__main__":
    main()
