// The basic Telegram flow of `ghostpost run` against the third-party emulator telegram-test-api
// (challenge, accept, a move, a board, a private message). The emulator has no long polls,
// offsets, photos or errors: those are the fake server's (fake_telegram.py) to test.
// Usage: node --test emulator_flow.test.mjs, with GHOSTPOST_BINARY naming the executable.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import net from 'node:net';
import TelegramServerModule from 'telegram-test-api';

const TelegramServer = TelegramServerModule.TelegramServer ?? TelegramServerModule;
const token = '777:EMULATOR-secret_token';
const binary = process.env.GHOSTPOST_BINARY;

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function botMessagesTo(server, chatId, count, limitMs = 20000) {
  const end = Date.now() + limitMs;
  for (;;) {
    const found = server.storage.botMessages
      .filter((m) => m.botToken === token && Number(m.message.chat_id) === chatId)
      .map((m) => m.message);
    if (found.length >= count || Date.now() > end) return found;
    await sleep(50);
  }
}

test('a challenge, a move, a board and a private message go through the emulator',
  { skip: binary ? false : 'GHOSTPOST_BINARY is not set', timeout: 90000 }, async () => {
    const port = await freePort();
    const server = new TelegramServer({ port, host: '127.0.0.1', storeTimeout: 600 });
    await server.start();
    const dir = mkdtempSync(join(tmpdir(), 'ghostpost-emulator-'));
    writeFileSync(join(dir, 'ghostpost.toml'), [
      // alice (user 7) moderates: the emulator has no sendPhoto, so the channel's boards are
      // set to text, which Telegram channels otherwise get as images.
      '[bot]', 'moderators = ["telegram:7"]',
      '[storage]', 'path = "games.sqlite"',
      '[telegram]', `api_url = "http://127.0.0.1:${port}"`, 'poll_timeout = 1',
      'per_chat_interval_ms = 0', 'group_messages_per_minute = 1000', '',
    ].join('\n'));
    const daemon = spawn(binary, ['run', '--config', join(dir, 'ghostpost.toml')], {
      env: { ...process.env, GHOSTPOST_TELEGRAM_TOKEN: token },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    daemon.stderr.on('data', (chunk) => { stderr += chunk; });
    const exited = new Promise((resolve) => daemon.on('exit', (code) => resolve(code)));
    try {
      const group = { chatId: -1001, type: 'group', chatTitle: 'ghosts' };
      const alice = server.getClient(token, { ...group, userId: 7, userName: 'alice', firstName: 'Alice' });
      const bob = server.getClient(token, { ...group, userId: 8, userName: 'bob', firstName: 'Bob' });
      const bobPrivate = server.getClient(token, { chatId: 8, type: 'private', userId: 8, userName: 'bob', firstName: 'Bob' });

      await alice.sendMessage(alice.makeMessage('/channel@TestNameBot settings images=off'));
      let said = await botMessagesTo(server, -1001, 1);
      assert.equal(said[0]?.text, 'Boards in this channel: orientation=white notation=ascii '
        + 'images=off style=board language=auto.');

      await alice.sendMessage(alice.makeMessage('/new@TestNameBot chess @bob white'));
      said = (await botMessagesTo(server, -1001, 2)).slice(1);
      assert.equal(said[0]?.text, '@alice challenges @bob to FIDE chess, game #1. @alice would play '
        + 'White. Options: none. Clock: 3d per move; rated. @bob: answer !accept 1 or !decline 1.');

      await bob.sendMessage(bob.makeMessage('!accept 1'));
      said = (await botMessagesTo(server, -1001, 3)).slice(1);
      assert.match(said[1]?.text ?? '', /^@bob accepts\. Game #1, FIDE chess: @alice \(White\) vs @bob \(Black\)\. @alice \(White\) must move\. Clock \(3d per move; rated\): @alice \(White\) 3d 0h left, until \d{4}-\d\d-\d\d \d\d:\d\d UTC; @bob \(Black\) 3d 0h left\.\n<pre>/);
      assert.equal(said[1].parse_mode, 'HTML');

      await alice.sendMessage(alice.makeMessage('e4'));
      said = (await botMessagesTo(server, -1001, 4)).slice(1);
      assert.match(said[2]?.text ?? '', /^@alice \(White\) played e4 in game #1\. @bob \(Black\) must move\./);

      await bob.sendMessage(bob.makeMessage('!board'));
      said = (await botMessagesTo(server, -1001, 5)).slice(1);
      assert.match(said[3]?.text ?? '', /<pre>/);

      await bobPrivate.sendMessage(bobPrivate.makeMessage('!games'));
      const privately = await botMessagesTo(server, 8, 1);
      assert.equal(privately[0]?.text, 'Games of @bob, those waiting for them first:\n<pre>#1 chess '
        + 'vs @alice: @bob (Black) must move.\n</pre>');
    } finally {
      daemon.kill('SIGTERM');
      const code = await Promise.race([exited, sleep(5000).then(() => 'timeout')]);
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
      assert.equal(code, 0, stderr);
      assert.ok(!stderr.includes('EMULATOR-secret_token'), 'the token appeared in the log');
    }
  });
