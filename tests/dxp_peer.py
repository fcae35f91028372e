"""dxp_peer.py — a DXP peer for the tests, on standard-library sockets: it sends DXP messages (also
broken ones on purpose) and checks the format of every message it receives."""
import re
import socket
import time

from harness import check

NAME_WIDTH = 32
FORMATS = {
    "R": re.compile(r"R01[ -~]{32}[WZ]\d{3}\d{3}(A|B[WZ][ewzWZ]{50})\Z"),
    "A": re.compile(r"A[ -~]{32}\d\Z"),
    "M": re.compile(r"M\d{4}\d{2}\d{2}\d{2}(\d{2})*\Z"),
    "E": re.compile(r"E[0-3][01]\Z"),
    "C": re.compile(r"C[ -~]*\Z"),
    "B": re.compile(r"B\d{3}[WZ]\Z"),
    "K": re.compile(r"K\d\Z"),
}


def check_format(message):
    check(message and message[0] in FORMATS and FORMATS[message[0]].match(message) and len(message) <= 127,
          "malformed DXP message from Donjon: %r" % message)
    if message[0] == "M":
        count = int(message[9:11])
        check(len(message) == 11 + 2 * count, "move message length: %r" % message)


def move_message(triple, seconds=0):
    start, end, captured = triple
    return "M%04d%02d%02d%02d" % (seconds, start, end, len(captured)) + "".join("%02d" % c for c in sorted(captured))


def read_move(message):
    """(from, to, frozenset(captured)) of an M message."""
    count = int(message[9:11])
    captured = [int(message[11 + 2 * i:13 + 2 * i]) for i in range(count)]
    check(len(set(captured)) == count, "a captured square twice: %r" % message)
    return (int(message[5:7]), int(message[7:9]), frozenset(captured))


def game_request(follower_colour, minutes, moves, board=None, name="Test peer"):
    """R: the follower's colour 'W' or 'Z'; board = (side letter, 50 letters) or None for the start."""
    position = "A" if board is None else "B" + board[0] + board[1]
    return "R01%-32s%s%03d%03d%s" % (name, follower_colour, minutes, moves, position)


class Peer:
    """One end of a DXP connection."""

    def __init__(self, sock):
        self.sock = sock
        self.buffer = b""
        self.received = []

    @staticmethod
    def listener():
        server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        return server, server.getsockname()[1]

    @classmethod
    def accept(cls, server, timeout):
        server.settimeout(timeout)
        sock, _ = server.accept()
        server.close()
        return cls(sock)

    @classmethod
    def connect(cls, port, timeout):
        return cls(socket.create_connection(("127.0.0.1", port), timeout=timeout))

    def send(self, message):
        data = message if isinstance(message, bytes) else message.encode("ascii")
        self.sock.sendall(data + b"\0")

    def receive(self, timeout):
        """The next message (format checked), or None when Donjon closed the connection."""
        deadline = time.monotonic() + timeout
        while b"\0" not in self.buffer:
            left = deadline - time.monotonic()
            check(left > 0, "no DXP message within %.0fs (received so far: %s)" % (timeout, self.received[-5:]))
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(4096)
            except socket.timeout:
                continue
            except ConnectionResetError:
                chunk = b""
            if not chunk:
                check(not self.buffer, "connection closed inside a message: %r" % self.buffer)
                return None
            self.buffer += chunk
        raw, _, self.buffer = self.buffer.partition(b"\0")
        message = raw.decode("ascii")
        check_format(message)
        self.received.append(message)
        return message

    def receive_skipping_chat(self, timeout):
        while True:
            message = self.receive(timeout)
            if message is None or message[0] != "C":
                return message

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass
