#!/usr/bin/env bash
# Soaks the production code: for each target and seed, one release-build run of CASES cases in worker
# processes, recording the cases, seed, wall time and result of each run, to look for false failures
# (a failure of production that is the harness's or the specification's, not the code's).
#
# Usage: scripts/soak.sh [--cases N] [--seeds "S1 S2 …"] [--targets "T1 T2 …"] [--jobs N] [--out FILE]
#                        [--binary PATH]
#   --cases    cases per run (default 250000)
#   --seeds    the seeds, one run each per target (default "101 102 103 104")
#   --targets  graph, mapper, cache, sync, queue (default "graph mapper cache sync")
#   --jobs     worker processes (default: graph-fuzz's own, one per core)
#   --out      the record, one tab-separated line per run (default soak-YYYYmmdd-HHMMSS.tsv); each run's
#              full report is kept beside it as FILE.TARGET-SEED.txt
#   --binary   a graph-fuzz to soak instead of building one (default: `swift build -c release` here)
#
# Every run is `nice -n 10 graph-fuzz --target T --seed S --runs N --no-save --quiet`: failures are shrunk and
# printed in the run's report but nothing is saved to Corpus/. The record's columns: target, seed, cases run,
# wall seconds, exit code, result (the summary's result column: `ok`, or the failure signatures). The last
# lines total the cases and wall time per target. Exit 0 when every run exited 0, 1 when a run found a failure,
# 3 when a run ended otherwise (an infrastructure error, an interrupt). Run it in the background for long soaks:
#   nohup scripts/soak.sh --cases 1000000 --seeds "1 2 3" --targets sync > soak.log 2>&1 &
set -uo pipefail

cases=250000
seeds="101 102 103 104"
targets="graph mapper cache sync"
jobs=""
out="soak-$(date +%Y%m%d-%H%M%S).tsv"
binary=""
while [[ $# -gt 0 ]]; do
    case $1 in
        --cases) cases=$2; shift 2 ;;
        --seeds) seeds=$2; shift 2 ;;
        --targets) targets=$2; shift 2 ;;
        --jobs) jobs=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --binary) binary=$2; shift 2 ;;
        -h | --help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "$0: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done
[[ $cases =~ ^[1-9][0-9]*$ ]] || { echo "$0: --cases '$cases' is not a positive integer" >&2; exit 2; }
[[ -z $jobs || $jobs =~ ^[1-9][0-9]*$ ]] || { echo "$0: --jobs '$jobs' is not a positive integer" >&2; exit 2; }
for seed in $seeds; do
    [[ $seed =~ ^[0-9]+$ ]] || { echo "$0: seed '$seed' is not a non-negative integer" >&2; exit 2; }
done

if [[ -z $binary ]]; then
    root=$(cd "$(dirname "$0")/.." && pwd)
    (cd "$root" && swift build -c release --product graph-fuzz) >&2 || { echo "$0: the release build failed" >&2; exit 3; }
    binary="$root/.build/release/graph-fuzz"
fi
[[ -x $binary ]] || { echo "$0: $binary: not an executable" >&2; exit 2; }
# A copy, so a rebuild during the soak does not change the binary under it.
snapshot=$(mktemp "${TMPDIR:-/tmp}/graph-fuzz-soak.XXXXXX")
trap 'rm -f "$snapshot"' EXIT
cp "$binary" "$snapshot" && chmod 755 "$snapshot"
version=$("$snapshot" --version 2>/dev/null || echo unknown)

printf '# graph-fuzz soak: %s, %s cases per run, seeds %s, jobs %s, started %s\n' \
    "$version" "$cases" "$seeds" "${jobs:-default}" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" > "$out"
printf 'target\tseed\tcases\tseconds\texit\tresult\n' >> "$out"
status=0
declare -A total_cases total_seconds
for target in $targets; do
    total_cases[$target]=0
    total_seconds[$target]=0
    for seed in $seeds; do
        report="$out.$target-$seed.txt"
        start=$(date +%s.%N)
        nice -n 10 "$snapshot" --target "$target" --seed "$seed" --runs "$cases" ${jobs:+--jobs "$jobs"} \
            --no-save --quiet > "$report" 2>&1
        code=$?
        seconds=$(echo "$(date +%s.%N) - $start" | bc)
        # The summary line of the target: "TARGET  -  CASES  STEPS  RESULT  TIME".
        summary=$(grep -E "^$target +- +[0-9]+" "$report" | tail -1)
        ran=$(awk '{print $3}' <<< "$summary")
        result=$(sed -E 's/^[^ ]+ +- +[0-9]+ +[0-9]+ +//; s/ +[0-9.]+s \([0-9]+\/s\)$//' <<< "$summary")
        [[ -n $summary ]] || result="no summary (see $report)"
        printf '%s\t%s\t%s\t%.0f\t%s\t%s\n' "$target" "$seed" "${ran:-0}" "$seconds" "$code" "$result" >> "$out"
        total_cases[$target]=$(( ${total_cases[$target]} + ${ran:-0} ))
        total_seconds[$target]=$(echo "${total_seconds[$target]} + $seconds" | bc)
        if [[ $code -eq 1 ]]; then status=$(( status > 1 ? status : 1 ))
        elif [[ $code -ne 0 ]]; then status=3
        fi
    done
done
for target in $targets; do
    printf '# total %s: %s cases in %.0f s\n' "$target" "${total_cases[$target]}" "${total_seconds[$target]}" >> "$out"
done
cat "$out"
exit $status
