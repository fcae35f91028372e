"""engine.py — drive a Donjon process over its protocol, as a GUI does (tests only)."""
import os
import queue
import subprocess
import threading
import time


class EngineError(Exception):
    pass


class Engine:
    def __init__(self, command, env=None):
        self.proc = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=env, bufsize=0)
        self.lines = queue.Queue()
        self.stderr_chunks = []
        self._reader = threading.Thread(target=self._read_stdout, daemon=True)
        self._reader.start()
        self._err_reader = threading.Thread(target=self._read_stderr, daemon=True)
        self._err_reader.start()

    def _read_stdout(self):
        for raw in self.proc.stdout:
            self.lines.put((time.monotonic(), raw.decode("utf-8", "replace").rstrip("\r\n")))
        self.lines.put((time.monotonic(), None))

    def _read_stderr(self):
        for raw in self.proc.stderr:
            self.stderr_chunks.append(raw.decode("utf-8", "replace"))

    def send(self, text):
        data = text if isinstance(text, bytes) else (text + "\n").encode()
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def read_line(self, timeout=10.0):
        try:
            stamp, line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise EngineError("no output within %.1fs" % timeout)
        if line is None:
            raise EngineError("engine exited (stderr: %s)" % "".join(self.stderr_chunks)[-2000:])
        self.last_stamp = stamp
        return line

    def lines_until_exit(self, timeout=10.0):
        """Every line still to come, up to the end of the engine's output (the reader's end mark:
        the process may exit before the reader has queued its last lines)."""
        deadline = time.monotonic() + timeout
        lines = []
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))[1]
            except queue.Empty:
                raise EngineError("output did not end within %.1fs; last lines: %r" % (timeout, lines[-5:]))
            if line is None:
                return lines
            lines.append(line)

    def read_until(self, predicate, timeout=10.0):
        """All lines up to and including the first line for which predicate(line) holds."""
        deadline = time.monotonic() + timeout
        seen = []
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise EngineError("timed out waiting; last lines: %r" % seen[-5:])
            line = self.read_line(left)
            seen.append(line)
            if predicate(line):
                return seen

    def ask(self, command, prefix, timeout=10.0):
        """Sends command, returns the first line starting with prefix (skipping others)."""
        self.send(command)
        return self.read_until(lambda l: l.startswith(prefix), timeout)[-1]

    def sync(self, timeout=10.0):
        self.send("isready")
        return self.read_until(lambda l: l == "readyok", timeout)

    def errors_until_ready(self, command):
        self.send(command)
        lines = self.sync()
        return [l for l in lines if l.startswith("info string error")]

    def set_variant(self, name):
        self.send("setoption name UCI_Variant value " + name)
        return self.read_until(lambda l: l.startswith("info string variant") or "error" in l)[-1]

    def fen(self):
        self.send("d")
        lines = self.read_until(lambda l: l.startswith("Key: "))
        return [l for l in lines if l.startswith("Fen: ")][-1][5:]

    def key(self):
        self.send("d")
        return self.read_until(lambda l: l.startswith("Key: "))[-1][5:]

    def moves(self):
        line = self.ask("moves", "moves")
        return line.split()[1:]

    def perft(self, depth, timeout=600.0):
        self.send("go perft %d" % depth)
        lines = self.read_until(lambda l: l.startswith("Nodes searched"), timeout)
        split = {}
        for l in lines[:-1]:
            if ": " in l and not l.startswith("info"):
                move, count = l.rsplit(": ", 1)
                split[move] = int(count)
        return int(lines[-1].split()[-1]), split

    def result(self):
        return self.ask("result", "result ")[len("result "):]

    def go(self, args, timeout=30.0):
        self.send("go " + args)
        return self.read_until(lambda l: l.startswith("bestmove"), timeout)

    def quit(self, timeout=10.0):
        try:
            self.send("quit")
        except (BrokenPipeError, OSError):
            pass
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise EngineError("engine did not exit after quit")

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def stderr(self):
        time.sleep(0.05)
        return "".join(self.stderr_chunks)
