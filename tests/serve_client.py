"""serve_client.py — scripts/serve as the tests see it: the server started on a free port, its
engine processes found in /proc, raw HTTP requests, and a WebSocket client (tests only)."""
import base64
import json
import os
import select
import signal
import socket
import struct
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SERVE = os.path.join(HERE, "..", "scripts", "serve")


def poll(probe, accept, timeout, failure):
    """probe() again and again until accept(value) holds, then that value; after timeout
    seconds, AssertionError(failure(last value))."""
    deadline = time.monotonic() + timeout
    while True:
        value = probe()
        if accept(value):
            return value
        if time.monotonic() > deadline:
            raise AssertionError(failure(value))
        time.sleep(0.05)


class ServeProcess:
    """scripts/serve on 127.0.0.1 and a free port, driving the engine binary under test."""

    def __init__(self, engine, extra=(), env=None):
        self.proc = subprocess.Popen([sys.executable, SERVE, "--port", "0", "--quiet", "--engine", engine]
                                     + list(extra), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     env=dict(os.environ, **(env or {})))
        ready, _, _ = select.select([self.proc.stdout], [], [], 60)
        line = self.proc.stdout.readline().decode() if ready else ""
        if not line.startswith("Donjon board: http://"):
            self.proc.kill()
            raise AssertionError("scripts/serve did not start: %r %s" % (line, self.proc.stderr.read()[-2000:]))
        self.url = line.split()[-1]
        self.port = int(self.url.rstrip("/").rsplit(":", 1)[1])
        self.seen_engines = set()

    def engines(self):
        """Pids of the server's live child processes (its engines); zombies count, since a
        child that is not reaped is a process left behind."""
        children = set()
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open("/proc/%s/stat" % entry) as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == self.proc.pid:
                children.add(int(entry))
        self.seen_engines |= children
        return children

    def wait_engines(self, predicate, timeout=30.0):
        return poll(self.engines, predicate, timeout, lambda pids: "engine processes of the server: %s" % sorted(pids))

    def __enter__(self):
        return self

    def __exit__(self, kind, error, trace):
        try:
            self.stop()
        except AssertionError:
            if kind is None:
                raise  # else the test's own failure is the one to report

    def stop(self):
        """Stops the server as a person would (SIGTERM) and checks that it left no process
        behind and wrote no traceback."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise AssertionError("scripts/serve did not stop on SIGTERM")
        errors = self.proc.stderr.read().decode("utf-8", "replace")
        left = [pid for pid in self.seen_engines if os.path.exists("/proc/%d" % pid)]
        if left:
            raise AssertionError("engine processes left behind: %s" % left)
        if "Traceback" in errors:
            raise AssertionError("scripts/serve wrote a traceback:\n" + errors[-3000:])
        if self.proc.returncode != 0:
            raise AssertionError("scripts/serve exit status %d: %s" % (self.proc.returncode, errors[-2000:]))

    def raw_request(self, data, timeout=30.0):
        """Sends bytes as they are; returns the status code of the answer (0: none)."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=timeout) as s:
            s.sendall(data)
            try:
                s.shutdown(socket.SHUT_WR)
            except OSError:
                pass
            answer = b""
            while b"\r\n" not in answer:
                chunk = s.recv(4096)
                if not chunk:
                    break
                answer += chunk
        words = answer.split(b" ", 2)
        return int(words[1]) if len(words) > 1 and words[1].isdigit() else 0

    def get(self, path, headers=None):
        fields = {"Host": "127.0.0.1:%d" % self.port}
        fields.update(headers or {})
        head = "GET %s HTTP/1.1\r\n%s\r\n" % (path, "".join("%s: %s\r\n" % kv for kv in fields.items()))
        return self.raw_request(head.encode())


class WebSocketClient:
    """A game opened as the page opens it; messages are JSON objects."""

    def __init__(self, port, origin=True, timeout=60.0):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        head = ("GET /ws HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n" % (port, key))
        if origin:
            head += "Origin: http://127.0.0.1:%d\r\n" % port
        self.sock.sendall((head + "\r\n").encode())
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = self.sock.recv(1)
            if not chunk:
                raise AssertionError("the server closed the connection: %r" % answer)
            answer += chunk
        self.status = int(answer.split(b" ", 2)[1])
        self.buffer = b""
        self.events = []

    def send_frame(self, opcode, payload, final=True, masked=True):
        header = bytes([(0x80 if final else 0) | opcode])
        length = len(payload)
        bit = 0x80 if masked else 0
        if length < 126:
            header += bytes([bit | length])
        elif length < 65536:
            header += bytes([bit | 126]) + struct.pack(">H", length)
        else:
            header += bytes([bit | 127]) + struct.pack(">Q", length)
        if masked:
            mask = os.urandom(4)
            payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
            header += mask
        self.sock.sendall(header + payload)

    def send(self, message):
        text = message if isinstance(message, str) else json.dumps(message)
        self.send_frame(0x1, text.encode())

    def _read(self, count):
        while len(self.buffer) < count:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError("the server closed the connection")
            self.buffer += chunk
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def receive_frame(self):
        first, second = self._read(2)
        length = second & 0x7F
        if length == 126:
            length = struct.unpack(">H", self._read(2))[0]
        elif length == 127:
            length = struct.unpack(">Q", self._read(8))[0]
        return first & 0x0F, self._read(length)

    def receive(self):
        """The next JSON event; EOFError when the server closes."""
        opcode, payload = self.receive_frame()
        if opcode == 0x8:
            raise EOFError("closed by the server: %d" % struct.unpack(">H", payload[:2])[0])
        event = json.loads(payload.decode())
        self.events.append(event)
        return event

    def wait_for(self, predicate, timeout=60.0):
        """Events up to the first that satisfies predicate; returns that one."""
        deadline = time.monotonic() + timeout
        while True:
            self.sock.settimeout(max(0.05, deadline - time.monotonic()))
            try:
                event = self.receive()
            except socket.timeout:
                raise AssertionError("no matching event within %.0fs; last: %s" % (timeout, self.events[-3:]))
            if predicate(event):
                return event

    def state(self, timeout=60.0):
        return self.wait_for(lambda e: e["type"] == "state", timeout)

    def error(self, timeout=60.0):
        return self.wait_for(lambda e: e["type"] == "error", timeout)["message"]

    def close(self):
        try:
            self.send_frame(0x8, struct.pack(">H", 1000))
        except OSError:
            pass
        self.sock.close()
