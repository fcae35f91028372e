"""serve_websocket.py — the WebSocket protocol (RFC 6455) on the standard library, server side:
the handshake's accept key, and text messages read from and written to an upgraded socket.

Only what the page needs: text messages (fragmented or not), ping/pong and close. Anything
else from the client (binary data, unmasked or oversized frames, bad UTF-8) closes the
connection with the status code the RFC gives for it."""
import base64
import hashlib
import struct
import threading

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
MOST_MESSAGE_BYTES = 64 * 1024  # the page's largest message (a restored game) is far smaller

CONTINUATION, TEXT, BINARY, CLOSE, PING, PONG = 0x0, 0x1, 0x2, 0x8, 0x9, 0xA
PROTOCOL_ERROR, UNSUPPORTED_DATA, BAD_DATA, TOO_BIG = 1002, 1003, 1007, 1009


def accept_key(client_key):
    """The Sec-WebSocket-Accept answer to a Sec-WebSocket-Key; None when the key is malformed."""
    try:
        if len(base64.b64decode(client_key.strip(), validate=True)) != 16:
            return None
    except (ValueError, TypeError):
        return None
    digest = hashlib.sha1((client_key.strip() + GUID).encode("ascii")).digest()
    return base64.b64encode(digest).decode("ascii")


class Closed(Exception):
    """The connection is over (closed by either side, or broken)."""


class WebSocket:
    def __init__(self, reader, writer):
        """reader: a buffered binary file of the socket; writer: a binary file (flushed here)."""
        self.reader, self.writer = reader, writer
        self.send_lock = threading.Lock()
        self.closed = False

    def _read_exactly(self, count):
        data = self.reader.read(count)
        if data is None or len(data) != count:
            raise Closed("connection broken")
        return data

    def _read_frame(self):
        first, second = self._read_exactly(2)
        final, reserved, opcode = first & 0x80, first & 0x70, first & 0x0F
        masked, length = second & 0x80, second & 0x7F
        if reserved or not masked:
            self.close(PROTOCOL_ERROR)
            raise Closed("reserved bits or an unmasked frame")
        if length == 126:
            length = struct.unpack(">H", self._read_exactly(2))[0]
        elif length == 127:
            length = struct.unpack(">Q", self._read_exactly(8))[0]
        if opcode >= CLOSE and (length > 125 or not final):
            self.close(PROTOCOL_ERROR)
            raise Closed("a control frame too long or fragmented")
        if length > MOST_MESSAGE_BYTES:
            self.close(TOO_BIG)
            raise Closed("a frame too big")
        mask = self._read_exactly(4)
        payload = bytearray(self._read_exactly(length))
        for i in range(length):
            payload[i] ^= mask[i % 4]
        return bool(final), opcode, bytes(payload)

    def receive(self):
        """The next text message as a str; raises Closed when the connection ends."""
        parts, size = [], 0
        while True:
            final, opcode, payload = self._read_frame()
            if opcode == PING:
                self._send_frame(PONG, payload)
                continue
            if opcode == PONG:
                continue
            if opcode == CLOSE:
                self.close(struct.unpack(">H", payload[:2])[0] if len(payload) >= 2 else 1000)
                raise Closed("closed by the client")
            if opcode == BINARY or (opcode == TEXT) == bool(parts) or opcode not in (TEXT, CONTINUATION):
                self.close(UNSUPPORTED_DATA if opcode == BINARY else PROTOCOL_ERROR)
                raise Closed("binary data or frames out of order")
            parts.append(payload)
            size += len(payload)
            if size > MOST_MESSAGE_BYTES:
                self.close(TOO_BIG)
                raise Closed("a message too big")
            if final:
                try:
                    return b"".join(parts).decode("utf-8")
                except UnicodeDecodeError:
                    self.close(BAD_DATA)
                    raise Closed("text that is not UTF-8")

    def _send_frame(self, opcode, payload):
        length = len(payload)
        if length < 126:
            header = struct.pack(">BB", 0x80 | opcode, length)
        elif length < 65536:
            header = struct.pack(">BBH", 0x80 | opcode, 126, length)
        else:
            header = struct.pack(">BBQ", 0x80 | opcode, 127, length)
        with self.send_lock:
            if self.closed and opcode != CLOSE:
                raise Closed("already closed")
            try:
                self.writer.write(header + payload)
                self.writer.flush()
            except (OSError, ValueError):
                self.closed = True
                raise Closed("connection broken")

    def send(self, text):
        self._send_frame(TEXT, text.encode("utf-8"))

    def close(self, code=1000):
        """Sends the close frame once (answering the client's, or starting the closing)."""
        if self.closed:
            return
        try:
            self._send_frame(CLOSE, struct.pack(">H", code))
        except Closed:
            pass
        self.closed = True
