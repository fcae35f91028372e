"""tests_browser.py — scripts/serve and its page: every game played by clicking the board in a
real headless Chromium, the drawn board and the move list checked against the engine's FEN after
every move; two tabs, each with its own engine, the closed one's engine gone; and, without a
browser, hostile requests and messages refused with nothing broken.

The Chromium tests need Debian's chromium, chromium-driver and python3-selenium (`make setup`);
without them one test says plainly that they were skipped and why."""
import os
import re
import signal
import subprocess
import sys
import time

from browser_page import (BoardPage, drawn_cells, family_of, fen_cells,
                          find_chromium, geometry_problems, stack_problems)
from harness import HERE, check, test
from serve_client import SERVE, ServeProcess, WebSocketClient

SCREENSHOTS = os.path.join(HERE, "..", "build")
VARIANTS = ["gounki", "ecroulement", "ecroulement-rapide", "checkers", "russian", "brazilian",
            "international", "tawol"]
TAWOL_START = "tttttttt/babababa/3ba3/8/8/3AB3/ABABABAB/TTTTTTTT w"

# For each game: the side the person plays (the side that opens), gounki's handicap, and a
# position loaded as FEN with the move then entered by clicks, chosen because it takes several
# clicks or shows what is particular in drawing the game:
# - gounki: a deployment that leaves the board (its last click is on an exit cell);
# - ecroulement: a collapse that takes the pawn beyond; -rapide: one that removes a whole stack;
# - draughts: a capture whose route must be told apart from another with the same ends;
# - tawol: an attack, after which one cell holds two levels.
SCENARIOS = {
    "gounki": ("white", "double", "3rsrsr/2srsrsr/(RRS)7/8/8/8/2RSRSRS/SRSRSRS1 w", "a6*b7,c8,c9"),
    "ecroulement": ("white", None, "8/8/2B5/8/8/2W(3)5/8/7B w", "c3xc5"),
    "ecroulement-rapide": ("white", None, "8/8/8/2B(2)5/8/2W(3)5/8/7B w", "c3xc5"),
    "checkers": ("black", None, "W:W26:B4,14,15,22,23", "26x19x10"),
    "russian": ("white", None, "W:WK20:B6,8,16,17", "20x11x4"),
    "brazilian": ("white", None, "W:WK13:B7,15,19,22,24", "13x26x16x2"),
    "international": ("white", None, "W:WK2:B13,17,23,29", "2x19x28x11"),
    "tawol": ("white", None, "tttttttt/1aaa4/8/1B6/8/8/8/TTTTTTTT w", "b5xb7"),
}
HUMAN_MOVES = 2
BOARD_SIZE = {"international": (10, 10)}

CHROMIUM, CHROMEDRIVER, CHROMIUM_MISSING = find_chromium()


def click_path(family, move):
    """The cells a person clicks for a move: draughts from, to, then the landings between;
    a gounki deployment its origin and each cell it fills; anything else from and to."""
    if family == "draughts":
        squares = re.split(r"[-x:]", move)
        return [squares[0], squares[-1]] + squares[1:-1]
    if "*" in move:
        origin, cells = move.split("*")
        return [origin] + cells.split(",")
    return re.split(r"[-x]", move)


def check_page(snap, referee, variant, start):
    """The move list is a game the engine accepts, and the drawn board is the engine's FEN
    after it. Returns that FEN."""
    family = family_of(variant)
    moves = snap.played
    command = ("position fen " + start if start else "position startpos") + \
        (" moves " + " ".join(moves) if moves else "")
    errors = referee.errors_until_ready(command)
    check(not errors, "the move list %s is not a game the engine accepts: %s" % (moves, errors))
    fen = referee.fen()
    check(snap.page.get("fen") == fen, "the page's FEN %r, the engine's %r" % (snap.page.get("fen"), fen))
    drawn, expected = drawn_cells(family, snap.stacks), fen_cells(family, fen)
    wrong = sorted((cell, drawn.get(cell), expected.get(cell)) for cell in set(drawn) | set(expected)
                   if drawn.get(cell) != expected.get(cell))
    check(not wrong, "drawn board differs from the FEN %s after %s (cell, drawn, FEN): %s" % (fen, moves, wrong))
    problems = stack_problems(snap.cells, snap.stacks)
    check(not problems, "; ".join(problems))
    return fen


class BrowserSession:
    """A server and a Chromium for one test; both end with it, and neither may leave a process
    behind, a traceback, or an error in the browser's console."""

    def __init__(self, ctx):
        self.server = ServeProcess(ctx.binary)
        try:
            self.page = BoardPage(CHROMIUM, CHROMEDRIVER, SCREENSHOTS)
        except Exception:
            self.server.stop()
            raise

    def __enter__(self):
        return self.server, self.page

    def __exit__(self, kind, error, trace):
        try:
            console = self.page.console_errors()
        finally:
            self.page.quit()
            self.server.__exit__(kind, error, trace)
        if kind is None:
            check(not console, "errors in the browser's console: %s" % console)


def play_by_clicks(ctx, variant):
    side, handicap, special_fen, special_move = SCENARIOS[variant]
    family = family_of(variant)
    cols, rows = BOARD_SIZE.get(variant, (8, 8))
    referee = ctx.engine(variant)
    if handicap:
        referee.send("setoption name Handicap value " + handicap)
    with BrowserSession(ctx) as (server, page):
        page.open(server.url)
        page.set_mode(side)
        page.set_level("depth", 1)
        page.choose("variant", variant)
        if handicap:
            page.choose("handicap", handicap)
        snap = page.wait(lambda s: s.page.get("variant") == variant and s.your_turn and not s.played and
                         (not handicap or s.page.get("fen", "").endswith(" w2")),
                         "a new %s game with the person to move" % variant)
        check_page(snap, referee, variant, None)

        # the cells sit where their names say, in both orientations
        for flipped in (side == "black", side != "black"):
            problems = geometry_problems(family, page.snapshot().cells, cols, rows, flipped)
            check(not problems, "board %s: %s" % ("flipped" if flipped else "as White sees it", "; ".join(problems)))
            page.press("flip")

        # the person's moves, clicked (a two-cell one dragged, the second time); the engine answers
        for turn in range(HUMAN_MOVES):
            check_page(snap, referee, variant, None)
            if snap.page.get("result") != "none":
                break
            legal = referee.moves()
            move = max(legal, key=lambda m: len(click_path(family, m)))
            ply = len(snap.played)
            path = click_path(family, move)
            if turn == 1 and len(path) == 2:
                sent = page.drag_move(*path)
                check(sent == move, "dragging %s sent %r" % (path, sent))
            else:
                sent = page.enter_move(move, path)
                check(sent == move, "clicking %s sent %r" % (path, sent))
            snap = page.wait(lambda s: s.played[ply:ply + 1] == [move], "the move list shows " + move)
            check_page(snap, referee, variant, None)
            snap = page.wait(lambda s: len(s.played) > ply and (s.your_turn or s.page.get("result") != "none"),
                             "the person's turn again after " + move)
        check_page(snap, referee, variant, None)
        check(len(snap.played) > HUMAN_MOVES, "the engine did not answer: %s" % snap.played)

        # undo takes back the engine's answer and the person's move; redo brings them back
        before = snap.played
        page.press("undo")
        snap = page.wait(lambda s: len(s.played) < len(before) and s.your_turn, "undo")
        check_page(snap, referee, variant, None)
        check([m["text"] for m in sorted(snap.moves, key=lambda m: m["ply"])] == before,
              "the undone moves stay in the list to redo")
        page.press("redo")
        snap = page.wait(lambda s: s.played == before, "redo")
        check_page(snap, referee, variant, None)

        # a reload keeps the game, with a new engine in place of the old one
        old_engine = int(snap.page["enginePid"])
        page.driver.refresh()
        snap = page.wait(lambda s: s.page.get("enginePid") not in (None, str(old_engine)) and
                         s.played == before and s.your_turn, "the game kept across a reload")
        check_page(snap, referee, variant, None)
        server.wait_engines(lambda pids: pids == {int(snap.page["enginePid"])})

        # a position loaded as FEN, analysed (three lines, nothing played), a move clicked in it
        referee.send("position fen " + special_fen)
        loaded, legal = referee.fen(), referee.moves()
        check(special_move in legal, "%s is not legal in %s: %s" % (special_move, loaded, legal))
        if family == "draughts":
            ends = click_path(family, special_move)[:2]
            check(sum(click_path(family, m)[:2] == ends for m in legal) > 1,
                  "%s is not ambiguous by its ends" % special_move)
        page.set_mode("analysis")
        page.type_fen(special_fen)
        lines = min(3, len(legal))
        snap = page.wait(lambda s: s.page.get("fen") == loaded and not s.played and len(s.lines) == lines,
                         "the loaded FEN analysed in %d lines" % lines)
        check_page(snap, referee, variant, special_fen)
        time.sleep(1.0)
        check(not page.snapshot().played, "the engine played in analysis mode")
        sent = page.enter_move(special_move, click_path(family, special_move))
        check(sent == special_move, "clicking %s sent %r" % (click_path(family, special_move), sent))
        snap = page.wait(lambda s: s.played == [special_move], "the move list shows " + special_move)
        check_page(snap, referee, variant, special_fen)
        result = referee.result()
        if result != "none":
            reason = result.split(" ", 1)[1]
            snap = page.wait(lambda s: reason in s.status, "the page announces the end: " + result)
            check(snap.status.startswith({"white": "White wins", "black": "Black wins", "draw": "Draw"}[result.split()[0]]),
                  "status %r for %s" % (snap.status, result))
        page.screenshot("browser-%s.png" % variant)


def register_variant_test(variant):
    def board_by_clicks(ctx):
        play_by_clicks(ctx, variant)
    board_by_clicks.__name__ = "clicks_" + variant.replace("-", "_")
    test("browser", sanitizers=False)(board_by_clicks)


if CHROMIUM_MISSING:
    @test("browser", sanitizers=False)
    def chromium_tests_skipped(ctx):
        print("    SKIPPED %d tests in headless Chromium (every game played by clicks, two tabs): %s"
              % (len(VARIANTS) + 1, CHROMIUM_MISSING), flush=True)
else:
    for name in VARIANTS:
        register_variant_test(name)

    @test("browser", sanitizers=False)
    def two_tabs_two_engines(ctx):
        """Each tab has its own engine; closing a tab ends its engine, and only its."""
        with BrowserSession(ctx) as (server, page):
            driver = page.driver
            first = page.open(server.url + "?variant=checkers")
            first_tab = driver.current_window_handle
            driver.switch_to.new_window("tab")
            second = page.open(server.url + "?variant=tawol")
            pids = server.wait_engines(lambda p: len(p) == 2, timeout=30)
            ours = {int(first.page["enginePid"]), int(second.page["enginePid"])}
            check(ours == pids, "the tabs' engines %s, the server's children %s" % (ours, pids))
            check(second.page["variant"] == "tawol" and first.page["variant"] == "checkers", "variants")
            driver.close()
            driver.switch_to.window(first_tab)
            gone = int(second.page["enginePid"])
            server.wait_engines(lambda p: p == {int(first.page["enginePid"])}, timeout=30)
            check(not os.path.exists("/proc/%d" % gone), "the closed tab's engine is still a process")
            # the other tab plays on
            page.set_mode("humans")
            snap = page.wait(lambda s: s.your_turn and s.page.get("thinking") == "no", "the first tab takes moves")
            referee = ctx.engine("checkers")
            check_page(snap, referee, "checkers", None)
            move = referee.moves()[0]
            ply = len(snap.played)
            sent = page.enter_move(move, click_path("draughts", move))
            check(sent == move, "the first tab sent %r" % sent)
            snap = page.wait(lambda s: s.played[ply:] == [move], "the first tab's move")
            check_page(snap, referee, "checkers", None)


# --- the server without a browser ------------------------------------------------------------------

@test("browser", sanitizers=False)
def serve_listens_only_on_this_machine(ctx):
    for host in ["0.0.0.0", "192.0.2.7", "::"]:
        run = subprocess.run([sys.executable, SERVE, "--host", host, "--port", "0", "--engine", ctx.binary],
                             capture_output=True, text=True, timeout=60)
        check(run.returncode == 2 and "--allow-remote" in run.stderr, "--host %s: %s %s" % (host, run.returncode, run.stderr))
    run = subprocess.run([sys.executable, SERVE, "--port", "0", "--engine", "/nonexistent/donjon"],
                         capture_output=True, text=True, timeout=60)
    check(run.returncode == 2 and "make" in run.stderr, "a missing engine: %s" % run.stderr)


@test("browser", sanitizers=False)
def serve_refuses_hostile_requests(ctx):
    with ServeProcess(ctx.binary, ["--max-games", "2"]) as server:
        port = server.port
        check(server.get("/") == 200 and server.get("/app.js") == 200, "the page itself")
        check(server.get("/", {"Host": "localhost:%d" % port}) == 200, "Host localhost")
        for path in ["/../donjon", "/..%2f..%2fserve", "/serve", "/serve_game.py", "/web/app.js", "//etc/passwd",
                     "/index.html/..", "/%00", "/" + "a" * 5000, "/ws/../index.html"]:
            status = server.get(path)
            check(status in (404, 414), "GET %s answered %d" % (path[:40], status))
        check(server.get("/", {"Host": "donjon.example:%d" % port}) == 403, "a foreign Host (DNS rebinding)")
        upgrade = {"Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
                   "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}
        check(server.get("/ws", dict(upgrade, Origin="http://evil.example")) == 403, "a foreign Origin")
        check(server.get("/ws", dict(upgrade, **{"Sec-WebSocket-Key": "short"})) == 400, "a bad key")
        check(server.get("/ws", dict(upgrade, **{"Sec-WebSocket-Version": "8"})) == 400, "an old version")
        check(server.get("/ws") == 400, "/ws without upgrade")
        for raw in [b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\n\r\nhello",
                    b"DELETE /ws HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
                    b"garbage\r\n\r\n", b"GET / HTTP/1.1\r\n\r\n",
                    b"GET / HTTP/1.1\r\n" + b"X-Filler: y\r\n" * 200 + b"\r\n",
                    b"\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03" + bytes(range(64)) + b"\r\n\r\n"]:
            status = server.raw_request(raw)
            check(400 <= status < 500, "%r answered %d" % (raw[:30], status))
        # more tabs than allowed: the next one is refused, the open ones go on
        games = [WebSocketClient(port) for _ in range(2)]
        check([g.status for g in games] == [101, 101], "two games open")
        check(WebSocketClient(port).status == 429, "a third game beyond --max-games 2")
        for g in games:
            g.close()
        server.wait_engines(lambda p: not p)
        check(server.get("/") == 200, "the server still answers")


@test("browser", sanitizers=False)
def serve_plays_and_refuses_bad_messages(ctx):
    with ServeProcess(ctx.binary) as server:
        ws = WebSocketClient(server.port)
        hello = ws.receive()
        check(hello["type"] == "hello" and hello["variants"] == VARIANTS, "hello %s" % hello)
        pid = hello["engine_pid"]
        check(server.engines() == {pid}, "the game's engine is the server's child")
        ws.send({"type": "undo"})
        check("start a game" in ws.error(), "a message before any game")
        ws.send({"type": "new", "variant": "tawol", "settings": {"mode": "white", "level": {"kind": "depth", "value": 2}}})
        state = ws.state()
        referee = ctx.engine("tawol")
        check(state["fen"] == TAWOL_START and state["legal"] == referee.moves(), "a new tawol game: %s" % state)
        for bad in ["not json", "[1, 2]", "null", '{"type": "teleport"}', {"type": "move", "move": "a2-a3\nquit"},
                    {"type": "move", "move": "h8-h1"}, {"type": "move", "move": 7}, {"type": "new", "variant": "chess"},
                    {"type": "fen", "fen": "junk"}, {"type": "fen", "fen": "8/8/8/8/8/8/8/8 w\nquit"},
                    {"type": "fen", "fen": "x" * 5000}, {"type": "settings", "level": {"kind": "depth", "value": 0}},
                    {"type": "settings", "level": {"kind": "nodes", "value": "many"}}, {"type": "settings", "mode": "god"},
                    {"type": "settings", "paused": "yes"}, {"type": "goto", "ply": 5}, {"type": "goto", "ply": True},
                    {"type": "redo"}, {"type": "restore", "variant": "tawol", "moves": "a2-b3"}]:
            ws.send(bad)
            ws.error()
        ws.send({"type": "record"})
        record = ws.wait_for(lambda e: e["type"] == "record")["text"]
        check('[Variant "tawol"]' in record and TAWOL_START in record, record)
        check(server.engines() == {pid}, "the engine survived every refusal")

        # a move; the engine answers; undo and redo; the record
        ws.send({"type": "move", "move": state["legal"][0]})
        state = ws.wait_for(lambda e: e["type"] == "state" and e["cursor"] == 2)
        check([m["mover"] for m in state["line"]] == ["white", "black"], "movers %s" % state["line"])
        referee.send("position startpos moves " + " ".join(m["move"] for m in state["line"]))
        check(state["fen"] == referee.fen(), "the server's FEN after the engine's answer")
        ws.send({"type": "undo"})
        check(ws.state()["cursor"] == 0, "undo goes back to the person's turn")
        ws.send({"type": "redo"})
        check(ws.state()["cursor"] == 2, "redo replays the move and its answer")
        ws.send({"type": "record"})
        record = ws.wait_for(lambda e: e["type"] == "record")["text"]
        check("1. %s %s *" % (state["line"][0]["move"], state["line"][1]["move"]) in record, record)

        # analysis: three lines, no move
        ws.send({"type": "settings", "mode": "analysis"})
        ws.state()
        analysis_began = len(ws.events)
        ranks = set()
        while len(ranks) < 3:
            info = ws.wait_for(lambda e: e["type"] == "info")
            check(info.get("multipv") in (1, 2, 3), "an analysis line ranked %s" % info.get("multipv"))
            ranks.add(info["multipv"])
        time.sleep(1.0)
        ws.send({"type": "record"})
        ws.wait_for(lambda e: e["type"] == "record")
        check(all(e["cursor"] == 2 for e in ws.events[analysis_began:] if e["type"] == "state"),
              "the engine played a move in analysis mode")

        # a draughts game's record is PDN with its GameType
        ws.send({"type": "new", "variant": "international", "settings": {"mode": "humans"}})
        ws.state()
        ws.send({"type": "move", "move": "32-28"})
        ws.state()
        ws.send({"type": "record"})
        record = ws.wait_for(lambda e: e["type"] == "record")["text"]
        check('[GameType "20"]' in record and "1. 32-28 *" in record, record)

        # engine vs engine plays on by itself, and pauses
        ws.send({"type": "settings", "mode": "engines", "level": {"kind": "depth", "value": 1}})
        ws.wait_for(lambda e: e["type"] == "state" and e["cursor"] >= 4)
        ws.send({"type": "settings", "paused": True})
        paused = ws.wait_for(lambda e: e["type"] == "state" and e["paused"])
        time.sleep(1.5)
        ws.send({"type": "record"})
        ws.wait_for(lambda e: e["type"] == "record")
        later = [e for e in ws.events if e["type"] == "state"][-1]
        check(later["cursor"] == paused["cursor"], "a paused game went on")

        # "move now" cuts a long think short
        ws.send({"type": "new", "variant": "checkers",
                 "settings": {"mode": "white", "level": {"kind": "movetime", "value": 600000}}})
        ws.wait_for(lambda e: e["type"] == "search")  # Black, the engine, opens with ten minutes
        ws.send({"type": "movenow"})
        kept = ws.wait_for(lambda e: e["type"] == "state" and e["cursor"] == 1, timeout=30)

        # a dead engine is replaced, at the same position
        os.kill(pid, signal.SIGKILL)
        check("new engine" in ws.error(), "the page is told")
        renewed = ws.wait_for(lambda e: e["type"] == "hello")
        check(renewed["engine_pid"] != pid, "a new engine")
        state = ws.state()
        check(state["fen"] == kept["fen"] and state["line"] == kept["line"], "the game goes on")
        ws.close()
        server.wait_engines(lambda p: not p)


@test("browser", sanitizers=False)
def serve_uses_skill_level_when_offered(ctx):
    """An engine that lists `Skill Level` gets the person's choice for its moves and its full
    strength for analysis."""
    log = os.path.join(SCREENSHOTS, "skill-level.log")
    os.makedirs(SCREENSHOTS, exist_ok=True)
    open(log, "w").close()
    with ServeProcess(os.path.join(HERE, "skill_level_engine.py"),
                      env={"DONJON_ENGINE": ctx.binary, "SKILL_LOG": log}) as server:
        ws = WebSocketClient(server.port)
        hello = ws.receive()
        check(hello["skill"] == {"min": 0, "max": 20, "default": 20}, "hello %s" % hello)
        ws.send({"type": "new", "variant": "checkers",
                 "settings": {"mode": "white", "skill": 3, "level": {"kind": "depth", "value": 1}}})
        ws.wait_for(lambda e: e["type"] == "state" and e["cursor"] == 1)  # Black, the engine, opens
        with open(log) as f:
            check(f.read().split("\n")[:-1] == ["setoption name Skill Level value 3"], "the skill for play")
        ws.send({"type": "settings", "mode": "analysis"})
        ws.wait_for(lambda e: e["type"] == "info")
        with open(log) as f:
            check(f.read().split("\n")[-2] == "setoption name Skill Level value 20", "full strength to analyse")
        ws.send({"type": "settings", "skill": 21})
        check("skill" in ws.error(), "a skill beyond the option's range")
        ws.close()
        server.wait_engines(lambda p: not p)


@test("browser", sanitizers=False)
def serve_closes_bad_sockets_and_their_engines(ctx):
    """A client that breaks the WebSocket protocol or vanishes loses its game, engine included;
    the others go on."""
    with ServeProcess(ctx.binary) as server:
        keeper = WebSocketClient(server.port)
        keeper.receive()
        breakers = [
            ("an unmasked frame", lambda ws: ws.send_frame(0x1, b'{"type": "undo"}', masked=False)),
            ("binary data", lambda ws: ws.send_frame(0x2, b"\x00\x01")),
            ("a message too big", lambda ws: ws.send("x" * 70000)),
            ("text that is not UTF-8", lambda ws: ws.send_frame(0x1, b"\xff\xfe")),
            ("a continuation with nothing to continue", lambda ws: ws.send_frame(0x0, b"x")),
            ("a socket dropped without a word", lambda ws: ws.sock.close()),
        ]
        for what, breaking in breakers:
            ws = WebSocketClient(server.port)
            pid = ws.receive()["engine_pid"]
            breaking(ws)
            if ws.sock.fileno() != -1:
                ws.sock.settimeout(30)
                try:
                    while True:
                        ws.receive()
                except (EOFError, OSError, ValueError):
                    pass  # the server closed the connection
                ws.sock.close()
            server.wait_engines(lambda p: pid not in p, timeout=30)
        keeper.send({"type": "new", "variant": "gounki"})
        check(keeper.state()["variant"] == "gounki", "the well-behaved game goes on")
        keeper.close()
        server.wait_engines(lambda p: not p)
