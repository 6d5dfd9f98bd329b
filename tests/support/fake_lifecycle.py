"""What the Python fake servers (Telegram, Matrix, Discourse) share: serving on one loopback
port that can go down and come back, and reporting answers of their own that the API
description does not allow.

An outage closes the listening socket and resets every open connection, long polls included,
so the daemon sees what a dead host or a restarted proxy gives it: refused connections. The
fake keeps its state and comes back on the same port when "come_back" arrives as a line on its
standard input (tests/support/fake_server.h: FakeServer::come_back()); it goes down on
POST /control/go_down or the line "go_down". It still exits when its standard input closes.

An answer the description does not allow is a bug of the fake, not of the daemon: the fake
answers 500 instead and writes "answer violation: ..." on its standard error, which
FakeServer checks at the end of every test.
"""

import os
import socket
import sys
import threading
from http.server import ThreadingHTTPServer

ANSWER_VIOLATION = "answer violation: "


def report_answer(problems):
    for problem in problems:
        sys.stderr.write(ANSWER_VIOLATION + problem.replace("\n", " ") + "\n")
    sys.stderr.flush()


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address, handler, owner):
        self.owner = owner
        super().__init__(address, handler)

    def process_request(self, request, client_address):
        with self.owner.lock:
            self.owner.connections.add(request)
        super().process_request(request, client_address)

    def shutdown_request(self, request):
        with self.owner.lock:
            self.owner.connections.discard(request)
        super().shutdown_request(request)

    def handle_error(self, request, client_address):
        # A connection reset by an outage is expected; anything else is the fake's bug.
        if not isinstance(sys.exc_info()[1], OSError):
            super().handle_error(request, client_address)


class Lifecycle:
    def __init__(self, handler, port):
        self.handler = handler
        self.lock = threading.Lock()
        self.connections = set()
        self.server = None
        self.port = port
        self.up()

    def up(self):
        with self.lock:
            if self.server is not None:
                return
            self.server = _Server(("127.0.0.1", self.port), self.handler, self)
            self.port = self.server.server_address[1]
            server = self.server
        threading.Thread(target=server.serve_forever, daemon=True).start()

    def down(self):
        with self.lock:
            server, self.server = self.server, None
            connections = list(self.connections)
        if server is None:
            return
        server.shutdown()
        server.server_close()
        for connection in connections:
            try:
                connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    # After the answer to the control request that asked for it has gone out.
    def down_soon(self):
        threading.Timer(0.05, self.down).start()


def serve(handler, port, lifetime):
    """Serves `handler` until standard input closes; prints "PORT <n>" once listening."""
    # The headers and the body of an answer are two writes: with Nagle's algorithm the second
    # waits for the client's delayed acknowledgement of the first, 40 ms an answer.
    handler.disable_nagle_algorithm = True
    lifecycle = Lifecycle(handler, port)
    handler.lifecycle = lifecycle
    print(f"PORT {lifecycle.port}", flush=True)
    threading.Timer(lifetime, lambda: os._exit(3)).start()
    for line in sys.stdin:
        if line.strip() == "come_back":
            lifecycle.up()
        elif line.strip() == "go_down":
            lifecycle.down()
    os._exit(0)
