"""pdn.py — game records in PDN, as scripts/match and scripts/play write them.

Draughts games carry the standard GameType tag (20 international, 21 checkers, 25 russian,
26 brazilian) and a FEN tag only when they do not start from the standard position; the other
games carry a Variant tag and a FEN tag with Donjon's FEN of the game's first position (none
when that is unknown: the standard start).
Move numbers count from the variant's first mover: a record whose first move is the other
side's starts with `1...` (and a checkers record from the start, where Black moves first, with
`1. <black move> <white move>`)."""
import datetime

GAME_TYPES = {"international": 20, "checkers": 21, "russian": 25, "brazilian": 26}


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
