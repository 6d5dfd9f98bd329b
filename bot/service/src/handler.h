// What every command's handler takes: the parts of the post's run (PostParts, post_parts.h) and
// the words of the command after its name. Private to the service.
#pragma once

#include <string>
#include <vector>

namespace ghostpost::bot {

struct PostParts;
using Args = std::vector<std::string>;
using Handler = void (*)(PostParts& run, const Args& args);

} // namespace ghostpost::bot
