#!/usr/bin/env python3
"""A fake Telegram Bot API server for ghostpost's tests, on loopback only.

It implements what the third-party emulator lacks: getUpdates offsets and long-poll timeouts,
multipart sendPhoto, 429 with retry_after, 5xx, 403 for private chats the user never opened,
and 409 when a second poller arrives. Every call is checked against the published Bot API
description (method name, parameter names, their types, required ones); a mismatch is answered
with 400 and recorded, and tests fail when /control/violations is not empty.

Usage: fake_telegram.py --spec telegram-bot-api.json --token TOKEN [--port 0]
It prints "PORT <n>" once listening and exits when its standard input closes, so it never
outlives the test that started it.
"""

import argparse
import email.parser
import email.policy
import json
import os
import re
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

BOT_ID = 4242
BOT_USERNAME = "ghostpost_bot"


class Spec:
    def __init__(self, path):
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        self.methods = data["methods"]
        self.types = data["types"]

    # Checks a value already decoded from JSON against one of the spec's type words.
    def check_json(self, value, type_name, where, problems):
        if type_name.startswith("Array of "):
            if not isinstance(value, list):
                problems.append(f"{where}: expected {type_name}, got {type(value).__name__}")
                return
            for i, element in enumerate(value):
                self.check_any(element, [type_name[len("Array of "):]], f"{where}[{i}]", problems)
            return
        simple = {
            "Integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
            "String": lambda v: isinstance(v, str),
            "Boolean": lambda v: isinstance(v, bool),
            "Float": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
            "True": lambda v: v is True,
        }
        if type_name in simple:
            if not simple[type_name](value):
                problems.append(f"{where}: expected {type_name}, got {json.dumps(value)[:40]}")
            return
        if type_name == "InputFile":
            problems.append(f"{where}: an InputFile must be a multipart file part")
            return
        spec_type = self.types.get(type_name)
        if spec_type is None:
            problems.append(f"{where}: unknown type {type_name}")
            return
        if not isinstance(value, dict):
            problems.append(f"{where}: expected {type_name} object")
            return
        if spec_type.get("subtypes"):
            return  # a union such as InputMedia: the concrete subtype is not named in the value
        self.check_fields(value, spec_type.get("fields", []), where, problems)

    def check_any(self, value, type_names, where, problems):
        for type_name in type_names:
            attempt = []
            self.check_json(value, type_name, where, attempt)
            if not attempt:
                return
        problems.append(f"{where}: {json.dumps(value)[:60]} is none of {type_names}")

    def check_fields(self, values, fields, where, problems):
        by_name = {f["name"]: f for f in fields}
        for name, value in values.items():
            field = by_name.get(name)
            if field is None:
                problems.append(f"{where}.{name}: no such parameter")
                continue
            self.check_any(value, field["types"], f"{where}.{name}", problems)
        for field in fields:
            if field.get("required") and field["name"] not in values:
                problems.append(f"{where}.{field['name']}: required but missing")

    # Form and multipart values are strings; objects and arrays inside them are JSON-serialized.
    def decode_form_value(self, text, type_names):
        for type_name in type_names:
            if type_name == "Integer" and re.fullmatch(r"-?\d+", text):
                return int(text)
            if type_name == "Float" and re.fullmatch(r"-?\d+(\.\d+)?", text):
                return float(text)
            if type_name == "Boolean" and text in ("true", "false"):
                return text == "true"
            if type_name.startswith("Array of ") or type_name in self.types:
                try:
                    return json.loads(text)
                except ValueError:
                    continue
        return text


class State:
    def __init__(self, spec, token):
        self.spec = spec
        self.token = token
        self.lock = threading.Condition()
        self.updates = []          # pending update objects, in arrival order
        self.next_update_id = 100
        self.message_ids = {}      # chat id -> last message id
        self.started = set()       # user ids who opened a private chat with the bot
        self.sent = []             # every accepted send, in order
        self.calls = []            # (time, method, chat_id, status) of every send attempt
        self.violations = []
        self.faults = []           # scripted failures: {method, status, retry_after, count}
        self.poll_generation = 0
        self.polls = 0

    def next_message_id(self, chat_id):
        self.message_ids[chat_id] = self.message_ids.get(chat_id, 0) + 1
        return self.message_ids[chat_id]


def error(code, description, retry_after=None):
    body = {"ok": False, "error_code": code, "description": description}
    if retry_after is not None:
        body["parameters"] = {"retry_after": retry_after}
    return code, body


def utf16_length(text):
    return len(text.encode("utf-16-le")) // 2


# Telegram marks every "@username" of a text as a `mention` entity, offsets in UTF-16 units.
def mention_entities(text):
    return [{"type": "mention", "offset": utf16_length(text[:m.start()]),
             "length": utf16_length(m.group(0))}
            for m in re.finditer(r"(?<![A-Za-z0-9_@])@[A-Za-z0-9_]{1,32}(?![A-Za-z0-9_])", text)]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
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
        self.do_POST()

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        path = urllib.parse.urlsplit(self.path)
        if path.path.startswith("/control/"):
            status, body = self.control(path.path[len("/control/"):], json.loads(raw or b"{}"))
            self.reply(status, body)
            return
        # A Bot API server may sit under a path of a reverse proxy (api_url "http://host/d1");
        # the tests give each of several daemons its own, to tell whose requests are whose.
        match = re.fullmatch(r"(?:/([A-Za-z0-9_-]+))?/bot([^/]+)/([A-Za-z]+)", path.path)
        if not match:
            self.reply(*error(404, "Not Found"))
            return
        if match.group(2) != self.state.token:
            self.reply(*error(401, "Unauthorized"))
            return
        method = match.group(3)
        params, files, problems = self.decode(method, raw, path.query)
        if problems:
            with self.state.lock:
                self.state.violations.extend(problems)
            self.reply(*error(400, "Bad Request: " + "; ".join(problems)))
            return
        self.reply(*self.call(method, params, files, match.group(1) or ""))

    # Turns the request body into {name: value} checked against the method's description.
    def decode(self, method, raw, query):
        spec = self.state.spec
        description = spec.methods.get(method)
        if description is None:
            return {}, {}, [f"{method}: no such method"]
        fields = {f["name"]: f for f in description.get("fields", [])}
        content_type = self.headers.get("Content-Type", "")
        params, files, problems = {}, {}, []
        if content_type.startswith("application/json"):
            try:
                params = json.loads(raw or b"{}")
            except ValueError:
                return {}, {}, [f"{method}: the body is not JSON"]
            if not isinstance(params, dict):
                return {}, {}, [f"{method}: the JSON body is not an object"]
            spec.check_fields(params, description.get("fields", []), method, problems)
            return params, files, problems
        if content_type.startswith("multipart/form-data"):
            message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
                b"Content-Type: " + content_type.encode() + b"\r\n\r\n" + raw)
            pairs = []
            for part in message.iter_parts():
                name = part.get_param("name", header="content-disposition")
                if part.get_filename() is not None:
                    files[name] = {"filename": part.get_filename(),
                                   "content_type": part.get_content_type(),
                                   "data": part.get_payload(decode=True)}
                else:
                    pairs.append((name, part.get_payload(decode=True).decode("utf-8")))
        else:
            pairs = urllib.parse.parse_qsl((raw.decode() if raw else "") or query,
                                           keep_blank_values=True)
        for name, text in pairs:
            field = fields.get(name)
            if field is None:
                problems.append(f"{method}.{name}: no such parameter")
                continue
            params[name] = spec.decode_form_value(text, field["types"])
        for name in files:
            field = fields.get(name)
            if field is None or "InputFile" not in field["types"]:
                problems.append(f"{method}.{name}: not a file parameter")
        checked = {k: v for k, v in params.items() if k in fields}
        spec.check_fields(checked, [f for f in description.get("fields", [])
                                    if f["name"] not in files], method, problems)
        return params, files, problems

    def call(self, method, params, files, via=""):
        s = self.state
        with s.lock:
            for fault in s.faults:
                if fault["method"] == method and fault["count"] > 0:
                    fault["count"] -= 1
                    if method != "getUpdates":
                        s.calls.append((time.time(), method, params.get("chat_id"), fault["status"]))
                    return error(fault["status"], fault.get("description", "scripted failure"),
                                 fault.get("retry_after"))
        if method == "getMe":
            return 200, {"ok": True, "result": {"id": BOT_ID, "is_bot": True,
                                                 "first_name": "Ghostpost", "username": BOT_USERNAME}}
        if method == "getUpdates":
            return self.get_updates(params)
        if method in ("sendMessage", "sendPhoto"):
            return self.send(method, params, files, via)
        return 200, {"ok": True, "result": True}

    def get_updates(self, params):
        s = self.state
        timeout = min(int(params.get("timeout", 0)), 50)
        offset = params.get("offset")
        limit = int(params.get("limit", 100))
        deadline = time.time() + timeout
        with s.lock:
            s.polls += 1
            s.poll_generation += 1
            generation = s.poll_generation
            s.lock.notify_all()  # an older poll still waiting is now superseded
            if offset is not None:
                # Confirming: everything below the offset is forgotten for good.
                s.updates = [u for u in s.updates if u["update_id"] >= offset]
            while True:
                if s.poll_generation != generation:
                    return error(409, "Conflict: terminated by other getUpdates request; make "
                                      "sure that only one bot instance is running")
                if s.updates or time.time() >= deadline:
                    return 200, {"ok": True, "result": s.updates[:limit]}
                s.lock.wait(max(0.0, min(0.5, deadline - time.time())))

    def send(self, method, params, files, via=""):
        s = self.state
        chat_id = params.get("chat_id")
        with s.lock:
            if isinstance(chat_id, int) and chat_id > 0 and chat_id not in s.started:
                s.calls.append((time.time(), method, chat_id, 403))
                return error(403, "Forbidden: bot can't initiate conversation with a user")
            s.calls.append((time.time(), method, chat_id, 200))
            message_id = s.next_message_id(chat_id)
            record = {"method": method, "chat_id": chat_id, "message_id": message_id,
                      "time": time.time(), "via": via}
            if method == "sendMessage":
                record["text"] = params.get("text")
            else:
                photo = files.get("photo")
                if photo is None:
                    s.violations.append("sendPhoto: the photo was not uploaded as a file")
                    return error(400, "Bad Request: photo must be a file upload here")
                record["text"] = params.get("caption", "")
                record["photo_bytes"] = len(photo["data"])
                record["photo_is_png"] = photo["data"][:8] == b"\x89PNG\r\n\x1a\n"
                record["photo_content_type"] = photo["content_type"]
            record["parse_mode"] = params.get("parse_mode")
            reply_parameters = params.get("reply_parameters")
            if isinstance(reply_parameters, dict):
                record["reply_to"] = reply_parameters.get("message_id")
            s.sent.append(record)
            message = {"message_id": message_id, "date": int(time.time()),
                       "chat": {"id": chat_id, "type": "private" if isinstance(chat_id, int)
                                and chat_id > 0 else "supergroup"},
                       "from": {"id": BOT_ID, "is_bot": True, "first_name": "Ghostpost",
                                "username": BOT_USERNAME}}
            if method == "sendMessage":
                message["text"] = params.get("text")
            return 200, {"ok": True, "result": message}

    # Test-side commands: inject posts, script failures, read what the bot sent.
    def control(self, command, args):
        s = self.state
        with s.lock:
            if command == "message":
                chat_id = int(args["chat_id"])
                user_id = int(args["from_id"])
                private = chat_id > 0
                if private:
                    s.started.add(user_id)
                update_id = s.next_update_id
                s.next_update_id += 1
                message_id = s.next_message_id(chat_id)
                # "username": null is an account without one; its first name may be anything.
                username = args.get("username", f"user{user_id}")
                sender = {"id": user_id, "is_bot": False,
                          "first_name": args.get("first_name") or username or "user"}
                if username is not None:
                    sender["username"] = username
                message = {
                    "message_id": message_id, "date": int(time.time()),
                    "chat": {"id": chat_id, "type": "private" if private else "supergroup"},
                    "from": sender, "text": args["text"]}
                entities = args.get("entities", mention_entities(args["text"]))
                if entities:
                    message["entities"] = entities
                if "sender_chat" in args:
                    message["sender_chat"] = args["sender_chat"]
                s.updates.append({"update_id": update_id, "message": message})
                s.lock.notify_all()
                return 200, {"update_id": update_id, "message_id": message_id}
            if command == "raw_update":
                # Whatever the test wrote, malformed or not, with the next update id.
                update_id = s.next_update_id
                s.next_update_id += 1
                s.updates.append(dict(args["update"], update_id=update_id))
                s.lock.notify_all()
                return 200, {"update_id": update_id}
            if command == "start":
                s.started.add(int(args["user_id"]))
                return 200, {}
            if command == "jump":
                s.next_update_id = int(args["next_update_id"])
                return 200, {}
            if command == "fault":
                s.faults.append(dict(args))
                return 200, {}
            if command == "sent":
                return 200, {"sent": s.sent}
            if command == "calls":
                return 200, {"calls": s.calls}
            if command == "state":
                return 200, {"pending_updates": len(s.updates), "polls": s.polls,
                             "violations": s.violations, "sent": len(s.sent)}
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

    Handler.state = State(Spec(options.spec), options.token)
    server = ThreadingHTTPServer(("127.0.0.1", options.port), Handler)
    server.daemon_threads = True
    print(f"PORT {server.server_address[1]}", flush=True)

    def stop_when_orphaned():
        sys.stdin.read()
        os._exit(0)

    threading.Thread(target=stop_when_orphaned, daemon=True).start()
    threading.Timer(options.lifetime, lambda: os._exit(3)).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
