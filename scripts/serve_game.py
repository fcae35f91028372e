"""serve_game.py — one game of scripts/serve, bound to one page: its record (start position,
moves, the undo/redo cursor), its settings (who plays, the engine's level, analysis) and the
Donjon process that answers every question about it.

The game knows no rules: legal moves, FENs, whose turn it is and the result come from the engine.
Messages from the page (JSON text) and the engine's best moves are handled one at a time by the
game's worker thread; events go back to the page through `publish(dict)`."""
import datetime
import importlib.machinery
import importlib.util
import json
import os
import queue
import re
import sys
import threading
import time
import traceback

import pdn
from serve_engine import DonjonProcess, EngineGone

HERE = os.path.dirname(os.path.abspath(__file__))

# the match runner already writes PDN records: the same function writes the page's downloads
_match_loader = importlib.machinery.SourceFileLoader("match", os.path.join(HERE, "match"))
match = importlib.util.module_from_spec(importlib.util.spec_from_loader("match", _match_loader))
_match_loader.exec_module(match)

MODES = ("white", "black", "humans", "engines", "analysis")
LEVEL_LIMITS = {"movetime": (10, 600000), "depth": (1, 64), "nodes": (1, 10 ** 10)}
DEFAULT_LEVEL = {"kind": "movetime", "value": 1000}
ANALYSIS_LINES = 3
ENGINE_MOVE_PAUSE = 0.5  # seconds between engine moves when engines play each other: a person can follow
MOST_PLIES = 1000        # a restored game longer than this is cut
# Text that goes into a protocol line must not be able to end it or start another.
MOVE_TEXT = re.compile(r"^[a-j0-9x*,:\-]{2,120}$")
FEN_TEXT = re.compile(r"^[\x20-\x7e]{1,400}$")


class BadRequest(Exception):
    """A message the game refuses; the page is told why and nothing changes."""


def side_to_move(fen):
    """'white' or 'black' from a FEN of any of the games (draughts 'W:...', others '... w2')."""
    if ":" in fen:
        return "white" if fen[:1] in "Ww" else "black"
    return "white" if fen.split()[-1][:1] in "Ww" else "black"


def parse_info(line):
    """An `info` line as a dict: depth, seldepth, multipv, nodes, nps, time, score, bound, pv."""
    words, info, i = line.split(), {}, 1
    try:
        while i < len(words):
            word = words[i]
            if word in ("depth", "seldepth", "multipv", "nodes", "nps", "hashfull", "time"):
                info[word] = int(words[i + 1])
                i += 2
            elif word == "score":
                info["score"] = {words[i + 1]: int(words[i + 2])}
                i += 3
                if i < len(words) and words[i] in ("lowerbound", "upperbound"):
                    info["bound"] = words[i]
                    i += 1
            elif word == "pv":
                info["pv"] = words[i + 1:]
                break
            else:
                i += 1
    except (IndexError, ValueError):
        return None
    return info


def option_values(line):
    """The `var` values of a combo option line."""
    return line.split(" var ")[1:] if line else []


def spin_range(line):
    """(min, max, default) of a spin option line, or None."""
    match_range = re.search(r" default (-?\d+) min (-?\d+) max (-?\d+)", line or "")
    if not match_range:
        return None
    default, low, high = (int(g) for g in match_range.groups())
    return low, high, default


def choice(message, key, allowed, default=None):
    value = message.get(key, default)
    if value not in allowed:
        raise BadRequest("%s must be one of %s" % (key, ", ".join(map(str, allowed))))
    return value


def whole_number(value, low, high, what):
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BadRequest("%s must be a whole number from %d to %d" % (what, low, high))
    return value


class Game:
    def __init__(self, engine_command, publish, threads=None, hash_mb=None):
        self.engine_command, self.publish = engine_command, publish
        self.threads, self.hash_mb = threads, hash_mb
        self.tasks = queue.Queue()
        self.engine = None
        self.search_id = 0
        self.searching_for = None  # "play" or "analysis" while a search runs
        self.paced_think = None    # token of the delayed engine move in engine-vs-engine games
        self.last_engine_move = 0.0
        # the record and the settings
        self.variant, self.handicap = None, "none"
        self.start_fen, self.initial_fen = None, None  # None: the variant's start
        self.line, self.cursor = [], 0                 # [{"move", "mover"}]; moves played: line[:cursor]
        self.mode, self.level, self.skill, self.paused = "white", dict(DEFAULT_LEVEL), None, False
        # what the engine said about the current position
        self.fen, self.turn, self.legal, self.result = None, None, [], "none"
        self.cols, self.rows, self.first_mover = 8, 8, "white"
        self.engine_multipv, self.engine_skill = 1, None
        self.worker = threading.Thread(target=self._work, name="game", daemon=True)

    # --- life cycle (called from the connection's thread) ----------------------------------------

    def start(self):
        """Starts the engine (EngineGone if it cannot) and the worker; says hello to the page."""
        self._start_engine()
        self.worker.start()

    def submit(self, text):
        self.tasks.put(("message", text))

    def close(self):
        """Ends the game: the engine quits and is reaped before this returns."""
        self.tasks.put(("close", None))
        if self.worker.is_alive():
            self.worker.join(60)
        elif self.engine:
            self.engine.close()

    # --- the worker ------------------------------------------------------------------------------

    def _work(self):
        while True:
            kind, payload = self.tasks.get()
            if kind == "close":
                self.paced_think = None
                self.engine.close()
                return
            try:
                if kind == "message":
                    self._on_message(payload)
                elif kind == "bestmove":
                    self._on_bestmove(*payload)
                elif kind == "think" and payload is self.paced_think:
                    self.paced_think = None
                    self._think()
                elif kind == "engine exited" and payload is self.engine:
                    raise EngineGone("the engine process has exited")
            except BadRequest as refusal:
                self._error(str(refusal))
            except EngineGone as failure:
                self._recover(str(failure))
            except Exception:  # a defect here must not take the server down; the page is told
                traceback.print_exc(file=sys.stderr)
                self._error("internal error (see the server's log)")

    def _recover(self, why):
        """A new engine takes the dead one's place, at the same position."""
        self._error("%s; a new engine takes over" % why)
        self.engine.close()
        try:
            self._start_engine()
            if self.variant:
                self._set_variant(self.variant, self.handicap)
                self._refresh()
        except (EngineGone, BadRequest) as failure:  # the next message tries again
            self._error("the engine cannot be restarted: %s" % failure)

    def _start_engine(self):
        self.engine = engine = DonjonProcess(self.engine_command, self._on_search_line, self.threads,
                                             self.hash_mb)
        self.engine_multipv, self.engine_skill, self.searching_for = 1, None, None
        options = engine.options
        self.variants = option_values(options.get("UCI_Variant"))
        self.handicaps = option_values(options.get("Handicap")) or ["none"]
        self.skill_range = spin_range(options.get("Skill Level"))
        self.publish({"type": "hello", "variants": self.variants, "handicaps": self.handicaps,
                      "skill": (dict(zip(("min", "max", "default"), self.skill_range))
                                if self.skill_range else None),
                      "levels": LEVEL_LIMITS, "modes": MODES, "engine_pid": engine.pid})

    def _on_search_line(self, engine, line):
        """From the engine's reader thread: thinking goes straight to the page, the rest waits
        for the worker."""
        if line is None:
            self.tasks.put(("engine exited", engine))
        elif line.startswith("bestmove"):
            words = line.split()
            self.tasks.put(("bestmove", (self.search_id, words[1] if len(words) > 1 else "(none)")))
        else:
            info = parse_info(line)
            if info:
                info.update(type="info", search=self.search_id)
                self.publish(info)

    def _error(self, text):
        self.publish({"type": "error", "message": text})

    # --- messages from the page ------------------------------------------------------------------

    def _on_message(self, text):
        try:
            message = json.loads(text)
        except ValueError:
            raise BadRequest("a message must be a JSON object")
        if not isinstance(message, dict):
            raise BadRequest("a message must be a JSON object")
        handler = HANDLERS.get(message.get("type"))
        if handler is None:
            raise BadRequest("unknown message type %r" % (message.get("type"),))
        if self.variant is None and handler not in (Game._new_game, Game._restore):
            raise BadRequest("start a game first")
        handler(self, message)

    def _new_game(self, message):
        variant = choice(message, "variant", self.variants)
        handicap = choice(message, "handicap", self.handicaps, "none")
        self._read_settings(message.get("settings", {}))
        self._cancel_search()
        self._set_variant(variant, handicap)
        self.engine.query(["ucinewgame"])
        self.start_fen, self.line, self.cursor = None, [], 0
        self._refresh()

    def _load_fen(self, message):
        fen = message.get("fen")
        if not isinstance(fen, str) or not FEN_TEXT.match(fen.strip()):
            raise BadRequest("a FEN is one line of printable text")
        self._cancel_search()
        lines = self.engine.query(["position fen " + fen.strip(), "d"])
        errors = [l for l in lines if l.startswith("info string error")]
        if errors:
            self._refresh()  # the old position goes on, and its search with it
            raise BadRequest("FEN refused: " + errors[0][len("info string error: "):])
        self.start_fen = [l for l in lines if l.startswith("Fen: ")][-1][len("Fen: "):]
        self.initial_fen = self.start_fen
        self.line, self.cursor = [], 0
        self._pause_engines()
        self._refresh()

    def _move(self, message):
        move = message.get("move")
        if not isinstance(move, str) or move not in self.legal:
            raise BadRequest("not a legal move here: %r" % (move,))
        if not self._person_may_move():
            raise BadRequest("it is not your turn")
        self._play(move)

    def _undo(self, message):
        if self.cursor == 0:
            raise BadRequest("nothing to undo")
        self.cursor -= 1
        if self.mode in ("white", "black"):  # back to a position where the person is to move
            while self.cursor > 0 and self.line[self.cursor]["mover"] != self.mode:
                self.cursor -= 1
        self._pause_engines()
        self._refresh()

    def _redo(self, message):
        if self.cursor >= len(self.line):
            raise BadRequest("nothing to redo")
        self.cursor += 1
        if self.mode in ("white", "black"):  # the engine's answer comes back with the move
            while self.cursor < len(self.line) and self.line[self.cursor]["mover"] != self.mode:
                self.cursor += 1
        self._pause_engines()
        self._refresh()

    def _goto(self, message):
        self.cursor = whole_number(message.get("ply"), 0, len(self.line), "ply")
        self._pause_engines()
        self._refresh()

    def _settings(self, message):
        self._read_settings(message)
        self._refresh()

    def _move_now(self, message):
        if self.searching_for == "play":
            self.engine.send("stop")  # its bestmove is played as usual

    def _record(self, message):
        winner, _, reason = self.result.partition(" ")
        outcome = {"white": "1-0", "black": "0-1", "draw": "1/2-1/2"}.get(winner, "*")
        engine_name = "Donjon (%s %s)" % (self.level["kind"], self.level["value"])
        names = {side: engine_name if self.mode == "engines" or self.mode == opponent else "Player"
                 for side, opponent in (("white", "black"), ("black", "white"))}
        game = {"white": names["white"], "black": names["black"], "result": outcome,
                "reason": reason, "moves": [m["move"] for m in self.line[:self.cursor]],
                "fen": self.start_fen, "start_fen": self.initial_fen,
                "other_side_first": pdn.side_of_fen(self.start_fen) not in (None, pdn.first_mover(self.variant))}
        # the match runner's writer names the site after matches; this game was played here
        text = match.pdn_record(game, self.variant, 1, "Donjon board").replace(
            '[Site "Donjon match"]', '[Site "Donjon board"]', 1)
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M")
        self.publish({"type": "record", "filename": "donjon-%s-%s.pdn" % (self.variant, stamp),
                      "text": text})

    def _restore(self, message):
        """A page that reloads sends back the game it kept: it is replayed move by move, each one
        checked by the engine; whatever does not replay is dropped."""
        moves = message.get("moves", [])
        if not isinstance(moves, list) or len(moves) > MOST_PLIES:
            raise BadRequest("moves must be a list of at most %d moves" % MOST_PLIES)
        start = message.get("start")
        if start is not None and (not isinstance(start, str) or not FEN_TEXT.match(start)):
            raise BadRequest("start must be a FEN or null")
        self._new_game(message)
        if start is not None:
            try:
                self._load_fen({"fen": start})
            except BadRequest as refusal:
                self._error("the stored game's start was refused: %s" % refusal)
                return
        self._cancel_search()
        for ply, move in enumerate(moves):
            if not isinstance(move, str) or not MOVE_TEXT.match(move):
                break
            self.cursor = ply
            lines = self.engine.query([self._position_command(), "d", "moves"])
            legal = [l for l in lines if l.startswith("moves")][-1].split()[1:]
            if move not in legal:
                break
            fen = [l for l in lines if l.startswith("Fen: ")][-1][len("Fen: "):]
            self.line.append({"move": move, "mover": side_to_move(fen)})
        played = len(self.line)
        if played < len(moves):
            self._error("the stored game replays only up to ply %d" % played)
        cursor = message.get("cursor", played)
        self.cursor = cursor if isinstance(cursor, int) and 0 <= cursor <= played else played
        self._refresh()

    def _read_settings(self, message):
        if not isinstance(message, dict):
            raise BadRequest("settings must be an object")
        mode = choice(message, "mode", MODES, self.mode)
        level = message.get("level", self.level)
        if not isinstance(level, dict):
            raise BadRequest("level must be an object")
        kind = choice(level, "kind", tuple(LEVEL_LIMITS), self.level["kind"])
        value = whole_number(level.get("value"), *LEVEL_LIMITS[kind], what="the " + kind)
        skill = message.get("skill", self.skill)
        if skill is not None:
            if not self.skill_range:
                raise BadRequest("this engine has no Skill Level option")
            skill = whole_number(skill, self.skill_range[0], self.skill_range[1], "skill")
        paused = message.get("paused", self.paused)
        if not isinstance(paused, bool):
            raise BadRequest("paused must be true or false")
        self.mode, self.level, self.skill, self.paused = mode, {"kind": kind, "value": value}, skill, paused

    # --- the engine's moves ----------------------------------------------------------------------

    def _on_bestmove(self, search_id, move):
        if search_id != self.search_id or self.searching_for != "play":
            return  # a search that was stopped because the position or the settings changed
        self.searching_for = None
        if move in self.legal and self._engine_to_move():
            self.last_engine_move = time.monotonic()
            self._play(move)

    def _think(self):
        """Starts the search the settings ask for in this position, if any."""
        if self.result != "none" or not self.legal:
            return
        analysis = self.mode == "analysis"
        if not analysis and not self._engine_to_move():
            return
        if self.mode == "engines":
            wait = self.last_engine_move + ENGINE_MOVE_PAUSE - time.monotonic()
            if wait > 0.01:
                self.paced_think = token = object()
                timer = threading.Timer(wait, self.tasks.put, args=(("think", token),))
                timer.daemon = True
                timer.start()
                return
        settings = []
        multipv = ANALYSIS_LINES if analysis else 1
        if multipv != self.engine_multipv:
            settings.append("setoption name MultiPV value %d" % multipv)
            self.engine_multipv = multipv
        if self.skill_range:  # analysis is always at full strength
            skill = self.skill_range[2] if analysis or self.skill is None else self.skill
            if skill != self.engine_skill:
                settings.append("setoption name Skill Level value %d" % skill)
                self.engine_skill = skill
        if settings:
            self.engine.query(settings)
        self.search_id += 1
        self.searching_for = "analysis" if analysis else "play"
        self.publish({"type": "search", "search": self.search_id, "analysis": analysis})
        self.engine.go("infinite" if analysis else "%s %d" % (self.level["kind"], self.level["value"]))

    def _cancel_search(self):
        self.paced_think = None
        if self.searching_for:
            self.searching_for = None
            self.engine.stop()
        self.search_id += 1  # a best move still on its way is now stale

    # --- the position ----------------------------------------------------------------------------

    def _set_variant(self, variant, handicap):
        commands = ["setoption name UCI_Variant value " + variant]
        if "Handicap" in self.engine.options:
            commands.append("setoption name Handicap value " + handicap)
        lines = self.engine.query(commands + ["position startpos", "d"])
        announced = [l for l in lines if l.startswith("info string variant ")]
        if not announced:
            raise BadRequest("the engine refused the variant: %s" % lines)
        words = announced[-1].split()
        self.cols, self.rows = (int(n) for n in words[words.index("board") + 1].split("x"))
        self.first_mover = side_to_move(" ".join(words[words.index("startpos") + 1:]))
        self.initial_fen = [l for l in lines if l.startswith("Fen: ")][-1][len("Fen: "):]
        self.variant, self.handicap = variant, handicap

    def _position_command(self):
        moves = [m["move"] for m in self.line[:self.cursor]]
        start = "position fen " + self.start_fen if self.start_fen else "position startpos"
        return start + (" moves " + " ".join(moves) if moves else "")

    def _refresh(self):
        """Stops any search, asks the engine about the position, tells the page, and starts the
        search the settings ask for."""
        self._cancel_search()
        lines = self.engine.query([self._position_command(), "d", "moves", "result"])
        errors = [l for l in lines if l.startswith("info string error")]
        if errors:  # cannot happen with moves the engine listed; drop the record rather than lie
            self.line, self.cursor = [], 0
            raise BadRequest("the engine refused the game: " + errors[0])
        self.fen = [l for l in lines if l.startswith("Fen: ")][-1][len("Fen: "):]
        self.legal = [l for l in lines if l.startswith("moves")][-1].split()[1:]
        self.result = [l for l in lines if l.startswith("result ")][-1][len("result "):]
        self.turn = side_to_move(self.fen)
        self.publish({
            "type": "state", "variant": self.variant, "handicap": self.handicap,
            "cols": self.cols, "rows": self.rows, "first_mover": self.first_mover,
            "start": self.start_fen, "initial_fen": self.initial_fen, "fen": self.fen,
            "turn": self.turn, "legal": self.legal, "result": self.result,
            "line": self.line, "cursor": self.cursor, "mode": self.mode, "level": self.level,
            "skill": self.skill, "paused": self.paused, "your_turn": self._person_may_move()})
        self._think()

    def _play(self, move):
        if self.cursor < len(self.line) and self.line[self.cursor]["move"] == move:
            self.cursor += 1  # the same move as the record's next one: redo stays possible
        else:
            del self.line[self.cursor:]
            self.line.append({"move": move, "mover": self.turn})
            self.cursor += 1
        self._refresh()

    def _engine_to_move(self):
        if self.mode == "engines":
            return not self.paused
        return self.mode in ("white", "black") and self.turn != self.mode

    def _person_may_move(self):
        if self.result != "none":
            return False
        return self.mode in ("humans", "analysis") or self.mode == self.turn

    def _pause_engines(self):
        """Going back and forth in a game the engines play would be undone at once by their next
        move: the game pauses until the page resumes it."""
        if self.mode == "engines":
            self.paused = True


HANDLERS = {"new": Game._new_game, "fen": Game._load_fen, "move": Game._move, "undo": Game._undo,
            "redo": Game._redo, "goto": Game._goto, "settings": Game._settings,
            "movenow": Game._move_now, "record": Game._record, "restore": Game._restore}
