#!/bin/sh
# Runs the shrinking challenge in GraphFuzz and in Hypothesis, one after the other on this machine,
# and prints mean shrink evaluations side by side (markdown).
# Usage: compare.sh [--seeds N]   (default 100; needs python3 with hypothesis installed, or
#        PYTHON=/path/to/python with it)
set -e
here=$(cd "$(dirname "$0")" && pwd)
seeds=100
if [ "$1" = "--seeds" ]; then seeds=$2; fi
python=${PYTHON:-python3}
out=${TMPDIR:-/tmp}/shrink-compare.$$
mkdir -p "$out"
"$here/graphfuzz.sh" --seeds "$seeds" > "$out/graphfuzz.tsv"
"$python" "$here/hypothesis_challenges.py" --seeds "$seeds" > "$out/hypothesis.tsv"
head -1 "$out/hypothesis.tsv"
echo "| problem | GraphFuzz minimal | GraphFuzz mean | Hypothesis minimal | Hypothesis mean |"
echo "|---|---|---|---|---|"
grep -v '^#' "$out/graphfuzz.tsv" | while IFS="$(printf '\t')" read -r name minimal mean rest; do
    line=$(grep "^$name	" "$out/hypothesis.tsv" || true)
    hmin=$(echo "$line" | cut -f2); hmean=$(echo "$line" | cut -f3)
    echo "| $name | $minimal | $mean | ${hmin:-—} | ${hmean:-—} |"
done
rm -r "$out"
