#!/usr/bin/env python3
"""A fake Matrix homeserver for ghostpost's tests, on loopback only.

It keeps what a homeserver keeps for one bot account: rooms with their members, state and
timelines, account data, uploaded media, filters and sync tokens. /sync long-polls and sends a
gap (`limited: true`) when a room got more events than the filter's timeline limit;
/rooms/{roomId}/messages pages back through them. Sends are deduplicated by transaction id like
a real homeserver. 429 M_LIMIT_EXCEEDED with retry_after_ms, 5xx and M_UNKNOWN_TOKEN are
scripted through /control/.

Every request is checked against the client-server API description (tests/data/api/matrix):
the path and method, path and query parameters, the JSON body, with every object schema that
lists properties closed, so a misspelt field is a violation. Violations are answered 400
M_BAD_JSON and recorded; tests fail when /control/violations is not empty. The fake's own
answers, errors included, are checked against the description's response schemas the same way,
closed: one that a homeserver could not send is a bug of this fake, answered 500 instead and
reported on stderr (tests/support/fake_lifecycle.py), which fails the test.

Where the description and the real service differ, the fake follows the service:
- an event's content (the body of PUT .../send/...) is `type: object` in room_send.yaml; the
  fake checks it against the event schema of its msgtype, which lists neither `m.mentions`
  nor `m.relates_to` although every event content may carry them: both are allowed and
  checked against their own definitions;
- `m.relates_to` requires rel_type and event_id in its definition, but a rich reply carries
  only `{"m.in_reply_to": {"event_id": ...}}` (the spec's section on replies): that shape is
  accepted too.

Users other than the bot are puppets moved through /control/; they need no token.

Controls for outages and refusals (tests/support/fake_server.h has a C++ method for each):
- POST /control/refuse_token {"refuse": true|false} (or /control/revoke): every request with
  the bot's token is answered 401 M_UNKNOWN_TOKEN, as after a logout, until refused with false.
- POST /control/go_down: the homeserver stops listening and resets its open connections, long
  polls included; the line "come_back" on its standard input makes it listen again on the same
  port, with its state kept.
- POST /control/bad_answer {"path": "/account/whoami", "field": "x", "value": 1}: the next
  successful answer to a path ending so carries `field`, as no homeserver would (a test of the
  answer check itself).

Usage: fake_matrix.py --spec DIR --token TOKEN [--port 0]
It prints "PORT <n>" once listening and exits when its standard input closes.
"""

import argparse
import copy
import json
import os
import re
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler

import jsonschema
import yaml

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from fake_lifecycle import report_answer, serve  # noqa: E402

SERVER = "fake.test"
BOT = "@ghostpost:" + SERVER
DEVICE = "GHOSTDEVICE"

CLIENT_FILES = ["sync", "filter", "room_send", "message_pagination", "joining", "create_room",
                "account-data", "content-repo", "whoami", "room_state", "rooms"]


# --- the API description, with $refs inlined and objects closed

class Description:
    def __init__(self, root):
        self.root = root
        self.files = {}
        self.operations = []  # (method, regex, parameter names, operation, file)
        for name in CLIENT_FILES:
            path = os.path.join(root, "api/client-server", name + ".yaml")
            doc = self.load(path)
            base = doc["servers"][0]["variables"]["basePath"]["default"]
            for template, item in doc["paths"].items():
                template = template.strip()
                names = re.findall(r"{(\w+)}", template)
                regex = re.compile("^" + re.sub(r"{\w+}", "([^/]+)", re.escape(base + template)
                                                 .replace(r"\{", "{").replace(r"\}", "}")) + "$")
                for method, operation in item.items():
                    if method in ("get", "put", "post", "delete"):
                        self.operations.append((method.upper(), regex, names,
                                                self.inline(operation, path), path))
        schema_dir = os.path.join(root, "event-schemas/schema")
        self.content = {}
        for msgtype in ("m.text", "m.image", "m.notice"):
            doc = self.inline(self.load(os.path.join(schema_dir, f"m.room.message${msgtype}.yaml")),
                              os.path.join(schema_dir, "x.yaml"))
            self.content[msgtype] = close(merge_all(doc)["properties"]["content"])
        direct = self.inline(self.load(os.path.join(schema_dir, "m.direct.yaml")),
                             os.path.join(schema_dir, "x.yaml"))
        self.direct = close(merge_all(direct)["properties"]["content"])
        definitions = os.path.join(root, "api/client-server/definitions")
        self.mentions = close(self.inline(self.load(os.path.join(definitions, "m.mentions.yaml")),
                                          os.path.join(definitions, "x.yaml")))
        self.relates_to = close(self.inline(
            self.load(os.path.join(definitions, "m.relates_to.yaml")),
            os.path.join(definitions, "x.yaml")))

    def load(self, path):
        path = os.path.normpath(path)
        if path not in self.files:
            with open(path, encoding="utf-8") as f:
                self.files[path] = yaml.load(f, Loader=getattr(yaml, "CSafeLoader",
                                                               yaml.SafeLoader))
        return self.files[path]

    # Every $ref replaced by what it points at, relative to the file it was written in.
    def inline(self, node, path, depth=0):
        if depth > 40:
            return {}
        if isinstance(node, list):
            return [self.inline(v, path, depth + 1) for v in node]
        if not isinstance(node, dict):
            return node
        if "$ref" in node and isinstance(node["$ref"], str):
            target, _, pointer = node["$ref"].partition("#")
            file = os.path.normpath(os.path.join(os.path.dirname(path), target)) if target else path
            doc = self.load(file)
            for part in [p for p in pointer.split("/") if p]:
                doc = doc[part]
            rest = {k: v for k, v in node.items() if k != "$ref"}
            resolved = self.inline(doc, file, depth + 1)
            if rest and isinstance(resolved, dict):
                resolved = dict(resolved, **self.inline(rest, path, depth + 1))
            return resolved
        return {k: self.inline(v, path, depth + 1) for k, v in node.items()}

    def find(self, method, path):
        for m, regex, names, operation, file in self.operations:
            match = regex.match(path)
            if match and m == method:
                values = [urllib.parse.unquote(v) for v in match.groups()]
                return operation, dict(zip(names, values))
        return None, None


def merge(a, b):
    out = dict(a)
    for key, value in b.items():
        if key == "properties" and "properties" in out:
            props = dict(out["properties"])
            for name, schema in value.items():
                props[name] = merge(props[name], schema) if name in props else schema
            out["properties"] = props
        elif key == "required" and "required" in out:
            out["required"] = sorted(set(out["required"]) | set(value))
        elif key not in out:
            out[key] = value
    return out


# allOf folded into its parent, so that closing one branch cannot refuse another's properties.
def merge_all(schema):
    if isinstance(schema, list):
        return [merge_all(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    schema = {k: merge_all(v) for k, v in schema.items()}
    if "allOf" in schema:
        branches = schema.pop("allOf")
        for branch in branches:
            schema = merge(schema, branch)
    return schema


# Every object schema that lists properties refuses the others.
def close(schema):
    schema = merge_all(schema)

    def walk(node):
        if isinstance(node, list):
            return [walk(n) for n in node]
        if not isinstance(node, dict):
            return node
        node = {k: (walk(v) if k not in ("example", "examples") else v) for k, v in node.items()}
        if "properties" in node and "additionalProperties" not in node \
                and "patternProperties" not in node:
            node["additionalProperties"] = False
        return node
    return walk(schema)


_closed = {}


# close(schema) once per schema object of the description.
def closed(schema):
    if id(schema) not in _closed:
        _closed[id(schema)] = (schema, close(schema))
    return _closed[id(schema)][1]


def check(schema, value, where, problems):
    validator = jsonschema.Draft202012Validator(schema)
    for error in validator.iter_errors(value):
        problems.append(f"{where}{'.' + '.'.join(map(str, error.path)) if error.path else ''}: "
                        f"{error.message[:160]}")


# --- the homeserver's state

class Room:
    def __init__(self, room_id, creator):
        self.room_id = room_id
        self.creator = creator
        self.members = {}      # user id -> membership
        self.names = {}        # user id -> display name
        self.state = {}        # (type, state_key) -> event
        self.encrypted = False


class State:
    def __init__(self, description, token):
        self.description = description
        self.token = token
        self.lock = threading.Condition()
        self.position = 0
        self.events = []        # (position, room id, event), in order
        self.rooms = {}
        self.account_data = {}  # type -> content (the bot's)
        self.filters = {}
        self.txns = {}          # txnId -> event id (per the bot's token)
        self.media = {}
        self.violations = []
        self.raw_event_ids = []  # events written raw by a test (control raw_event)
        self.faults = []        # {path, status, errcode, retry_after_ms, count}
        self.revoked = False
        self.timeline_limit = None  # a cap below the filter's, to force gaps
        self.eager = set()      # puppets who accept every invite at once
        self.sent = []          # the bot's sends, in order
        self.calls = []         # (method, path, status) of the bot's requests
        self.syncs = 0
        self.account_data_changed = 0
        self.positions = {}     # event id -> its position in the stream
        self.bad_answers = []   # {path, field, value}: fields to slip into an answer

    def new_event(self, room_id, sender, type_, content, state_key=None):
        self.position += 1
        event = {"event_id": f"$e{self.position}:{SERVER}", "type": type_, "sender": sender,
                 "origin_server_ts": int(time.time() * 1000), "content": content,
                 "room_id": room_id}
        if state_key is not None:
            event["state_key"] = state_key
            self.rooms[room_id].state[(type_, state_key)] = event
        room = self.rooms[room_id]
        if type_ == "m.room.member":
            room.members[state_key] = content["membership"]
            if "displayname" in content:
                room.names[state_key] = content["displayname"]
        if type_ == "m.room.encryption":
            room.encrypted = True
        self.positions[event["event_id"]] = self.position
        self.events.append((self.position, room_id, event))
        self.lock.notify_all()
        return event

    def create_room(self, creator, encrypted=False, name=None, invite=(), is_direct=False):
        room_id = f"!r{len(self.rooms) + 1}:{SERVER}"
        self.rooms[room_id] = Room(room_id, creator)
        self.new_event(room_id, creator, "m.room.create", {"room_version": "11"}, "")
        self.new_event(room_id, creator, "m.room.member",
                       {"membership": "join", "displayname": creator[1:].split(":")[0]}, creator)
        if name:
            self.new_event(room_id, creator, "m.room.name", {"name": name}, "")
        if encrypted:
            self.new_event(room_id, creator, "m.room.encryption",
                           {"algorithm": "m.megolm.v1.aes-sha2"}, "")
        for user in invite:
            self.invite(room_id, creator, user, is_direct)
        return room_id

    def invite(self, room_id, sender, user, is_direct=False):
        content = {"membership": "invite"}
        if is_direct:
            content["is_direct"] = True
        self.new_event(self.rooms[room_id].room_id, sender, "m.room.member", content, user)
        if user in self.eager:
            self.join(room_id, user)

    def join(self, room_id, user):
        self.new_event(room_id, user, "m.room.member",
                       {"membership": "join", "displayname": user[1:].split(":")[0]}, user)


def error(status, errcode, message, **extra):
    return status, dict({"errcode": errcode, "error": message}, **extra)


def token_position(token):
    match = re.fullmatch(r"s(\d+)", token or "")
    return int(match.group(1)) if match else None


def client_event(event, with_room=False):
    out = {k: v for k, v in event.items() if with_room or k != "room_id"}
    return copy.deepcopy(out)


def stripped(event):
    return {k: copy.deepcopy(event[k]) for k in ("type", "state_key", "content", "sender")}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body are two writes: no 40 ms wait between
    state: State = None

    def log_message(self, *args):
        pass

    def reply(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self.handle_any("GET")

    def do_POST(self):
        self.handle_any("POST")

    def do_PUT(self):
        self.handle_any("PUT")

    def handle_any(self, method):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        if len(raw) < length:
            # The client went away in the middle of its request (a daemon killed during an
            # upload): a server never sees such a request whole, so it neither runs nor judges it.
            self.close_connection = True
            return
        url = urllib.parse.urlsplit(self.path)
        if url.path.startswith("/control/"):
            with self.state.lock:
                status, body = self.control(url.path[len("/control/"):],
                                            json.loads(raw or b"{}"))
            self.reply(status, body)
            return
        status, body = self.api(method, url, raw)
        with self.state.lock:
            self.state.calls.append((method, url.path, status))
        self.reply(status, body)

    def api(self, method, url, raw):
        s = self.state
        operation, params = s.description.find(method, url.path)
        if operation is None:
            return self.violation([f"{method} {url.path}: no such endpoint"], 404, "M_UNRECOGNIZED")
        query = urllib.parse.parse_qs(url.query, keep_blank_values=True)
        problems = []
        if "access_token" in query:
            problems.append("access_token in the query string: use the Authorization header")
        for parameter in operation.get("parameters", []):
            where = parameter["in"]
            name = parameter["name"]
            schema = parameter.get("schema", {})
            if where == "path":
                check(schema, params.get(name), f"path.{name}", problems)
            elif where == "query":
                if name in query:
                    value = query[name][-1]
                    kind = schema.get("type")
                    if kind == "integer":
                        if not re.fullmatch(r"-?\d+", value):
                            problems.append(f"query.{name}: {value!r} is not an integer")
                            continue
                        value = int(value)
                    elif kind == "boolean":
                        if value not in ("true", "false"):
                            problems.append(f"query.{name}: {value!r} is not a boolean")
                            continue
                        value = value == "true"
                    check(schema, value, f"query.{name}", problems)
                elif parameter.get("required"):
                    problems.append(f"query.{name}: required but missing")
        known = {p["name"] for p in operation.get("parameters", []) if p["in"] == "query"}
        for name in query:
            if name not in known:
                problems.append(f"query.{name}: no such parameter")
        body = None
        request_body = operation.get("requestBody")
        content_type = (self.headers.get("Content-Type") or "").split(";")[0].strip()
        if request_body is not None:
            content = request_body.get("content", {})
            if "application/json" in content:
                if content_type != "application/json":
                    problems.append(f"body: Content-Type {content_type!r}, not application/json")
                try:
                    body = json.loads(raw or b"")
                except ValueError:
                    problems.append("body: not JSON")
                else:
                    schema = content["application/json"].get("schema", {})
                    check(closed(schema), body, "body", problems)
            elif not raw and request_body.get("required"):
                problems.append("body: required but empty")
        elif raw:
            problems.append(f"{method} {url.path}: this endpoint takes no body")
        if problems:
            return self.violation(problems)

        if s.revoked:
            return self.checked(operation, method, url.path, *error(
                401, "M_UNKNOWN_TOKEN", "Invalid access token passed.", soft_logout=False))
        if self.headers.get("Authorization") != "Bearer " + s.token:
            return self.checked(operation, method, url.path, *error(
                401, "M_UNKNOWN_TOKEN", "Invalid access token passed."))
        with s.lock:
            for fault in s.faults:
                if fault["count"] > 0 and re.search(fault["path"], url.path) and \
                        fault.get("method", method) == method:
                    fault["count"] -= 1
                    extra = {}
                    if "retry_after_ms" in fault:
                        extra["retry_after_ms"] = fault["retry_after_ms"]
                    status, answer = error(fault["status"], fault.get("errcode", "M_UNKNOWN"),
                                           fault.get("error", "scripted failure"), **extra)
                    break
            else:
                status = None
        if status is not None:
            return self.checked(operation, method, url.path, status, answer)
        status, answer = self.route(method, url.path, params, query, body, raw, content_type)
        with s.lock:
            for bad in s.bad_answers:
                if url.path.endswith(bad["path"]) and 200 <= status < 300:
                    s.bad_answers.remove(bad)
                    answer = dict(answer, **{bad["field"]: bad["value"]})
                    break
        return self.checked(operation, method, url.path, status, answer)

    # The fake's own answers are held to the description too, so that the adapter is tested
    # against what a homeserver may really send.
    def checked(self, operation, method, path, status, answer):
        schema = operation.get("responses", {}).get(str(status), {}).get("content", {}) \
            .get("application/json", {}).get("schema")
        problems = []
        where = f"the fake's answer to {method} {path}"
        if schema is not None:
            value = answer
            if status >= 400 and answer.get("errcode") == "M_UNKNOWN_TOKEN":
                # The spec's section on soft logout adds this field to the error object.
                value = {k: v for k, v in answer.items() if k != "soft_logout"}
                if not isinstance(answer.get("soft_logout", False), bool):
                    problems.append(f"{where}.soft_logout: not a boolean")
            check(closed(schema), value, where, problems)
        elif status < 400:
            problems.append(f"{where}: status {status}, which the description does not list")
        else:
            # Any endpoint may fail with the standard error object (the spec's "API Standards").
            if not isinstance(answer.get("errcode"), str):
                problems.append(f"{where}: an error without its errcode")
            problems.extend(f"{where}.{k}: not a field of Matrix's error object" for k in answer
                            if k not in ("errcode", "error", "retry_after_ms", "soft_logout"))
        if problems:
            # Events a test wrote raw (control raw_event) are malformed on purpose: a homeserver
            # relays what other servers send. Those answers go out, their problems noted among
            # the violations; any other answer the description forbids is refused.
            with self.state.lock:
                raw_ids = set(self.state.raw_event_ids)
            if raw_ids and any(event_id in json.dumps(answer) for event_id in raw_ids):
                with self.state.lock:
                    self.state.violations.extend(problems)
                return status, answer
            report_answer(problems)
            return error(500, "M_UNKNOWN", "Internal server error")
        return status, answer

    def violation(self, problems, status=400, errcode="M_BAD_JSON"):
        with self.state.lock:
            self.state.violations.extend(problems)
        return error(status, errcode, "; ".join(problems)[:500])

    def route(self, method, path, params, query, body, raw, content_type):
        s = self.state
        tail = path.split("/_matrix/client/v3", 1)[-1]
        if tail == "/account/whoami":
            return 200, {"user_id": BOT, "device_id": DEVICE}
        if tail == "/sync":
            return self.sync(query)
        with s.lock:
            if re.fullmatch(r"/user/[^/]+/filter", tail) and method == "POST":
                if params["userId"] != BOT:
                    return error(403, "M_FORBIDDEN", "Cannot create filters for other users")
                filter_id = str(len(s.filters) + 1)
                s.filters[filter_id] = body
                return 200, {"filter_id": filter_id}
            match = re.fullmatch(r"/user/[^/]+/account_data/([^/]+)", tail)
            if match:
                if params["userId"] != BOT:
                    return error(403, "M_FORBIDDEN", "Cannot access other users' account data")
                kind = params["type"]
                if method == "GET":
                    if kind not in s.account_data:
                        return error(404, "M_NOT_FOUND", "Account data not found")
                    return 200, copy.deepcopy(s.account_data[kind])
                if kind == "m.direct":
                    problems = []
                    check(s.description.direct, body, "m.direct", problems)
                    if problems:
                        return self.violation(problems)
                s.account_data[kind] = body
                s.position += 1  # a change of account data moves the sync stream on
                s.account_data_changed = s.position
                s.lock.notify_all()
                return 200, {}
            if tail == "/createRoom":
                invite = body.get("invite", [])
                room_id = s.create_room(BOT, invite=invite, is_direct=body.get("is_direct", False),
                                        name=body.get("name"))
                return 200, {"room_id": room_id}
            match = re.fullmatch(r"/(?:rooms/([^/]+)/join|join/([^/]+))", tail)
            if match:
                room_id = params.get("roomId") or params.get("roomIdOrAlias")
                room = s.rooms.get(room_id)
                if room is None or room.members.get(BOT) not in ("invite", "join"):
                    return error(403, "M_FORBIDDEN", "You are not invited to this room.")
                if room.members.get(BOT) != "join":
                    s.join(room_id, BOT)
                return 200, {"room_id": room_id}
            room_id = params.get("roomId")
            room = s.rooms.get(room_id) if room_id else None
            if room_id is not None and (room is None or room.members.get(BOT) != "join"):
                return error(403, "M_FORBIDDEN", "You are not in this room.")
            if "/send/" in tail:
                return self.send(room, params, body)
            if tail.endswith("/messages"):
                return self.messages(room, query)
            if tail.endswith("/joined_members"):
                return 200, {"joined": {u: {"display_name": room.names.get(u, u)}
                                        for u, m in room.members.items() if m == "join"}}
            match = re.fullmatch(r"/rooms/[^/]+/state/([^/]+)/([^/]+)", tail)
            if match and method == "GET":
                event = room.state.get((params["eventType"], params["stateKey"]))
                if event is None:
                    return error(404, "M_NOT_FOUND", "Event not found.")
                return 200, copy.deepcopy(event["content"])
        if path == "/_matrix/media/v3/upload":
            with s.lock:
                media_id = f"m{len(s.media) + 1}"
                s.media[media_id] = {"bytes": raw, "content_type": content_type,
                                     "filename": query.get("filename", [None])[-1]}
            return 200, {"content_uri": f"mxc://{SERVER}/{media_id}"}
        return error(404, "M_UNRECOGNIZED", "Unrecognized request")

    def send(self, room, params, content):
        s = self.state
        txn = params["txnId"]
        if txn in s.txns:
            return 200, {"event_id": s.txns[txn]}
        problems = []
        if params["eventType"] != "m.room.message":
            problems.append(f"send: the bot sends only m.room.message, not {params['eventType']}")
        msgtype = content.get("msgtype")
        schema = s.description.content.get(msgtype)
        if schema is None:
            problems.append(f"send: msgtype {msgtype!r} is not one the fake knows")
        else:
            plain = {k: v for k, v in content.items() if k not in ("m.mentions", "m.relates_to")}
            check(schema, plain, "content", problems)
        if "m.mentions" in content:
            check(s.description.mentions, content["m.mentions"], "content.m.mentions", problems)
        relates = content.get("m.relates_to")
        if relates is not None:
            if isinstance(relates, dict) and list(relates) == ["m.in_reply_to"]:
                check({"type": "object", "properties": {"event_id": {"type": "string",
                                                                     "pattern": "^\\$"}},
                       "required": ["event_id"], "additionalProperties": False},
                      relates["m.in_reply_to"], "content.m.relates_to.m.in_reply_to", problems)
            else:
                check(s.description.relates_to, relates, "content.m.relates_to", problems)
        if msgtype == "m.image":
            media_id = content.get("url", "").rsplit("/", 1)[-1]
            if media_id not in s.media:
                problems.append("send: m.image names media that was never uploaded")
        if problems:
            return self.violation(problems)
        event = s.new_event(room.room_id, BOT, "m.room.message", content)
        s.txns[txn] = event["event_id"]
        s.sent.append({"room_id": room.room_id, "event_id": event["event_id"], "txn": txn,
                       "content": content})
        return 200, {"event_id": event["event_id"]}

    def messages(self, room, query):
        s = self.state
        direction = query["dir"][-1]
        if direction != "b":
            return error(400, "M_INVALID_PARAM", "the fake pages backwards only")
        start = token_position(query.get("from", [f"s{s.position}"])[-1])
        stop = token_position(query.get("to", ["s0"])[-1])
        limit = int(query.get("limit", ["10"])[-1])
        if start is None or stop is None:
            return error(400, "M_INVALID_PARAM", "Invalid pagination token")
        if "filter" in query:
            problems = []
            try:
                room_filter = json.loads(query["filter"][-1])
            except ValueError:
                return self.violation(["query.filter: not JSON"])
            room_event_filter = s.description.inline(
                {"$ref": "definitions/room_event_filter.yaml"},
                os.path.join(s.description.root, "api/client-server/x.yaml"))
            check(close(room_event_filter), room_filter, "query.filter", problems)
            if problems:
                return self.violation(problems)
        events = [(p, e) for p, r, e in s.events if r == room.room_id and stop < p <= start]
        events.reverse()
        chunk = events[:limit]
        body = {"start": f"s{start}", "chunk": [client_event(e, True) for _, e in chunk]}
        if len(events) > limit:
            body["end"] = f"s{chunk[-1][0] - 1}"
        return 200, body

    def sync(self, query):
        s = self.state
        since = query.get("since", [None])[-1]
        timeout = min(int(query.get("timeout", ["0"])[-1]), 60000) / 1000.0
        filter_id = query.get("filter", [None])[-1]
        deadline = time.time() + timeout
        with s.lock:
            s.syncs += 1
            room_filter = (s.filters.get(filter_id) or {}).get("room", {})
            limit = room_filter.get("timeline", {}).get("limit", 10)
            if s.timeline_limit is not None:
                limit = min(limit, s.timeline_limit)
            types = room_filter.get("timeline", {}).get("types")
            start = token_position(since) if since is not None else 0
            if since is not None and start is None:
                return error(400, "M_INVALID_PARAM", "Invalid since token")
            while True:
                body = self.sync_body(start, since is None, limit, types)
                if since is None or body["rooms"] or body["account_data"]["events"] or \
                        time.time() >= deadline:
                    break
                s.lock.wait(max(0.0, min(0.5, deadline - time.time())))
            body["next_batch"] = f"s{s.position}"
            return 200, body

    def sync_body(self, start, initial, limit, types):
        s = self.state
        join, invite = {}, {}
        for room_id, room in s.rooms.items():
            membership = room.members.get(BOT)
            news = [(p, e) for p, r, e in s.events if r == room_id and p > start]
            if membership == "invite" and news:
                invite[room_id] = {"invite_state": {"events": [
                    stripped(e) for e in room.state.values()]}}
            if membership != "join" or not news:
                continue
            joined_now = any(e["type"] == "m.room.member" and e["state_key"] == BOT and
                             e["content"]["membership"] == "join" for _, e in news)
            shown = [(p, e) for p, e in news if types is None or e["type"] in types]
            timeline = shown[-limit:] if limit else []
            limited = len(shown) > len(timeline)
            entry = {"timeline": {"events": [client_event(e) for _, e in timeline],
                                  "limited": limited}}
            if timeline:
                entry["timeline"]["prev_batch"] = f"s{timeline[0][0] - 1}"
            if initial or joined_now or limited:
                first = timeline[0][0] if timeline else s.position + 1
                entry["state"] = {"events": [client_event(e) for e in room.state.values()
                                             if e["event_id"] not in
                                             {x["event_id"] for _, x in timeline}
                                             and s.positions[e["event_id"]] < first]}
            if entry["timeline"]["events"] or "state" in entry:
                join[room_id] = entry
        rooms = {}
        if join:
            rooms["join"] = join
        if invite:
            rooms["invite"] = invite
        account = []
        if initial or s.account_data_changed > start:
            account = [{"type": t, "content": copy.deepcopy(c)} for t, c in s.account_data.items()]
        return {"rooms": rooms, "account_data": {"events": account}}

    # Test-side commands: rooms, puppets' posts and joins, failures, what the bot did.
    def control(self, command, args):
        s = self.state
        if command == "create_room":
            room_id = s.create_room(args["creator"], encrypted=args.get("encrypted", False),
                                    name=args.get("name"))
            for user in args.get("members", []):
                s.join(room_id, user)
            if args.get("invite_bot", True):
                s.invite(room_id, args["creator"], BOT, args.get("is_direct", False))
            return 200, {"room_id": room_id}
        if command == "join":
            s.join(args["room_id"], args["user"])
            return 200, {}
        if command == "message":
            content = {"msgtype": args.get("msgtype", "m.text"), "body": args["body"]}
            for key in ("format", "formatted_body", "m.mentions", "m.relates_to", "m.new_content"):
                if key in args:
                    content[key] = args[key]
            event = s.new_event(args["room_id"], args["sender"], "m.room.message", content)
            return 200, {"event_id": event["event_id"]}
        if command == "raw_event":
            # Whatever the test wrote, malformed or not, as the room's next timeline event.
            s.position += 1
            event = dict(args["event"])
            event.setdefault("event_id", f"$e{s.position}:{SERVER}")
            s.raw_event_ids.append(event["event_id"])
            s.positions[event["event_id"]] = s.position
            s.events.append((s.position, args["room_id"], event))
            s.lock.notify_all()
            return 200, {"event_id": event["event_id"]}
        if command == "encrypt":
            s.new_event(args["room_id"], args["sender"], "m.room.encryption",
                        {"algorithm": "m.megolm.v1.aes-sha2"}, "")
            return 200, {}
        if command == "eager":
            s.eager.add(args["user"])
            return 200, {}
        if command == "fault":
            s.faults.append(dict(args))
            return 200, {}
        if command in ("revoke", "refuse_token"):
            s.revoked = bool(args.get("refuse", True))
            s.lock.notify_all()
            return 200, {}
        if command == "go_down":
            self.lifecycle.down_soon()
            return 200, {}
        if command == "bad_answer":
            s.bad_answers.append({"path": args["path"], "field": args["field"],
                                  "value": args.get("value")})
            return 200, {}
        if command == "timeline_limit":
            s.timeline_limit = args.get("limit")
            return 200, {}
        if command == "sent":
            return 200, {"sent": s.sent}
        if command == "calls":
            return 200, {"calls": s.calls}
        if command == "media":
            return 200, {"media": {k: {"size": len(v["bytes"]), "content_type": v["content_type"],
                                       "png": v["bytes"][:8] == b"\x89PNG\r\n\x1a\n",
                                       "filename": v["filename"]}
                                   for k, v in s.media.items()}}
        if command == "room":
            room = s.rooms[args["room_id"]]
            return 200, {"members": room.members, "encrypted": room.encrypted}
        if command == "account_data":
            return 200, {"account_data": s.account_data}
        if command == "state":
            return 200, {"syncs": s.syncs, "position": s.position, "rooms": list(s.rooms),
                         "violations": s.violations}
        if command == "violations":
            return 200, {"violations": s.violations}
        return 404, {"error": "unknown control command " + command}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--spec", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--lifetime", type=float, default=900.0)
    options = parser.parse_args()

    Handler.state = State(Description(options.spec), options.token)
    serve(Handler, options.port, options.lifetime)


if __name__ == "__main__":
    main()
