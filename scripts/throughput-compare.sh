#!/usr/bin/env bash
# Instructions per differential step of two builds, side by side, in one sitting: a change's throughput
# against the build before it.
#
# Usage: scripts/throughput-compare.sh OLD_BINARY NEW_BINARY [TARGET...]
#   TARGET: queue, graph, schemas, mapper, cache or sync (default: all six).
#
# For each target and build: valgrind --tool=callgrind runs `--seed 1 --runs R --no-save --in-process
# --quiet` and the same with `--runs 1` (start-up); (instructions of R runs − instructions of 1 run) /
# (steps of R runs − steps of 1 run). Callgrind counts instructions, so the figures repeat on a loaded
# machine, where wall-clock times do not. "without SQLite" leaves out the calls into SQLite
# (scripts/callgrind-without-sqlite.py), to compare with builds that had no SQLite backend.
# Needs valgrind and python3. Takes a few minutes (callgrind runs 20–50× slower than native).
set -euo pipefail

if [[ $# -lt 2 ]]; then
    echo "usage: $0 OLD_BINARY NEW_BINARY [TARGET...]" >&2
    exit 2
fi
old=$1 new=$2
shift 2
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=(queue graph schemas mapper cache sync)
for binary in "$old" "$new"; do
    [[ -x $binary ]] || { echo "$0: $binary: not an executable" >&2; exit 2; }
done
command -v valgrind > /dev/null || { echo "$0: valgrind is not installed" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

runs_for() {
    case $1 in
        queue) echo 2000 ;;
        graph) echo 300 ;;
        schemas | mapper | cache) echo 200 ;;
        sync) echo 150 ;;
        *) echo "$0: unknown target $1 (queue, graph, schemas, mapper, cache, sync)" >&2; exit 2 ;;
    esac
}

# measure BINARY TARGET RUNS TAG -> "steps all without" for RUNS runs minus one run.
measure() {
    local binary=$1 target=$2 runs=$3 tag=$4 n steps=() all=() without=()
    for n in "$runs" 1; do
        local out="$work/$tag-$target-$n.out"
        local line
        line=$(valgrind --tool=callgrind --callgrind-out-file="$out" "$binary" --target "$target" --seed 1 \
            --runs "$n" --no-save --in-process --quiet 2> /dev/null | awk -v t="$target" '$1 == t { print $4 }')
        steps+=("$line")
        read -r _ total _ _ _ rest <<< "$(python3 "$here/callgrind-without-sqlite.py" "$out")"
        all+=("$total")
        without+=("$rest")
    done
    echo "$((steps[0] - steps[1])) $((all[0] - all[1])) $((without[0] - without[1]))"
}

for target in "${targets[@]}"; do runs_for "$target" > /dev/null; done
printf '%-7s %6s %15s %15s %15s %8s %19s %19s %8s\n' target runs "steps old/new" "instr/step old" new change \
    "no-SQLite old" "no-SQLite new" change
for target in "${targets[@]}"; do
    runs=$(runs_for "$target")
    read -r old_steps old_all old_without <<< "$(measure "$old" "$target" "$runs" old)"
    read -r new_steps new_all new_without <<< "$(measure "$new" "$target" "$runs" new)"
    python3 - "$target" "$runs" "$old_steps" "$old_all" "$old_without" "$new_steps" "$new_all" "$new_without" << 'EOF'
import sys
target, runs, os_, oa, ow, ns, na, nw = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:])
per = lambda value, steps: value / steps / 1000
change = lambda old, new: f"{(new / old - 1) * 100:+.1f}%"
print(f"{target:<7} {runs:>6} {f'{os_}/{ns}':>15} {per(oa, os_):>14.2f}k {per(na, ns):>14.2f}k {change(per(oa, os_), per(na, ns)):>8}"
      f" {per(ow, os_):>18.2f}k {per(nw, ns):>18.2f}k {change(per(ow, os_), per(nw, ns)):>8}")
EOF
done
