#!/usr/bin/env bash
# How many seeds find each planted fault: for each patch (a fault planted by hand in the production code, applied
# with `git apply` to this checkout), a release build, then `graph-fuzz --target T --seed S --no-save --quiet` for
# every target and seed, each run's exit code, failing rules (with the number of failing cases, ×N) and wall time;
# the patch is reverted after its runs, whatever happened.
#
# Usage: scripts/planted-faults.sh [--seeds "1 2 3 4 5"] [--runs N] [--out DIR] [--debug] PATCH[:TARGETS] ...
#   TARGETS: comma-separated (default graph,mapper). A patch named "-" runs the unpatched code (the baseline).
#   --out DIR: each run's full output as DIR/NAME/TARGET-seedS.txt (default: a temporary folder).
#   --debug: a debug build (much faster to rebuild; the runs find the same failures, a run being a number of cases).
# Prints one tab-separated line per run: fault target seed exit seconds result. Runs are nice'd (nice -n 10).
# Exit 2 on bad usage, 3 when a patch does not apply, does not build, or cannot be reverted.
set -u
seeds="1 2 3 4 5"
runs=""
out=""
configuration=release
while [ $# -gt 0 ]; do
    case "$1" in
        --seeds) seeds="$2"; shift 2 ;;
        --runs) runs="--runs $2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        --debug) configuration=debug; shift ;;
        --) shift; break ;;
        -?*) echo "planted-faults: unknown option $1" >&2; exit 2 ;;
        *) break ;;
    esac
done
[ $# -gt 0 ] || { echo "usage: scripts/planted-faults.sh [--seeds LIST] [--runs N] [--out DIR] [--debug] PATCH[:TARGETS] ..." >&2; exit 2; }
root=$(git rev-parse --show-toplevel) || exit 2
cd "$root"
[ -n "$out" ] || out=$(mktemp -d)
binary=.build/$configuration/graph-fuzz

for spec in "$@"; do
    patch=${spec%%:*}
    targets=graph,mapper
    [ "$spec" != "$patch" ] && targets=${spec#*:}
    if [ "$patch" = "-" ]; then name=baseline; else name=$(basename "$patch" .patch); fi
    mkdir -p "$out/$name"
    if [ "$patch" != "-" ]; then
        git apply "$patch" || { echo "planted-faults: $patch does not apply" >&2; exit 3; }
    fi
    if ! nice -n 10 swift build -c $configuration --product graph-fuzz >"$out/$name/build.log" 2>&1; then
        echo "planted-faults: $name does not build (see $out/$name/build.log)" >&2
        [ "$patch" = "-" ] || git apply -R "$patch"
        exit 3
    fi
    if grep -q "Sources/.*warning:" "$out/$name/build.log"; then echo "planted-faults: $name builds with warnings" >&2; fi
    for target in ${targets//,/ }; do
        for seed in $seeds; do
            log="$out/$name/$target-seed$seed.txt"
            start=$(date +%s.%N)
            # shellcheck disable=SC2086
            nice -n 10 "$binary" --target "$target" --seed "$seed" --no-save --quiet $runs >"$log" 2>&1
            code=$?
            end=$(date +%s.%N)
            result=$(grep -E "^$target +" "$log" | tail -1 | sed -E 's/^[^ ]+ +[^ ]+ +[0-9]+ +[0-9]+ +//; s/ +[0-9.]+s \([0-9]+\/s\)$//')
            printf '%s\t%s\t%s\t%s\t%.1f\t%s\n' "$name" "$target" "$seed" "$code" "$(echo "$end - $start" | bc)" "$result"
        done
    done
    if [ "$patch" != "-" ]; then
        git apply -R "$patch" || { echo "planted-faults: cannot revert $patch" >&2; exit 3; }
    fi
done
