// A fake Discord for the tests, on loopback: the Gateway over WebSocket (HELLO, heartbeats and
// their ACKs, IDENTIFY, READY, RESUME with replay, op 7, op 9, close codes) and the REST calls
// the adapter makes, with per-route rate limits, the global limit and 50007 for a user who
// takes no DMs; slash commands registered with PUT, INTERACTION_CREATE for them, the callback
// refused after 3 s and the deferred response edited or deleted through the interaction's
// webhook; without the Message Content intent, guild messages arrive without their text unless
// they mention the bot. Every REST request is checked against Discord's OpenAPI description
// with every object schema closed, so a misspelt field is a violation; the tests fail on any.
//
// Its own REST answers are checked against the description's response schemas, closed the
// same way: an answer Discord could not send (a field MessageResponse does not list, such as
// the Gateway's guild_id on a listed message) is a bug of the fake, answered 500 instead and
// written to stderr as "answer violation: ...", which fails the test (fake_server.h).
//
// Where the description and the real service differ, the fake follows the service: a
// message's content is at most 2000 characters (the file says 4000).
//
// Shards: GET /gateway/bot recommends `recommended_shards` (a setting, 1 by default) with
// `max_concurrency`; an IDENTIFY may name its shard [i, n]. As Discord does, the events of a
// guild go to the sessions of shard (guild_id >> 22) % n, direct messages to shard 0; a shard
// outside its count is closed with 4010, a count below `required_shards` with 4011. Two live
// sessions on one shard are a violation: each shard has one owner at a time.
//
// Controls for outages and refusals (tests/support/fake_server.h has a C++ method for each):
// - POST /control/refuse_token {"refuse": true|false}: REST answers 401, IDENTIFY and RESUME
//   are closed with 4004 and open sessions are closed with 4004, as for a reset token, until
//   refused with false.
// - POST /control/go_down: the fake stops listening and drops every connection, Gateway
//   included; the line "come_back" on its standard input makes it listen again on the same
//   port, state kept (a dropped session may resume).
// - POST /control/bad_answer {"route": "GET /gateway/bot", "field": "x", "value": 1}: the next
//   successful answer to that route (method and path template) carries `field` at its top (in
//   each element of a list), as Discord never would (a test of the answer check itself).
//
// Usage: node fake_discord.mjs --spec discord-openapi.json --token TOKEN
// Prints "PORT <n>" once listening; exits when its standard input closes.
import Ajv2020 from "ajv/dist/2020.js";
import standaloneCode from "ajv/dist/standalone/index.js";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import url from "node:url";
import { WebSocketServer } from "ws";

const args = Object.fromEntries(
    process.argv.slice(2).reduce((pairs, a, i, all) => {
        if (a.startsWith("--")) pairs.push([a.slice(2), all[i + 1]]);
        return pairs;
    }, []),
);
const TOKEN = args.token;
const BOT_ID = "900000000000000001";
const APPLICATION_ID = "900000000000000002";
const MESSAGE_CONTENT = 1 << 15;
const INTENTS = (1 << 0) | (1 << 9) | (1 << 12) | MESSAGE_CONTENT;

// ---- the API description, closed -------------------------------------------------------
const spec = JSON.parse(fs.readFileSync(args.spec, "utf8"));
spec.components.schemas.MessageCreateRequest.properties.content.maxLength = 2000;
function close(node, inAllOf) {
    if (Array.isArray(node)) {
        node.forEach((n) => close(n, inAllOf));
        return;
    }
    if (node === null || typeof node !== "object") return;
    if (node.properties && node.additionalProperties === undefined && !inAllOf)
        node.additionalProperties = false;
    for (const [key, value] of Object.entries(node)) close(value, key === "allOf");
}
close(spec.components.schemas, false);
// Error is the base that ErrorResponse and RatelimitedResponse extend with allOf: closed, it
// would refuse their own fields (errors, retry_after, global).
delete spec.components.schemas.Error.additionalProperties;
const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
ajv.addSchema({ $id: "discord", components: spec.components });
const validators = {};
function validator(name) {
    validators[name] ??= compiledAnswers[`request${name}`] ?? ajv.compile({ $ref: `discord#/components/schemas/${name}` });
    return validators[name];
}

const violations = [];
function violation(where, problem) {
    violations.push(`${where}: ${problem}`);
}
function check(where, schemaName, value) {
    const validate = validator(schemaName);
    if (!validate(value))
        violation(where, validate.errors.map((e) => `${e.instancePath || "/"} ${e.message} ${JSON.stringify(e.params)}`).join("; "));
}

// The request bodies the fake checks, and the response schemas of the routes it serves.
// Compiling MessageResponse's web of references takes seconds, long enough to stall the
// Gateway's heartbeats, so their validators are generated once as code and kept in
// node_modules/.cache, keyed by the description.
const REQUESTS = ["MessageCreateRequest", "ApplicationCommandUpdateRequest", "CreateMessageInteractionCallbackRequest",
    "IncomingWebhookUpdateRequestPartial", "CreatePrivateChannelRequest"];
// The callback is answered 204 (a deferred response) only: its 200 schema is left out.
const SERVED = {
    "/gateway/bot": ["get"], "/channels/{channel_id}": ["get"], "/channels/{channel_id}/messages": ["get", "post"],
    "/users/@me/channels": ["post"], "/applications/{application_id}/commands": ["put"],
    "/applications/{application_id}/guilds/{guild_id}/commands": ["put"],
    "/interactions/{interaction_id}/{interaction_token}/callback": ["post"],
    "/webhooks/{webhook_id}/{webhook_token}/messages/@original": ["patch", "delete"],
};
const operations = Object.entries(SERVED).map(([template, methods]) => ({
    template,
    regex: new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`),
    item: Object.fromEntries(methods.map((m) => [m, spec.paths[template][m]])),
}));
function responseOf(operation, status) {
    const response = operation.responses[String(status)] ?? operation.responses[`${String(status)[0]}XX`];
    return response?.$ref ? spec.components.responses[response.$ref.split("/").pop()] : response;
}
function schemaText(response) {
    const schema = response?.content?.["application/json"]?.schema;
    return schema === undefined ? null : JSON.stringify(schema).replaceAll('"#/components/', '"discord#/components/');
}
const answerTexts = [];
for (const { item } of operations)
    for (const operation of Object.values(item))
        for (const response of Object.keys(operation.responses ?? {}).filter((status) => !(status === "200" && operation.responses["204"]))
            .map((status) => responseOf(operation, status))) {
            const text = schemaText(response);
            if (text !== null && !answerTexts.includes(text)) answerTexts.push(text);
        }
const here = url.fileURLToPath(import.meta.url);
const cacheKey = crypto.createHash("sha256").update(JSON.stringify(spec.components)).update(answerTexts.join("\n"))
    .update(REQUESTS.join()).digest("hex").slice(0, 20);
const cacheDir = path.join(path.dirname(here), "node_modules", ".cache");
const cacheFile = path.join(cacheDir, `fake-discord-answers-${cacheKey}.cjs`);
if (!fs.existsSync(cacheFile)) {
    const build = new Ajv2020({ strict: false, validateFormats: false, allErrors: true, code: { source: true } });
    build.addSchema({ $id: "discord", components: spec.components });
    const exports = {};
    answerTexts.forEach((text, i) => {
        build.addSchema({ ...JSON.parse(text), $id: `answer${i}` });
        exports[`answer${i}`] = `answer${i}`;
    });
    for (const name of REQUESTS) {
        build.addSchema({ $ref: `discord#/components/schemas/${name}`, $id: `request${name}` });
        exports[`request${name}`] = `request${name}`;
    }
    fs.mkdirSync(cacheDir, { recursive: true });
    const scratch = `${cacheFile}.${process.pid}`;
    fs.writeFileSync(scratch, standaloneCode(build, exports));
    fs.renameSync(scratch, cacheFile); // whole or not at all, when two fakes start at once
}
const compiledAnswers = (await import(url.pathToFileURL(cacheFile).href)).default;

// The validator of the answer to `method` `path` with `status`: null when the description gives
// it no body, undefined when it does not describe the status at all.
function answerSchema(method, path, status) {
    const found = operations.find((o) => o.regex.test(path) && o.item[method.toLowerCase()]);
    if (!found) return { template: path, validate: undefined };
    const response = responseOf(found.item[method.toLowerCase()], status);
    if (response === undefined) return { template: found.template, validate: undefined };
    const text = schemaText(response);
    if (text === null) return { template: found.template, validate: null };
    const validate = compiledAnswers[`answer${answerTexts.indexOf(text)}`];
    // A status whose schema was left out of the compiled set is one the fake must not answer.
    return { template: found.template, validate: validate ?? undefined };
}
const badAnswers = []; // {route, field, value}: fields to slip into an answer
// What the fake answers a REST request, once held to the description: an answer Discord could
// not send becomes a 500, reported on stderr.
function answer(req, path, res, status, body, headers = {}) {
    const { template, validate } = answerSchema(req.method, path, status);
    const bad = badAnswers.findIndex((b) => b.route === `${req.method} ${template}`);
    if (bad >= 0 && status < 300) {
        const { field, value } = badAnswers.splice(bad, 1)[0];
        body = Array.isArray(body) ? body.map((e) => ({ ...e, [field]: value })) : { ...body, [field]: value };
    }
    const where = `the fake's answer to ${req.method} ${template}`;
    const problems = [];
    if (validate === undefined && status < 500) problems.push(`${where}: status ${status}, which the description does not list`);
    else if (validate === null && body !== undefined) problems.push(`${where}: a body where the description has none`);
    else if (validate && !validate(body))
        problems.push(`${where}: ${validate.errors.map((e) => `${e.instancePath || "/"} ${e.message} ${JSON.stringify(e.params)}`).join("; ")}`);
    if (problems.length) {
        for (const p of problems) process.stderr.write(`answer violation: ${p}\n`);
        return reply(res, 500, { message: "500: Internal Server Error", code: 0 });
    }
    if (status === 204) {
        res.writeHead(204, headers);
        return res.end();
    }
    return reply(res, status, body, headers);
}

// A user object as Discord's REST API gives it (UserResponse), from a test's {id, username}.
function userObject(u) {
    const out = {
        id: u.id, username: u.username, avatar: null, discriminator: u.discriminator ?? "0",
        public_flags: 0, flags: 0, global_name: u.global_name ?? null, primary_guild: null,
    };
    if (u.bot) out.bot = true;
    return out;
}

// Query parameters against the operation's list: unknown ones and wrong values are violations.
function checkQuery(where, operation, query) {
    const known = Object.fromEntries((operation.parameters ?? []).filter((p) => p.in === "query").map((p) => [p.name, p]));
    for (const [name, raw] of query) {
        const parameter = known[name];
        if (!parameter) {
            violation(where, `unknown query parameter ${name}`);
            continue;
        }
        const schema = parameter.schema.$ref
            ? spec.components.schemas[parameter.schema.$ref.split("/").pop()]
            : parameter.schema;
        const value = schema.type === "integer" ? Number(raw) : raw;
        if (schema.type === "integer" && !Number.isInteger(value)) violation(where, `${name} is not an integer`);
        const validate = ajv.compile(schema);
        if (!validate(value)) violation(where, `${name}: ${ajv.errorsText(validate.errors)}`);
    }
}

// ---- state -----------------------------------------------------------------------------
let counter = 0n;
function snowflake() {
    counter += 1n;
    return String(((BigInt(Date.now()) - 1420070400000n) << 22n) + counter);
}
const channels = new Map(); // id -> {id, guild_id, messages: []}
const dmChannels = new Map(); // user id -> channel id
const blockedDms = new Set();
const sent = []; // what the bot posted, in order
const nonces = new Map(); // channel/nonce -> message
const stats = { identifies: 0, resumes: 0, heartbeats: 0, connections: 0, requests: 0, rate_limited: 0, global_limited: 0, channel_reads: 0, message_reads: 0 };
let heartbeatInterval = 1000;
let acking = true;
let closeOnIdentify = 0; // a close code for the next IDENTIFY (4004, 4014), 0 for none
let bucketLimit = 1000; // messages one channel takes per window
let bucketWindowMs = 1000;
let sharedBucket = false; // GET /channels/{id}/messages counts against the POST's bucket
const buckets = new Map(); // channel id -> {count, reset}
let global429 = 0; // the next n REST requests are answered with a global 429
// Discord's global limit, counted: past `globalPerSecond` REST requests in one second (0: not
// counted, the default), a request is answered with a global 429 as Discord answers it.
let globalPerSecond = 0;
const globalWindow = []; // the times (ms) of the REST requests of the last second
let contentAllowed = true; // whether the application may ask for the Message Content intent
const commands = new Map(); // "global" or a guild id -> the commands registered there
const interactions = new Map(); // id -> {token, created, deferred, answered, deleted, channel_id}
let callbackDelayMs = 0; // how long the fake takes before it answers an interaction callback
let port = 0;
let refusing = false; // the token is refused (REST 401, Gateway 4004)
let recommendedShards = 1; // GET /gateway/bot's "shards"
let requiredShards = 1; // an IDENTIFY with fewer is closed with 4011
let maxConcurrency = 1;
const identified = []; // {shard: [i, n], at}: every IDENTIFY that got a session

function channel(id, guildId) {
    if (!channels.has(id)) channels.set(id, { id, guild_id: guildId, messages: [] });
    return channels.get(id);
}

// ---- Gateway ---------------------------------------------------------------------------
const sessions = new Map(); // session id -> {id, seq, backlog: [], socket}
// The events a session keeps for a RESUME. A RESUME from before the oldest kept is refused with
// a non-resumable op 9, as Discord refuses a session it can no longer replay: never a replay
// with a hole in it.
const BACKLOG = 5000;
function dispatch(session, type, data) {
    // Without Message Content a session gets the text only of DMs and of messages that
    // mention the bot (and of its own).
    if (type === "MESSAGE_CREATE" && !session.content && data.guild_id && data.author.id !== BOT_ID &&
        !(data.mentions ?? []).some((u) => u.id === BOT_ID))
        data = { ...data, content: "", embeds: [], attachments: [] };
    session.seq += 1;
    const payload = { op: 0, t: type, s: session.seq, d: data };
    session.backlog.push(payload);
    if (session.backlog.length > BACKLOG) session.backlog.shift();
    if (session.socket && session.socket.readyState === 1) session.socket.send(JSON.stringify(payload));
}
function live() {
    return [...sessions.values()].filter((s) => s.socket && s.socket.readyState === 1);
}
// Whether `session` gets the events of `guildId` (undefined: a direct message, shard 0's).
function routes(session, guildId) {
    const [shard, count] = session.shard;
    if (guildId === undefined || guildId === null) return shard === 0;
    return Number((BigInt(guildId) >> 22n) % BigInt(count)) === shard;
}
// An event to every session Discord still keeps for its guild's shard: a connected one at
// once, a dropped one when it resumes.
function broadcast(type, data, guildId) {
    for (const s of sessions.values()) if (routes(s, guildId)) dispatch(s, type, data);
}

// A guild as GUILD_CREATE carries it (the fields the bot may read; Discord sends more):
// its text channels with their newest message's id, as GET /channels/{id} describes them but
// without guild_id, which GUILD_CREATE's channels leave out.
function guildCreate(guildId) {
    const list = [...channels.values()].filter((c) => c.guild_id === guildId);
    return {
        id: guildId, name: `guild-${guildId.slice(-4)}`, unavailable: false, large: false, member_count: 2,
        joined_at: new Date(0).toISOString(), members: [], voice_states: [], presences: [], threads: [],
        stage_instances: [], guild_scheduled_events: [], roles: [], emojis: [], stickers: [], features: [],
        channels: list.map((c) => ({
            id: c.id, type: 0, flags: 0, name: `channel-${c.id.slice(-4)}`, position: 0,
            last_message_id: c.messages.length ? c.messages[c.messages.length - 1].id : null, parent_id: null,
            rate_limit_per_user: 0, topic: null, nsfw: false, permission_overwrites: [],
        })),
    };
}

const wss = new WebSocketServer({ noServer: true });
wss.on("connection", (socket, request) => {
    stats.connections += 1;
    const url = new URL(request.url, "http://x");
    if (url.searchParams.get("v") !== "10" || url.searchParams.get("encoding") !== "json")
        violation("gateway", `connected with ${url.search}, not v=10&encoding=json`);
    let session = null;
    socket.send(JSON.stringify({ op: 10, d: { heartbeat_interval: heartbeatInterval } }));
    socket.on("message", (raw) => {
        let payload;
        try {
            payload = JSON.parse(raw.toString());
        } catch {
            violation("gateway", "a frame that is not JSON");
            return;
        }
        const keys = Object.keys(payload).filter((k) => !["op", "d", "s", "t"].includes(k));
        if (keys.length) violation("gateway", `unknown fields ${keys}`);
        if (payload.op === 1) {
            stats.heartbeats += 1;
            if (payload.d !== null && !Number.isInteger(payload.d)) violation("gateway", "heartbeat d is not the sequence");
            if (acking) socket.send(JSON.stringify({ op: 11 }));
        } else if (payload.op === 2) {
            stats.identifies += 1;
            const d = payload.d ?? {};
            const extra = Object.keys(d).filter((k) => !["token", "intents", "properties", "compress", "large_threshold", "shard", "presence"].includes(k));
            if (extra.length) violation("gateway", `IDENTIFY with unknown fields ${extra}`);
            if (d.intents !== INTENTS && d.intents !== (INTENTS & ~MESSAGE_CONTENT))
                violation("gateway", `IDENTIFY intents ${d.intents}, expected ${INTENTS} with or without Message Content`);
            const props = d.properties ?? {};
            if (typeof props.os !== "string" || typeof props.browser !== "string" || typeof props.device !== "string")
                violation("gateway", "IDENTIFY properties need os, browser and device");
            if (d.token !== TOKEN || refusing) return socket.close(4004, "Authentication failed.");
            if (!contentAllowed && (d.intents & MESSAGE_CONTENT)) return socket.close(4014, "Disallowed intent(s).");
            if (closeOnIdentify) {
                const code = closeOnIdentify;
                closeOnIdentify = 0;
                return socket.close(code, "Disallowed intent(s).");
            }
            const shard = d.shard ?? [0, 1];
            if (!Array.isArray(shard) || shard.length !== 2 || !shard.every(Number.isInteger) || shard[1] < 1 ||
                shard[0] < 0 || shard[0] >= shard[1])
                return socket.close(4010, "Invalid shard.");
            if (shard[1] < requiredShards) return socket.close(4011, "Sharding required.");
            const twin = live().find((s) => s.shard[0] === shard[0] && s.shard[1] === shard[1]);
            if (twin) violation("gateway", `a second live session on shard [${shard}] (${twin.id} is live)`);
            session = { id: `session-${stats.identifies}`, seq: 0, backlog: [], socket, content: Boolean(d.intents & MESSAGE_CONTENT), shard };
            sessions.set(session.id, session);
            identified.push({ shard, at: Date.now() / 1000 });
            // As Discord lazy-loads them: READY lists the shard's guilds as unavailable, then a
            // GUILD_CREATE for each names its channels, each with its newest message's id.
            const guilds = [...new Set([...channels.values()].map((c) => c.guild_id).filter((g) => g && routes(session, g)))];
            dispatch(session, "READY", {
                v: 10,
                user: userObject({ id: BOT_ID, username: "ghostpost", bot: true }),
                guilds: guilds.map((id) => ({ id, unavailable: true })),
                session_id: session.id,
                resume_gateway_url: `ws://127.0.0.1:${port}/resume`,
                application: { id: APPLICATION_ID, flags: 0 },
                ...(d.shard ? { shard } : {}),
            });
            for (const g of guilds) dispatch(session, "GUILD_CREATE", guildCreate(g));
        } else if (payload.op === 6) {
            stats.resumes += 1;
            const d = payload.d ?? {};
            if (url.pathname !== "/resume") violation("gateway", "RESUME not sent to resume_gateway_url");
            if (d.token !== TOKEN || refusing) return socket.close(4004, "Authentication failed.");
            const old = sessions.get(d.session_id);
            if (!old) return socket.send(JSON.stringify({ op: 9, d: false }));
            const oldest = old.backlog.length ? old.backlog[0].s : old.seq + 1;
            if ((d.seq ?? 0) + 1 < oldest) {
                sessions.delete(old.id);
                return socket.send(JSON.stringify({ op: 9, d: false }));
            }
            session = old;
            session.socket = socket;
            for (const event of session.backlog) if (event.s > (d.seq ?? 0)) socket.send(JSON.stringify(event));
            dispatch(session, "RESUMED", {});
        } else {
            violation("gateway", `unexpected op ${payload.op}`);
        }
    });
    socket.on("close", () => {
        if (session && session.socket === socket) session.socket = null;
    });
});

// ---- REST ------------------------------------------------------------------------------
function reply(res, status, body, headers = {}) {
    res.writeHead(status, { "Content-Type": "application/json", ...headers });
    res.end(body === undefined ? "" : JSON.stringify(body));
}

// multipart/form-data: name -> {value, filename, type}
function multipart(body, contentType) {
    const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(contentType);
    if (!boundary) return null;
    const marker = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
    const parts = {};
    let at = body.indexOf(marker);
    while (at >= 0) {
        const start = at + marker.length;
        if (body.slice(start, start + 2).toString() === "--") break;
        const next = body.indexOf(marker, start);
        if (next < 0) break;
        const chunk = body.slice(start + 2, next - 2);
        const split = chunk.indexOf("\r\n\r\n");
        const head = chunk.slice(0, split).toString();
        const value = chunk.slice(split + 4);
        const name = /name="([^"]*)"/.exec(head)?.[1];
        const filename = /filename="([^"]*)"/.exec(head)?.[1];
        const type = /Content-Type:\s*([^\r\n]+)/i.exec(head)?.[1];
        if (name !== undefined) parts[name] = { value, filename, type };
        at = next;
    }
    return parts;
}

// A new message as the REST API gives it (MessageResponse: no guild_id, no member), kept in its
// channel. `mentions` may carry a `member` each, for the Gateway's copy only.
function message(channelId, author, content, extra = {}, mentions = []) {
    const c = channels.get(channelId);
    const m = {
        id: snowflake(),
        type: 0,
        channel_id: channelId,
        author: userObject(author),
        content,
        timestamp: new Date().toISOString(),
        edited_timestamp: null,
        flags: 0,
        components: [],
        tts: false,
        mention_everyone: false,
        mentions: mentions.map(userObject),
        mention_roles: [],
        attachments: [],
        embeds: [],
        pinned: false,
        ...extra,
    };
    c.messages.push(m);
    gatewayCopies.set(m.id, { mentions, member: author.member });
    return m;
}
const gatewayCopies = new Map(); // message id -> what only the Gateway's MESSAGE_CREATE adds
// The message as MESSAGE_CREATE carries it: with its guild_id, and in a guild the author's and
// the mentioned users' member objects.
function created(m) {
    const c = channels.get(m.channel_id);
    const extra = gatewayCopies.get(m.id) ?? { mentions: [] };
    if (!c.guild_id) return { ...m };
    const out = { ...m, guild_id: c.guild_id };
    out.mentions = m.mentions.map((u, i) => (extra.mentions[i]?.member ? { ...u, member: extra.mentions[i].member } : u));
    if (extra.member) out.member = extra.member;
    return out;
}
// An attachment as Discord lists it.
function attachment(file) {
    const id = snowflake();
    return {
        id, filename: file.filename, size: file.value.length,
        url: `https://cdn.discordapp.com/attachments/0/${id}/${file.filename}`,
        proxy_url: `https://media.discordapp.net/attachments/0/${id}/${file.filename}`,
        content_type: file.type,
    };
}

function rest(req, res, body) {
    const url = new URL(req.url, "http://x");
    const path = url.pathname.replace(/^\/api\/v10/, "");
    const where = `${req.method} ${path}`;
    stats.requests += 1;
    if (!url.pathname.startsWith("/api/v10/")) {
        violation(where, "not under /api/v10");
        return reply(res, 404, { message: "404: Not Found", code: 0 });
    }
    if (req.headers.authorization !== `Bot ${TOKEN}` || refusing) {
        return answer(req, path, res, 401, { message: "401: Unauthorized", code: 0 });
    }
    if (global429 > 0) {
        global429 -= 1;
        stats.rate_limited += 1;
        return answer(req, path, res, 429, { message: "You are being rate limited.", retry_after: 1.5, global: true, code: 0 },
            { "Retry-After": "2", "X-RateLimit-Global": "true", "X-RateLimit-Scope": "global" });
    }
    if (globalPerSecond > 0) {
        const now = Date.now();
        while (globalWindow.length > 0 && globalWindow[0] <= now - 1000) globalWindow.shift();
        if (globalWindow.length >= globalPerSecond) {
            stats.rate_limited += 1;
            stats.global_limited += 1;
            const wait = (globalWindow[0] + 1000 - now) / 1000;
            return answer(req, path, res, 429, { message: "You are being rate limited.", retry_after: wait, global: true, code: 0 },
                { "Retry-After": String(Math.ceil(wait)), "X-RateLimit-Global": "true", "X-RateLimit-Scope": "global" });
        }
        globalWindow.push(now);
    }
    let match;
    if (req.method === "GET" && path === "/gateway/bot") {
        checkQuery(where, spec.paths["/gateway/bot"].get, url.searchParams);
        return answer(req, path, res, 200, {
            url: `ws://127.0.0.1:${port}/gateway`,
            shards: recommendedShards,
            session_start_limit: { total: 1000, remaining: 999, reset_after: 14400000, max_concurrency: maxConcurrency },
        });
    }
    if ((match = /^\/channels\/([^/]+)\/messages$/.exec(path))) {
        const id = match[1];
        if (!/^(0|[1-9][0-9]*)$/.test(id)) violation(where, "channel_id is not a snowflake");
        const c = channels.get(id);
        if (req.method === "GET") {
            stats.message_reads += 1;
            checkQuery(where, spec.paths["/channels/{channel_id}/messages"].get, url.searchParams);
            if (!c) return answer(req, path, res, 404, { message: "Unknown Channel", code: 10003 });
            const after = url.searchParams.has("after") ? BigInt(url.searchParams.get("after")) : 0n;
            const limit = Number(url.searchParams.get("limit") ?? 50);
            // Discord answers newest first, the oldest `limit` of those after `after`.
            const found = c.messages.filter((m) => BigInt(m.id) > after).slice(0, limit).reverse();
            if (!sharedBucket) return answer(req, path, res, 200, found);
            // Reading a channel counts against the bucket its messages are posted from, as
            // Discord may say of routes that share one (the same X-RateLimit-Bucket).
            const now = Date.now();
            let bucket = buckets.get(id);
            if (!bucket || bucket.reset <= now) bucket = { count: 0, reset: now + bucketWindowMs };
            buckets.set(id, bucket);
            bucket.count += 1;
            return answer(req, path, res, 200, found, {
                "X-RateLimit-Limit": String(bucketLimit),
                "X-RateLimit-Remaining": String(Math.max(0, bucketLimit - bucket.count)),
                "X-RateLimit-Reset-After": Math.max(0, (bucket.reset - now) / 1000).toFixed(3),
                "X-RateLimit-Bucket": "channel-messages",
            });
        }
        if (req.method === "POST") {
            if (url.search) violation(where, `query ${url.search} on a POST`);
            const type = req.headers["content-type"] ?? "";
            let payload;
            let file = null;
            if (type.startsWith("application/json")) {
                try {
                    payload = JSON.parse(body.toString());
                } catch {
                    violation(where, "a body that is not JSON");
                    return answer(req, path, res, 400, { message: "Invalid JSON", code: 50109 });
                }
            } else if (type.startsWith("multipart/form-data")) {
                const parts = multipart(body, type) ?? {};
                for (const name of Object.keys(parts))
                    if (name !== "payload_json" && !/^files\[[0-9]\]$/.test(name)) violation(where, `unknown form field ${name}`);
                try {
                    payload = JSON.parse(parts.payload_json?.value.toString() ?? "{}");
                } catch {
                    violation(where, "payload_json is not JSON");
                    payload = {};
                }
                file = parts["files[0]"] ?? null;
                if (file && (file.type !== "image/png" || !file.value.slice(1, 4).equals(Buffer.from("PNG"))))
                    violation(where, "files[0] is not a PNG");
                for (const a of payload.attachments ?? [])
                    if (!parts[`files[${a.id}]`]) violation(where, `attachment ${a.id} without files[${a.id}]`);
            } else {
                violation(where, `content type ${type}`);
                payload = {};
            }
            check(where, "MessageCreateRequest", payload);
            if (!payload.content && !file) violation(where, "a message with neither content nor a file");
            if (!c) return answer(req, path, res, 404, { message: "Unknown Channel", code: 10003 });
            // Rate limit per channel: the bucket of this route with its major parameter.
            const now = Date.now();
            let bucket = buckets.get(id);
            if (!bucket || bucket.reset <= now) bucket = { count: 0, reset: now + bucketWindowMs };
            buckets.set(id, bucket);
            const resetAfter = Math.max(0, (bucket.reset - now) / 1000).toFixed(3);
            if (bucket.count >= bucketLimit) {
                stats.rate_limited += 1;
                return answer(req, path, res, 429, { message: "You are being rate limited.", retry_after: Number(resetAfter), global: false, code: 0 }, {
                    "X-RateLimit-Limit": String(bucketLimit), "X-RateLimit-Remaining": "0",
                    "X-RateLimit-Reset-After": resetAfter, "X-RateLimit-Bucket": "channel-messages",
                    "X-RateLimit-Scope": "user", "Retry-After": String(Math.ceil(Number(resetAfter))),
                });
            }
            bucket.count += 1;
            const headers = {
                "X-RateLimit-Limit": String(bucketLimit),
                "X-RateLimit-Remaining": String(bucketLimit - bucket.count),
                "X-RateLimit-Reset-After": resetAfter,
                "X-RateLimit-Bucket": "channel-messages",
            };
            const recipient = [...dmChannels.entries()].find(([, ch]) => ch === id)?.[0];
            if (recipient && blockedDms.has(recipient))
                return answer(req, path, res, 403, { message: "Cannot send messages to this user", code: 50007 }, headers);
            const key = `${id}/${payload.nonce}`;
            if (payload.enforce_nonce && payload.nonce !== undefined && nonces.has(key))
                return answer(req, path, res, 200, nonces.get(key), headers);
            const m = message(id, { id: BOT_ID, username: "ghostpost", bot: true }, payload.content ?? "", {
                ...(payload.nonce !== undefined ? { nonce: payload.nonce } : {}),
                ...(payload.message_reference ? { message_reference: { type: 0, channel_id: id, message_id: payload.message_reference.message_id, ...(c.guild_id ? { guild_id: c.guild_id } : {}) } } : {}),
                attachments: file ? [attachment(file)] : [],
            });
            if (payload.enforce_nonce && payload.nonce !== undefined) nonces.set(key, m);
            sent.push({
                channel_id: id,
                dm_user: recipient ?? null,
                content: payload.content ?? "",
                message_reference: payload.message_reference ?? null,
                allowed_mentions: payload.allowed_mentions ?? null,
                nonce: payload.nonce ?? null,
                file: file ? file.filename : null,
                at: now,
            });
            broadcast("MESSAGE_CREATE", created(m), c.guild_id);
            return answer(req, path, res, 200, m, headers);
        }
    }
    if ((match = /^\/applications\/([^/]+)(?:\/guilds\/([^/]+))?\/commands$/.exec(path)) && req.method === "PUT") {
        if (match[1] !== APPLICATION_ID) violation(where, "not the application's id");
        let payload = null;
        try {
            payload = JSON.parse(body.toString());
        } catch {
            violation(where, "a body that is not JSON");
        }
        if (!Array.isArray(payload)) violation(where, "the body is not an array of commands");
        else payload.forEach((c, i) => check(`${where} [${i}]`, "ApplicationCommandUpdateRequest", c));
        // The description types a localization's keys only as strings; Discord takes the locales
        // of AvailableLocalesEnum and refuses the whole list for any other key.
        const locales = new Set(spec.components.schemas.AvailableLocalesEnum.oneOf.map((l) => l.const));
        const checkLocales = (what, map) => {
            for (const key of Object.keys(map ?? {}))
                if (!locales.has(key)) violation(where, `${what}: ${key} is not a Discord locale`);
        };
        const names = new Set();
        for (const c of payload ?? []) {
            checkLocales(`${c.name} name_localizations`, c.name_localizations);
            checkLocales(`${c.name} description_localizations`, c.description_localizations);
            for (const o of c.options ?? []) {
                checkLocales(`${c.name} ${o.name} name_localizations`, o.name_localizations);
                checkLocales(`${c.name} ${o.name} description_localizations`, o.description_localizations);
            }
            if (names.has(c.name)) violation(where, `command ${c.name} twice`);
            names.add(c.name);
            if (!/^[-_\p{L}\p{N}]{1,32}$/u.test(c.name) || c.name !== c.name.toLowerCase()) violation(where, `bad command name ${c.name}`);
            let optional = false;
            for (const o of c.options ?? []) {
                if (!o.required) optional = true;
                else if (optional) violation(where, `${c.name}: a required option after an optional one`);
            }
        }
        commands.set(match[2] ?? "global", payload ?? []);
        return answer(req, path, res, 200, (payload ?? []).map((c) => ({ type: 1, default_member_permissions: null, ...c, id: snowflake(), application_id: APPLICATION_ID, version: "1" })));
    }
    if ((match = /^\/interactions\/([^/]+)\/([^/]+)\/callback$/.exec(path)) && req.method === "POST") {
        checkQuery(where.replace(match[2], "{token}"), spec.paths["/interactions/{interaction_id}/{interaction_token}/callback"].post, url.searchParams);
        let payload = {};
        try {
            payload = JSON.parse(body.toString());
        } catch {
            violation("POST /interactions/callback", "a body that is not JSON");
        }
        check(`POST /interactions/${match[1]}/callback`, "CreateMessageInteractionCallbackRequest", payload);
        const it = interactions.get(match[1]);
        if (!it || it.token !== match[2]) return answer(req, path, res, 404, { message: "Unknown interaction", code: 10062 });
        const late = Date.now() - it.created > 3000;
        if (late || it.deferred) {
            if (late) it.late = true;
            return answer(req, path, res, 404, { message: "Unknown interaction", code: 10062 });
        }
        it.deferred = payload.type;
        const done = () => answer(req, path, res, 204, undefined);
        return callbackDelayMs ? setTimeout(done, callbackDelayMs) : done();
    }
    if ((match = /^\/webhooks\/([^/]+)\/([^/]+)\/messages\/@original$/.exec(path))) {
        const it = [...interactions.values()].find((i) => i.token === match[2]);
        const shown = `${req.method} /webhooks/${match[1]}/{token}/messages/@original`;
        if (match[1] !== APPLICATION_ID) violation(shown, "not the application's id");
        if (!it || !it.deferred || it.deleted) return answer(req, path, res, 404, { message: "Unknown Webhook", code: 10015 });
        if (req.method === "DELETE") {
            it.deleted = true;
            res.writeHead(204);
            return res.end();
        }
        if (req.method !== "PATCH") {
            violation(shown, "a method the adapter should not use");
            return answer(req, path, res, 405, { message: "405: Method Not Allowed", code: 0 });
        }
        const type = req.headers["content-type"] ?? "";
        let payload = {};
        let file = null;
        if (type.startsWith("application/json")) {
            try {
                payload = JSON.parse(body.toString());
            } catch {
                violation(shown, "a body that is not JSON");
            }
        } else if (type.startsWith("multipart/form-data")) {
            const parts = multipart(body, type) ?? {};
            for (const name of Object.keys(parts))
                if (name !== "payload_json" && !/^files\[[0-9]\]$/.test(name)) violation(shown, `unknown form field ${name}`);
            try {
                payload = JSON.parse(parts.payload_json?.value.toString() ?? "{}");
            } catch {
                violation(shown, "payload_json is not JSON");
            }
            file = parts["files[0]"] ?? null;
            if (file && (file.type !== "image/png" || !file.value.slice(1, 4).equals(Buffer.from("PNG"))))
                violation(shown, "files[0] is not a PNG");
        } else {
            violation(shown, `content type ${type}`);
        }
        check(shown, "IncomingWebhookUpdateRequestPartial", payload);
        it.answered = (it.answered ?? 0) + 1;
        const m = message(it.channel_id, { id: BOT_ID, username: "ghostpost", bot: true }, payload.content ?? "", {
            interaction_metadata: { id: it.id, type: 2, user: userObject(it.user), authorizing_integration_owners: {} },
            attachments: file ? [attachment(file)] : [],
        });
        sent.push({
            channel_id: it.channel_id,
            dm_user: it.dm_user ?? null,
            content: payload.content ?? "",
            message_reference: null,
            allowed_mentions: payload.allowed_mentions ?? null,
            nonce: null,
            file: file ? file.filename : null,
            interaction: it.id,
            at: Date.now(),
        });
        return answer(req, path, res, 200, m);
    }
    if (req.method === "POST" && path === "/users/@me/channels") {
        let payload = {};
        try {
            payload = JSON.parse(body.toString());
        } catch {
            violation(where, "a body that is not JSON");
        }
        check(where, "CreatePrivateChannelRequest", payload);
        const user = payload.recipient_id;
        if (!dmChannels.has(user)) {
            const id = snowflake();
            dmChannels.set(user, id);
            channel(id, undefined);
        }
        return answer(req, path, res, 200, { id: dmChannels.get(user), type: 1, flags: 0, last_message_id: null, recipients: [userObject({ id: user, username: `user${user}` })] });
    }
    if ((match = /^\/channels\/([^/]+)$/.exec(path)) && req.method === "GET") {
        // A channel as Discord describes it: a DM (type 1) with its recipient, or a guild's text
        // channel (type 0) with its guild_id.
        const c = channels.get(match[1]);
        if (!c) return answer(req, path, res, 404, { message: "Unknown Channel", code: 10003 });
        stats.channel_reads += 1;
        const last = c.messages.length ? c.messages[c.messages.length - 1].id : null;
        if (!c.guild_id) {
            const recipient = [...dmChannels.entries()].find(([, ch]) => ch === c.id)?.[0];
            return answer(req, path, res, 200, { id: c.id, type: 1, flags: 0, last_message_id: last, recipients: [userObject({ id: recipient, username: `user${recipient}` })] });
        }
        return answer(req, path, res, 200, {
            id: c.id, type: 0, flags: 0, guild_id: c.guild_id, name: `channel-${c.id.slice(-4)}`, position: 0,
            last_message_id: last, parent_id: null, rate_limit_per_user: 0, topic: null, nsfw: false, permission_overwrites: [],
        });
    }
    violation(where, "a request the fake does not know");
    return answer(req, path, res, 404, { message: "404: Not Found", code: 0 });
}

// ---- control, for the tests --------------------------------------------------------------
function control(command, a, res) {
    switch (command) {
        case "say": {
            // A user posts; a DM when `dm` is set (the user's DM channel with the bot).
            let channelId = a.channel_id;
            if (a.dm) {
                if (!dmChannels.has(a.author.id)) dmChannels.set(a.author.id, snowflake());
                channelId = dmChannels.get(a.author.id);
            }
            channel(channelId, a.dm ? undefined : (a.guild_id ?? "800000000000000001"));
            const m = message(channelId, a.dm ? { ...a.author, member: undefined } : a.author, a.content, {}, a.mentions ?? []);
            broadcast("MESSAGE_CREATE", created(m), channels.get(channelId).guild_id);
            return reply(res, 200, created(m));
        }
        case "interact": {
            // A user runs a slash command in a guild channel, or in their DM with the bot.
            let channelId = a.channel_id;
            if (a.dm) {
                if (!dmChannels.has(a.user.id)) dmChannels.set(a.user.id, snowflake());
                channelId = dmChannels.get(a.user.id);
            }
            channel(channelId, a.dm ? undefined : (a.guild_id ?? "800000000000000001"));
            const registered = commands.get(a.dm ? "global" : (a.guild_id ?? "800000000000000001")) ?? commands.get("global") ?? [];
            if (!registered.some((c) => c.name === a.name))
                return reply(res, 409, { error: `/${a.name} is not registered where it is used` });
            const id = snowflake();
            const token = `interaction-token-${id}`;
            interactions.set(id, { id, token, created: Date.now() - (a.age_ms ?? 0), channel_id: channelId, dm_user: a.dm ? a.user.id : null, user: a.user });
            const d = {
                id, application_id: APPLICATION_ID, type: 2, token, version: 1,
                channel_id: channelId,
                data: { id: snowflake(), name: a.name, type: 1, options: a.options ?? [], ...(a.resolved ? { resolved: a.resolved } : {}) },
                locale: a.locale ?? "en-US",
            };
            if (a.dm) d.user = a.user;
            else {
                d.guild_id = a.guild_id ?? "800000000000000001";
                d.member = { user: a.user, nick: null, roles: [] };
            }
            broadcast("INTERACTION_CREATE", d, d.guild_id);
            return reply(res, 200, { id });
        }
        case "interactions": return reply(res, 200, { interactions: [...interactions.values()].map(({ token, user, ...rest }) => rest) });
        case "commands": return reply(res, 200, Object.fromEntries(commands));
        case "sent": return reply(res, 200, { sent });
        case "violations": return reply(res, 200, { violations });
        case "stats": return reply(res, 200, { ...stats, live: live().length, sent: sent.length });
        case "shards": return reply(res, 200, { live: live().map((s) => s.shard), identified });
        case "settings":
            if (a.heartbeat_interval !== undefined) heartbeatInterval = a.heartbeat_interval;
            if (a.acking !== undefined) acking = a.acking;
            if (a.close_on_identify !== undefined) closeOnIdentify = a.close_on_identify;
            if (a.bucket_limit !== undefined) bucketLimit = a.bucket_limit;
            if (a.bucket_window_ms !== undefined) bucketWindowMs = a.bucket_window_ms;
            if (a.shared_bucket !== undefined) sharedBucket = a.shared_bucket;
            if (a.global_429 !== undefined) global429 = a.global_429;
            if (a.global_per_second !== undefined) globalPerSecond = a.global_per_second;
            if (a.content_allowed !== undefined) contentAllowed = a.content_allowed;
            if (a.callback_delay_ms !== undefined) callbackDelayMs = a.callback_delay_ms;
            if (a.recommended_shards !== undefined) recommendedShards = a.recommended_shards;
            if (a.required_shards !== undefined) requiredShards = a.required_shards;
            if (a.max_concurrency !== undefined) maxConcurrency = a.max_concurrency;
            return reply(res, 200, {});
        case "block_dm": blockedDms.add(a.user_id); return reply(res, 200, {});
        case "drop": for (const s of live()) s.socket.terminate(); return reply(res, 200, {});
        case "reconnect": for (const s of live()) s.socket.send(JSON.stringify({ op: 7, d: null })); return reply(res, 200, {});
        case "invalid_session":
            for (const s of live()) s.socket.send(JSON.stringify({ op: 9, d: Boolean(a.resumable) }));
            if (!a.resumable) for (const s of live()) sessions.delete(s.id);
            return reply(res, 200, {});
        case "close": for (const s of live()) s.socket.close(a.code, "closed by the test"); return reply(res, 200, {});
        case "refuse_token":
            refusing = a.refuse ?? true;
            if (refusing) for (const s of live()) s.socket.close(4004, "Authentication failed.");
            return reply(res, 200, {});
        case "go_down":
            setTimeout(goDown, 50);
            return reply(res, 200, {});
        case "bad_answer": badAnswers.push({ route: a.route, field: a.field, value: a.value }); return reply(res, 200, {});
        default: return reply(res, 404, { error: `unknown control ${command}` });
    }
}

const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
        const body = Buffer.concat(chunks);
        try {
            if (req.url.startsWith("/control/")) {
                return control(req.url.slice(9), body.length ? JSON.parse(body.toString()) : {}, res);
            }
            return rest(req, res, body);
        } catch (e) {
            violation(`${req.method} ${req.url}`, `the fake failed: ${e.stack}`);
            return reply(res, 500, { message: "fake failure", code: 0 });
        }
    });
});
server.on("upgrade", (req, socket, head) => {
    const path = new URL(req.url, "http://x").pathname;
    if (path !== "/gateway" && path !== "/resume") return socket.destroy();
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit("connection", ws, req));
});
server.listen(0, "127.0.0.1", () => {
    port = server.address().port;
    process.stdout.write(`PORT ${port}\n`);
});
// An outage: nothing listens on the port and every connection, the Gateway's included, is cut.
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
