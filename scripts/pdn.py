"""pdn.py — game records in PDN, as scripts/match and scripts/play write them.

Draughts games carry the standard GameType tag (20 international, 21 checkers, 25 russian,
26 brazilian) and a FEN tag only when they do not start from the standard position; the other
games carry a Variant tag and a FEN tag with Donjon's FEN of the game's first position (none
when that is unknown: the standard start).
Move numbers count from the variant's first mover: a record whose first move is the other
side's starts with `1...` (and a checkers record from the start, where Black moves first, with
`1. <black move> <white move>`)."""
import datetime
import re

GAME_TYPES = {"international": 20, "checkers": 21, "russian": 25, "brazilian": 26}
RESULTS = ("1-0", "0-1", "1/2-1/2")  # the Result tags of a finished game ("*": unfinished)
TAG_LINE = re.compile(r'^\[(\w+)\s+"(.*)"\]\s*$')


def first_mover(variant):
    """Who moves first from the variant's start."""
    return "black" if variant == "checkers" else "white"


def side_of_fen(fen):
    """'white' or 'black' to move in a FEN of any of the games (None for None)."""
    if not fen:
        return None
    fen = fen.strip()
    if fen[:1] in ("W", "B") and fen[1:2] == ":":  # draughts: W:W…:B…
        return "white" if fen[0] == "W" else "black"
    return "black" if fen.split()[-1].startswith("b") else "white"


def movetext(moves, result, other_side_first):
    """Numbered moves then the result, wrapped at 79 columns."""
    offset = 1 if other_side_first else 0
    words = []
    for i, move in enumerate(moves):
        ply = i + offset
        if ply % 2 == 0:
            words.append("%d." % (ply // 2 + 1))
        elif i == 0:
            words.append("%d..." % (ply // 2 + 1))
        words.append(move)
    words.append(result)
    lines, line = [], ""
    for word in words:
        if line and len(line) + len(word) + 1 > 79:
            lines.append(line)
            line = word
        else:
            line = (line + " " + word).strip()
    lines.append(line)
    return "\n".join(lines)


def tag_value(value):
    """A tag's value as a record writes it: PDN has no escape, so a double quote becomes a single one."""
    return str(value).replace('"', "'")


def record(variant, tags, start_fen, standard_start, other_side_first, moves, result):
    """One game: tags is a list of (name, value) (Event, White, Black, ...); start_fen is the FEN
    the moves are played from (may be empty for a game that never started)."""
    tags = list(tags)
    names = [name for name, _ in tags]
    if "Date" not in names:
        tags.insert(1, ("Date", datetime.date.today().strftime("%Y.%m.%d")))
    tags.append(("Result", result))
    if variant in GAME_TYPES:
        tags.append(("GameType", str(GAME_TYPES[variant])))
    else:
        tags.append(("Variant", variant))
    if start_fen and (variant not in GAME_TYPES or not standard_start):
        tags.append(("SetUp", "1"))
        tags.append(("FEN", start_fen))
    text = "".join('[%s "%s"]\n' % (name, tag_value(value)) for name, value in tags)
    return text + "\n" + movetext(moves, result, other_side_first) + "\n\n"


class RecordError(ValueError):
    """Text that is no PDN game list; its line is the 1-based line number of the problem."""

    def __init__(self, line, message):
        super().__init__("%d: %s" % (line, message))
        self.line = line


def read_games(text):
    """The games of a PDN text in order, each as (line, tags, movetext, record): the number of its
    first line, {tag: value}, its movetext lines joined by spaces, and its own text (tags and
    movetext as written, ending with one blank line). The first tag line, a tag line after
    movetext and a tag the game already has (a record cut off in its tags, then the next) open a
    game; blank lines separate tags from movetext and games from games. Movetext before any game's
    tags raises RecordError."""
    games, current = [], None
    for number, line in enumerate(text.splitlines(), 1):
        tag = TAG_LINE.match(line)
        if tag and (current is None or current["movetext"] or tag.group(1) in current["tags"]):
            current = {"line": number, "tags": {}, "movetext": [], "lines": []}
            games.append(current)
        if current is None:
            if line.strip():
                raise RecordError(number, "movetext before any game's tags")
            continue
        current["lines"].append(line)
        if tag:
            current["tags"][tag.group(1)] = tag.group(2)
        elif line.strip():
            current["movetext"].append(line.strip())
    return [(g["line"], g["tags"], " ".join(g["movetext"]), "\n".join(g["lines"]).rstrip("\n") + "\n\n")
            for g in games]
