#!/usr/bin/env bash
# The harness files a run really executes: a coverage build of graph-fuzz runs `graph-fuzz ARGS` (default
# `--seed 1 --no-save`), every process of it (the parent and its workers) writing a profile, and prints per
# harness module (GraphFuzzEngine, GraphFuzzCLI, GraphFuzzIsolation, graph-fuzz) the files of which at least one
# line ran, then the total, the run's exit status and how many processes wrote a profile (a worker killed before it
# exits writes none). It runs `graph-fuzz` in the package's root.
# docs/architecture.md quotes the figure.
#
# Usage: scripts/harness-files.sh [--list] [ARGS...]
#   --list  also print each executed file.
# Builds into .build-coverage (a debug build with -profile-generate -profile-coverage-mapping; a few minutes the
# first time). Uses the llvm-profdata and llvm-cov beside `swift` (a system LLVM of another version cannot read the
# toolchain's profiles).
set -euo pipefail

list=false
if [[ ${1:-} == --list ]]; then
    list=true
    shift
fi
arguments=("$@")
[[ ${#arguments[@]} -gt 0 ]] || arguments=(--seed 1 --no-save)
here=$(cd "$(dirname "$0")/.." && pwd)
toolchain=$(dirname "$(command -v swift)")
profdata="$toolchain/llvm-profdata"
cov="$toolchain/llvm-cov"
build="$here/.build-coverage"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cd "$here"
swift build --build-path "$build" --product graph-fuzz -Xswiftc -profile-generate -Xswiftc -profile-coverage-mapping > "$work/build.log" 2>&1 \
    || { cat "$work/build.log" >&2; exit 2; }
binary="$build/debug/graph-fuzz"
# %p: one profile per process, so the workers' files count too.
status=0
LLVM_PROFILE_FILE="$work/run-%p.profraw" "$binary" "${arguments[@]}" > /dev/null 2>&1 || status=$?
processes=$(find "$work" -name 'run-*.profraw' | wc -l)
"$profdata" merge -sparse "$work"/run-*.profraw -o "$work/run.profdata"
"$cov" report "$binary" -instr-profile="$work/run.profdata" -show-region-summary=false -show-branch-summary=false \
    -show-functions=false 2> /dev/null > "$work/report.txt"
# Columns: file (under Sources/), functions, missed functions, executed, lines, missed lines, cover: a file ran when
# it has lines and not all of them were missed.
awk -v list="$list" -v processes="$processes" -v status="$status" '
    $1 ~ /^(GraphFuzzEngine|GraphFuzzCLI|GraphFuzzIsolation|graph-fuzz)\// && $5 > 0 && $6 < $5 {
        split($1, parts, "/")
        module = parts[1]
        count[module]++
        total++
        if (list == "true") print "  " $1
    }
    END {
        printf "engine %d, CLI %d, isolation %d, main %d: %d files (the run exited %d; %d processes profiled)\n",
            count["GraphFuzzEngine"], count["GraphFuzzCLI"], count["GraphFuzzIsolation"], count["graph-fuzz"], total, status, processes
    }' "$work/report.txt"
