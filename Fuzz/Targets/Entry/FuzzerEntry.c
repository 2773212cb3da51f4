#include "FuzzerEntry.h"
#include <stddef.h>
#include <stdint.h>

/* libFuzzer's driver (in the fuzzer runtime that -sanitize=fuzzer links). */
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
/* The target's function, defined in Swift with @_cdecl. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int motionbridge_fuzzer_main(int argc, char **argv) {
    return LLVMFuzzerRunDriver(&argc, &argv, LLVMFuzzerTestOneInput);
}
