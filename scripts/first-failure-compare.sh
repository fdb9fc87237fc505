#!/usr/bin/env bash
# Time to the first shrunk failure of two builds, side by side, in one sitting: a change's effect on what a developer
# waits for, with the load's drift spread over both builds.
#
# Usage: scripts/first-failure-compare.sh OLD_BINARY NEW_BINARY [RUNS]
#   RUNS: how many times each build runs the table (default 3), the two builds alternately.
#
# Each run is `BINARY bench --first-failure --seeds 10 --mutant M` for the four mutants a developer meets first
# (docs/performance.md, "Time to the first shrunk failure"); printed per build and mutant: the run's median and worst
# seed, in milliseconds, the median CPU time of the campaign's processes (workers included; "-" from a build whose
# table has no CPU columns) and the median time to the failure found, before its shrink (from a build that has the
# "found at" columns), one group per run. Wall-clock figures: run it on a quiet machine, and compare the
# spread of the runs, not one figure. Cases, attempts and shrunk steps are counts: `bench --first-failure` prints them,
# the same on every run.
set -euo pipefail

if [[ $# -lt 2 ]]; then
    echo "usage: $0 OLD_BINARY NEW_BINARY [RUNS]" >&2
    exit 2
fi
old=$1 new=$2 runs=${3:-3}
for binary in "$old" "$new"; do
    [[ -x $binary ]] || { echo "$0: $binary: not an executable" >&2; exit 2; }
done
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "$0: RUNS: '$runs' is not a positive integer" >&2; exit 2; }

mutants=(relate-before-insert cache-stores-objects edition-nullify user-entry-first)
declare -A figures
for ((run = 1; run <= runs; run++)); do
    for binary in "$old" "$new"; do
        for mutant in "${mutants[@]}"; do
            # The table's row: target mutant found other median "ms" max "ms" [found-at-median "ms" found-at-max "ms"]
            # cases attempts … CPU-median "ms" CPU-max "ms" (fields 5, 7, 9 and NF-3; 21 fields with the found-at and CPU
            # columns, 17 with the CPU columns alone, 13 without).
            row=$("$binary" bench --first-failure --seeds 10 --mutant "$mutant" \
                | awk -v m="$mutant" '$2 == m { print $5 " (" $7 ") CPU " (NF >= 17 ? $(NF - 3) : "-") (NF >= 21 ? " found " $9 : "") }')
            [[ -n $row ]] || { echo "$0: $binary printed no row for $mutant" >&2; exit 1; }
            figures[$binary/$mutant]+="${figures[$binary/$mutant]:+, }$row"
        done
    done
done
for binary in "$old" "$new"; do
    echo "$binary"
    for mutant in "${mutants[@]}"; do
        printf '  %-22s %s\n' "$mutant" "${figures[$binary/$mutant]}"
    done
done
