// The two static files the pages use. The Content-Security-Policy allows scripts and styles
// from this origin only, never inline, so they are files of their own.
#pragma once

namespace ghostpost::web {

// Arrow keys step through a game's plies by following the page's previous and next links.
inline constexpr const char* game_script = R"js(// ghostpost: ← and → step through the plies.
document.addEventListener('keydown', function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var id = event.key === 'ArrowLeft' ? 'prev' : event.key === 'ArrowRight' ? 'next' : null;
    if (id === null) return;
    var link = document.getElementById(id);
    if (link && link.href) {
        event.preventDefault();
        window.location.assign(link.href);
    }
});
)js";

inline constexpr const char* site_style =
    R"css(body { font-family: "DejaVu Sans", sans-serif; margin: 0; background: #f4f3ef; color: #1c1c20; }
header { background: #2a2e37; padding: 0.5em 1em; }
header a { color: #f5f5f0; text-decoration: none; font-weight: bold; }
main { padding: 1em; max-width: 70em; }
a { color: #2a5db0; }
.game { display: flex; flex-wrap: wrap; gap: 1.5em; }
.board-box { flex: 0 1 34em; }
svg.board { width: 100%; height: auto; display: block; }
.steps { margin: 0.5em 0; display: flex; gap: 0.8em; align-items: center; }
.side { flex: 1 1 18em; }
ol.moves { columns: 2; }
ol.moves li.current a { font-weight: bold; background: #ffd138; }
table { border-collapse: collapse; }
th, td { padding: 0.2em 0.6em; text-align: left; border-bottom: 1px solid #ddd; }
td.self { background: #ccc; }
code { word-break: break-all; }
)css";

} // namespace ghostpost::web
