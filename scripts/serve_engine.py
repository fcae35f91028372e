"""serve_engine.py — one Donjon process for scripts/serve: questions and answers in order, and a
search whose `info` and `bestmove` lines go to a callback as they come.

The process owns nothing of the game: scripts/serve_game.py decides what to ask. Only one thread
(the game's worker) may call query(), go() and stop(); the reader thread only routes lines."""
import queue
import subprocess
import threading

ANSWER_TIMEOUT = 30.0  # seconds; generous, the machine may be busy with other engines
STOP_TIMEOUT = 30.0


class EngineGone(Exception):
    """The process exited, or stopped answering and was killed."""


class DonjonProcess:
    def __init__(self, command, on_search_line, threads=None, hash_mb=None):
        """on_search_line(process, line) gets each `info` line of a search and its `bestmove`
        line, from the reader thread, and None once when the process ends."""
        self.on_search_line = on_search_line
        # its own session: a Ctrl-C in the server's terminal is the server's to handle, and the
        # server closes its engines itself (an engine also quits at the end of its input)
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, bufsize=0, start_new_session=True)
        self.pid = self.proc.pid
        self.answers = queue.Queue()
        self.searching = False
        self.search_over = threading.Event()
        self.search_over.set()
        self.reader = threading.Thread(target=self._read, name="donjon-%d" % self.pid, daemon=True)
        self.reader.start()
        try:
            self.options = self._handshake()
        except EngineGone:
            self.close()
            raise
        if threads:
            self.send("setoption name Threads value %d" % threads)
        if hash_mb:
            self.send("setoption name Hash value %d" % hash_mb)

    def _read(self):
        try:
            for raw in self.proc.stdout:
                line = raw.decode("utf-8", "replace").rstrip("\r\n")
                if self.searching and line.startswith("bestmove"):
                    self.searching = False
                    self.on_search_line(self, line)
                    self.search_over.set()
                elif self.searching and line.startswith("info ") and not line.startswith("info string"):
                    self.on_search_line(self, line)
                elif not (self.searching and line.startswith("info string game over")):
                    self.answers.put(line)
        except (OSError, ValueError):
            pass
        self.searching = False
        self.search_over.set()
        self.answers.put(None)
        self.on_search_line(self, None)

    def _handshake(self):
        """The `option` lines of `uci`, by option name."""
        options = {}
        for line in self.query(["uci"], until="uciok"):
            if line.startswith("option name "):
                name = line[len("option name "):].split(" type ")[0]
                options[name] = line
        return options

    def alive(self):
        return self.proc.poll() is None

    def send(self, line):
        try:
            self.proc.stdin.write((line + "\n").encode())
            self.proc.stdin.flush()
        except (OSError, ValueError):
            raise EngineGone("the engine process has exited")

    def query(self, commands, until="readyok"):
        """Sends the commands (then `isready` unless told to wait for another line) and returns
        every answer line up to the first that starts with `until`."""
        while not self.answers.empty():  # leftovers of an answer that timed out
            if self.answers.get_nowait() is None:
                raise EngineGone("the engine process has exited")
        for command in commands:
            self.send(command)
        if until == "readyok":
            self.send("isready")
        lines = []
        while True:
            try:
                line = self.answers.get(timeout=ANSWER_TIMEOUT)
            except queue.Empty:
                self.kill()
                raise EngineGone("the engine did not answer within %d s" % ANSWER_TIMEOUT)
            if line is None:
                raise EngineGone("the engine process has exited")
            lines.append(line)
            if line.startswith(until):
                return lines

    def go(self, arguments):
        self.search_over.clear()
        self.searching = True
        self.send("go " + arguments)

    def stop(self):
        """Ends the search, if one runs, and waits for its bestmove (given to the callback)."""
        if self.search_over.is_set():
            return
        self.send("stop")
        if not self.search_over.wait(STOP_TIMEOUT):
            self.kill()
            raise EngineGone("the engine did not stop within %d s" % STOP_TIMEOUT)

    def kill(self):
        if self.alive():
            self.proc.kill()
        self.proc.wait()

    def close(self):
        """Quits the process and reaps it: no process outlives its game."""
        if self.alive():
            try:
                self.send("quit")
                self.proc.wait(timeout=5)
            except (EngineGone, subprocess.TimeoutExpired):
                pass
        self.kill()
        for pipe in (self.proc.stdin, self.proc.stdout):
            try:
                pipe.close()
            except OSError:
                pass
