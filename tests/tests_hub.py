"""tests_hub.py — `donjon hub` driven as a Hub GUI (and pydraughts) drive it: the handshake in
key=value form, a whole game under every level form with every move checked against the engine's
own rules, ponder and ponder-hit, ping during a search, stop, malformed lines, 8×8 variants."""
import random
import re
import time

from draughts_referee import START, Referee, board_letters, hub_text, parse_hub_text
from engine import Engine
from harness import check, test

START_LETTERS = "".join(board_letters(START["international"], 50))
AFTER_32_28_19_23 = 'pos pos=%s moves="32-28 19-23"' % START_LETTERS  # white must take: 28x19x23


def hub_fields(line):
    """A line's command and arguments as pydraughts reads them: split on the spaces outside double
    quotes, then each argument on '='; a bare flag or a second '=' breaks that client."""
    command, _, rest = line.partition(" ")
    fields = {}
    for item in re.findall(r'(?:[^\s"]|"[^"]*")+', rest):
        parts = item.split("=")
        check(len(parts) == 2, "not key=value: %r in %r" % (item, line))
        key, value = parts
        fields[key] = value[1:-1] if len(value) >= 2 and value[0] == value[-1] == '"' else value
    return command, fields


def hub_engine(ctx, variant=None):
    """`donjon hub` after its handshake (threads as the build's setup asks); returns it and the
    lines it answered to `hub`."""
    e = Engine([ctx.binary, "hub"], env=ctx.env)
    ctx.engines.append(e)
    e.send("hub")
    lines = e.read_until(lambda l: l == "wait", 10 * ctx.slow)
    for line in ctx.setup:
        match = re.match(r"setoption name Threads value (\d+)", line)
        if match:
            e.send("set-param name=threads value=" + match.group(1))
    if variant:
        e.send("set-param name=variant value=" + variant)
    e.send("init")
    e.read_until(lambda l: l == "ready", 10 * ctx.slow)
    return e, lines


def sync(e, ctx):
    """Lines up to the answer to a ping (the engine answers in order)."""
    e.send("ping")
    return e.read_until(lambda l: l == "pong", 10 * ctx.slow)[:-1]


def check_search_output(lines, legal):
    """Every info line in key=value form with numbers where numbers go and a PV whose first move is
    legal; the done line last, `done move=M [ponder=M]`, its move legal. Returns its fields."""
    check(lines and re.match(r"^done move=\S+( ponder=\S+)?$", lines[-1]), "done line: %r" % lines[-1:])
    for line in lines[:-1]:
        command, f = hub_fields(line)
        check(command == "info", "unexpected line during a search: %r" % line)
        for key in ["depth", "score", "nodes", "time", "nps", "pv"]:
            check(key in f, "info without %s: %r" % (key, line))
        int(f["depth"]), int(f["nodes"]), float(f["score"]), float(f["time"]), float(f["nps"])
        pv = f["pv"].split()
        check(pv and parse_hub_text(pv[0]) in legal, "PV starts with an illegal move: %r" % line)
        for move in pv[1:]:
            parse_hub_text(move)
    done = hub_fields(lines[-1])[1]
    check(parse_hub_text(done["move"]) in legal, "illegal move %s; legal: %s" % (
        done["move"], sorted(hub_text(t) for t in legal)))
    if "ponder" in done:
        parse_hub_text(done["ponder"])
    return done


@test("hub")
def hub_handshake_in_key_value_form(ctx):
    e, lines = hub_engine(ctx)
    check(lines[0].startswith("id "), lines[0])
    check(hub_fields(lines[0])[1]["name"] == "Donjon", lines[0])
    params = {}
    for line in lines[1:-1]:
        command, f = hub_fields(line)
        check(command == "param", "unexpected line: %r" % line)
        check({"name", "value", "type"} <= set(f), line)
        params[f["name"]] = f
    check(params["variant"]["type"] == "enum" and params["variant"]["value"] == "normal", params["variant"])
    check(params["variant"]["values"].split() == ["normal", "checkers", "russian", "brazilian"], params["variant"])
    check(params["threads"]["type"] == "int" and params["hash"]["type"] == "int", params)
    for command in ["set-param name=hash value=8", "set-param name=threads value=2", "new-game", "init"]:
        e.send(command)
    check(sync(e, ctx) == ["ready"], "set-param, new-game and init: only init answers")
    e.send("hub")
    lines = e.read_until(lambda l: l == "wait")
    check('param name=threads value=2 type=int min=1 max=512' in lines, "threads now 2: %s" % lines)


@test("hub")
def hub_plays_a_whole_game_under_every_level(ctx):
    """Donjon (White) against random legal moves to the end of the game, the level changing every
    move; once Black plays the move Donjon expected, Donjon ponders on it until ponder-hit."""
    hub, _ = hub_engine(ctx)
    referee = Referee(ctx.engine("international"), START["international"])
    rng = random.Random(14)
    levels = ["level depth=3", "level nodes=3000", "level move-time=0.05", "level time=2 inc=0.05",
              "level moves=30 time=1", "level time=-0.3 inc=0.2", "level depth=2 nodes=500 unknown=ignored"]
    hub_moves, expected, pondered = [], None, False
    for ply in range(300):
        if referee.result() != "none":
            break
        legal = referee.legal()
        if ply % 2 == 0:  # Donjon
            hub.send('pos pos=%s moves="%s"' % (START_LETTERS, " ".join(hub_moves)))
            ponder = not pondered and expected is not None and parse_hub_text(hub_moves[-1]) == expected
            hub.send("level time=2 inc=0.1" if ponder else levels[ply // 2 % len(levels)])
            hub.send("go ponder" if ponder else "go think")
            if ponder:
                pondered = True
                time.sleep(0.2)
                sent = time.monotonic()
                lines = sync(hub, ctx)
                check(not any(l.startswith("done") for l in lines), "a ponder search ended by itself: %s" % lines)
                check(hub.last_stamp - sent < 2.0 * ctx.slow, "pong came %.2fs late" % (hub.last_stamp - sent))
                hub.send("ponder-hit")
            lines = hub.read_until(lambda l: l.startswith("done"), 60 * ctx.slow)
            done = check_search_output(lines, legal)
            triple = parse_hub_text(done["move"])
            expected = parse_hub_text(done["ponder"]) if "ponder" in done else None
        else:  # the random side, which plays Donjon's expected move once
            triple = expected if expected in legal and not pondered else rng.choice(sorted(legal, key=hub_text))
        hub_moves.append(hub_text(triple))
        referee.play(legal[triple])
    result = referee.result()
    check(result != "none", "no result after 300 plies")
    check(pondered, "the random side never played the expected move")
    check(not result.startswith("black"), "Donjon lost to random moves: %s" % result)


@test("hub")
def hub_answers_ping_at_once_while_analysing_and_stops(ctx):
    hub, _ = hub_engine(ctx)
    legal = Referee(ctx.engine("international"), START["international"]).legal()
    hub.send("pos pos=" + START_LETTERS)
    hub.send("level infinite")
    hub.send("go analyze")
    lines = hub.read_until(lambda l: l.startswith("info"), 10 * ctx.slow)
    time.sleep(0.3)
    for _ in range(3):
        sent = time.monotonic()
        lines += sync(hub, ctx)
        check(hub.last_stamp - sent < 2.0 * ctx.slow, "pong came %.2fs late" % (hub.last_stamp - sent))
        check(not any(l.startswith("done") for l in lines), "an infinite search ended by itself")
    hub.send("stop")
    lines += hub.read_until(lambda l: l.startswith("done"), 10 * ctx.slow)
    check_search_output(lines, legal)
    # pondering on a move the opponent did not play: stop, then think on the real position
    hub.send(AFTER_32_28_19_23)
    hub.send("level time=60")
    hub.send("go ponder")
    time.sleep(0.2)
    hub.send("stop")
    hub.read_until(lambda l: l.startswith("done"), 10 * ctx.slow)
    hub.send("pos pos=" + START_LETTERS)
    hub.send("level depth=3")
    hub.send("go think")
    check_search_output(hub.read_until(lambda l: l.startswith("done"), 10 * ctx.slow), legal)


@test("hub")
def hub_malformed_lines_get_an_error_and_change_nothing(ctx):
    hub, _ = hub_engine(ctx)
    hub.send(AFTER_32_28_19_23)
    hub.send("level depth=2 colour=blue")
    check(sync(hub, ctx) == [], "a valid pos and a level with an unknown argument: no answer")
    bad = ["pos pos=Wxyz", "pos pos=W" + "q" * 50, "pos pos=X" + START_LETTERS[1:],
           'pos pos=%s moves="32-28 99-98"' % START_LETTERS, 'pos pos=%s moves="32-28 19-23 28x19"' % START_LETTERS,
           'pos moves="32-28"', 'pos pos="%s' % START_LETTERS, "level depth=abc", "level", "level inc=1",
           "level move-time=-1", "level time=1 inc=-1", "level depth=0", "go", "go sideways", "set-param name=threads value=0",
           "set-param name=variant value=chess", "set-param name=nosuch value=1", "set-param value=1"]
    for line in bad:
        hub.send(line)
        answer = sync(hub, ctx)
        check(len(answer) == 1 and re.match(r'^error message="[^"]*"$', answer[0]), "%r -> %r" % (line, answer))
    for line in ["frobnicate now=1", "info depth=3", "", "   "]:  # unknown commands are ignored
        hub.send(line)
        check(sync(hub, ctx) == [], "unknown command %r answered" % line)
    # the position (one legal move) and the level (depth 2) are still those of before
    hub.send("go think")
    lines = hub.read_until(lambda l: l.startswith("done"), 10 * ctx.slow)
    check(hub_fields(lines[-1])[1]["move"] == "28x19x23", lines[-1])
    depths = [int(hub_fields(l)[1]["depth"]) for l in lines if l.startswith("info")]
    check(depths and max(depths) == 2, "depth 2 expected: %s" % depths)


@test("hub")
def hub_plays_the_eight_by_eight_variants(ctx):
    for variant in ["checkers", "russian", "brazilian"]:
        hub, _ = hub_engine(ctx, variant)
        referee = Referee(ctx.engine(variant), None)
        referee.start = referee.engine.fen()
        side, letters = board_letters(referee.start, 32)
        hub_moves = []
        for _ in range(6):  # Donjon plays both sides for a few moves
            legal = referee.legal()
            hub.send('pos pos=%s%s moves="%s"' % (side, letters, " ".join(hub_moves)))
            hub.send("level depth=4")
            hub.send("go think")
            done = check_search_output(hub.read_until(lambda l: l.startswith("done"), 20 * ctx.slow), legal)
            hub_moves.append(done["move"])
            referee.play(legal[parse_hub_text(done["move"])])
