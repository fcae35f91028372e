// app.js — the page's wiring: the server's events drawn on the board and the panels, the
// controls and the board's clicks sent back as messages, and the game kept in the tab's
// sessionStorage so that a reload (or a server restart) picks it up again.

import { BoardView } from "./board.js";
import { Connection } from "./connection.js";
import { MoveInput } from "./move_input.js";
import { clickPath, familyOf } from "./notation.js";
import { EnginePanel, showMoves, showStatus } from "./panels.js";
import { readPosition } from "./pieces.js";

const $ = (id) => document.getElementById(id);
const STORAGE_KEY = "donjon-game";
const LEVELS = [
  ["Beginner — 1 ply", "depth", 1],
  ["Novice — 2 plies", "depth", 2],
  ["Casual — 4 plies", "depth", 4],
  ["Quick — 0.1 s a move", "movetime", 100],
  ["Club — 1 s a move", "movetime", 1000],
  ["Strong — 5 s a move", "movetime", 5000],
  ["Custom", null, null],
];
const DEFAULT_LEVEL = 4; // Club

let state = null;        // the server's last `state` event
let search = null;       // { id, analysis } of the search running, or null
let flipped = false;
let hello = null;
let customLevel = false; // the person chose "Custom": the fields stay, even on a preset's values
// The settings controls belong to the person: the server's states only echo them, sometimes
// late, so they are read from a state only once after connecting (a restored game's settings).
let settingsFromServer = true;
const input = new MoveInput();
const board = new BoardView($("board"), { onPress: press, onDrop: press });
const engine = new EnginePanel({ summary: $("engine-summary"), lines: $("engine-lines"), bar: $("eval-white"), barText: $("eval-text") });
const connection = new Connection({ onOpen: startOrRestore, onEvent: onEvent, onLost: () => showMessage("Connection lost; reconnecting…") });

// --- settings ------------------------------------------------------------------------------

for (const [label] of LEVELS) $("level-preset").add(new Option(label, label));
$("level-preset").selectedIndex = DEFAULT_LEVEL;
applyPreset();

function applyPreset() {
  const [, kind, value] = LEVELS[$("level-preset").selectedIndex];
  customLevel = kind === null;
  $("level-custom").hidden = !customLevel;
  if (kind !== null) {
    $("level-kind").value = kind;
    $("level-value").value = value;
  }
}

function settings() {
  const level = { kind: $("level-kind").value, value: Math.max(1, Math.round(Number($("level-value").value)) || 1) };
  const result = { mode: $("mode").value, level, paused: state ? state.paused : false };
  if (hello && hello.skill) result.skill = Number($("skill").value);
  return result;
}

function sendSettings() {
  connection.send({ type: "settings", ...settings() });
}

// --- starting a game -------------------------------------------------------------------------

function startOrRestore() {
  showMessage("");
  settingsFromServer = true;
  const kept = JSON.parse(sessionStorage.getItem(STORAGE_KEY) || "null");
  const asked = new URLSearchParams(location.search).get("variant");
  if (kept && (!asked || asked === kept.variant)) {
    connection.send({ type: "restore", ...kept });
    return;
  }
  connection.send({ type: "new", variant: asked || "gounki", handicap: "none", settings: settings() });
}

function newGame() {
  connection.send({ type: "new", variant: $("variant").value, handicap: $("handicap").value, settings: settings() });
}

function keep() {
  sessionStorage.setItem(STORAGE_KEY, JSON.stringify({
    variant: state.variant, handicap: state.handicap, start: state.start,
    moves: state.line.map((entry) => entry.move), cursor: state.cursor,
    settings: { mode: state.mode, level: state.level, paused: state.paused, ...(state.skill === null ? {} : { skill: state.skill }) },
  }));
}

// --- events from the server ------------------------------------------------------------------

function onEvent(event) {
  if (event.type === "hello") onHello(event);
  else if (event.type === "state") onState(event);
  else if (event.type === "search") onSearch(event);
  else if (event.type === "info") {
    if (search && event.search === search.id && state) engine.show(event, state.turn);
  } else if (event.type === "record") download(event.filename, event.text);
  else if (event.type === "error") onRefusal(event.message);
}

// The server refused something: the position did not change, so the board takes clicks again.
// Refused before any game (a kept game it cannot restore, an address naming no game): the page
// starts the default game instead, once.
let startedDefault = false;
function onRefusal(message) {
  showMessage(message);
  if (state) {
    input.enabled = state.your_turn;
    showMarks();
  } else if (!startedDefault) {
    startedDefault = true;
    sessionStorage.removeItem(STORAGE_KEY);
    connection.send({ type: "new", variant: "gounki", handicap: "none", settings: settings() });
  }
}

function onHello(event) {
  hello = event;
  document.body.dataset.enginePid = String(event.engine_pid);
  const fill = (select, values) => {
    const chosen = select.value;
    select.replaceChildren(...values.map((v) => new Option(v, v)));
    if (values.includes(chosen)) select.value = chosen;
  };
  fill($("variant"), event.variants);
  fill($("handicap"), event.handicaps);
  $("skill-label").hidden = !event.skill;
  if (event.skill) {
    const levels = [];
    for (let s = event.skill.min; s <= event.skill.max; s++) levels.push(String(s));
    fill($("skill"), levels);
    if (!$("skill").value || $("skill").dataset.set !== "yes") $("skill").value = String(event.skill.default);
  }
}

function onSearch(event) {
  search = { id: event.search, analysis: event.analysis };
  engine.clear();
  if (state) showStatus($("status"), state, true);
  document.body.dataset.thinking = "yes";
}

function onState(event) {
  const newGameShown = !state || state.variant !== event.variant;
  const modeChanged = !state || state.mode !== event.mode;
  state = event;
  search = null;
  document.body.dataset.thinking = "no";
  if (modeChanged) flipped = state.mode === "black"; // a player sees the board from their side
  if (newGameShown) engine.clear();
  input.setLegal(familyOf(state.variant), state.legal, state.your_turn);
  drawBoard();
  showMoves($("move-list"), state, (ply) => connection.send({ type: "goto", ply }));
  showStatus($("status"), state, false);
  showControls();
  if (document.activeElement !== $("fen")) $("fen").value = state.fen;
  Object.assign(document.body.dataset, {
    variant: state.variant, fen: state.fen, turn: state.turn, result: state.result,
    cursor: String(state.cursor), yourTurn: state.your_turn ? "yes" : "no",
    mode: state.mode, level: `${state.level.kind} ${state.level.value}`,
  });
  keep();
  // the address names the game shown, so that a reload or a bookmark opens it
  if (new URLSearchParams(location.search).get("variant") !== state.variant) {
    history.replaceState(null, "", `?variant=${encodeURIComponent(state.variant)}`);
  }
}

function drawBoard() {
  const family = familyOf(state.variant);
  board.setup(family, state.cols, state.rows, flipped);
  board.drawPosition(readPosition(family, state.fen, state.cols));
  showMarks();
}

function showControls() {
  $("variant").value = state.variant;
  $("handicap").value = state.handicap;
  $("handicap-label").hidden = state.variant !== "gounki";
  if (settingsFromServer) {
    settingsFromServer = false;
    $("mode").value = state.mode;
    const preset = LEVELS.findIndex(([, kind, value]) => kind === state.level.kind && value === state.level.value);
    $("level-preset").selectedIndex = preset >= 0 ? preset : LEVELS.length - 1;
    customLevel = preset < 0;
    $("level-kind").value = state.level.kind;
    $("level-value").value = state.level.value;
    $("level-custom").hidden = !customLevel;
    if (state.skill !== null) $("skill").value = String(state.skill);
  }
  $("undo").disabled = $("first").disabled = state.cursor === 0;
  $("redo").disabled = $("last").disabled = state.cursor >= state.line.length;
  $("pause").hidden = state.mode !== "engines";
  $("pause").textContent = state.paused ? "Resume" : "Pause";
  $("move-now").hidden = !["white", "black", "engines"].includes(state.mode);
}

function showMarks() {
  const marks = input.marks();
  const played = state.cursor > 0 ? state.line[state.cursor - 1].move : null;
  const last = played ? clickPath(familyOf(state.variant), played) : []; // every cell it went through
  board.mark({ ...marks, last });
  const choices = $("choices");
  choices.hidden = marks.choices.length === 0;
  choices.replaceChildren(...marks.choices.map((move) => {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = move;
    button.addEventListener("click", () => play(move));
    return button;
  }));
}

function showMessage(text) {
  $("message").textContent = text;
}

// --- the board ---------------------------------------------------------------------------------

function press(cell) {
  if (!state) return;
  const move = input.press(cell);
  if (move) play(move);
  else showMarks();
}

function play(move) {
  input.reset();
  input.enabled = false; // until the server's next state: one move per turn
  // what was sent, and how many moves so far: the page's record of its own clicks
  document.body.dataset.sent = move;
  document.body.dataset.sentCount = String(Number(document.body.dataset.sentCount || 0) + 1);
  showMarks();
  showMessage("");
  connection.send({ type: "move", move });
}

// --- controls ----------------------------------------------------------------------------------

function download(filename, text) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], { type: "application/x-chess-pgn" }));
  link.download = filename;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
}

async function copyFen() {
  const fen = state ? state.fen : "";
  try {
    await navigator.clipboard.writeText(fen);
  } catch {
    $("fen").value = fen; // no clipboard permission: leave it selected for Ctrl+C
    $("fen").select();
    document.execCommand("copy");
  }
  showMessage("FEN copied");
}

$("variant").addEventListener("change", newGame);
$("handicap").addEventListener("change", newGame);
$("new-game").addEventListener("click", newGame);
$("mode").addEventListener("change", sendSettings);
$("level-preset").addEventListener("change", () => { applyPreset(); sendSettings(); });
$("level-kind").addEventListener("change", sendSettings);
$("level-value").addEventListener("change", sendSettings);
$("skill").addEventListener("change", () => { $("skill").dataset.set = "yes"; sendSettings(); });
$("undo").addEventListener("click", () => connection.send({ type: "undo" }));
$("redo").addEventListener("click", () => connection.send({ type: "redo" }));
$("first").addEventListener("click", () => connection.send({ type: "goto", ply: 0 }));
$("last").addEventListener("click", () => state && connection.send({ type: "goto", ply: state.line.length }));
$("flip").addEventListener("click", () => {
  flipped = !flipped;
  if (state) drawBoard();
});
$("move-now").addEventListener("click", () => connection.send({ type: "movenow" }));
$("pause").addEventListener("click", () => state && connection.send({ type: "settings", ...settings(), paused: !state.paused }));
$("load-fen").addEventListener("click", () => connection.send({ type: "fen", fen: $("fen").value }));
$("fen").addEventListener("keydown", (event) => { if (event.key === "Enter") $("load-fen").click(); });
$("copy-fen").addEventListener("click", copyFen);
$("download").addEventListener("click", () => connection.send({ type: "record" }));
document.addEventListener("keydown", (event) => {
  if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
  if (event.key === "ArrowLeft") $("undo").click();
  else if (event.key === "ArrowRight") $("redo").click();
  else if (event.key === "Escape") { input.reset(); if (state) showMarks(); }
});
