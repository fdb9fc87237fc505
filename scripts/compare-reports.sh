#!/usr/bin/env bash
# Compares the reports two graph-fuzz builds print for the same runs, timings aside: every target's
# production run and every mutant's run, for seeds 1..N, in process, nothing saved. A refactor that only
# changes structure must print byte-identical reports; this lists every run that differs.
#
#   scripts/compare-reports.sh OLD_BINARY NEW_BINARY [--seeds N] [--runs R] [--out DIR] [--target NAME]
#
# Exit 0 when every report is identical, 1 when some differ (the diffs are in DIR), 2 on bad usage.
set -uo pipefail

usage() { echo "usage: $0 OLD_BINARY NEW_BINARY [--seeds N] [--runs R] [--out DIR] [--target NAME]" >&2; exit 2; }
[ $# -ge 2 ] || usage
old=$1 new=$2; shift 2
seeds=2 runs=2000 out=$(mktemp -d) only=""
while [ $# -gt 0 ]; do
  case $1 in
    --seeds) seeds=${2:?}; shift 2 ;;
    --runs) runs=${2:?}; shift 2 ;;
    --out) out=${2:?}; shift 2 ;;
    --target) only=${2:?}; shift 2 ;;
    *) usage ;;
  esac
done
for binary in "$old" "$new"; do [ -x "$binary" ] || { echo "$0: $binary is not an executable" >&2; exit 2; }; done
mkdir -p "$out"

# Timings: `time:` lines, the summary's last column, and the JSON timing fields.
mask() {
  sed -E -e '/^ *time: /d' \
         -e 's/[0-9]+(\.[0-9]+)?(ms|s) \([0-9]+\/s\)$/T/' \
         -e 's/"(seconds|stepsPerSecond|secondsToFailure)":[0-9.e+-]+/"\1":T/g'
}

runs_for() {  # prints "target mutant" pairs: production (mutant -) and every mutant
  "$old" list --json | python3 -c '
import json, sys
for line in sys.stdin:
    event = json.loads(line)
    if event["event"] == "target": print(event["target"], "-")
    elif event["event"] == "mutant": print(event["target"], event["mutant"])'
}

differ=0 total=0
while read -r target mutant; do
  [ -n "$only" ] && [ "$target" != "$only" ] && continue
  for seed in $(seq 1 "$seeds"); do
    args=(--target "$target" --seed "$seed" --runs "$runs" --in-process --no-save --quiet)
    [ "$mutant" != "-" ] && args+=(--mutant "$mutant")
    name="$target-${mutant}-$seed"
    "$old" "${args[@]}" 2>&1 | mask > "$out/$name.old"
    "$new" "${args[@]}" 2>&1 | mask > "$out/$name.new"
    total=$((total + 1))
    if ! diff -u "$out/$name.old" "$out/$name.new" > "$out/$name.diff"; then
      differ=$((differ + 1))
      echo "differs: $name (see $out/$name.diff)"
    else
      rm -f "$out/$name.diff"
    fi
  done
done < <(runs_for)
echo "$((total - differ)) of $total reports identical (timings aside); outputs in $out"
[ "$differ" -eq 0 ]
