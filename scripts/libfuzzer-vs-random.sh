#!/bin/bash -u
# Time to the first failure of each named mutant: the engine's random search against libFuzzer
# (byte mutations, and byte plus step mutations), on the same libFuzzer build, one after the other.
#
#     scripts/libfuzzer-vs-random.sh BINARY CAP_SECONDS SEEDS [MUTANT ...]     (SEEDS: 1 or 1,2,3)
#
# BINARY is graph-fuzz-libfuzzer built as in the README; every search stops at its first failure or
# after CAP_SECONDS. libFuzzer starts from an empty corpus (seeds from Corpus/ would already hold
# each mutant's counterexample). Prints one line per mutant and seed: seconds and cases/inputs to the
# first failure of each search ("-" when none within the cap).
BIN=$1; CAP=$2; SEEDS=$3; shift 3
MUTANTS=("$@")
if [ ${#MUTANTS[@]} -eq 0 ]; then
  mapfile -t MUTANTS < <(swift run graph-fuzz list --json 2>/dev/null | sed -n 's/.*"event":"mutant".*"mutant":"\([^"]*\)".*/\1/p')
fi
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
export SWIFT_BACKTRACE=enable=no

# "T N" from a 'FAIL after N cases|inputs in T s' line, or "- N" when there was none.
parse() {
  local line
  line=$(grep -m1 'FAIL after' "$1")
  if [ -n "$line" ]; then
    echo "$line" | sed -E 's/.*FAIL after ([0-9]+) (cases|inputs) in ([0-9.]+) s.*/\3 \1/'
  else
    echo "- $(grep -Eo 'no failure in [0-9]+' "$1" | grep -Eo '[0-9]+' || echo '?')"
  fi
}

printf '%-28s %4s  %-18s %-18s %-18s\n' mutant seed random libfuzzer-bytes libfuzzer-steps
for mutant in "${MUTANTS[@]}"; do
  for seed in ${SEEDS//,/ }; do
    "$BIN" --mutant="$mutant" --random-search="$CAP" --seed="$seed" 2> "$WORK/random" > /dev/null
    random=$(parse "$WORK/random")
    results=()
    for mutator in bytes steps; do
      rm -rf "$WORK/corpus" "$WORK/art"; mkdir -p "$WORK/corpus" "$WORK/art"
      timeout $((CAP * 3 + 30)) "$BIN" --mutant="$mutant" --mutator=$mutator -seed="$seed" -max_total_time="$CAP" \
        -artifact_prefix="$WORK/art/" -print_final_stats=1 "$WORK/corpus" > /dev/null 2> "$WORK/fuzz"
      result=$(parse "$WORK/fuzz")
      if [ "${result%% *}" = "-" ]; then
        result="- $(sed -n 's/^stat::number_of_executed_units: *//p' "$WORK/fuzz")"
      fi
      results+=("$result")
    done
    printf '%-28s %4s  %-18s %-18s %-18s\n' "$mutant" "$seed" "$random" "${results[0]}" "${results[1]}"
  done
done
