#!/usr/bin/env python3
"""What mettle costs from Python: the overhead of an odds call over the same call in Rust, and a
simulation on two threads against one. A benchmark to run by hand, not a test:

    pip install ./crates/mettle-py && python3 crates/mettle-py/bench/bench.py

The Rust side is `examples/native_odds.rs`, built with the wheel's profile (`--profile wheel`)."""

import subprocess
import time
from pathlib import Path

import mettle

ROOT = Path(__file__).resolve().parents[3]
FILE = ROOT / "rulesets" / "infinite_frontiers.mettle"
CHECK, INPUT, VALUE = "morale", "spi", 3
CALLS = 20_000


def per_call_us(f, calls):
    for _ in range(calls // 10):
        f()
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(calls):
            f()
        best = min(best, (time.perf_counter() - start) * 1e6 / calls)
    return best


def native_us():
    cmd = ["cargo", "run", "--quiet", "--profile", "wheel", "-p", "mettle-py", "--example", "native_odds", "--"]
    runs = [
        float(subprocess.run(cmd + [str(FILE), CHECK, f"{INPUT}={VALUE}", str(CALLS)], cwd=ROOT, check=True, capture_output=True, text=True).stdout)
        for _ in range(3)
    ]
    return min(runs)


def main():
    rules = mettle.Ruleset.load(FILE)
    call = lambda: rules.odds(CHECK, **{INPUT: VALUE})  # noqa: E731
    read = lambda: rules.odds(CHECK, **{INPUT: VALUE}).outcomes  # noqa: E731
    py = per_call_us(call, CALLS)
    py_read = per_call_us(read, CALLS)
    rust = native_us()
    print(f"odds {FILE.name} {CHECK} {INPUT}={VALUE}: Rust {rust:.1f} us, Python {py:.1f} us (+{py - rust:.1f} us), "
          f"with the outcomes read as Fractions {py_read:.1f} us (+{py_read - rust:.1f} us)")

    # On a machine other work shares, the CPU time over the wall time shows how many cores the
    # simulation kept busy, whatever the speed-up.
    runs = 50_000
    times, busy = {}, {}
    for threads in (1, 2):
        rules.simulate("firefight", runs=200, seed=1, threads=threads)
        best = float("inf")
        for _ in range(3):
            start, cpu = time.perf_counter(), time.process_time()
            rules.simulate("firefight", runs=runs, seed=1, threads=threads)
            wall = time.perf_counter() - start
            if wall < best:
                best, busy[threads] = wall, (time.process_time() - cpu) / wall
        times[threads] = best
    print(f"simulate firefight x{runs}: 1 thread {times[1]:.2f} s ({busy[1]:.2f} cores busy), "
          f"2 threads {times[2]:.2f} s ({busy[2]:.2f} cores busy), speed-up {times[1] / times[2]:.2f}x")


if __name__ == "__main__":
    main()
