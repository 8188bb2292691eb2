// libFuzzer's driver, for a Swift `main` that hands control to libFuzzer (see Fuzz/Support).
// SwiftPM names every executable's entry point itself, so libFuzzer's own `main` cannot be used.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
