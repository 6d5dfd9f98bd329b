#include "ghostpost/render/say.h"

namespace ghostpost::render {

std::string said(const Say& say, const rules::Phrase& phrase) {
    return say ? say(phrase) : phrase.english();
}

std::vector<std::string> said_notes(const Say& say, const rules::BoardView& board) {
    std::vector<std::string> out;
    out.reserve(board.notes.size());
    for (std::size_t i = 0; i < board.notes.size(); ++i) {
        const bool phrased = i < board.note_phrases.size() &&
                             !board.note_phrases[i].pattern.empty() &&
                             board.note_phrases[i].english() == board.notes[i];
        out.push_back(phrased && say ? say(board.note_phrases[i]) : board.notes[i]);
    }
    return out;
}

} // namespace ghostpost::render
