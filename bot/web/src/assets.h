// The two static files the pages use. The Content-Security-Policy allows scripts and styles
// from this origin only, never inline, so they are files of their own.
#pragma once

namespace ghostpost::web {

// Arrow keys step through a game's plies by following the page's previous and next links; a
// running clock counts down; a page showing the game as it stands follows it live, asking for
// itself again with the ETag it has (a 304 costs the server nothing) and putting the new game
// in place without a reload.
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

function two(n) { return (n < 10 ? '0' : '') + n; }

// "2d 03:04:05 left", from the deadline and this computer's clock.
function countDown() {
    var now = Date.now() / 1000;
    document.querySelectorAll('span.left[data-deadline]').forEach(function (span) {
        var left = Math.floor(Number(span.dataset.deadline) - now);
        if (left <= 0) { span.textContent = 'out of time'; return; }
        var d = Math.floor(left / 86400), h = Math.floor(left % 86400 / 3600);
        var m = Math.floor(left % 3600 / 60), s = left % 60;
        span.textContent = (d > 0 ? d + 'd ' : '') + two(h) + ':' + two(m) + ':' + two(s) +
            ' left';
    });
}
countDown();
setInterval(countDown, 1000);

// Only the game as it stands follows the game: a page stepped back to an earlier ply stays.
var live = document.querySelector('main[data-live]');
if (live) {
    var etag = null;
    var every = Number(live.dataset.live) * 1000;
    var follow = function () {
        var headers = etag ? { 'If-None-Match': etag } : {};
        fetch(window.location.href, { headers: headers, cache: 'no-store' })
            .then(function (response) {
                if (response.status !== 200) return null;
                etag = response.headers.get('ETag');
                return response.text();
            })
            .then(function (html) {
                if (!html) return;
                var fresh = new DOMParser().parseFromString(html, 'text/html');
                var main = fresh.querySelector('main');
                if (!main) return;
                live.innerHTML = main.innerHTML;
                if (!main.hasAttribute('data-live')) live.removeAttribute('data-live');
                countDown();
            })
            .catch(function () {})
            .finally(function () { if (live.hasAttribute('data-live')) setTimeout(follow, every); });
    };
    follow();
}
)js";

inline constexpr const char* site_style =
    R"css(body { font-family: "DejaVu Sans", sans-serif; margin: 0; background: #f4f3ef; color: #1c1c20; }
header { background: #2a2e37; padding: 0.5em 1em; }
header a { color: #f5f5f0; text-decoration: none; font-weight: bold; }
header nav.languages { float: right; font-size: 0.85em; color: #f5f5f0; }
header nav.languages a { font-weight: normal; margin-left: 0.5em; }
header nav.languages strong { margin-left: 0.5em; }
main { padding: 1em; max-width: 70em; }
a { color: #2a5db0; }
.game { display: flex; flex-wrap: wrap; gap: 1.5em; }
.board-box { flex: 0 1 34em; }
svg.board { width: 100%; height: auto; display: block; }
.steps { margin: 0.5em 0; display: flex; gap: 0.8em; align-items: center; }
.side { flex: 1 1 18em; }
ol.moves { columns: 2; }
ol.moves a { margin-right: 0.4em; }
ol.moves a.current { font-weight: bold; background: #ffd138; }
td.rating { color: #555; }
span.left { font-variant-numeric: tabular-nums; }
table { border-collapse: collapse; }
th, td { padding: 0.2em 0.6em; text-align: left; border-bottom: 1px solid #ddd; }
td.self { background: #ccc; }
code { word-break: break-all; }
)css";

} // namespace ghostpost::web
