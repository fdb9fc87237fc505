#!/usr/bin/env python3
"""Time to the first shrunk failure as a developer waits for it: from starting `graph-fuzz` to its first failure.

Usage: scripts/first-failure-fresh.py BINARY MUTANT [SEEDS] [BINARY2]

For each seed 1..SEEDS (default 10), starts `BINARY --mutant MUTANT --seed S --no-save --json` afresh and takes the
time from the start of the process to the first `"event":"failure"` line on its standard output, then stops it
(SIGTERM). Unlike `graph-fuzz bench --first-failure`, which runs every seed's campaign in one process and starts its
clock at the campaign, this counts the command's own start and whatever its process does before the campaign, and no
seed finds anything already done by an earlier seed's campaign. Prints the median and the worst seed in milliseconds,
and each seed's figure; with BINARY2, both binaries, seed by seed alternately (one sitting, the same load).
"""
import os
import signal
import statistics
import subprocess
import sys
import time


def first_failure_ms(binary, mutant, seed):
    start = time.monotonic()
    process = subprocess.Popen([binary, "--mutant", mutant, "--seed", str(seed), "--no-save", "--json"],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        for line in process.stdout:
            if b'"event":"failure"' in line:
                return (time.monotonic() - start) * 1000
        return None
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait()


def main(argv):
    if len(argv) < 3 or len(argv) > 5:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    binaries = [argv[1]] + ([argv[4]] if len(argv) == 5 else [])
    mutant = argv[2]
    seeds = argv[3] if len(argv) >= 4 else "10"
    if not seeds.isdigit() or int(seeds) < 1:
        print(f"{argv[0]}: SEEDS: '{seeds}' is not a positive integer", file=sys.stderr)
        return 2
    for binary in binaries:
        if not (os.path.isfile(binary) and os.access(binary, os.X_OK)):
            print(f"{argv[0]}: {binary}: not an executable", file=sys.stderr)
            return 2
    figures = {binary: [] for binary in binaries}
    for seed in range(1, int(seeds) + 1):
        for binary in binaries:
            ms = first_failure_ms(binary, mutant, seed)
            if ms is None:
                print(f"{argv[0]}: {binary} found no failure of {mutant} at seed {seed}", file=sys.stderr)
                return 1
            figures[binary].append(ms)
    for binary in binaries:
        values = figures[binary]
        print(f"{binary} {mutant}: median {statistics.median(values):.1f} ms, worst {max(values):.1f} ms "
              f"(seeds: {', '.join(f'{v:.1f}' for v in values)})")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except BrokenPipeError:
        sys.exit(0)
