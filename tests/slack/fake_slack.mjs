// A fake Slack for the tests, on loopback: Socket Mode over WebSocket (apps.connections.open
// hands out single-use URLs; hello; envelopes of the kinds events_api, slash_commands and
// interactive, each of whose acknowledgements is timed against Slack's 3 s; disconnect with
// refresh_requested or link_disabled; a dropped socket) and the Web API methods the adapter
// calls, with rate limits (429 and Retry-After, and a call before it ran out is a violation),
// a user the app may not write to, channels the app is not in, and refused tokens.
//
// Every Web API request is checked against Slack's OpenAPI 2 description
// (slack_web_openapi_v2.json): the HTTP method and content type the operation lists, its
// parameters in the query (GET) or the form body (POST) and no other, the required ones present,
// booleans and numbers well formed; the Block Kit JSON of `blocks` is checked for its shape.
// Its own answers are checked against the description's response schemas, closed: an answer
// Slack could not send is answered 500 and written to stderr as "answer violation: ...", which
// fails the test (fake_server.h).
//
// Where the description is older than the service the fake follows Slack's current
// documentation (docs.slack.dev), and says so where it does:
// - apps.connections.open (Socket Mode, 2020) is not in the file: POST with the app-level token
//   (xapp-), no parameters; it answers {ok, url}.
// - files.getUploadURLExternal and files.completeUploadExternal (2024, replacing files.upload)
//   are not in it either: described below from the current reference.
// - error codes the current reference lists and the file's enums lack (token_revoked for every
//   method, ratelimited for a 429's body) are added to those enums.
// - conversations.history and conversations.replies return an empty `messages` list when
//   nothing is newer than `oldest` (the file says minItems 1).
// - message metadata (2022) is not in it: chat.postMessage takes `metadata`, a JSON object of
//   exactly {event_type, event_payload}; conversations.history and conversations.replies take
//   `include_all_metadata` and only then list each message's `metadata`.
// - a slash command's or a press's response_url (in no API description): a POST of JSON with
//   `text` and/or `blocks`, `response_type` (ephemeral or in_channel), `replace_original`,
//   `delete_original`, `thread_ts`, and nothing else, without a token (the address is the
//   credential); five uses within thirty minutes, after which it answers 404. A sixth use is
//   the adapter's fault (it counts them); a use after expiry is answered 404 only.
//
// Controls (POST /control/<name>, JSON): say {channel, user, text, thread_ts?, via?} (a message
// in a channel; "dm": true for the user's DM with the app; via: see envelope()), slash {channel, user, text}, press
// {channel, user, message_ts, value}, disconnect {reason, hold_hello_ms?}, drop, refuse_token {refuse, error?},
// rate_limit {method, retry_after}, stall {method, after?, store?}, close_dms {user},
// leave {channel}, stats (zero_open counts the moments without any open connection), sent,
// responses (what went to response_urls), expire_responses, violations, go_down (and the line
// "come_back" on standard input).
//
// Usage: node fake_slack.mjs --spec slack_web_openapi_v2.json --bot-token xoxb-... --app-token xapp-...
// Prints "PORT <n>" once listening; exits when its standard input closes.
import Ajv from "ajv";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import { WebSocketServer } from "ws";

const args = Object.fromEntries(
    process.argv.slice(2).reduce((pairs, a, i, all) => {
        if (a.startsWith("--")) pairs.push([a.slice(2), all[i + 1]]);
        return pairs;
    }, []),
);
const BOT_TOKEN = args["bot-token"];
const APP_TOKEN = args["app-token"];
const BOT_USER = "UGHOSTBOT1";
const BOT_ID = "BGHOSTBOT1";
const TEAM = "TFAKETEAM1";
const APP_ID = "AFAKEAPP01";
const ACK_LIMIT_MS = 3000;

// ---- the API description, closed -------------------------------------------------------
const spec = JSON.parse(fs.readFileSync(args.spec, "utf8"));
// Methods newer than the file, from Slack's current reference (see the top of this file).
spec.paths["/apps.connections.open"] = {
    post: {
        consumes: ["application/x-www-form-urlencoded"],
        parameters: [],
        responses: {
            200: { schema: { type: "object", additionalProperties: false, required: ["ok", "url"], properties: { ok: { enum: [true] }, url: { type: "string" } } } },
            default: { schema: { type: "object", additionalProperties: false, required: ["ok", "error"], properties: { ok: { enum: [false] }, error: { type: "string" } } } },
        },
    },
};
spec.paths["/files.getUploadURLExternal"] = {
    post: {
        consumes: ["application/x-www-form-urlencoded"],
        parameters: [
            { name: "filename", in: "formData", type: "string", required: true },
            { name: "length", in: "formData", type: "integer", required: true },
            { name: "alt_txt", in: "formData", type: "string" },
            { name: "snippet_type", in: "formData", type: "string" },
        ],
        responses: {
            200: { schema: { type: "object", additionalProperties: false, required: ["ok", "upload_url", "file_id"], properties: { ok: { enum: [true] }, upload_url: { type: "string" }, file_id: { type: "string" } } } },
            default: { schema: { type: "object", additionalProperties: false, required: ["ok", "error"], properties: { ok: { enum: [false] }, error: { type: "string" } } } },
        },
    },
};
spec.paths["/files.completeUploadExternal"] = {
    post: {
        consumes: ["application/x-www-form-urlencoded"],
        parameters: [
            { name: "files", in: "formData", type: "string", required: true },
            { name: "channel_id", in: "formData", type: "string" },
            { name: "channels", in: "formData", type: "string" },
            { name: "thread_ts", in: "formData", type: "string" },
            { name: "initial_comment", in: "formData", type: "string" },
            { name: "blocks", in: "formData", type: "string" },
        ],
        responses: {
            200: { schema: { type: "object", additionalProperties: false, required: ["ok", "files"], properties: { ok: { enum: [true] }, files: { type: "array", items: { type: "object", additionalProperties: false, required: ["id"], properties: { id: { type: "string" }, title: { type: "string" } } } } } } },
            default: { schema: { type: "object", additionalProperties: false, required: ["ok", "error"], properties: { ok: { enum: [false] }, error: { type: "string" } } } },
        },
    },
};
const metadataSchema = { type: "object", additionalProperties: false, required: ["event_type", "event_payload"], properties: { event_type: { type: "string" }, event_payload: { type: "object" } } };
spec.paths["/chat.postMessage"].post.parameters.push({ name: "metadata", in: "formData", type: "string" });
for (const method of ["/conversations.history", "/conversations.replies"])
    spec.paths[method].get.parameters.push({ name: "include_all_metadata", in: "query", type: "boolean" });
spec.definitions.objs_message.properties.metadata = metadataSchema;
function close(node) {
    if (Array.isArray(node)) return node.forEach(close);
    if (node === null || typeof node !== "object") return;
    if (node.properties && node.additionalProperties === undefined) node.additionalProperties = false;
    for (const value of Object.values(node)) close(value);
}
close(spec.definitions);
close(spec.paths);
for (const item of Object.values(spec.paths))
    for (const operation of Object.values(item)) {
        const error = operation.responses?.default?.schema?.properties?.error;
        if (error?.enum) for (const code of ["token_revoked", "ratelimited"]) if (!error.enum.includes(code)) error.enum.push(code);
        const ok = operation.responses?.["200"]?.schema?.properties?.messages;
        if (ok?.minItems) delete ok.minItems;
    }
const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
ajv.addSchema({ $id: "slack", definitions: spec.definitions });
const compiled = new Map();
function validatorOf(schema) {
    const text = JSON.stringify(schema).replaceAll('"#/definitions/', '"slack#/definitions/');
    if (!compiled.has(text)) compiled.set(text, ajv.compile(JSON.parse(text)));
    return compiled.get(text);
}

const violations = [];
function violation(where, problem) {
    violations.push(`${where}: ${problem}`);
    process.stderr.write(`request violation: ${where}: ${problem}\n`);
}

// The request's parameters against the operation: where they may be, which exist, which are
// required, and the form of booleans and numbers.
function checkRequest(where, operation, method, contentType, params) {
    const place = method === "GET" ? "query" : "formData";
    if (method === "POST" && !(operation.consumes ?? []).some((c) => contentType.startsWith(c)))
        violation(where, `content type ${contentType}, not one of ${operation.consumes}`);
    if (method === "POST" && !contentType.startsWith("application/x-www-form-urlencoded"))
        violation(where, "the fake reads form bodies only");
    const known = Object.fromEntries(operation.parameters.filter((p) => p.in === place).map((p) => [p.name, p]));
    for (const [name, value] of params) {
        const parameter = known[name];
        if (!parameter) {
            violation(where, `unknown parameter ${name} (in ${place})`);
            continue;
        }
        if (parameter.type === "boolean" && !["true", "false", "1", "0"].includes(value)) violation(where, `${name} is not a boolean`);
        if (parameter.type === "integer" && !/^-?\d+$/.test(value)) violation(where, `${name} is not an integer`);
        if (parameter.type === "number" && !/^\d+(\.\d+)?$/.test(value)) violation(where, `${name} is not a number`);
    }
    for (const p of Object.values(known))
        if (p.required && !params.has(p.name)) violation(where, `required parameter ${p.name} missing`);
}

// Block Kit as chat.postMessage takes it: sections of mrkdwn text and rows of buttons.
function checkBlocks(where, text) {
    let blocks;
    try {
        blocks = JSON.parse(text);
    } catch {
        return violation(where, "blocks is not JSON");
    }
    if (!Array.isArray(blocks) || blocks.length === 0 || blocks.length > 50) return violation(where, "blocks is not a list of 1 to 50");
    const plain = (t, max) => t && t.type === "plain_text" && typeof t.text === "string" && t.text.length >= 1 && t.text.length <= max && Object.keys(t).every((k) => ["type", "text", "emoji"].includes(k));
    for (const block of blocks) {
        if (block.type === "section") {
            if (!block.text || block.text.type !== "mrkdwn" || typeof block.text.text !== "string" || block.text.text.length > 3000 ||
                Object.keys(block).some((k) => !["type", "text", "block_id"].includes(k)))
                violation(where, "a section block Slack would refuse");
        } else if (block.type === "actions") {
            if (!Array.isArray(block.elements) || block.elements.length === 0 || block.elements.length > 25) violation(where, "actions without 1 to 25 elements");
            const ids = new Set();
            for (const e of block.elements ?? []) {
                if (e.type !== "button" || !plain(e.text, 75) || typeof e.value !== "string" || e.value.length > 2000 ||
                    typeof e.action_id !== "string" || ids.has(e.action_id) ||
                    Object.keys(e).some((k) => !["type", "text", "value", "action_id", "confirm", "style", "url"].includes(k)))
                    violation(where, `a button Slack would refuse: ${JSON.stringify(e)}`);
                ids.add(e.action_id);
                if (e.confirm && (!plain(e.confirm.title, 100) || !plain(e.confirm.text, 300) || !plain(e.confirm.confirm, 30) || !plain(e.confirm.deny, 30)))
                    violation(where, "a confirmation dialog Slack would refuse");
            }
        } else {
            violation(where, `a block of type ${block.type}, which the fake does not expect`);
        }
    }
}

// ---- state -----------------------------------------------------------------------------
let clock = 1700000000;
let serial = 0;
function nextTs() {
    serial += 1;
    clock += 1;
    return `${clock}.${String(serial).padStart(6, "0")}`;
}
const channels = new Map(); // id -> {id, messages: []}
const notIn = new Set(); // channels the app is not a member of
const closedDms = new Set(); // users the app may not write to
const sent = []; // what the app posted, in order
const uploads = new Map(); // file id -> {bytes, filename, length}
const rateLimits = new Map(); // method -> {retry_after}: the next call of it gets a 429
// method -> {after, store}: after `after` more calls, the next one is never answered (a daemon
// killed while it waits); with `store` it took effect all the same.
const stalls = new Map();
const notBefore = new Map(); // method -> ms: when a 429's Retry-After runs out
const envelopes = new Map(); // envelope id -> {sent, acked, type}
const tickets = new Set();
const responders = new Map(); // response_url id -> {uses, created, channel, user}
const responses = []; // what was posted to a response_url, in order
const stats = { connections: 0, hellos: 0, zero_open: 0, stalled: 0, responses_refused: 0, acks: 0, late_acks: 0, requests: 0, rate_limited: 0, opens: 0, history_reads: 0, replies_reads: 0, uploads: 0 };
let refusing = null; // an error code for the bot token, or null
let port = 0;

function channel(id) {
    if (!channels.has(id)) channels.set(id, { id, messages: [] });
    return channels.get(id);
}

function reply(res, status, body, headers = {}) {
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(JSON.stringify(body));
}

// ---- Socket Mode -------------------------------------------------------------------------
const wss = new WebSocketServer({ noServer: true });
function live() {
    return [...wss.clients].filter((s) => s.readyState === 1);
}
// Socket Mode delivers to one open connection and replays nothing while none is. `via` picks
// it while an old connection (told to refresh) and its successor are both open: "old", "new",
// or "both" (the same event on each, in envelopes of their own, as Slack's retry would);
// otherwise a connection not told to refresh.
function envelope(type, payload, via) {
    const sockets = live();
    if (sockets.length === 0) return null;
    const fresh = sockets.filter((s) => !s.retiring);
    const targets = via === "both" ? sockets : via === "old" ? [sockets[0]] : via === "new" ? [sockets[sockets.length - 1]] : [fresh[0] ?? sockets[0]];
    let first = null;
    for (const socket of targets) {
        const id = crypto.randomUUID();
        const frame = { envelope_id: id, payload, type, accepts_response_payload: type !== "events_api", retry_attempt: 0, retry_reason: "" };
        envelopes.set(id, { sent: Date.now(), acked: null, type, socket: socket.serial });
        socket.send(JSON.stringify(frame));
        first ??= id;
    }
    return first;
}
let sockets_opened = 0;
let open_sockets = 0;
let hold_hello_ms = 0; // the next connection's hello waits this long (a slow handshake)
wss.on("connection", (socket) => {
    stats.connections += 1;
    sockets_opened += 1;
    open_sockets += 1;
    socket.serial = sockets_opened;
    socket.retiring = false;
    // A moment without any open connection: what is posted then reaches no socket.
    socket.on("close", () => {
        open_sockets -= 1;
        if (open_sockets === 0) stats.zero_open += 1;
    });
    const hello = () => {
        if (socket.readyState !== 1) return;
        stats.hellos += 1;
        socket.send(JSON.stringify({ type: "hello", num_connections: live().length, debug_info: { host: "fake-slack", build_number: 1, approximate_connection_time: 18060 }, connection_info: { app_id: APP_ID } }));
    };
    if (hold_hello_ms > 0) setTimeout(hello, hold_hello_ms);
    else hello();
    hold_hello_ms = 0;
    socket.on("message", (raw) => {
        let ack;
        try {
            ack = JSON.parse(raw.toString());
        } catch {
            return violation("socket mode", "a frame that is not JSON");
        }
        const extra = Object.keys(ack).filter((k) => !["envelope_id", "payload"].includes(k));
        if (extra.length) violation("socket mode", `an acknowledgement with unknown fields ${extra}`);
        const e = envelopes.get(ack.envelope_id);
        if (!e) return violation("socket mode", `an acknowledgement of unknown envelope ${ack.envelope_id}`);
        if (e.acked !== null) return violation("socket mode", `envelope ${ack.envelope_id} acknowledged twice`);
        if (e.socket !== socket.serial) violation("socket mode", `envelope ${ack.envelope_id} acknowledged on connection ${socket.serial}, sent on ${e.socket}`);
        e.acked = Date.now();
        stats.acks += 1;
        if (e.acked - e.sent > ACK_LIMIT_MS) stats.late_acks += 1;
    });
});

// A message from a person, stored, and delivered as Slack would: a message event, and an
// app_mention too when it names the app outside a DM.
function say(a) {
    const id = a.dm ? `D${a.user.slice(1)}` : a.channel;
    const c = channel(id);
    const ts = nextTs();
    const m = { type: "message", user: a.user, text: a.text, ts, team: TEAM };
    if (a.thread_ts) {
        m.thread_ts = a.thread_ts;
        const parent = c.messages.find((p) => p.ts === a.thread_ts);
        if (parent) {
            parent.thread_ts = parent.ts;
            parent.reply_count = (parent.reply_count ?? 0) + 1;
            parent.latest_reply = ts;
        }
    }
    if (a.subtype) m.subtype = a.subtype;
    c.messages.push(m);
    const event = { ...m, channel: id, event_ts: ts, channel_type: a.dm ? "im" : "channel" };
    const wrap = (ev) => ({ token: "verification-token", team_id: TEAM, api_app_id: APP_ID, event: ev, type: "event_callback", event_id: `Ev${crypto.randomBytes(5).toString("hex").toUpperCase()}`, event_time: Math.floor(Date.now() / 1000), authorizations: [{ team_id: TEAM, user_id: BOT_USER, is_bot: true }] });
    const delivered = envelope("events_api", wrap(event), a.via);
    if (!a.dm && a.text.includes(`<@${BOT_USER}>`)) {
        const { channel_type: _, ...mention } = event;
        envelope("events_api", wrap({ ...mention, type: "app_mention" }), a.via);
    }
    return { ts, channel: id, delivered: delivered !== null };
}

// ---- the Web API -------------------------------------------------------------------------
function answer(res, where, operation, body, status = 200, headers = {}) {
    const schema = body.ok ? operation.responses["200"]?.schema : operation.responses.default?.schema;
    if (schema) {
        const validate = validatorOf(schema);
        if (!validate(body)) {
            process.stderr.write(`answer violation: the fake's answer to ${where}: ${validate.errors.map((e) => `${e.instancePath || "/"} ${e.message} ${JSON.stringify(e.params)}`).join("; ")}\n`);
            return reply(res, 500, { ok: false, error: "fatal_error" });
        }
    }
    return reply(res, status, body, headers);
}

// A message as conversations.history and conversations.replies list it: its metadata only
// when include_all_metadata asked for it.
function asListed(m, withMetadata) {
    const out = { ...m };
    if (!withMetadata) delete out.metadata;
    return out;
}

function web(req, res, body) {
    const url = new URL(req.url, "http://x");
    const method = url.pathname.slice("/api/".length);
    const where = `${req.method} ${method}`;
    stats.requests += 1;
    const item = spec.paths[`/${method}`];
    const operation = item?.[req.method.toLowerCase()];
    if (!operation) {
        violation(where, item ? `the description lists ${Object.keys(item)} for it, not ${req.method}` : "no such method");
        return reply(res, 404, { ok: false, error: "unknown_method" });
    }
    const contentType = req.headers["content-type"] ?? "";
    const params = req.method === "GET" ? url.searchParams : new URLSearchParams(body.toString());
    checkRequest(where, operation, req.method, contentType, params);
    const p = Object.fromEntries(params);

    const auth = req.headers.authorization ?? "";
    const wanted = method === "apps.connections.open" ? APP_TOKEN : BOT_TOKEN;
    if (auth !== `Bearer ${wanted}`) {
        violation(where, auth.startsWith("Bearer ") ? "called with the wrong token" : "no Authorization: Bearer");
        return answer(res, where, operation, { ok: false, error: "not_authed" });
    }
    if (refusing && method !== "apps.connections.open") return answer(res, where, operation, { ok: false, error: refusing });
    if (refusing && method === "apps.connections.open") return answer(res, where, operation, { ok: false, error: "invalid_auth" });

    // A 429 sent earlier: a call before its Retry-After ran out is the adapter's fault.
    const key = method === "chat.postMessage" ? `${method} ${p.channel}` : method;
    if (notBefore.has(key) && Date.now() < notBefore.get(key)) violation(where, `called ${notBefore.get(key) - Date.now()} ms before Retry-After ran out`);
    if (stalls.has(method)) {
        const stall = stalls.get(method);
        if (stall.after > 0) stall.after -= 1;
        else {
            stalls.delete(method);
            stats.stalled += 1;
            if (!stall.store) return; // no answer, and nothing done
            res = { writeHead() {}, end() {} }; // done, but the answer never leaves
        }
    }
    if (rateLimits.has(method)) {
        const { retry_after } = rateLimits.get(method);
        rateLimits.delete(method);
        stats.rate_limited += 1;
        notBefore.set(key, Date.now() + retry_after * 1000);
        return answer(res, where, operation, { ok: false, error: "ratelimited" }, 429, { "retry-after": String(retry_after) });
    }

    switch (method) {
        case "auth.test":
            return answer(res, where, operation, { ok: true, url: "https://fake.slack.com/", team: "Fake Team", user: "ghostpost", team_id: TEAM, user_id: BOT_USER, bot_id: BOT_ID, is_enterprise_install: false });
        case "apps.connections.open": {
            stats.opens += 1;
            const ticket = crypto.randomUUID();
            tickets.add(ticket);
            return answer(res, where, operation, { ok: true, url: `ws://127.0.0.1:${port}/link/?ticket=${ticket}&app_id=${APP_ID}` });
        }
        case "conversations.open": {
            const user = p.users ?? "";
            if (!/^[UW][A-Z0-9]+$/.test(user)) return answer(res, where, operation, { ok: false, error: "user_not_found" });
            if (closedDms.has(user)) return answer(res, where, operation, { ok: false, error: "user_not_visible" });
            const id = `D${user.slice(1)}`;
            channel(id);
            return answer(res, where, operation, { ok: true, channel: { id } });
        }
        case "chat.postMessage": {
            const id = p.channel ?? "";
            if (!channels.has(id) || (id.startsWith("D") && closedDms.has(`U${id.slice(1)}`))) return answer(res, where, operation, { ok: false, error: "channel_not_found" });
            if (notIn.has(id)) return answer(res, where, operation, { ok: false, error: "not_in_channel" });
            if (p.blocks !== undefined) checkBlocks(where, p.blocks);
            if (!p.text && !p.blocks) return answer(res, where, operation, { ok: false, error: "no_text" });
            let metadata = null;
            if (p.metadata !== undefined) {
                try {
                    metadata = JSON.parse(p.metadata);
                } catch {
                    violation(where, "metadata is not JSON");
                }
                if (metadata !== null && !validatorOf(metadataSchema)(metadata)) violation(where, `metadata Slack would refuse: ${p.metadata}`);
                if (metadata !== null && !/^[a-z0-9_]+$/.test(metadata.event_type ?? "")) violation(where, `event_type ${metadata.event_type} is not an alphanumeric name`);
            }
            const c = channel(id);
            const ts = nextTs();
            const m = { type: "message", user: BOT_USER, bot_id: BOT_ID, text: p.text ?? "", ts, team: TEAM };
            if (p.reply_broadcast !== undefined && !p.thread_ts) violation(where, "reply_broadcast without thread_ts");
            if (p.thread_ts) {
                if (!c.messages.some((x) => x.ts === p.thread_ts)) violation(where, `thread_ts ${p.thread_ts} is no message of ${id}`);
                m.thread_ts = p.thread_ts;
            }
            c.messages.push(metadata ? { ...m, metadata } : m);
            sent.push({ channel: id, ts, text: m.text, thread_ts: p.thread_ts ?? null, blocks: p.blocks ? JSON.parse(p.blocks) : null, mrkdwn: p.mrkdwn ?? null, metadata, reply_broadcast: p.reply_broadcast === "true" || p.reply_broadcast === "1" });
            return answer(res, where, operation, { ok: true, channel: id, ts, message: m });
        }
        case "conversations.history":
        case "conversations.replies": {
            stats[method === "conversations.history" ? "history_reads" : "replies_reads"] += 1;
            const c = channels.get(p.channel);
            if (!c || notIn.has(p.channel)) return answer(res, where, operation, { ok: false, error: "channel_not_found" });
            const after = (ts) => p.oldest === undefined || Number(ts) > Number(p.oldest);
            const before = (ts) => p.latest === undefined || Number(ts) < Number(p.latest);
            const limit = Number(p.limit ?? 100);
            const listed = (m) => asListed(m, ["true", "1"].includes(p.include_all_metadata ?? ""));
            if (method === "conversations.history") {
                const top = c.messages.filter((m) => (!m.thread_ts || m.thread_ts === m.ts) && after(m.ts) && before(m.ts)).reverse();
                return answer(res, where, operation, { ok: true, messages: top.slice(0, limit).map(listed), has_more: top.length > limit, pin_count: 0, channel_actions_ts: null, channel_actions_count: 0 });
            }
            const parent = c.messages.find((m) => m.ts === p.ts);
            if (!parent) return answer(res, where, operation, { ok: false, error: "thread_not_found" });
            const replies = c.messages.filter((m) => m.thread_ts === p.ts && m.ts !== p.ts && after(m.ts) && before(m.ts));
            return answer(res, where, operation, { ok: true, messages: [parent, ...replies.slice(0, limit)].map(listed), has_more: replies.length > limit });
        }
        case "files.getUploadURLExternal": {
            const file = `F${crypto.randomBytes(5).toString("hex").toUpperCase()}`;
            uploads.set(file, { filename: p.filename, length: Number(p.length), bytes: null });
            return answer(res, where, operation, { ok: true, upload_url: `http://127.0.0.1:${port}/upload/${file}`, file_id: file });
        }
        case "files.completeUploadExternal": {
            let files;
            try {
                files = JSON.parse(p.files);
            } catch {
                violation(where, "files is not JSON");
                return answer(res, where, operation, { ok: false, error: "invalid_arguments" });
            }
            for (const f of files) {
                const u = uploads.get(f.id);
                if (!u || u.bytes === null) violation(where, `file ${f.id} completed before it was uploaded`);
                else if (u.bytes.length !== u.length) violation(where, `file ${f.id}: ${u.bytes.length} bytes uploaded, ${u.length} announced`);
            }
            if (p.channel_id && !channels.has(p.channel_id)) return answer(res, where, operation, { ok: false, error: "channel_not_found" });
            stats.uploads += files.length;
            sent.push({ channel: p.channel_id ?? null, files: files.map((f) => ({ id: f.id, png: uploads.get(f.id)?.bytes?.subarray(0, 8).toString("hex") ?? null })), thread_ts: p.thread_ts ?? null, text: p.initial_comment ?? "" });
            return answer(res, where, operation, { ok: true, files: files.map((f) => ({ id: f.id, ...(f.title ? { title: f.title } : {}) })) });
        }
        default:
            violation(where, "a method the fake does not serve");
            return reply(res, 404, { ok: false, error: "unknown_method" });
    }
}

// ---- response_url --------------------------------------------------------------------------
function newResponder(channelId, user) {
    const id = crypto.randomBytes(12).toString("hex");
    responders.set(id, { uses: 0, created: Date.now(), channel: channelId, user });
    return id;
}
function respond(req, res, body, id) {
    const where = `POST response_url`;
    const r = responders.get(id);
    if (!r) {
        violation(where, "an address Slack never gave");
        return reply(res, 404, { ok: false, error: "no_such_url" });
    }
    if (req.method !== "POST") violation(where, `${req.method}, not POST`);
    if (!(req.headers["content-type"] ?? "").startsWith("application/json")) violation(where, `content type ${req.headers["content-type"]}, not JSON`);
    if (req.headers.authorization) violation(where, "a token sent to a response_url");
    let m;
    try {
        m = JSON.parse(body.toString());
    } catch {
        violation(where, "a body that is not JSON");
        return reply(res, 400, { ok: false, error: "invalid_payload" });
    }
    const extra = Object.keys(m).filter((k) => !["text", "blocks", "response_type", "replace_original", "delete_original", "thread_ts"].includes(k));
    if (extra.length) violation(where, `unknown fields ${extra}`);
    if (typeof m.text !== "string" && !Array.isArray(m.blocks)) violation(where, "neither text nor blocks");
    if (m.response_type !== undefined && !["ephemeral", "in_channel"].includes(m.response_type)) violation(where, `response_type ${m.response_type}`);
    if (m.replace_original !== undefined && typeof m.replace_original !== "boolean") violation(where, "replace_original is not a boolean");
    if (m.blocks !== undefined) checkBlocks(where, JSON.stringify(m.blocks));
    if (Date.now() - r.created > 30 * 60 * 1000) {
        stats.responses_refused += 1;
        return reply(res, 404, { ok: false, error: "expired_url" });
    }
    r.uses += 1;
    if (r.uses > 5) {
        violation(where, `used ${r.uses} times: Slack takes five`);
        stats.responses_refused += 1;
        return reply(res, 404, { ok: false, error: "used_url" });
    }
    responses.push({ channel: r.channel, user: r.user, responder: id, response_type: m.response_type ?? "ephemeral", text: m.text ?? "", blocks: m.blocks ?? null });
    return reply(res, 200, { ok: true });
}

// ---- control, for the tests --------------------------------------------------------------
function control(command, a, res) {
    switch (command) {
        case "say": return reply(res, 200, say(a));
        case "slash": {
            channel(a.channel);
            const trigger = `${Date.now()}.${crypto.randomBytes(4).toString("hex")}`;
            const responder = newResponder(a.channel, a.user);
            const id = envelope("slash_commands", { token: "verification-token", team_id: TEAM, team_domain: "fake", channel_id: a.channel, channel_name: "games", user_id: a.user, user_name: a.user_name ?? a.user.toLowerCase(), command: "/ghostpost", text: a.text, api_app_id: APP_ID, is_enterprise_install: "false", response_url: `http://127.0.0.1:${port}/commands/${TEAM}/${responder}`, trigger_id: trigger });
            return reply(res, 200, { envelope_id: id, responder });
        }
        case "press": {
            const c = channel(a.channel);
            const message = c.messages.find((m) => m.ts === a.message_ts);
            const id = envelope("interactive", { type: "block_actions", user: { id: a.user, username: a.user.toLowerCase(), name: a.user.toLowerCase(), team_id: TEAM }, api_app_id: APP_ID, token: "verification-token", container: { type: "message", message_ts: a.message_ts, channel_id: a.channel, is_ephemeral: false }, trigger_id: `${Date.now()}.${crypto.randomBytes(4).toString("hex")}`, team: { id: TEAM, domain: "fake" }, channel: { id: a.channel, name: "games" }, message: message ?? { ts: a.message_ts }, response_url: `http://127.0.0.1:${port}/actions/${TEAM}/${newResponder(a.channel, a.user)}`, actions: [{ action_id: "ghostpost_0", block_id: "b", text: { type: "plain_text", text: "x" }, value: a.value, type: "button", action_ts: `${clock + 1}.${String(serial + 1).padStart(6, "0")}` }] });
            return reply(res, 200, { envelope_id: id });
        }
        case "disconnect":
            hold_hello_ms = a.hold_hello_ms ?? 0;
            for (const s of live()) s.retiring = true;
            for (const s of live()) s.send(JSON.stringify({ type: "disconnect", reason: a.reason ?? "refresh_requested", debug_info: { host: "fake-slack" } }));
            return reply(res, 200, {});
        case "drop": for (const s of live()) s.terminate(); return reply(res, 200, {});
        case "refuse_token":
            refusing = (a.refuse ?? true) ? (a.error ?? "invalid_auth") : null;
            return reply(res, 200, {});
        case "rate_limit": rateLimits.set(a.method, { retry_after: a.retry_after ?? 1 }); return reply(res, 200, {});
        case "stall": stalls.set(a.method, { after: a.after ?? 0, store: a.store ?? false }); return reply(res, 200, {});
        case "close_dms": closedDms.add(a.user); return reply(res, 200, {});
        case "open_dms": closedDms.delete(a.user); return reply(res, 200, {});
        case "leave": notIn.add(a.channel); return reply(res, 200, {});
        case "sent": return reply(res, 200, { sent });
        case "responses": return reply(res, 200, { responses });
        // Every response_url so far is older than thirty minutes.
        case "expire_responses": for (const r of responders.values()) r.created -= 31 * 60 * 1000; return reply(res, 200, {});
        case "violations": return reply(res, 200, { violations });
        case "stats": {
            const unacked = [...envelopes.values()].filter((e) => e.acked === null && Date.now() - e.sent > ACK_LIMIT_MS).length;
            return reply(res, 200, { ...stats, unacked, live: live().length });
        }
        case "go_down": setTimeout(goDown, 50); return reply(res, 200, {});
        default: return reply(res, 404, { error: `unknown control ${command}` });
    }
}

const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
        const body = Buffer.concat(chunks);
        try {
            if (req.url.startsWith("/control/")) return control(req.url.slice(9), body.length ? JSON.parse(body.toString()) : {}, res);
            if (req.url.startsWith("/api/")) return web(req, res, body);
            const hook = req.url.match(/^\/(commands|actions)\/[A-Z0-9]+\/([0-9a-f]+)$/);
            if (hook) return respond(req, res, body, hook[2]);
            if (req.url.startsWith("/upload/")) {
                // The upload URL takes the file's bytes as the body of a POST (raw or multipart).
                const u = uploads.get(req.url.slice(8));
                if (!u) return reply(res, 404, {});
                const type = req.headers["content-type"] ?? "";
                let bytes = body;
                if (type.startsWith("multipart/form-data")) {
                    const start = body.indexOf("\r\n\r\n") + 4;
                    const boundary = `\r\n--${type.split("boundary=")[1]}`;
                    bytes = body.subarray(start, body.indexOf(boundary, start));
                }
                u.bytes = bytes;
                res.writeHead(200, { "content-type": "text/plain" });
                return res.end(`OK - ${bytes.length}`);
            }
            violation(`${req.method} ${req.url}`, "not a Slack address");
            return reply(res, 404, {});
        } catch (e) {
            violation(`${req.method} ${req.url}`, `the fake failed: ${e.stack}`);
            return reply(res, 500, { ok: false, error: "fatal_error" });
        }
    });
});
server.on("upgrade", (req, socket, head) => {
    const url = new URL(req.url, "http://x");
    const ticket = url.searchParams.get("ticket");
    // A Socket Mode URL serves one connection: a second try with it is refused.
    if (url.pathname !== "/link/" || !tickets.has(ticket)) {
        violation("socket mode", `connected to ${url.pathname} with ${tickets.has(ticket) ? "a valid" : "no valid"} ticket`);
        return socket.destroy();
    }
    tickets.delete(ticket);
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit("connection", ws, req));
});
server.listen(0, "127.0.0.1", () => {
    port = server.address().port;
    process.stdout.write(`PORT ${port}\n`);
});
let down = false;
function goDown() {
    if (down) return;
    down = true;
    server.close();
    server.closeAllConnections();
    for (const socket of wss.clients) socket.terminate();
}
function comeBack() {
    if (!down) return;
    down = false;
    server.listen(port, "127.0.0.1");
}
let stdinText = "";
process.stdin.on("data", (chunk) => {
    stdinText += chunk.toString();
    let end;
    while ((end = stdinText.indexOf("\n")) >= 0) {
        const line = stdinText.slice(0, end).trim();
        stdinText = stdinText.slice(end + 1);
        if (line === "come_back") comeBack();
        else if (line === "go_down") goDown();
    }
});
process.stdin.on("end", () => process.exit(0));
setTimeout(() => process.exit(0), Number(args.lifetime ?? 600) * 1000).unref();
