// The web pages in a real browser: Debian's chromium, headless, driven by playwright-core.
// A game is played through `ghostpost console`, then `ghostpost web` serves the database:
// the game page is stepped through with the arrow keys and every square of the SVG board is
// checked against chess.js's position; the PGN is downloaded and read back; the tournament page
// is opened and its game link followed. A live game's clock and moves are followed without a
// reload; a Swiss played to its end in the chat is found on the home page, and its table on the
// web is the chat's, cell for cell, tie-breaks named. Screenshots go to GHOSTPOST_ARTIFACTS.
// Usage: node --test browser.test.mjs, with GHOSTPOST_BINARY naming the executable.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { Chess } from 'chess.js';

const binary = process.env.GHOSTPOST_BINARY;
const browserPath = process.env.GHOSTPOST_CHROMIUM || '/usr/bin/chromium';
const artifacts = process.env.GHOSTPOST_ARTIFACTS || join(tmpdir(), 'ghostpost-web-artifacts');
const moves = ['e4', 'e5', 'Nf3', 'Nc6', 'Bb5', 'a6'];

// A tournament of three (round 1: carol - alice is game #1, bob has the bye), and six plies of
// game #1.
function makeDatabase(dir) {
  const lines = [
    '#lobby alice: !tourney create Autumn chess roundrobin',
    '#lobby bob: !tourney join Autumn',
    '#lobby carol: !tourney join Autumn',
    '#lobby alice: !tourney join Autumn',
    '#lobby alice: !tourney start Autumn',
  ];
  moves.forEach((m, i) => lines.push(`#lobby ${i % 2 === 0 ? 'carol' : 'alice'}: ${m}`));
  const db = join(dir, 'games.db');
  const run = spawnSync(binary, ['console', '--db', db, '--fixed-time', '1700000000'],
                        { input: lines.join('\n') + '\n' });
  assert.equal(run.status, 0, run.stderr.toString());
  return db;
}

// Starts `ghostpost web` on a free port; resolves with the server and its address.
function serve(db) {
  const server = spawn(binary, ['web', '--db', db, '--listen', '127.0.0.1:0']);
  return new Promise((resolve, reject) => {
    let out = '';
    server.stdout.on('data', (chunk) => {
      out += chunk;
      const m = out.match(/on (http:\/\/127\.0\.0\.1:\d+)\//);
      if (m) resolve({ server, base: m[1] });
    });
    server.on('exit', (code) => reject(new Error(`ghostpost web exited with ${code}: ${out}`)));
  });
}

// data-piece of every square as chess.js would write it: "P" White, "p" Black, "" empty.
function expected(chess) {
  const out = {};
  for (const row of chess.board())
    for (const sq of row)
      if (sq) out[sq.square] = sq.color === 'w' ? sq.type.toUpperCase() : sq.type;
  for (const f of 'abcdefgh')
    for (let r = 1; r <= 8; ++r) out[f + r] ??= '';
  return out;
}

async function board(page) {
  const pairs = await page.$$eval('svg.board g.sq',
                                  (gs) => gs.map((g) => [g.dataset.square, g.dataset.piece]));
  return Object.fromEntries(pairs);
}

test('a game is stepped with the arrow keys, its PGN downloaded, its tournament opened',
     { timeout: 90_000 }, async () => {
  mkdirSync(artifacts, { recursive: true });
  const dir = mkdtempSync(join(tmpdir(), 'ghostpost-web-browser-'));
  const { server, base } = await serve(makeDatabase(dir));
  const browser = await chromium.launch({
    executablePath: browserPath, headless: true, args: ['--no-sandbox'] });
  try {
    const context = await browser.newContext({ acceptDownloads: true,
                                               viewport: { width: 1100, height: 800 } });
    const page = await context.newPage();
    const problems = []; // a CSP violation or a script error shows up here
    page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
    page.on('pageerror', (e) => problems.push(e.message));

    await page.goto(`${base}/game/1?ply=0`);
    const chess = new Chess();
    assert.deepEqual(await board(page), expected(chess));
    for (let k = 1; k <= moves.length; ++k) {
      await Promise.all([page.waitForURL(`${base}/game/1?ply=${k}`), page.keyboard.press('ArrowRight')]);
      chess.move(moves[k - 1]);
      assert.deepEqual(await board(page), expected(chess), `ply ${k}`);
      assert.equal(await page.textContent('ol.moves a.current'), moves[k - 1]);
    }
    await page.screenshot({ path: join(artifacts, 'game-ply-6.png'), fullPage: true });
    // At the last ply there is no next: the key does nothing.
    await page.keyboard.press('ArrowRight');
    assert.equal(page.url(), `${base}/game/1?ply=6`);
    await Promise.all([page.waitForURL(`${base}/game/1?ply=5`), page.keyboard.press('ArrowLeft')]);
    chess.undo();
    assert.deepEqual(await board(page), expected(chess), 'back to ply 5');
    await page.screenshot({ path: join(artifacts, 'game-ply-5.png'), fullPage: true });

    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#pgn')]);
    assert.equal(download.suggestedFilename(), 'ghostpost-game-1.pgn');
    const pgn = readFileSync(await download.path(), 'utf8');
    // A tournament's game: the event is the tournament, the round its round and board.
    assert.match(pgn, /^\[Event "Autumn"\]\n/);
    assert.match(pgn, /\n\[Round "1\.2"\]\n/);
    assert.match(pgn, /\[White "carol"\]\n\[Black "alice"\]\n/);
    assert.match(pgn, /\n\n1\. e4 e5 2\. Nf3 Nc6 3\. Bb5 a6 \*\n$/);
    const replay = new Chess();
    replay.loadPgn(pgn);
    const whole = new Chess();
    moves.forEach((m) => whole.move(m));
    assert.equal(replay.fen(), whole.fen());

    // Moves in pairs under their numbers, as the PGN has them.
    assert.deepEqual(await page.$$eval('ol.moves li', (lis) => lis.map((li) => [li.value, li.textContent])),
                     [[1, 'e4 e5'], [2, 'Nf3 Nc6'], [3, 'Bb5 a6']]);

    await page.goto(`${base}/tournament/1`);
    assert.equal(await page.textContent('h1'), 'Autumn');
    assert.match(await page.textContent('ol.pairings'), /bob – bye/);
    await page.screenshot({ path: join(artifacts, 'tournament.png'), fullPage: true });
    await Promise.all([page.waitForURL(`${base}/game/1`), page.click('ol.pairings a[href="/game/1"]')]);
    assert.equal(await page.textContent('h1'), 'Game #1 · FIDE chess');
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
    server.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
});

// Runs `lines` through `ghostpost console` on `db` at the real time.
function play(db, lines) {
  const run = spawnSync(binary, ['console', '--db', db], { input: lines.join('\n') + '\n' });
  assert.equal(run.status, 0, run.stderr.toString());
}

test('a game under way counts its clock down and follows each move without a reload',
     { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ghostpost-web-live-'));
  const db = join(dir, 'games.db');
  play(db, ['#lobby dan: !new chess @erin white', '#lobby erin: !accept', '#lobby dan: e4']);
  const { server, base } = await serve(db);
  const browser = await chromium.launch({
    executablePath: browserPath, headless: true, args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage();
    const problems = [];
    page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(`${base}/game/1`);
    // Erin's clock runs: three days from her turn, counted down each second.
    const first = await page.textContent('span.left');
    assert.match(first, /^2d 23:5\d:\d\d left$/);
    await page.waitForFunction((before) => document.querySelector('span.left').textContent !== before,
                               first, { timeout: 5_000 });
    // A mark that a reload would wipe out.
    await page.evaluate(() => { window.stillHere = 'yes'; });
    play(db, ['#lobby erin: e5']);
    await page.waitForFunction(() => document.querySelector('ol.moves').textContent === 'e4 e5',
                               null, { timeout: 15_000 });
    assert.equal(await page.evaluate(() => window.stillHere), 'yes');
    assert.equal(page.url(), `${base}/game/1`);
    assert.equal(await page.textContent('.steps .at'), 'ply 2 of 2');
    // Now dan's clock runs, and the page still counts it down.
    assert.match(await page.textContent('span.left'), /^2d 23:5\d:\d\d left$/);
    await page.screenshot({ path: join(artifacts, 'game-live.png'), fullPage: true });
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
    server.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
});

// Runs `lines` through `ghostpost console` on `db`; returns what the bot said.
function say(db, lines) {
  const run = spawnSync(binary, ['console', '--db', db], { input: lines.join('\n') + '\n' });
  assert.equal(run.status, 0, run.stderr.toString());
  return run.stdout.toString();
}

// Each new game a reply announces: [game, white, black].
function announced(out) {
  return [...out.matchAll(/Game #(\d+), FIDE chess: @(\w+) \(White\) vs @(\w+) \(Black\)\./g)]
    .map((m) => [m[1], m[2], m[3]]);
}

// The chat writes 2.5 and 0.25; the page ½ and ¼ ("2½", "¼"), and "–" for "-".
function asOnPage(cell) {
  if (cell === '-') return '–';
  const whole = Math.floor(Number(cell));
  const part = ['', '¼', '½', '¾'][Math.round((Number(cell) - whole) * 4)];
  return whole === 0 && part ? part : `${whole}${part}`;
}

test('a finished Swiss is listed on the home page, with the chat\'s table and tie-breaks',
     { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ghostpost-web-swiss-'));
  const db = join(dir, 'games.db');
  let out = say(db, ['#lobby ann: !tourney create Cup chess swiss rounds=3',
                     ...['ben', 'cat', 'dan', 'eve', 'ann'].map((p) => `#lobby ${p}: !tourney join Cup`),
                     '#lobby ann: !tourney start Cup']);
  // Each round: the first board's White resigns, the others' Black; until the table is final.
  for (let round = 1; !out.includes('Final standings:'); ++round) {
    const games = announced(out);
    assert.ok(games.length > 0 && round <= 3, out);
    out = say(db, games.map(([id, white, black], i) =>
      `#lobby ${i === 0 ? white : black}: !resign ${id}`));
  }
  const chat = out.slice(out.indexOf('Final standings:'));
  const header = chat.split('\n')[1].trim().split(/\s+/);
  assert.deepEqual(header, ['#', 'player', 'points', 'BH-C1', 'BH', 'DE', 'SB', 'games']);
  const rows = [...chat.matchAll(/^\s*(\d+) @(\w+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\d+)$/gm)]
    .map((m) => [m[1], m[2], ...m.slice(3, 8).map(asOnPage), m[8]]);
  assert.equal(rows.length, 5, chat);

  const { server, base } = await serve(db);
  const browser = await chromium.launch({
    executablePath: browserPath, headless: true, args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage();
    const problems = [];
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(`${base}/`);
    assert.deepEqual(await page.$$eval('h2', (hs) => hs.map((h) => h.textContent)).then(
      (hs) => hs.filter((h) => /ournaments/.test(h))), ['Tournaments', 'Finished tournaments']);
    assert.equal(await page.textContent('ul.tournaments li'), 'Cup: FIDE chess, Swiss');
    await Promise.all([page.waitForURL(`${base}/tournament/1`), page.click('ul.tournaments a')]);
    assert.equal(await page.textContent('p.tiebreaks'),
                 'Ties broken by Buchholz cut 1 (BH-C1), then Buchholz (BH), then direct ' +
                 'encounter (DE), then Sonneborn-Berger (SB).');
    assert.deepEqual(await page.$$eval('table.standings th', (ths) => ths.map((t) => t.textContent)),
                     ['#', 'Player', 'Points', 'BH-C1', 'BH', 'DE', 'SB', 'Games']);
    const web = await page.$$eval('table.standings tr', (trs) => trs.slice(1).map(
      (tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    assert.deepEqual(web, rows);
    await page.screenshot({ path: join(artifacts, 'tournament-swiss.png'), fullPage: true });
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
    server.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
});
