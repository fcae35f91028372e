"""draughts_referee.py — the engine's own rules, asked over its UCI-like protocol, for the Hub and DXP
tests: the legal moves of a game named by their squares (from, to, captured set), Hub move text,
and the replay of PDN records."""
import re

from harness import check

START = {
    "international": "W:W" + ",".join(str(i) for i in range(31, 51)) + ":B" + ",".join(str(i) for i in range(1, 21)),
    "russian": "W:W" + ",".join(str(i) for i in range(21, 33)) + ":B" + ",".join(str(i) for i in range(1, 13)),
}
SQUARES = {"international": 50, "checkers": 32, "russian": 32, "brazilian": 32}


def parse_fen(fen):
    """{'W': {square: is_king}, 'B': {...}} and the side to move."""
    fields = fen.split(":")
    pieces = {"W": {}, "B": {}}
    for field in fields[1:]:
        colour, items = field[0], field[1:]
        for item in filter(None, items.split(",")):
            king = item.startswith("K")
            pieces[colour][int(item.lstrip("K"))] = king
    return fields[0], pieces


def board_letters(fen, squares, black_man="b", black_king="B"):
    """The side letter and one letter per square, as Hub (b/B) or DXP (z/Z) write a board."""
    side, pieces = parse_fen(fen)
    letters = []
    for square in range(1, squares + 1):
        if square in pieces["W"]:
            letters.append("W" if pieces["W"][square] else "w")
        elif square in pieces["B"]:
            letters.append(black_king if pieces["B"][square] else black_man)
        else:
            letters.append("e")
    return side, "".join(letters)


def hub_text(triple):
    start, end, captured = triple
    if not captured:
        return "%d-%d" % (start, end)
    return "%dx%d" % (start, end) + "".join("x%d" % c for c in sorted(captured))


HUB_MOVE = re.compile(r"^(\d{1,2})(?:-(\d{1,2})|((?:x\d{1,2}){2,}))$")


def parse_hub_text(text):
    match = HUB_MOVE.match(text)
    check(match, "not a Hub move: %r" % text)
    start = int(match.group(1))
    if match.group(2):
        return (start, int(match.group(2)), frozenset())
    numbers = [int(n) for n in match.group(3).split("x")[1:]]
    check(len(set(numbers[1:])) == len(numbers) - 1, "a captured square named twice: %r" % text)
    return (start, numbers[0], frozenset(numbers[1:]))


class Referee:
    """A game followed on a Donjon process speaking its UCI-like protocol."""

    def __init__(self, engine, start_fen):
        self.engine = engine
        self.start = start_fen
        self.played = []  # the engine's own move texts

    def _position(self, extra=()):
        moves = self.played + list(extra)
        self.engine.send("position fen %s%s" % (self.start, " moves " + " ".join(moves) if moves else ""))

    def legal(self):
        """{(from, to, frozenset(captured)): move text} for the position now."""
        self._position()
        texts = self.engine.moves()
        side, before = parse_fen(self.engine.fen())
        enemy = "B" if side == "W" else "W"
        legal = {}
        for text in texts:
            squares = [int(n) for n in re.split(r"[-x]", text)]
            captured = frozenset()
            if "x" in text:
                self._position([text])
                after = parse_fen(self.engine.fen())[1]
                captured = frozenset(set(before[enemy]) - set(after[enemy]))
            legal[(squares[0], squares[-1], captured)] = text
        return legal

    def play(self, text):
        self.played.append(text)

    def take_back(self, plies):
        del self.played[len(self.played) - plies:]

    def result(self):
        self._position()
        return self.engine.result()

    def fen(self):
        self._position()
        return self.engine.fen()


PDN_RESULT = {"white": "1-0", "black": "0-1", "draw": "1/2-1/2", "none": "*"}


def read_pdn(path):
    """[(tags, moves)] from a PDN file of the engine's own records."""
    games = []
    with open(path) as f:
        text = f.read()
    for block in re.split(r"\n\n(?=\[)", text.strip()):
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]$', block, re.M))
        body = " ".join(line for line in block.splitlines() if not line.startswith("["))
        words = [w for w in body.split() if not re.match(r"^\d+\.+$", w)]
        check(words and words[-1] == tags.get("Result"), "the move text ends with the result: %r" % words[-3:])
        games.append((tags, words[:-1]))
    return games


def replay_pdn(engine, path, variant="international"):
    """Replays every game of a PDN file on the engine: each move must be legal, and a finished game's
    result must be the one the rules give. Returns the games."""
    games = read_pdn(path)
    for tags, moves in games:
        fen = tags.get("FEN", START[variant])
        errors = engine.errors_until_ready("position fen %s%s" % (fen, " moves " + " ".join(moves) if moves else ""))
        check(not errors, "round %s does not replay: %s" % (tags.get("Round"), errors))
        result = engine.result().split()[0]
        if tags["Result"] != "*" and "ends the game" not in tags.get("Termination", ""):
            check(PDN_RESULT[result] == tags["Result"],
                  "round %s: recorded %s, the rules say %s" % (tags.get("Round"), tags["Result"], result))
    return games
