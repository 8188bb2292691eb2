// Only the declaration in include/CFuzzDriver.h matters; libclang_rt.fuzzer defines the function
// when scripts/fuzz links with -sanitize=fuzzer. A plain build never calls it.
#include "CFuzzDriver.h"
