// The PGN that !pgn writes for FIDE games, read by chess.js (the library most chess web tools
// use): games with a takeback, castling on both sides, en passant, a promotion, a mate, a
// resignation and an agreed draw must load, move for move, with their result.
// Usage: node --test pgn.test.mjs, with GHOSTPOST_BINARY naming the executable.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Chess } from 'chess.js';

const binary = process.env.GHOSTPOST_BINARY;

// Plays `lines` through `ghostpost console` on a fresh database; the PGN blocks it answered.
function pgnsOf(lines) {
  const dir = mkdtempSync(join(tmpdir(), 'ghostpost-pgn-'));
  try {
    const run = spawnSync(binary, ['console', '--db', join(dir, 'games.db'), '--fixed-time',
                                   '1700000000'], { input: lines.join('\n') + '\n' });
    assert.equal(run.status, 0, run.stderr.toString());
    const out = run.stdout.toString();
    const pgns = [];
    for (const block of out.split(/^>> /m)) {
      const at = block.indexOf('PGN of game #');
      if (at < 0) continue;
      // The reply's text (the title, a lichess link) comes before the PGN's first tag.
      pgns.push(block.slice(block.indexOf('\n[', at) + 1).trim());
    }
    return pgns;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function load(pgn) {
  const chess = new Chess();
  chess.loadPgn(pgn); // throws on anything it cannot read
  return chess;
}

test('a mate after a takeback reads back, without the move taken back', () => {
  const [pgn] = pgnsOf([
    '#g alice: !new chess @bob', '#g bob: !accept',
    '#g alice: e4', '#g bob: e5', '#g alice: Qh5', '#g bob: Nc6',
    '#g alice: !takeback', '#g bob: !takeback',
    '#g alice: Bc4', '#g bob: Nc6', '#g alice: Qh5', '#g bob: Nf6', '#g alice: Qxf7#',
    '#g bob: !pgn',
  ]);
  const chess = load(pgn);
  assert.deepEqual(chess.history(), ['e4', 'e5', 'Bc4', 'Nc6', 'Qh5', 'Nf6', 'Qxf7#']);
  assert.equal(chess.isCheckmate(), true);
  assert.equal(chess.getHeaders().Result, '1-0');
  assert.equal(chess.getHeaders().White, 'alice');
});

test('castling, en passant and a promotion read back, and so does a resignation', () => {
  const [pgn] = pgnsOf([
    '#g alice: !new chess @bob', '#g bob: !accept',
    '#g alice: e4', '#g bob: Nf6', '#g alice: e5', '#g bob: d5', '#g alice: exd6',
    '#g bob: e6', '#g alice: dxc7', '#g bob: Qd7', '#g alice: cxb8=Q', '#g bob: Rxb8',
    '#g alice: Nf3', '#g bob: Bd6', '#g alice: Bc4', '#g bob: O-O', '#g alice: O-O',
    '#g bob: !resign', '#g bob: !pgn',
  ]);
  const chess = load(pgn);
  assert.deepEqual(chess.history(), ['e4', 'Nf6', 'e5', 'd5', 'exd6', 'e6', 'dxc7', 'Qd7',
                                     'cxb8=Q', 'Rxb8', 'Nf3', 'Bd6', 'Bc4', 'O-O', 'O-O']);
  assert.equal(chess.getHeaders().Result, '1-0');
  assert.equal(chess.fen(), '1rb2rk1/pp1q1ppp/3bpn2/8/2B5/5N2/PPPP1PPP/RNBQ1RK1 b - - 5 8');
});

test('an agreed draw and a game still under way read back', () => {
  const pgns = pgnsOf([
    '#g alice: !new chess @bob', '#g bob: !accept',
    '#g alice: e4', '#g bob: e5', '#g alice: !draw', '#g bob: !draw', '#g bob: !pgn 1',
    '#h carol: !new chess @dave black', '#h dave: !accept', '#h dave: d4', '#h carol: d5',
    '#h dave: !pgn',
  ]);
  assert.equal(pgns.length, 2);
  const drawn = load(pgns[0]);
  assert.deepEqual(drawn.history(), ['e4', 'e5']);
  assert.equal(drawn.getHeaders().Result, '1/2-1/2');
  const running = load(pgns[1]);
  assert.deepEqual(running.history(), ['d4', 'd5']);
  assert.equal(running.getHeaders().Result, '*');
  assert.equal(running.getHeaders().White, 'dave');
});
