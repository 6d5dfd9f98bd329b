// The words drawn with a board (whose move it is, check, the variant's notes) in its reader's
// language: the renderers write them as phrases of the rules, and a caller that knows the
// reader puts each into their language. The render library itself knows no catalog.
#pragma once

#include "ghostpost/rules/view.h"

#include <functional>
#include <string>
#include <vector>

namespace ghostpost::render {

// A phrase in the reader's language; empty: in English (Phrase::english()).
using Say = std::function<std::string(const rules::Phrase&)>;

std::string said(const Say& say, const rules::Phrase& phrase);
// The board's notes, each in the reader's language while its phrase still says it.
std::vector<std::string> said_notes(const Say& say, const rules::BoardView& board);

} // namespace ghostpost::render
