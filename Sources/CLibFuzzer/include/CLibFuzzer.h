// libFuzzer's entry points, declared for Swift. They are defined only when the program is linked
// with -sanitize=fuzzer; graph-fuzz-libfuzzer calls them only when built with
// -DGRAPHFUZZ_LIBFUZZER (see README, "Coverage-guided fuzzing with libFuzzer").
#ifndef GRAPHFUZZ_CLIBFUZZER_H
#define GRAPHFUZZ_CLIBFUZZER_H
#include <stddef.h>
#include <stdint.h>

/// Runs libFuzzer's driver (flags, corpus folders, the fuzzing loop) with `callback` as the test.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

/// libFuzzer's own byte-level mutation, for a custom mutator to fall back on.
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize);

#endif
