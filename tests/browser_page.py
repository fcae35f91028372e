"""browser_page.py — the board page in a real headless Chromium, as the tests use it: finding the
browser, clicking cells and controls, and reading back what the page shows — the drawn board as
cell contents in FEN notation, the move list, the status (tests only).

The board is read from the SVG shapes a person sees (`piece <kind> <colour>` classes, the height
written on an ecroulement stack), never from the page's own copy of the FEN, and this module's FEN
reader is written apart from the page's: a mistake in either shows as a difference."""
import os
import re
import shutil
import sys
import tempfile

from serve_client import poll

DEBIAN_PYTHON_PACKAGES = "/usr/lib/python3/dist-packages"  # python3-selenium's home
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage", "--window-size=1280,1000"]


def import_selenium():
    """Selenium's webdriver module, or None. Debian's python3-selenium is installed for Debian's
    Python; another Python 3 (a pyenv one running the tests) can use it from there."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        if os.path.isdir(DEBIAN_PYTHON_PACKAGES) and DEBIAN_PYTHON_PACKAGES not in sys.path:
            sys.path.append(DEBIAN_PYTHON_PACKAGES)
    try:
        from selenium import webdriver
    except Exception:  # absent, or at odds with this Python's own packages: the same to the tests
        return None
    return webdriver


def find_chromium():
    """(chromium, chromedriver, None) or (None, None, why not)."""
    browser = next(filter(None, map(shutil.which, ["chromium", "chromium-browser"])), None)
    driver = shutil.which("chromedriver") or next(
        (p for p in ["/usr/lib/chromium/chromedriver", "/usr/bin/chromedriver"] if os.access(p, os.X_OK)), None)
    missing = [name for name, path in [("chromium", browser), ("chromium-driver", driver)] if not path]
    if import_selenium() is None:
        missing.append("python3-selenium")
    if missing:
        return None, None, "not installed: %s (`make setup` installs what is missing)" % ", ".join(missing)
    return browser, driver, None


# --- the page's cells and the FEN's cells, both as {cell name: piece text in FEN notation} -------

FEN_TOKENS = {"gounki": r"\([RSrs]+\)|[RSrs]|\d", "ecroulement": r"[WB](?:\(\d+\))?|\d",
              "tawol": r"\[[TABtab]{2}\]|[TABtab]|\d"}
TAWOL_LETTERS = {"tower": "T", "collar1": "A", "collar2": "B"}


def family_of(variant):
    if variant in ("checkers", "russian", "brazilian", "international"):
        return "draughts"
    return "ecroulement" if variant.startswith("ecroulement") else variant


def fen_cells(family, fen):
    """What the FEN puts on each cell; draughts pieces as 'W'/'B' with 'K' before a king."""
    cells = {}
    if family == "draughts":
        for field in fen.split(":")[1:]:
            if field[:1] not in ("W", "B"):
                continue
            for item in filter(None, field[1:].split(",")):
                cells[item.lstrip("K")] = ("K" if item.startswith("K") else "") + field[0]
        return cells
    rows = fen.split()[0].split("/")
    for i, row in enumerate(rows):
        x = 0
        for token in re.findall(FEN_TOKENS[family], row):
            if token.isdigit():
                x += int(token)
            else:
                cells["abcdefgh"[x] + str(len(rows) - i)] = token
                x += 1
    return cells


def drawn_piece_text(family, stack):
    """One drawn cell in FEN notation; '?' for a drawing that fits no piece of the game."""
    pieces = [(set(p["cls"].split()), p["level"]) for p in stack["pieces"]]
    colours = ["white" if "white" in c else "black" if "black" in c else "?" for c, _ in pieces]

    def letter(text, colour):
        return text if colour == "white" else text.lower()
    if not pieces:
        return "?"
    if family == "draughts" and len(pieces) == 1:
        return ("K" if "king" in pieces[0][0] else "") + ("W" if colours[0] == "white" else "B")
    if family == "gounki" and 1 <= len(pieces) <= 3 and len(set(colours)) == 1:
        rounds = sum("round" in c for c, _ in pieces)
        squares = sum("square" in c for c, _ in pieces)
        text = letter("R" * rounds + "S" * squares, colours[0])
        return text if len(text) == 1 else "(%s)" % text
    if family == "ecroulement" and len(pieces) == 1:
        text = "W" if colours[0] == "white" else "B"
        return text + ("(%s)" % stack["label"] if stack["label"] else "")
    if family == "tawol" and len(pieces) in (1, 2):
        ordered = sorted(pieces, key=lambda p: p[1] or "")
        kinds = [next((TAWOL_LETTERS[k] for k in TAWOL_LETTERS if k in c), "?") for c, _ in ordered]
        text = "".join(letter(k, "white" if "white" in c else "black") for k, (c, _) in zip(kinds, ordered))
        return text if len(text) == 1 else "[%s]" % text
    return "?"


def drawn_cells(family, stacks):
    cells = {}
    for stack in stacks:
        if stack["on"] in cells:
            cells[stack["on"]] += "+?"  # two drawings on one cell
        else:
            cells[stack["on"]] = drawn_piece_text(family, stack)
    return cells


def cell_coordinates(family, name, cols, rows):
    """(file, row) of a cell name, both from 0, as White sees the board."""
    if family == "draughts":
        number = int(name) - 1
        per_row = cols // 2
        from_top = number // per_row
        return 2 * (number % per_row) + (1 if from_top % 2 == 0 else 0), rows - 1 - from_top
    return ord(name[0]) - ord("a"), int(name[1:]) - 1


def geometry_problems(family, cells, cols, rows, flipped):
    """Every cell where its name says (files left to right, rows bottom to top as White sees
    them, or the other way round when flipped); each stack drawn inside its cell."""
    problems = []
    board = [c for c in cells if not c["exit"]]
    expected = cols * rows // (2 if family == "draughts" else 1)
    if len(board) != expected:
        problems.append("%d cells drawn, %d expected" % (len(board), expected))
    for axis, size, index, grows in (("x", "w", 0, not flipped), ("y", "h", 1, flipped)):
        by_line = {}
        for c in cells:
            centre = c[axis] + c[size] / 2
            by_line.setdefault(cell_coordinates(family, c["name"], cols, rows)[index], set()).add(centre)
        if any(len(values) != 1 for values in by_line.values()):
            problems.append("cells of one %s are not aligned" % ("file" if index == 0 else "row"))
        order = [by_line[k].pop() for k in sorted(by_line)]
        if order != sorted(order, reverse=not grows):
            problems.append("the %s are drawn out of order" % ("files" if index == 0 else "rows"))
    return problems


def stack_problems(cells, stacks):
    where = {c["name"]: c for c in cells}
    problems = []
    for stack in stacks:
        cell = where.get(stack["on"])
        centre = re.match(r"translate\(([-\d.]+)[ ,]+([-\d.]+)\)", stack["transform"] or "")
        if not cell or not centre:
            problems.append("a piece drawn off the board: %s" % stack)
            continue
        x, y = float(centre.group(1)), float(centre.group(2))
        if not (cell["x"] < x < cell["x"] + cell["w"] and cell["y"] < y < cell["y"] + cell["h"]):
            problems.append("the piece of %s is drawn outside its cell" % stack["on"])
    return problems


SNAPSHOT = """
const number = (e, a) => Number(e.getAttribute(a));
return {
  cells: [...document.querySelectorAll('#board [data-cell]')].map(e => ({
    name: e.dataset.cell, x: number(e, 'x'), y: number(e, 'y'), w: number(e, 'width'),
    h: number(e, 'height'), exit: e.classList.contains('exit')})),
  stacks: [...document.querySelectorAll('#board .stack')].map(g => ({
    on: g.dataset.on, transform: g.getAttribute('transform'),
    pieces: [...g.querySelectorAll('.piece')].map(p => ({cls: p.getAttribute('class'), level: p.dataset.level || null})),
    label: g.querySelector('.height') ? g.querySelector('.height').textContent : null})),
  moves: [...document.querySelectorAll('#move-list .move')].map(m => ({
    ply: Number(m.dataset.ply), text: m.textContent, future: m.classList.contains('future')})),
  page: Object.assign({}, document.body.dataset),
  status: document.getElementById('status').textContent,
  lines: [...document.querySelectorAll('#engine-lines li')].map(l => l.textContent),
  message: document.getElementById('message').textContent,
};"""


class Snapshot:
    """Everything the page shows, read in one script run, so that it is one consistent moment."""

    def __init__(self, data):
        self.__dict__.update(data)

    @property
    def played(self):
        return [m["text"] for m in sorted(self.moves, key=lambda m: m["ply"]) if not m["future"]]

    @property
    def your_turn(self):
        return self.page.get("yourTurn") == "yes"


class BoardPage:
    def __init__(self, chromium, chromedriver, screenshots):
        webdriver = import_selenium()
        from selenium.webdriver.chrome.service import Service
        options = webdriver.ChromeOptions()
        for flag in CHROMIUM_FLAGS:
            options.add_argument(flag)
        self.profile = tempfile.mkdtemp(prefix="donjon-chromium-")
        options.add_argument("--user-data-dir=" + self.profile)
        options.binary_location = chromium
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        self.driver = webdriver.Chrome(service=Service(chromedriver), options=options)
        self.driver.set_page_load_timeout(60)
        self.driver.set_script_timeout(60)
        self.screenshots = screenshots

    def quit(self):
        try:
            self.driver.quit()
        finally:
            shutil.rmtree(self.profile, ignore_errors=True)

    def console_errors(self):
        return [e["message"] for e in self.driver.get_log("browser") if e["level"] == "SEVERE"]

    def open(self, url):
        self.driver.get(url)
        return self.wait(lambda s: s.page.get("fen"), "the page shows no game")

    def snapshot(self):
        return Snapshot(self.driver.execute_script(SNAPSHOT))

    def wait(self, predicate, what, timeout=90.0):
        """The first snapshot for which predicate holds."""
        return poll(self.snapshot, predicate, timeout, lambda snap: "%s (after %.0fs): page %s, moves %s, status %r, message %r" % (
            what, timeout, snap.page, snap.played, snap.status, snap.message))

    def element(self, css):
        from selenium.webdriver.common.by import By
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def choose(self, select_id, value):
        from selenium.webdriver.support.select import Select
        Select(self.element("#" + select_id)).select_by_value(value)

    def press(self, button_id):
        self.element("#" + button_id).click()

    def set_mode(self, mode):
        self.choose("mode", mode)
        self.wait(lambda s: s.page.get("mode") == mode, "the server plays mode " + mode)

    def set_level(self, kind, value):
        from selenium.webdriver.support.select import Select
        Select(self.element("#level-preset")).select_by_visible_text("Custom")
        self.choose("level-kind", kind)
        self.type_into("level-value", str(value) + "\t")  # the change event fires when the field loses focus
        self.wait(lambda s: s.page.get("level") == "%s %s" % (kind, value), "the engine's level set")

    def type_into(self, field_id, text):
        """Replaces a field's text as a person does: click in it, select all, type."""
        from selenium.webdriver.common.keys import Keys
        field = self.element("#" + field_id)
        field.click()
        field.send_keys(Keys.CONTROL, "a")
        field.send_keys(text)

    def type_fen(self, fen):
        self.type_into("fen", fen)
        self.press("load-fen")

    def click_cell(self, name):
        self.element('#board [data-cell="%s"]' % name).click()

    def sent_count(self):
        return int(self.driver.execute_script("return document.body.dataset.sentCount || '0'"))

    def sent_since(self, count):
        """The move the page sent after `count` moves, if it sent exactly one more."""
        if self.sent_count() != count + 1:
            return None
        return self.driver.execute_script("return document.body.dataset.sent")

    def drag_move(self, origin, target):
        """Drags the piece on origin and lets it go on target; returns the move the page sent."""
        from selenium.webdriver.common.action_chains import ActionChains
        before = self.sent_count()
        cell = '#board [data-cell="%s"]'
        ActionChains(self.driver).click_and_hold(self.element(cell % origin)).move_to_element(
            self.element(cell % target)).release().perform()
        return self.sent_since(before)

    def enter_move(self, move, path):
        """Clicks the move's cells in order until the page sends a move; when the cells spell
        a move that longer ones also begin with, clicks the last cell again. Returns the move
        the page sent."""
        before = self.sent_count()
        for cell in path:
            self.click_cell(cell)
            if self.sent_count() > before:
                break
        else:
            self.click_cell(path[-1])
        return self.sent_since(before)

    def screenshot(self, name):
        os.makedirs(self.screenshots, exist_ok=True)
        path = os.path.join(self.screenshots, name)
        self.driver.save_screenshot(path)
        return path
