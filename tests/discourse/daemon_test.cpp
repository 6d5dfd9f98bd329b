// `ghostpost run` against the fake forum: placeholder, filled in below.
#include "fake_discourse.h"
