#!/bin/bash -eu
# Builds graph-fuzz-libfuzzer with libFuzzer and installs one fuzzer per target into $OUT, each with
# its seed corpus (the Corpus/ cases as bytes). ClusterFuzzLite runs it in its build container
# ($SRC, $OUT and $SANITIZER set); locally it runs as is:
#
#     bash .clusterfuzzlite/build.sh            # fuzzers in .build/libfuzzer/out
#
# The build line is the one in the README ("Coverage-guided fuzzing with libFuzzer").
cd "$(dirname "${BASH_SOURCE[0]}")/.."
OUT="${OUT:-$PWD/.build/libfuzzer/out}"
mkdir -p "$OUT"

# libFuzzer, plus the sanitizer ClusterFuzzLite asks for (address, undefined, thread); none locally.
SANITIZE=fuzzer
case "${SANITIZER:-none}" in
  address|thread|undefined) SANITIZE="fuzzer,$SANITIZER" ;;
  none|coverage) ;;
  *) echo "build.sh: sanitizer '$SANITIZER' is not supported for Swift" >&2; exit 1 ;;
esac

swift build -c release --product graph-fuzz-libfuzzer --scratch-path .build/libfuzzer \
  --static-swift-stdlib -Xswiftc -sanitize="$SANITIZE" -Xswiftc -DGRAPHFUZZ_LIBFUZZER

BIN=.build/libfuzzer/release/graph-fuzz-libfuzzer
SEEDS=.build/libfuzzer/seeds
rm -rf "$SEEDS"
"$BIN" --export-seeds="$SEEDS" --corpus=Corpus
for target in graph mapper cache sync queue; do
  # The binary named graph-fuzz-<target> fuzzes that target (FuzzSelection).
  cp "$BIN" "$OUT/graph-fuzz-$target"
  if [ -d "$SEEDS/$target" ]; then
    rm -f "$OUT/graph-fuzz-${target}_seed_corpus.zip"
    (cd "$SEEDS/$target" && zip -q -r "$OUT/graph-fuzz-${target}_seed_corpus.zip" .)
  fi
  # libFuzzer options for every run of this fuzzer (ClusterFuzzLite reads <fuzzer>.options).
  printf '[libfuzzer]\nmax_len = 4096\ntimeout = 10\n' > "$OUT/graph-fuzz-$target.options"
done
echo "build.sh: fuzzers graph-fuzz-{graph,mapper,cache,sync,queue} and their seed corpora in $OUT"
