#!/usr/bin/env python3
"""Many small puzzles, side by side with the anchors, in one run: prints a Markdown table.

    python3 benches/many_small.py [--runs 5] [--anchors ../shared/anchors] [--million]
                                  [--before OLD_MARBLES] [--quick] [--work DIR]

Rows (each timed as whole processes, A and B taking turns, medians of --runs; peak resident
memory from GNU time, /usr/bin/time):
- 20,000 ICPC cases (`gen_icpc.py 20000 7`): `marbles solve --from icpc --format icpc`
  against the anchor's plain C++ BFS (`icpc_tilt.cpp`, built with g++ -O2); answers must
  agree byte for byte; the ratio is ours / C++.
- 5,000 and 50,000 small YAML puzzles (`gen_small.py N 3|5`): `marbles batch DIR --report R`
  (reports included).
- with --million: 1,000,000 small puzzles (`gen_small.py 1000000 9`), once, then the same
  batch killed with SIGKILL after 40 % of that time and resumed: results.jsonl must be
  identical to the uninterrupted run's (times aside).
- with --before OLD: the hard single puzzles of `marbles bench` (its standard cases), the old
  binary's and this one's runs taking turns; the ratio is new / old.

The anchors' generators and C++ BFS are read from --anchors (the steering repo's
shared/anchors); nothing of them is copied into this repository.
"""
import argparse, json, os, shutil, signal, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def timed(cmd, stdout=subprocess.DEVNULL, **kw):
    """Runs cmd; returns (wall seconds, peak RSS bytes, exit code). The peak is GNU time's
    (a child forked from Python starts with Python's pages, which wait4 would count)."""
    with tempfile.NamedTemporaryFile("r") as peak:
        start = time.monotonic()
        code = subprocess.call(["/usr/bin/time", "-f", "%M", "-o", peak.name] + cmd, stdout=stdout,
                               stderr=subprocess.DEVNULL, **kw)
        wall = time.monotonic() - start
        kb = int(peak.read().split()[-1])
    return wall, kb * 1024, code


def mib(b):
    return f"{b / (1 << 20):.1f} MiB"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--anchors", default=os.path.join(ROOT, "..", "shared", "anchors"))
    ap.add_argument("--marbles", default=os.path.join(ROOT, "target", "release", "marbles"))
    ap.add_argument("--million", action="store_true")
    ap.add_argument("--quick", action="store_true", help="the ICPC file and 5,000 puzzles only")
    ap.add_argument("--before", help="an older marbles binary for the hard-puzzle comparison")
    ap.add_argument("--work", help="folder for the generated inputs (default: a temporary one)")
    a = ap.parse_args()
    work = a.work or tempfile.mkdtemp(prefix="many_small.")
    os.makedirs(work, exist_ok=True)
    m = os.path.abspath(a.marbles)
    rows = []

    # 20,000 ICPC cases against the C++ BFS.
    cpp = os.path.join(work, "icpc_tilt")
    if not os.path.exists(cpp):
        subprocess.run(["g++", "-O2", "-o", cpp, os.path.join(a.anchors, "icpc_tilt.cpp")], check=True)
    icpc = os.path.join(work, "big.icpc")
    if not os.path.exists(icpc):
        with open(icpc, "w") as f:
            subprocess.run([sys.executable, os.path.join(a.anchors, "gen_icpc.py"), "20000", "7"], stdout=f, check=True)
    ours, theirs, same = [], [], True
    for _ in range(a.runs):
        with open(icpc) as fin, open(os.path.join(work, "cpp.out"), "w") as fout:
            theirs.append(timed([cpp], stdin=fin, stdout=fout))
        with open(os.path.join(work, "m.out"), "w") as fout:
            ours.append(timed([m, "solve", "--from", "icpc", "--format", "icpc", icpc], stdout=fout))
        same &= open(os.path.join(work, "cpp.out"), "rb").read() == open(os.path.join(work, "m.out"), "rb").read()
    t_ours = statistics.median(r[0] for r in ours)
    t_cpp = statistics.median(r[0] for r in theirs)
    rows.append(("20,000 ICPC cases, `solve --format icpc`", f"{t_ours:.3f} s", mib(max(r[1] for r in ours)),
                 f"C++ BFS {t_cpp:.3f} s, {mib(max(r[1] for r in theirs))}",
                 f"{t_ours / t_cpp:.2f}×", "identical" if same else "DIFFER"))

    # Folders of small YAML puzzles, reports included.
    for count, seed in [(5000, 3)] + ([] if a.quick else [(50000, 5)]):
        folder = os.path.join(work, f"s{count}")
        if not os.path.exists(folder):
            subprocess.run([sys.executable, os.path.join(a.anchors, "gen_small.py"), str(count), str(seed), folder], check=True)
        runs = []
        for _ in range(a.runs):
            rep = os.path.join(work, f"rep{count}")
            shutil.rmtree(rep, ignore_errors=True)
            runs.append(timed([m, "batch", folder, "--report", rep, "--quiet"]))
        rows.append((f"{count:,} small YAML puzzles, `batch` with reports", f"{statistics.median(r[0] for r in runs):.3f} s",
                     mib(max(r[1] for r in runs)), "", "", ""))

    if a.million:
        folder = os.path.join(work, "s1000000")
        if not os.path.exists(folder):
            subprocess.run([sys.executable, os.path.join(a.anchors, "gen_small.py"), "1000000", "9", folder], check=True)
        whole = os.path.join(work, "rep1m")
        shutil.rmtree(whole, ignore_errors=True)
        t, peak, _ = timed([m, "batch", folder, "--report", whole, "--quiet"])
        killed = os.path.join(work, "rep1m_killed")
        shutil.rmtree(killed, ignore_errors=True)
        p = subprocess.Popen([m, "batch", folder, "--report", killed, "--quiet"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(0.4 * t)
        p.send_signal(signal.SIGKILL)
        p.wait()
        t2, peak2, _ = timed([m, "batch", folder, "--report", killed, "--quiet", "--resume"])

        def untimed(rep):
            out = []
            with open(os.path.join(rep, "results.jsonl")) as f:
                for line in f:
                    o = json.loads(line)
                    o["stats"]["seconds"] = None
                    o.pop("seal", None)  # a digest of the line, seconds and all
                    out.append(json.dumps(o, sort_keys=True))
            return out
        ok = untimed(whole) == untimed(killed)
        rows.append(("1,000,000 small YAML puzzles, `batch` with reports", f"{t:.1f} s", mib(peak),
                     f"killed at 40 %, `--resume` {t2:.1f} s, {mib(peak2)}", "", "identical" if ok else "DIFFER"))

    if a.before:
        def bench(exe):
            out = subprocess.run([exe, "bench", "--runs", "1", "--markdown"], capture_output=True, text=True, check=True).stdout
            times = {}
            for line in out.splitlines():
                cells = [c.strip() for c in line.strip().strip("|").split("|")]
                if len(cells) >= 4 and cells[3].endswith(" s"):
                    times[(cells[0], cells[1])] = float(cells[3][:-2])
            return times
        old, new = [], []
        for _ in range(a.runs):
            old.append(bench(a.before))
            new.append(bench(m))
        for key in new[0]:
            if not all(key in r for r in old):
                continue  # a case the old binary does not have
            o = statistics.median(r[key] for r in old)
            n = statistics.median(r[key] for r in new if key in r)
            rows.append((f"{key[0]}: {key[1]}", f"{n:.4f} s", "", f"before {o:.4f} s", f"{n / o:.2f}×", ""))

    print(f"Medians of {a.runs} runs, taking turns; {os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f} at the end.\n")
    print("| work | marbles | peak | yardstick | ratio | answers |")
    print("|---|--:|--:|---|--:|---|")
    for r in rows:
        print("| " + " | ".join(r) + " |")


if __name__ == "__main__":
    main()
