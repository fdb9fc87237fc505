#!/bin/sh
# Builds the GraphFuzz side of the comparison (engine + problem definitions, optimised) and runs it.
# Usage: graphfuzz.sh [--seeds N] [problem ...]
set -e
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${BUILD_DIR:-/tmp/graphfuzz-shrink-compare}
mkdir -p "$build"
swiftc -O -swift-version 6 -package-name GraphFuzz -wmo -parse-as-library -module-name GraphFuzzEngine -emit-module -emit-module-path "$build/GraphFuzzEngine.swiftmodule" \
    -emit-library -static -o "$build/libGraphFuzzEngine.a" $(find "$root/Sources/GraphFuzzEngine" -name '*.swift' | sort)
swiftc -O -swift-version 6 -package-name GraphFuzz -I "$build" -L "$build" -lGraphFuzzEngine -o "$build/measure" "$here/main.swift" "$here/passes.swift" \
    "$root/Tests/Support/TestTargets/ShrinkingChallenges.swift" "$root/Tests/GraphFuzzEngineTests/DependentProblems.swift"
"$build/measure" "$@"
