#!/usr/bin/env python3
"""A fake Telegram Bot API server for ghostpost's tests, on loopback only.

It implements what the third-party emulator lacks: getUpdates offsets and long-poll timeouts,
multipart sendPhoto, 429 with retry_after, 5xx, 403 for private chats the user never opened,
and 409 when a second poller arrives; forum topics (message_thread_id), inline keyboards and
their presses (callback_query, answerCallbackQuery, each press answerable once and for 15 s),
the menu of commands (setMyCommands), a group's upgrade to a supergroup (the two service
messages, then 400 with migrate_to_chat_id for the old id), getMe's privacy flag, and the
text_mention entities a message ends up with (from `entities` or from HTML links). Every call
is checked against the published Bot API description (method name, parameter names, their
types, required ones); a mismatch is answered with 400 and recorded, and tests fail when
/control/violations is not empty. Every update it makes is checked against the description's
Update type as well, so that what the bot reads is shaped like Telegram's.

Its own answers are checked too: the result against the method's return type and an error
against Telegram's envelope (ok, error_code, description, parameters as ResponseParameters),
every object closed to fields the description does not list. An answer that fails is a bug of
this fake: it answers 500 instead and reports it on stderr (tests/support/fake_lifecycle.py),
which fails the test. Updates a test injects with raw_update are left unchecked on purpose.

Controls for outages and refusals (tests/support/fake_server.h has a C++ method for each):
- POST /control/refuse_token {"refuse": true|false}: every Bot API call is answered 401
  Unauthorized, as for a revoked token, until refused again with false.
- POST /control/go_down: the fake stops listening and resets its open connections, long polls
  included; the line "come_back" on its standard input makes it listen again on the same port,
  with its state kept.
- POST /control/bad_answer {"method": "getMe", "field": "x", "value": 1}: the next successful
  answer to that method carries `field` in its result, as Telegram never would (a test of the
  answer check itself).

Usage: fake_telegram.py --spec telegram-bot-api.json --token TOKEN [--port 0]
It prints "PORT <n>" once listening and exits when its standard input closes, so it never
outlives the test that started it.
"""

import argparse
import copy
import email.parser
import email.policy
import html.parser
import json
import os
import re
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from fake_lifecycle import report_answer, serve  # noqa: E402

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
        self.can_read_all = True   # getMe's can_read_all_group_messages (privacy mode off)
        self.commands = None       # the last setMyCommands list for every language
        self.menus = {}            # language_code -> the last list set for that language
        self.allowed = None        # the last getUpdates allowed_updates; None: Telegram's default
        self.chats = {}            # chat id -> {"type":..., "is_forum":...} set by the test
        self.topics = set()        # (chat id, thread id) of forum topics that exist
        self.migrated = {}         # old chat id -> new chat id
        self.presses = {}          # callback query id -> {"time", "answered"}
        self.answers = []          # every accepted answerCallbackQuery, in order
        self.next_callback = 9000000001
        self.refused = False       # every call answered 401, as for a revoked token
        self.raw_updates = set()   # update ids a test made malformed on purpose
        self.bad_answers = []      # {method, field, value}: fields to slip into an answer

    def next_message_id(self, chat_id):
        self.message_ids[chat_id] = self.message_ids.get(chat_id, 0) + 1
        return self.message_ids[chat_id]

    def chat(self, chat_id):
        settings = self.chats.get(chat_id, {})
        chat = {"id": chat_id, "type": settings.get("type") or (
            "private" if isinstance(chat_id, int) and chat_id > 0 else "supergroup")}
        if settings.get("is_forum"):
            chat["is_forum"] = True
        return chat

    # Queues an update unless the bot's allowed_updates leaves its kind out, as Telegram does;
    # an update the description would not allow is a bug of this fake.
    def push(self, update):
        kind = next(k for k in update if k != "update_id")
        if kind not in (self.allowed if self.allowed is not None else DEFAULT_UPDATES):
            return False
        problems = []
        self.spec.check_json(update, "Update", "fake update", problems)
        self.violations.extend("the fake made a bad update: " + p for p in problems)
        self.updates.append(update)
        self.lock.notify_all()
        return True

    def new_update_id(self):
        update_id = self.next_update_id
        self.next_update_id += 1
        return update_id


def error(code, description, retry_after=None, migrate_to=None):
    body = {"ok": False, "error_code": code, "description": description}
    if retry_after is not None:
        body["parameters"] = {"retry_after": retry_after}
    if migrate_to is not None:
        body["parameters"] = {"migrate_to_chat_id": migrate_to}
    return code, body


# Update kinds Telegram sends when getUpdates never named any.
DEFAULT_UPDATES = {"message", "edited_message", "channel_post", "edited_channel_post",
                   "callback_query", "inline_query", "chosen_inline_result", "my_chat_member"}
PRESS_LIFETIME = 15.0  # seconds a callback query may be answered


class Links(html.parser.HTMLParser):
    """The text_mention entities Telegram makes of <a href="tg://user?id=N"> in parse_mode HTML,
    with the text as the user sees it (tags gone, entities decoded)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.text = ""
        self.mentions = []
        self.open = None

    def handle_starttag(self, tag, attrs):
        href = dict(attrs).get("href") or ""
        if tag == "a" and href.startswith("tg://user?id="):
            self.open = (int(href[len("tg://user?id="):]), len(self.text))

    def handle_endtag(self, tag):
        if tag == "a" and self.open is not None:
            user, start = self.open
            self.mentions.append({"user_id": user, "text": self.text[start:]})
            self.open = None

    def handle_data(self, data):
        self.text += data


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
        if len(raw) < length:
            # The client went away in the middle of its request (a daemon killed during an
            # upload): a server never sees such a request whole, so it neither runs nor judges it.
            self.close_connection = True
            return
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
        method = match.group(3)
        if match.group(2) != self.state.token or self.state.refused:
            self.answer(method, *error(401, "Unauthorized"))
            return
        params, files, problems = self.decode(method, raw, path.query)
        if problems:
            with self.state.lock:
                self.state.violations.extend(problems)
            self.answer(method, *error(400, "Bad Request: " + "; ".join(problems)))
            return
        self.answer(method, *self.call(method, params, files, match.group(1) or ""))

    # Sends an answer of the Bot API once it is checked against the description; one that
    # Telegram could not have sent becomes a 500 and fails the test.
    def answer(self, method, status, body):
        s = self.state
        with s.lock:
            for bad in s.bad_answers:
                if bad["method"] == method and body.get("ok") is True:
                    s.bad_answers.remove(bad)
                    body = copy.deepcopy(body)
                    if isinstance(body["result"], dict):
                        body["result"][bad["field"]] = bad["value"]
                    else:
                        body[bad["field"]] = bad["value"]
                    break
            raw = set(s.raw_updates)
        problems = self.answer_problems(method, body, raw)
        if problems:
            report_answer(problems)
            status, body = 500, {"ok": False, "error_code": 500,
                                 "description": "Internal Server Error"}
        self.reply(status, body)

    def answer_problems(self, method, body, raw_updates):
        spec = self.state.spec
        where = f"the fake's answer to {method}"
        problems = []
        if body.get("ok") is True:
            known = {"ok", "result"}
            result = body.get("result")
            if method == "getUpdates" and isinstance(result, list):
                result = [u for u in result if u.get("update_id") not in raw_updates]
            description = spec.methods.get(method)
            if description is None:
                problems.append(f"{where}: success for a method that does not exist")
            elif len(description["returns"]) == 1:
                spec.check_json(result, description["returns"][0], where + ".result", problems)
            else:
                spec.check_any(result, description["returns"], where + ".result", problems)
        else:
            known = {"ok", "error_code", "description", "parameters"}
            if body.get("ok") is not False or not isinstance(body.get("error_code"), int) or \
                    not isinstance(body.get("description"), str):
                problems.append(f"{where}: an error without ok false, error_code and description")
            if "parameters" in body:
                spec.check_json(body["parameters"], "ResponseParameters", where + ".parameters",
                                problems)
        problems.extend(f"{where}.{name}: Telegram never sends it" for name in body
                        if name not in known)
        return problems

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
            return 200, {"ok": True, "result": {
                "id": BOT_ID, "is_bot": True, "first_name": "Ghostpost", "username": BOT_USERNAME,
                "can_join_groups": True, "can_read_all_group_messages": s.can_read_all,
                "supports_inline_queries": False}}
        if method == "getUpdates":
            return self.get_updates(params)
        if method in ("sendMessage", "sendPhoto"):
            return self.send(method, params, files, via)
        if method == "setMyCommands":
            return self.set_commands(params)
        if method == "answerCallbackQuery":
            return self.answer_callback(params)
        return 200, {"ok": True, "result": True}

    def set_commands(self, params):
        s = self.state
        problems = []
        commands = params.get("commands", [])
        if len(commands) > 100:
            problems.append("setMyCommands: more than 100 commands")
        # The description says a two-letter ISO 639-1 code (or empty: every other language);
        # Telegram refuses "pt-BR" or "pt_BR" with 400 LANGUAGE_CODE_INVALID... as a bad request.
        language = params.get("language_code", "")
        if not isinstance(language, str) or (language and not re.fullmatch(r"[a-z]{2}", language)):
            problems.append(f"setMyCommands: language_code {language!r} is not a two-letter "
                            "ISO 639-1 code")
        for c in commands:
            if not re.fullmatch(r"[a-z0-9_]{1,32}", c.get("command", "")):
                problems.append(f"setMyCommands: bad command name {c.get('command')!r}")
            if not 1 <= len(c.get("description", "")) <= 256:
                problems.append(f"setMyCommands: description of {c.get('command')!r} is not 1-256 "
                                "characters")
        with s.lock:
            if problems:
                s.violations.extend(problems)
                return error(400, "Bad Request: " + "; ".join(problems))
            if language:
                s.menus[language] = commands
            else:
                s.commands = commands
        return 200, {"ok": True, "result": True}

    def answer_callback(self, params):
        s = self.state
        query = params.get("callback_query_id")
        text = params.get("text", "")
        with s.lock:
            if utf16_length(text) > 200:
                s.violations.append("answerCallbackQuery: text longer than 200 characters")
                return error(400, "Bad Request: MESSAGE_TOO_LONG")
            press = s.presses.get(query)
            if press is None or press["answered"] or time.time() - press["time"] > PRESS_LIFETIME:
                return error(400, "Bad Request: query is too old and response timeout expired "
                                  "or query ID is invalid")
            press["answered"] = True
            s.answers.append({"callback_query_id": query, "text": text,
                              "show_alert": params.get("show_alert", False),
                              "time": time.time()})
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
            if "allowed_updates" in params:
                # Telegram keeps the last list given, for updates made from now on.
                s.allowed = set(params["allowed_updates"]) or None
            while True:
                if s.poll_generation != generation:
                    return error(409, "Conflict: terminated by other getUpdates request; make "
                                      "sure that only one bot instance is running")
                if s.updates or time.time() >= deadline:
                    return 200, {"ok": True, "result": s.updates[:limit]}
                s.lock.wait(max(0.0, min(0.5, deadline - time.time())))

    # The text as the user sees it and its text_mention entities ({user_id, text}), as Telegram
    # reads parse_mode HTML or the entities given; problems for entities it would refuse.
    def rendered(self, text, parse_mode, entities, problems, where):
        mentions = []
        if parse_mode == "HTML":
            links = Links()
            links.feed(text)
            links.close()
            return links.text, links.mentions
        units = text.encode("utf-16-le")
        for e in entities or []:
            if e.get("type") != "text_mention":
                continue
            start, length = e.get("offset", -1), e.get("length", 0)
            if start < 0 or length <= 0 or 2 * (start + length) > len(units):
                problems.append(f"{where}: a text_mention lies outside the text")
                continue
            if "user" not in e:
                problems.append(f"{where}: a text_mention without its user")
                continue
            mentions.append({"user_id": e["user"]["id"],
                             "text": units[2 * start:2 * (start + length)].decode("utf-16-le")})
        return text, mentions

    def send(self, method, params, files, via=""):
        s = self.state
        chat_id = params.get("chat_id")
        with s.lock:
            if isinstance(chat_id, int) and chat_id > 0 and chat_id not in s.started:
                s.calls.append((time.time(), method, chat_id, 403))
                return error(403, "Forbidden: bot can't initiate conversation with a user")
            if chat_id in s.migrated:
                s.calls.append((time.time(), method, chat_id, 400))
                return error(400, "Bad Request: group chat was upgraded to a supergroup chat",
                             migrate_to=s.migrated[chat_id])
            thread = params.get("message_thread_id")
            if thread is not None and (chat_id, thread) not in s.topics:
                s.calls.append((time.time(), method, chat_id, 400))
                return error(400, "Bad Request: message thread not found")
            problems = []
            markup = params.get("reply_markup")
            if isinstance(markup, dict):
                for row in markup.get("inline_keyboard", []):
                    for button in row:
                        data = button.get("callback_data")
                        if data is not None and not 1 <= len(data.encode()) <= 64:
                            problems.append(f"{method}: callback_data of {len(data.encode())} "
                                            "bytes (Telegram takes 1-64)")
            text = params.get("text") if method == "sendMessage" else params.get("caption", "")
            shown, mentions = self.rendered(
                text or "", params.get("parse_mode"),
                params.get("entities" if method == "sendMessage" else "caption_entities"),
                problems, method)
            if problems:
                s.violations.extend(problems)
                s.calls.append((time.time(), method, chat_id, 400))
                return error(400, "Bad Request: " + "; ".join(problems))
            s.calls.append((time.time(), method, chat_id, 200))
            message_id = s.next_message_id(chat_id)
            record = {"method": method, "chat_id": chat_id, "message_id": message_id,
                      "time": time.time(), "thread_id": thread, "mentions": mentions,
                      "shown": shown, "via": via}
            message = {"message_id": message_id, "date": int(time.time()),
                       "chat": s.chat(chat_id),
                       "from": {"id": BOT_ID, "is_bot": True, "first_name": "Ghostpost",
                                "username": BOT_USERNAME}}
            if thread is not None:
                message["message_thread_id"] = thread
                message["is_topic_message"] = True
            if method == "sendMessage":
                record["text"] = params.get("text")
                message["text"] = shown
            else:
                photo = files.get("photo")
                if photo is None:
                    s.violations.append("sendPhoto: the photo was not uploaded as a file")
                    return error(400, "Bad Request: photo must be a file upload here")
                record["text"] = params.get("caption", "")
                record["photo_bytes"] = len(photo["data"])
                record["photo_is_png"] = photo["data"][:8] == b"\x89PNG\r\n\x1a\n"
                record["photo_content_type"] = photo["content_type"]
                message["photo"] = [{"file_id": f"photo-{chat_id}-{message_id}",
                                     "file_unique_id": f"u{message_id}", "width": 480,
                                     "height": 480}]
                if shown:
                    message["caption"] = shown
            record["parse_mode"] = params.get("parse_mode")
            reply_parameters = params.get("reply_parameters")
            if isinstance(reply_parameters, dict):
                record["reply_to"] = reply_parameters.get("message_id")
            if isinstance(markup, dict) and "inline_keyboard" in markup:
                record["buttons"] = [[{"text": b.get("text"), "data": b.get("callback_data")}
                                      for b in row] for row in markup["inline_keyboard"]]
                message["reply_markup"] = markup
            record["message"] = message
            s.sent.append(record)
            return 200, {"ok": True, "result": message}

    # A User object for a test's person: "username": null is an account without one, whose
    # first name may be anything.
    @staticmethod
    def user(args):
        user_id = int(args["from_id"])
        username = args.get("username", f"user{user_id}")
        sender = {"id": user_id, "is_bot": False,
                  "first_name": args.get("first_name") or username or "user"}
        if username is not None:
            sender["username"] = username
        return sender

    # A person presses the button labelled `label` under the bot's message `message_id` in
    # `chat_id` (or sends `data` of their own making, as any client can). Caller holds the lock.
    def press(self, args):
        s = self.state
        chat_id, message_id = int(args["chat_id"]), int(args["message_id"])
        record = next((r for r in s.sent if r["chat_id"] == chat_id
                       and r["message_id"] == message_id), None)
        if record is None:
            return 404, {"error": f"no message {message_id} of the bot in {chat_id}"}
        data = args.get("data")
        if data is None:
            data = next((b["data"] for row in record.get("buttons", []) for b in row
                         if b["text"] == args.get("label")), None)
            if data is None:
                return 404, {"error": f"no button {args.get('label')!r} under that message"}
        query = str(s.next_callback)
        s.next_callback += 1
        s.presses[query] = {"time": time.time(), "answered": False}
        update_id = s.new_update_id()
        s.push({"update_id": update_id, "callback_query": {
            "id": query, "from": self.user(args), "message": record["message"],
            "chat_instance": str(-chat_id), "data": data}})
        return 200, {"update_id": update_id, "callback_query_id": query, "data": data}

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
                if chat_id in s.migrated:
                    return 409, {"error": f"chat {chat_id} became {s.migrated[chat_id]}"}
                update_id = s.new_update_id()
                message_id = s.next_message_id(chat_id)
                message = {
                    "message_id": message_id, "date": int(time.time()),
                    "chat": s.chat(chat_id), "from": self.user(args), "text": args["text"]}
                if args.get("thread_id") is not None:
                    # A post in a forum topic; the topic exists from then on.
                    thread = int(args["thread_id"])
                    s.topics.add((chat_id, thread))
                    message["message_thread_id"] = thread
                    message["is_topic_message"] = True
                entities = args.get("entities", mention_entities(args["text"]))
                if entities:
                    message["entities"] = entities
                if "sender_chat" in args:
                    message["sender_chat"] = args["sender_chat"]
                kind = "edited_message" if args.get("edited") else "message"
                if args.get("edited"):
                    message["message_id"] = int(args["edited"])
                    message["edit_date"] = int(time.time())
                delivered = s.push({"update_id": update_id, kind: message})
                return 200, {"update_id": update_id, "message_id": message["message_id"],
                             "delivered": delivered}
            if command == "chat":
                # How a chat is set up: its type ("group" before an upgrade), a forum or not.
                s.chats[int(args["chat_id"])] = {"type": args.get("type"),
                                                 "is_forum": args.get("is_forum", False)}
                return 200, {}
            if command == "privacy":
                s.can_read_all = not args.get("on", True)
                return 200, {}
            if command == "press":
                return self.press(args)
            if command == "migrate":
                # A group upgraded to a supergroup: Telegram's two service messages, and the
                # old id refused from now on.
                old, new = int(args["chat_id"]), int(args["new_chat_id"])
                s.migrated[old] = new
                s.chats[new] = {"type": "supergroup"}
                if not args.get("notify", True):
                    return 200, {}  # the notices come later (the test migrates again)
                sender = self.user(args)
                first = {"update_id": s.new_update_id(), "message": {
                    "message_id": s.next_message_id(old), "date": int(time.time()),
                    "chat": s.chat(old), "from": sender, "migrate_to_chat_id": new}}
                second = {"update_id": s.new_update_id(), "message": {
                    "message_id": s.next_message_id(new), "date": int(time.time()),
                    "chat": s.chat(new), "from": sender, "migrate_from_chat_id": old}}
                s.push(first)
                s.push(second)
                return 200, {"update_ids": [first["update_id"], second["update_id"]]}
            if command == "answers":
                return 200, {"answers": s.answers}
            if command == "commands":
                return 200, {"commands": s.commands, "menus": s.menus}
            if command == "raw_update":
                # Whatever the test wrote, malformed or not, with the next update id.
                update_id = s.new_update_id()
                s.raw_updates.add(update_id)
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
            if command == "refuse_token":
                s.refused = bool(args.get("refuse", True))
                s.lock.notify_all()
                return 200, {}
            if command == "go_down":
                self.lifecycle.down_soon()
                return 200, {}
            if command == "bad_answer":
                s.bad_answers.append({"method": args["method"], "field": args["field"],
                                      "value": args.get("value")})
                return 200, {}
        return 404, {"error": "unknown control command " + command}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--spec", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--lifetime", type=float, default=900.0)
    options = parser.parse_args()

    Handler.state = State(Spec(options.spec), options.token)
    serve(Handler, options.port, options.lifetime)


if __name__ == "__main__":
    main()
