// Declarations only (include/CLibFuzzer.h); a C target needs one source file.
#include "CLibFuzzer.h"
