// The control of reaches_storage.cpp: the same platform's include paths do reach the boundary,
// so that the probe's failure is the missing storage header and nothing else.
#include "ghostpost/platform/platform.h"
