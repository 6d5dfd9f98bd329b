// Compiled once per platform with that platform's own include paths, by check.sh: it must fail,
// since a platform sees the service only through the platform boundary (platform.h).
#include "ghostpost/storage/store.h"
