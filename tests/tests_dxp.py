"""tests_dxp.py — `donjon dxp` against a DXP peer written for the tests (random legal moves, every
message's format and every Donjon move checked against the engine's own rules) in both roles; bad
peers (malformed and overlong messages, an illegal move, a back request, silence, a vanished
connection); a 4-game match between two Donjon processes whose PDN records must replay legally."""
import os
import random
import re
import subprocess
import tempfile

from draughts_referee import START, Referee, board_letters, hub_text, replay_pdn
from dxp_peer import Peer, game_request, move_message, read_move
from engine import Engine
from harness import SANITIZER_REPORTS, check, test

MIRROR = {"0": "0", "1": "3", "2": "2", "3": "1"}  # a game-end reason as the other side says it


def dxp_process(ctx, *args):
    """`donjon dxp ARGS`, with the threads the build's setup asks for."""
    extra = []
    for line in ctx.setup:
        match = re.match(r"setoption name Threads value (\d+)", line)
        if match:
            extra = ["--threads", match.group(1)]
    return Engine([ctx.binary, "dxp"] + list(args) + extra, env=ctx.env)


def listening_port(process, ctx):
    line = process.read_until(lambda l: l.startswith("listening on"), 10 * ctx.slow)[-1]
    return int(line.split()[-1])


def finish(process, ctx, status):
    """Waits for the process to exit with this status, free of sanitizer reports; returns
    (stdout lines, stderr)."""
    try:
        process.proc.wait(60 * ctx.slow)
    except subprocess.TimeoutExpired:
        process.close()
        raise AssertionError("donjon dxp did not exit")
    err = process.stderr()
    check(process.proc.returncode == status,
          "exit status %s, expected %s; stderr: %s" % (process.proc.returncode, status, err[-2000:]))
    check(not any(report in err for report in SANITIZER_REPORTS), "sanitizer report: " + err[-3000:])
    lines = []
    while True:
        _, line = process.lines.get(timeout=10)
        if line is None:
            return lines, err
        lines.append(line)


def expected_reason(result, donjon_side):
    """Donjon's game-end reason for a result of the rules: 3 it won, 1 it lost, 2 draw."""
    winner = result.split()[0]
    if winner == "draw":
        return "2"
    return "3" if winner[0].upper() == donjon_side else "1"


def pdn_path(name="games.pdn"):
    return os.path.join(tempfile.mkdtemp(), name)


def new_game(peer, ctx, request):
    """Sends a game request, checks Donjon accepts it; returns a referee for the game."""
    peer.send(request)
    accept = peer.receive(10 * ctx.slow)
    check(accept is not None and accept[0] == "A" and accept[-1] == "0" and accept[1:33].startswith("Donjon"),
          "game accepted: %r" % accept)
    return Referee(ctx.engine("international"), START["international"])


def side_to_move(referee):
    return referee.start[0] if len(referee.played) % 2 == 0 else {"W": "B", "B": "W"}[referee.start[0]]


def donjon_move(peer, referee, ctx):
    """Receives Donjon's move, checks it is one of the engine's own legal moves, plays it."""
    legal = referee.legal()
    message = peer.receive_skipping_chat(30 * ctx.slow)
    check(message is not None and message[0] == "M", "a move expected, got %r" % message)
    triple = read_move(message)
    check(triple in legal, "Donjon's move %r is not legal; legal: %s" % (message, sorted(map(hub_text, legal))))
    referee.play(legal[triple])


def random_move(peer, referee, rng):
    legal = referee.legal()
    triple = rng.choice(sorted(legal, key=hub_text))
    peer.send(move_message(triple))
    referee.play(legal[triple])


def play_to_the_end(peer, referee, rng, donjon_side, ctx, stop_code, before_move=None):
    """Random legal moves against Donjon until the rules end the game; then Donjon's game end is
    checked (its reason, its stop code when given) and answered. Returns the result."""
    while True:
        result = referee.result()
        if result != "none":
            message = peer.receive_skipping_chat(30 * ctx.slow)
            check(message is not None and message[:2] == "E" + expected_reason(result, donjon_side),
                  "game end for %s expected, got %r" % (result, message))
            peer.send("E" + MIRROR[message[1]] + stop_code)
            return result, message
        if side_to_move(referee) == donjon_side:
            donjon_move(peer, referee, ctx)
        else:
            if before_move:
                before_move(len(referee.played))
            random_move(peer, referee, rng)
        check(len(referee.played) < 400, "no end after 400 plies")


@test("dxp")
def dxp_follower_plays_full_games_against_random_moves(ctx):
    pdn = pdn_path()
    donjon = dxp_process(ctx, "--listen", "--port", "0", "--nodes", "2000", "--pdn", pdn, "--timeout", "60")
    try:
        peer = Peer.connect(listening_port(donjon, ctx), 10 * ctx.slow)
        rng = random.Random(27531)
        results = []
        # game 1: Donjon White, from the start; a chat and a message of an unknown type on the way
        referee = new_game(peer, ctx, game_request("W", 1, 50))

        def chat_once(ply):
            if ply == 5:
                peer.send("Chello there")
                peer.send("Xsomething new")

        results.append(play_to_the_end(peer, referee, rng, "W", ctx, "0", chat_once)[0])
        # game 2, as pydraughts asks: the position given square by square, 0 minutes, 0 moves
        referee = new_game(peer, ctx, game_request("Z", 0, 0, board_letters(START["international"], 50, "z", "Z")))
        results.append(play_to_the_end(peer, referee, rng, "B", ctx, "1")[0])
        check(peer.receive(10 * ctx.slow) is None, "Donjon closes after a game end with stop code 1")
        lines, err = finish(donjon, ctx, 0)
    finally:
        donjon.close()
    check(any(l == "chat from Test peer: hello there" for l in lines), "chat printed: %s" % lines)
    starts = [l for l in lines if re.match(r"game \d+: ", l)]
    check(starts[0].endswith("plays white against Test peer; 1 min for 50 moves") and
          starts[1].endswith("plays black against Test peer; no clock"), "time controls read: %s" % starts)
    check("ignored unexpected message 'Xsomething new'" in err, err)
    games = replay_pdn(ctx.engine("international"), pdn)
    check(len(games) == 2, "2 games recorded")
    for (tags, _), result in zip(games, results):
        check(tags["Result"] == {"white": "1-0", "black": "0-1", "draw": "1/2-1/2"}[result.split()[0]], tags)
    check(games[0][0]["White"].startswith("Donjon") and games[1][0]["Black"].startswith("Donjon"), "colours")


@test("dxp")
def dxp_follower_ends_games_on_bad_peer_messages(ctx):
    pdn = pdn_path()
    donjon = dxp_process(ctx, "--listen", "--port", "0", "--depth", "3", "--pdn", pdn, "--timeout", "60")
    rng = random.Random(5)

    def receive_end(what):
        chat = peer.receive(10 * ctx.slow)
        check(chat is not None and chat[0] == "C" and what in chat, "a chat saying %r, got %r" % (what, chat))
        end = peer.receive(10 * ctx.slow)
        check(end is not None and end[:2] == "E0", "game end, result unknown, expected: %r" % end)
        peer.send("E00")

    try:
        peer = Peer.connect(listening_port(donjon, ctx), 10 * ctx.slow)
        # requests that must be refused: malformed, another version
        for bad in ["R01short", game_request("W", 1, 50).replace("R01", "R02")]:
            peer.send(bad)
            answer = peer.receive(10 * ctx.slow)
            check(answer[0] == "A" and answer[-1] != "0", "%r refused: %r" % (bad, answer))
        # game 1: Donjon Black; a back request to a point that does not exist, one that does,
        # then an illegal move
        referee = new_game(peer, ctx, game_request("Z", 1, 50))
        for _ in range(2):
            random_move(peer, referee, rng)
            donjon_move(peer, referee, ctx)
        peer.send("B099W")
        check(peer.receive(10 * ctx.slow) == "K1", "no move 99: refused")
        peer.send("B002W")  # back to move 2, White to move: two plies
        check(peer.receive(10 * ctx.slow) == "K0", "back request accepted")
        referee.take_back(2)
        random_move(peer, referee, rng)
        donjon_move(peer, referee, ctx)
        legal = referee.legal()
        illegal = next((s, t, frozenset()) for s in range(31, 51) for t in range(1, 51)
                       if (s, t, frozenset()) not in legal)
        peer.send(move_message(illegal))
        receive_end("illegal move")
        # games 2 and 3: Donjon White; a truncated move, then an overlong message
        for broken, what in [("M0001", "malformed move"), (b"x" * 3000, "longer than")]:
            referee = new_game(peer, ctx, game_request("W", 1, 50))
            donjon_move(peer, referee, ctx)
            peer.send(broken)
            receive_end(what)
        # game 4: the peer asks for a new game in the middle of this one; game 5: the peer vanishes
        referee = new_game(peer, ctx, game_request("W", 1, 50))
        donjon_move(peer, referee, ctx)
        referee = new_game(peer, ctx, game_request("W", 1, 50))
        donjon_move(peer, referee, ctx)
        random_move(peer, referee, rng)
        donjon_move(peer, referee, ctx)
        peer.close()
        lines, err = finish(donjon, ctx, 1)
    finally:
        donjon.close()
    for what in ["illegal move", "malformed move", "longer than", "requested a new game", "closed the connection"]:
        check(what in err, "stderr says %r: %s" % (what, err[-2000:]))
    games = replay_pdn(ctx.engine("international"), pdn)
    check([tags["Result"] for tags, _ in games] == ["*"] * 5, "5 unfinished games recorded")
    check([len(moves) for _, moves in games] == [4, 1, 1, 1, 3], "moves recorded: %s" % [m for _, m in games])


@test("dxp")
def dxp_initiator_plays_full_games_against_random_moves(ctx):
    pdn = pdn_path()
    server, port = Peer.listener()
    donjon = dxp_process(ctx, "--initiator", "--port", str(port), "--games", "2", "--time", "1", "--moves", "40",
                         "--nodes", "2000", "--pdn", pdn)
    try:
        peer = Peer.accept(server, 10 * ctx.slow)
        rng = random.Random(99)
        # game 1: Donjon White (the follower plays Black), to the end
        request = peer.receive(10 * ctx.slow)
        check(request[0] == "R" and request[3:9] == "Donjon" and request[35:43] == "Z001040A", request)
        peer.send("A%-32s0" % "Test peer")
        referee = Referee(ctx.engine("international"), START["international"])
        result, end = play_to_the_end(peer, referee, rng, "W", ctx, "0")
        check(end[2] == "0", "more games to come: stop code 0, got %r" % end)
        # game 2: colours change; the peer resigns after a few moves
        request = peer.receive(10 * ctx.slow)
        check(request[35:43] == "W001040A", request)
        peer.send("A%-32s0" % "Test peer")
        referee = Referee(ctx.engine("international"), START["international"])
        for _ in range(5):
            random_move(peer, referee, rng)
            donjon_move(peer, referee, ctx)
        peer.send("E10")
        end = peer.receive_skipping_chat(10 * ctx.slow)
        check(end == "E31", "Donjon wins by the resignation and stops: %r" % end)
        check(peer.receive(10 * ctx.slow) is None, "Donjon closes after its last game")
        lines, _ = finish(donjon, ctx, 0)
    finally:
        donjon.close()
    games = replay_pdn(ctx.engine("international"), pdn)
    check(len(games) == 2, "2 games recorded")
    check(games[0][0]["Result"] == {"white": "1-0", "black": "0-1", "draw": "1/2-1/2"}[result.split()[0]], games[0])
    check(games[1][0]["Result"] == "0-1" and games[1][0]["Black"].startswith("Donjon"), games[1][0])
    check(lines[-1].startswith("2 games: ") and "0 unfinished" in lines[-1], lines[-1])


@test("dxp")
def dxp_silent_peer_ends_the_game(ctx):
    donjon = dxp_process(ctx, "--listen", "--port", "0", "--timeout", "2", "--depth", "2")
    try:
        peer = Peer.connect(listening_port(donjon, ctx), 10 * ctx.slow)
        peer.send(game_request("Z", 0, 0))  # Donjon Black: the peer moves first, and says nothing
        check(peer.receive(10 * ctx.slow)[-1] == "0", "accepted")
        chat = peer.receive(20 * ctx.slow)
        check(chat[0] == "C" and "sent nothing" in chat, chat)
        check(peer.receive(10 * ctx.slow) == "E01", "game end, result unknown, no more games")
        check(peer.receive(10 * ctx.slow) is None, "connection closed")
        _, err = finish(donjon, ctx, 1)
    finally:
        donjon.close()
    check("sent nothing" in err, err)


@test("dxp")
def dxp_match_between_two_donjon_processes(ctx):
    pdns = [pdn_path("follower.pdn"), pdn_path("initiator.pdn")]
    follower = dxp_process(ctx, "--listen", "--port", "0", "--nodes", "3000", "--pdn", pdns[0])
    initiator = None
    try:
        port = listening_port(follower, ctx)
        initiator = dxp_process(ctx, "--initiator", "--port", str(port), "--games", "4", "--depth", "4",
                                "--time", "2", "--moves", "50", "--pdn", pdns[1])
        lines, _ = finish(initiator, ctx, 0)
        finish(follower, ctx, 0)
    finally:
        follower.close()
        if initiator:
            initiator.close()
    colours = [re.search(r"plays (white|black)", l).group(1) for l in lines if re.match(r"game \d+: .* plays", l)]
    check(colours == ["white", "black", "white", "black"], "colours alternate: %s" % colours)
    engine = ctx.engine("international")
    records = [replay_pdn(engine, path) for path in pdns]
    check(len(records[0]) == 4 and len(records[1]) == 4, "4 games in each record")
    for mine, theirs in zip(*records):
        check(mine[1] == theirs[1] and mine[0]["Result"] == theirs[0]["Result"], "both records agree")
        check(mine[0]["Result"] != "*", "every game finished by the rules: %s" % mine[0])
