#!/usr/bin/env python3
"""A fake Discourse forum for ghostpost's tests, on loopback only.

Stateful like the real service: users, categories, topics with post numbers, a global post id
sequence, private messages (archetype private_message) with the bot's notifications, uploads,
edits and deletions. It refuses what Discourse refuses: a post identical to one the same user
made in the last five minutes ("Body is too similar to what you recently posted"), a body
shorter than 20 characters (10 in a private message), a private message to a user who does
not accept them, an unknown API key or username (403), and it answers 429 with Retry-After and
extras.wait_seconds, scripted or from its create-post rate limit.

Every request is checked against the published OpenAPI description (discourse-openapi.json):
the path and method must be described; query, path and body parameters must match their
schemas, multipart uploads included; and every object schema that lists properties is closed,
so an unknown or misspelt field is refused. A mismatch is answered with 400 and recorded; tests
fail when /control/violations is not empty. The fake's own answers are checked against the
response schemas too, closed the same way, so the fake cannot drift from the description
unnoticed: one that fails is answered 500 instead and reported on stderr
(tests/support/fake_lifecycle.py), which fails the test.

Controls for outages and refusals (tests/support/fake_server.h has a C++ method for each):
- POST /control/refuse_token {"refuse": true|false}: every request is answered 403
  invalid_access, as for a revoked API key, until refused with false.
- POST /control/go_down: the forum stops listening and resets its open connections; the line
  "come_back" on its standard input makes it listen again on the same port, state kept.
- POST /control/bad_answer {"path": "/notifications.json", "field": "x", "value": 1}: the next
  successful answer to that path template carries `field`, as Discourse never would (a test of
  the answer check itself).

Where the description and the real service differ, the fake follows the service:
- /uploads.json: the description leaves `file` optional; Discourse refuses an upload without it.
- /notifications.json: the description lists only badge fields in `data`; the real service
  sends topic_title, original_post_id, original_username... for a private message, as here.
- The duplicate check: Discourse skips it for staff; the fake applies it to everyone, so the
  adapter must cope with either.

Usage: fake_discourse.py --spec discourse-openapi.json --key KEY --username BOT [--port 0]
It prints "PORT <n>" once listening and exits when its standard input closes.
"""

import argparse
import copy
import email.parser
import email.policy
import hashlib
import json
import os
import re
import struct
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler

import jsonschema

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from fake_lifecycle import report_answer, serve  # noqa: E402

BOT_ID = 10
UNIQUE_SECONDS = 300  # Discourse's unique_posts_mins: 5


def closed(schema):
    """The schema with every object that lists properties closed to others."""
    if isinstance(schema, dict):
        out = {k: closed(v) for k, v in schema.items()}
        if "properties" in out and "additionalProperties" not in out:
            out["additionalProperties"] = False
        return out
    if isinstance(schema, list):
        return [closed(v) for v in schema]
    return schema


def skeleton(schema):
    """A value that satisfies a response schema's required fields, to be filled in."""
    types = schema.get("type", "object")
    if isinstance(types, list):
        if "null" in types:
            return None
        types = types[0]
    if types == "object":
        props = schema.get("properties", {})
        return {name: skeleton(props.get(name, {})) for name in schema.get("required", [])}
    return {"integer": 0, "number": 0, "string": "", "boolean": False, "array": []}.get(types)


class Spec:
    def __init__(self, path):
        with open(path, encoding="utf-8") as f:
            self.doc = json.load(f)
        # What Discourse sends in a private message's notification, which the description's
        # badge-only `data` leaves out (see the list at the top).
        notification = (self.doc["paths"]["/notifications.json"]["get"]["responses"]["200"]
                        ["content"]["application/json"]["schema"]["properties"]["notifications"]
                        ["items"]["properties"]["data"]["properties"])
        notification.update({
            "topic_title": {"type": "string"}, "original_post_id": {"type": "integer"},
            "original_post_type": {"type": "integer"}, "original_username": {"type": "string"},
            "revision_number": {"type": ["integer", "null"]},
            "display_username": {"type": "string"}})
        self.routes = []
        for template, methods in self.doc["paths"].items():
            pattern = "^" + re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(template)) + "$"
            self.routes.append((re.compile(pattern), template, methods))

    def operation(self, method, path):
        for pattern, template, methods in self.routes:
            match = pattern.match(path)
            if match and method.lower() in methods:
                return template, methods[method.lower()], match.groupdict()
        return None, None, None

    @staticmethod
    def problems(value, schema, where):
        validator = jsonschema.Draft202012Validator(schema)
        # Sorted: the order of iter_errors differs between jsonschema releases.
        return sorted(f"{where}{'.' + '.'.join(str(p) for p in e.absolute_path) if e.absolute_path else ''}:"
                      f" {e.message}" for e in validator.iter_errors(value))

    @staticmethod
    def convert(text, schema):
        """A query or form value (always text) as the type its schema names."""
        types = schema.get("type", "string")
        types = types if isinstance(types, list) else [types]
        if "integer" in types and re.fullmatch(r"-?\d+", text):
            return int(text)
        if "boolean" in types and text in ("true", "false"):
            return text == "true"
        return text

    def check_request(self, method, path, query, content_type, raw):
        """(template, operation, path params, query, body, files, problems)."""
        template, op, path_params = self.operation(method, path)
        if op is None:
            return None, None, {}, {}, None, {}, [f"{method} {path}: not in the API description"]
        where = f"{method} {template}"
        problems = []
        declared = {(p["name"], p["in"]): p for p in op.get("parameters", [])}
        values = {}
        for name, value in path_params.items():
            param = declared.get((name, "path"))
            if param is None:
                continue
            values[name] = self.convert(urllib.parse.unquote(value), param.get("schema", {}))
            problems += self.problems(values[name], param.get("schema", {}), f"{where} path {name}")
        query_values = {}
        for name, value in urllib.parse.parse_qsl(query, keep_blank_values=True):
            param = declared.get((name, "query"))
            if param is None:
                problems.append(f"{where}: query parameter {name} is not described")
                continue
            query_values[name] = self.convert(value, param.get("schema", {}))
            problems += self.problems(query_values[name], param.get("schema", {}),
                                      f"{where} query {name}")
        for (name, place), param in declared.items():
            if place == "query" and param.get("required") and name not in query_values:
                problems.append(f"{where}: query parameter {name} is required")
        body, files = None, {}
        request_body = op.get("requestBody")
        if request_body is None:
            if raw:
                problems.append(f"{where}: a body where none is described")
            return template, op, values, query_values, body, files, problems
        content = request_body.get("content", {})
        if content_type.startswith("application/json") and "application/json" in content:
            try:
                body = json.loads(raw or b"null")
            except ValueError:
                return template, op, values, query_values, None, files, [f"{where}: not JSON"]
            schema = closed(content["application/json"]["schema"])
            problems += self.problems(body, schema, f"{where} body")
        elif content_type.startswith("multipart/form-data") and "multipart/form-data" in content:
            schema = closed(content["multipart/form-data"]["schema"])
            props = schema.get("properties", {})
            message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
                b"Content-Type: " + content_type.encode() + b"\r\n\r\n" + raw)
            body = {}
            for part in message.iter_parts():
                name = part.get_param("name", header="content-disposition")
                data = part.get_payload(decode=True)
                if part.get_filename() is not None:
                    files[name] = {"filename": part.get_filename(), "data": data,
                                   "content_type": part.get_content_type()}
                    body[name] = "(binary)"
                else:
                    body[name] = self.convert(data.decode("utf-8"), props.get(name, {}))
            problems += self.problems(body, schema, f"{where} body")
        else:
            problems.append(f"{where}: content type {content_type or 'none'} is not described")
        return template, op, values, query_values, body, files, problems


class State:
    def __init__(self, spec, key, bot):
        self.spec = spec
        self.key = key
        self.bot = bot
        self.lock = threading.Lock()
        self.users = {BOT_ID: {"id": BOT_ID, "username": bot, "name": "Ghostpost", "allow_pm": True,
                               "admin": True}}
        for uid, name in ((7, "alice"), (8, "bob"), (9, "carol"), (3, "mallory")):
            self.users[uid] = {"id": uid, "username": name, "name": name.title(),
                               "allow_pm": True, "admin": False}
        self.categories = {1: "general", 5: "games"}
        self.topics = {}
        self.posts = {}
        self.next_post_id = 100
        self.next_topic_id = 1000
        self.notifications = []
        self.next_notification_id = 1
        self.uploads = []
        self.sent = []         # every post the bot made, in order
        self.calls = []        # (time, method, template, status, the raw text of a post or "")
        self.violations = []
        self.refused = False     # every request answered 403 invalid_access
        self.bad_answers = []    # {path, field, value}: fields to slip into an answer
        self.faults = []       # scripted answers: {method, path, status, count, wait_seconds}
        self.rate_limit_create_post = 0  # seconds between two posts of the bot; 0: none
        self.last_bot_post = 0.0

    def user_by_name(self, name):
        for user in self.users.values():
            if user["username"].lower() == name.lower():
                return user
        return None

    def now_text(self):
        return time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime())

    def new_topic(self, title, category_id, archetype, allowed):
        tid = self.next_topic_id
        self.next_topic_id += 1
        slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-") or "topic"
        self.topics[tid] = {"id": tid, "title": title, "slug": slug, "category_id": category_id,
                            "archetype": archetype, "allowed": allowed, "posts": [],
                            "created_at": self.now_text()}
        return self.topics[tid]

    def new_post(self, topic, user, raw, reply_to=None):
        pid = self.next_post_id
        self.next_post_id += 1
        post = {"id": pid, "topic_id": topic["id"], "post_number": len(topic["posts"]) + 1,
                "user_id": user["id"], "raw": raw, "created_at": self.now_text(),
                "updated_at": self.now_text(), "deleted_at": None, "version": 1,
                "reply_to_post_number": reply_to, "time": time.time()}
        topic["posts"].append(pid)
        self.posts[pid] = post
        if topic["archetype"] == "private_message" and user["id"] != BOT_ID:
            self.notifications.append({
                "id": self.next_notification_id, "user_id": BOT_ID, "notification_type": 6,
                "read": False, "created_at": self.now_text(), "post_number": post["post_number"],
                "topic_id": topic["id"], "slug": topic["slug"],
                "data": {"topic_title": topic["title"], "original_post_id": pid,
                         "original_post_type": 1, "original_username": user["username"],
                         "revision_number": None, "display_username": user["username"]}})
            self.next_notification_id += 1
        return post

    def visible(self, post):
        topic = self.topics[post["topic_id"]]
        return post["deleted_at"] is None and (topic["archetype"] == "regular" or
                                               BOT_ID in topic["allowed"])

    def post_json(self, post, schema, extra):
        topic = self.topics[post["topic_id"]]
        user = self.users[post["user_id"]]
        out = skeleton(schema)
        values = {"id": post["id"], "name": user["name"], "username": user["username"],
                  "avatar_template": "/letter_avatar/{size}.png", "created_at": post["created_at"],
                  "cooked": "<p>" + post["raw"] + "</p>", "raw": post["raw"],
                  "post_number": post["post_number"], "post_type": 1,
                  "posts_count": len(topic["posts"]), "updated_at": post["updated_at"],
                  "reply_to_post_number": None if post["reply_to_post_number"] is None
                  else str(post["reply_to_post_number"]),
                  "topic_id": topic["id"], "topic_slug": topic["slug"],
                  "topic_title": topic["title"], "topic_html_title": topic["title"],
                  "category_id": topic["category_id"] or 0,
                  "display_username": user["username"], "version": post["version"],
                  "user_id": user["id"], "deleted_at": post["deleted_at"],
                  "yours": user["id"] == BOT_ID, "admin": user["admin"], "staff": user["admin"],
                  "trust_level": 4 if user["admin"] else 1,
                  "post_url": f"/t/{topic['slug']}/{topic['id']}/{post['post_number']}"}
        values.update(extra)
        for k, v in values.items():
            if k in schema.get("properties", {}):
                out[k] = v
        if topic["archetype"] == "private_message":
            out.pop("category_id", None)  # a private message has no category
        return out


def api_error(status, errors, error_type, extras=None, headers=None):
    body = {"errors": errors, "error_type": error_type}
    if extras is not None:
        body["extras"] = extras
    return status, body, headers or {}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    state: State = None

    def log_message(self, *args):
        pass

    def answer(self, status, body, headers=None):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self.handle_any("GET")

    def do_POST(self):
        self.handle_any("POST")

    def do_PUT(self):
        self.handle_any("PUT")

    def do_DELETE(self):
        self.handle_any("DELETE")

    def handle_any(self, method):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        if len(raw) < length:
            # The client went away in the middle of its request (a daemon killed during an
            # upload): a server never sees such a request whole, so it neither runs nor judges it.
            self.close_connection = True
            return
        url = urllib.parse.urlsplit(self.path)
        s = self.state
        if url.path.startswith("/control/"):
            status, body = self.control(url.path[len("/control/"):], json.loads(raw or b"{}"))
            self.answer(status, body)
            return
        template, op, params, query, body, files, problems = s.spec.check_request(
            method, url.path, url.query, self.headers.get("Content-Type", ""), raw)
        if problems:
            with s.lock:
                s.violations.extend(problems)
            self.answer(400, {"errors": problems, "error_type": "invalid_parameters"})
            return
        if (self.headers.get("Api-Key") != s.key or s.refused or
                (self.headers.get("Api-Username") or "").lower() != s.bot.lower()):
            status, out, headers = api_error(
                403, ["You are not permitted to view the requested resource. The API username "
                      "or key is invalid."], "invalid_access")
        else:
            with s.lock:
                fault = self.take_fault(method, template, body)
                if fault is not None and not fault.get("after_create"):
                    status, out, headers = self.fault_answer(fault)
                else:
                    status, out, headers = self.call(method, template, params, query, body, files)
                    if fault is not None:  # done, but the answer is lost on the way back
                        status, out, headers = self.fault_answer(fault)
                raw_text = body.get("raw", "") if isinstance(body, dict) else ""
                s.calls.append((time.time(), method, template, status, raw_text))
                for bad in s.bad_answers:
                    if bad["path"] == template and status == 200:
                        s.bad_answers.remove(bad)
                        out = dict(out, **{bad["field"]: bad["value"]})
                        break
                response = op["responses"].get(str(status))
                schema = ((response or {}).get("content", {}).get("application/json", {})
                          .get("schema"))
                problems = []
                if schema is not None:
                    problems = s.spec.problems(out, closed(schema),
                                               f"the fake's answer to {method} {template}")
                elif status == 200:
                    problems = [f"the fake's answer to {method} {template}: no 200 described"]
                if problems:
                    report_answer(problems)
                    status, out, headers = api_error(500, ["Internal Server Error"], "server_error")
        self.answer(status, out, headers)

    # A scripted fault for this request: by method and path, and when it names a `when`, only
    # for a request whose body holds those words.
    def take_fault(self, method, template, body):
        for fault in self.state.faults:
            if fault.get("when") and fault["when"] not in json.dumps(body, ensure_ascii=False):
                continue
            if fault["method"] == method and fault["path"] == template and fault["count"] > 0:
                fault["count"] -= 1
                return fault
        return None

    def fault_answer(self, fault):
        if fault["status"] == 429:
            status, body, headers = self.rate_limited(fault.get("wait_seconds", 1))
            return status, body, {} if fault.get("no_header") else headers
        return api_error(fault["status"], [fault.get("error", "scripted failure")],
                         fault.get("error_type", "server_error"))

    @staticmethod
    def rate_limited(wait):
        return api_error(429, [f"You’ve performed this action too many times. Please wait {wait} "
                               f"seconds before trying again."], "rate_limit",
                         {"wait_seconds": wait, "time_left": f"{wait} seconds"},
                         {"Retry-After": str(wait)})

    def call(self, method, template, params, query, body, files):
        s = self.state
        spec = s.spec.doc["paths"]
        if method == "GET" and template == "/posts.json":
            before = query.get("before")
            posts = sorted((p for p in s.posts.values() if s.visible(p) and
                            s.topics[p["topic_id"]]["archetype"] == "regular" and
                            (before is None or p["id"] < before)),
                           key=lambda p: -p["id"])[:50]
            schema = (spec[template]["get"]["responses"]["200"]["content"]["application/json"]
                      ["schema"]["properties"]["latest_posts"]["items"])
            return 200, {"latest_posts": [s.post_json(p, schema, {}) for p in posts]}, {}
        if method == "GET" and template == "/notifications.json":
            recent = sorted(s.notifications, key=lambda n: -n["id"])[:60]
            return 200, {"notifications": recent, "total_rows_notifications": len(s.notifications),
                         "seen_notification_id": 0,
                         "load_more_notifications": "/notifications?offset=60"}, {}
        if method == "GET" and template == "/posts/{id}.json":
            post = s.posts.get(int(params["id"])) if str(params["id"]).isdigit() else None
            if post is None or not s.visible(post):
                return api_error(404, ["The requested URL or resource could not be found."],
                                 "not_found")
            schema = spec[template]["get"]["responses"]["200"]["content"]["application/json"][
                "schema"]
            return 200, s.post_json(post, schema, {"mentioned_users": []}), {}
        if method == "GET" and template == "/topics/private-messages/{username}.json":
            topics = [t for t in s.topics.values()
                      if t["archetype"] == "private_message" and BOT_ID in t["allowed"]]
            topics.sort(key=lambda t: -(t["posts"][-1] if t["posts"] else 0))
            users = {uid for t in topics for uid in t["allowed"]}
            return 200, {
                "users": [{"id": u, "username": s.users[u]["username"], "name": s.users[u]["name"],
                           "avatar_template": "/letter_avatar/{size}.png"} for u in sorted(users)],
                "primary_groups": [],
                "topic_list": {"can_create_topic": True, "per_page": 30, "topics": [
                    {"id": t["id"], "title": t["title"], "fancy_title": t["title"],
                     "slug": t["slug"], "posts_count": len(t["posts"]),
                     "highest_post_number": len(t["posts"]), "archetype": "private_message",
                     "allowed_user_count": len(t["allowed"]),
                     "participants": [{"user_id": u, "extras": "", "description": None,
                                       "primary_group_id": None}
                                      for u in t["allowed"] if u != BOT_ID]}
                    for t in topics]}}, {}
        if method == "GET" and template == "/admin/users/{id}.json":
            user = s.users.get(params["id"])
            if user is None:
                return api_error(404, ["The requested URL or resource could not be found."],
                                 "not_found")
            schema = spec[template]["get"]["responses"]["200"]["content"]["application/json"][
                "schema"]
            out = skeleton(schema)
            out.update({"id": user["id"], "username": user["username"], "name": user["name"],
                        "admin": user["admin"], "active": True})
            return 200, out, {}
        if method == "POST" and template == "/uploads.json":
            return self.upload(body, files)
        if method == "POST" and template == "/posts.json":
            return self.create_post(body)
        return api_error(404, ["The requested URL or resource could not be found."], "not_found")

    def upload(self, body, files):
        s = self.state
        f = files.get("file")
        if f is None:
            return api_error(422, ["You must provide a file to upload."], "invalid_parameters")
        data = f["data"]
        if data[:8] != b"\x89PNG\r\n\x1a\n" or len(data) < 24:
            return api_error(422, ["Sorry, the file you are trying to upload is not an image."],
                             "invalid_parameters")
        width, height = struct.unpack(">II", data[16:24])
        sha = hashlib.sha1(data).hexdigest()
        for u in s.uploads:  # Discourse keeps one upload per content
            if u["sha1"] == sha:
                break
        else:
            s.uploads.append({"id": len(s.uploads) + 1, "sha1": sha, "bytes": len(data),
                              "type": body.get("upload_type"), "filename": f["filename"],
                              "content_type": f["content_type"], "width": width, "height": height})
            u = s.uploads[-1]
        short = "upload://" + sha[:27] + ".png"
        return 200, {"id": u["id"], "url": f"/uploads/default/original/1X/{sha}.png",
                     "original_filename": u["filename"], "filesize": len(data), "width": width,
                     "height": height, "thumbnail_width": width, "thumbnail_height": height,
                     "extension": "png", "short_url": short, "short_path": f"/uploads/short-url/"
                     f"{sha[:27]}.png", "retain_hours": None, "human_filesize": f"{len(data)} Bytes",
                     "dominant_color": None, "thumbnail": None}, {}

    def create_post(self, body):
        s = self.state
        bot = s.users[BOT_ID]
        now = time.time()
        if s.rate_limit_create_post and now - s.last_bot_post < s.rate_limit_create_post:
            return self.rate_limited(int(s.rate_limit_create_post - (now - s.last_bot_post)) + 1)
        raw = body["raw"]
        private = body.get("archetype") == "private_message"
        topic = None
        if "topic_id" in body:
            topic = s.topics.get(body["topic_id"])
            if topic is None or (topic["archetype"] == "private_message" and
                                 BOT_ID not in topic["allowed"]):
                return api_error(404, ["The requested URL or resource could not be found."],
                                 "not_found")
            private = topic["archetype"] == "private_message"
        minimum = 10 if private else 20
        if len(raw.strip()) < minimum:
            return api_error(422, [f"Body is too short (minimum is {minimum} characters)"],
                             "invalid_parameters")
        # Discourse keys recent posts by a hash of the raw text without whitespace, lower-cased.
        same = re.sub(r"\s+", "", raw).lower()
        for earlier in s.posts.values():
            if (earlier["user_id"] == BOT_ID and re.sub(r"\s+", "", earlier["raw"]).lower() == same
                    and now - earlier["time"] < UNIQUE_SECONDS):
                return api_error(422, ["Body is too similar to what you recently posted"],
                                 "invalid_parameters")
        if topic is None:
            title = body.get("title", "")
            if not title:
                return api_error(422, ["Title can't be blank"], "invalid_parameters")
            if private:
                names = [n.strip() for n in body.get("target_recipients", "").split(",")
                         if n.strip()]
                if not names:
                    return api_error(422, ["You must choose a valid user."], "invalid_parameters")
                allowed = [BOT_ID]
                for name in names:
                    user = s.user_by_name(name)
                    if user is None:
                        return api_error(422, [f"The following user could not be found: {name}"],
                                         "invalid_parameters")
                    if not user["allow_pm"]:
                        return api_error(422, [f"Sorry, you cannot send a personal message to "
                                               f"{user['username']}."], "invalid_parameters")
                    allowed.append(user["id"])
                topic = s.new_topic(title, None, "private_message", allowed)
            else:
                topic = s.new_topic(title, body.get("category", 1), "regular", [])
        reply_to = body.get("reply_to_post_number")
        if reply_to is not None and not 1 <= reply_to <= len(topic["posts"]):
            reply_to = None  # Discourse ignores a number the topic does not have
        post = s.new_post(topic, bot, raw, reply_to)
        s.last_bot_post = now
        s.sent.append({"id": post["id"], "topic_id": topic["id"],
                       "post_number": post["post_number"], "reply_to_post_number": reply_to,
                       "private": private, "recipients": [s.users[u]["username"]
                                                          for u in topic["allowed"]
                                                          if u != BOT_ID],
                       "raw": raw})
        schema = s.spec.doc["paths"]["/posts.json"]["post"]["responses"]["200"]["content"][
            "application/json"]["schema"]
        return 200, s.post_json(post, schema, {"draft_sequence": 0}), {}

    # Test-side commands: people post, edit and delete; failures are scripted; the bot's posts
    # and the violations are read back.
    def control(self, command, args):
        s = self.state
        with s.lock:
            if command == "post":
                user = s.user_by_name(args["username"])
                if "topic_id" in args:
                    topic = s.topics[args["topic_id"]]
                elif args.get("private"):
                    topic = s.new_topic(args.get("title", "A private word"), None,
                                        "private_message", [user["id"], BOT_ID])
                else:
                    topic = s.new_topic(args.get("title", "A new topic"),
                                        args.get("category_id", 1), "regular", [])
                post = s.new_post(topic, user, args["raw"], args.get("reply_to_post_number"))
                return 200, {"id": post["id"], "topic_id": topic["id"],
                             "post_number": post["post_number"]}
            if command == "edit":
                post = s.posts[args["id"]]
                post["raw"] = args["raw"]
                post["version"] += 1
                post["updated_at"] = s.now_text()
                return 200, {}
            if command == "delete":
                s.posts[args["id"]]["deleted_at"] = s.now_text()
                return 200, {}
            if command == "user":
                s.users[args["id"]] = {"id": args["id"], "username": args["username"],
                                       "name": args.get("name", args["username"]),
                                       "allow_pm": args.get("allow_pm", True), "admin": False}
                return 200, {}
            if command == "allow_pm":
                s.users[args["id"]]["allow_pm"] = args["allow"]
                return 200, {}
            if command == "fault":
                s.faults.append(dict(args))
                return 200, {}
            if command == "settings":
                s.rate_limit_create_post = args.get("rate_limit_create_post", 0)
                return 200, {}
            if command == "sent":
                return 200, {"sent": s.sent}
            if command == "topic":
                topic = s.topics[args["id"]]
                return 200, {"posts": [{"post_number": s.posts[p]["post_number"],
                                        "username": s.users[s.posts[p]["user_id"]]["username"],
                                        "raw": s.posts[p]["raw"]} for p in topic["posts"]]}
            if command == "uploads":
                return 200, {"uploads": [{k: v for k, v in u.items()} for u in s.uploads]}
            if command == "calls":
                return 200, {"calls": s.calls}
            if command == "violations":
                return 200, {"violations": s.violations}
            if command == "refuse_token":
                s.refused = bool(args.get("refuse", True))
                return 200, {}
            if command == "go_down":
                self.lifecycle.down_soon()
                return 200, {}
            if command == "bad_answer":
                s.bad_answers.append({"path": args["path"], "field": args["field"],
                                      "value": args.get("value")})
                return 200, {}
        return 404, {"error": "unknown control command " + command}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--spec", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--username", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--lifetime", type=float, default=900.0)
    options = parser.parse_args()

    Handler.state = State(Spec(options.spec), options.key, options.username)
    serve(Handler, options.port, options.lifetime)


if __name__ == "__main__":
    main()
