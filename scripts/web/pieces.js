// pieces.js — what stands on each cell, read from the engine's FEN, and how it is drawn in SVG.
// Every drawn piece carries the classes `piece <kind> <colour>` (and tawol pieces a data-level),
// an ecroulement stack its height as text: what a person reads, a test can read too.

const SVG = "http://www.w3.org/2000/svg";

export function svgElement(name, attributes = {}, parent = null) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  if (parent) parent.appendChild(element);
  return element;
}

const colourOf = (letter) => (letter === letter.toUpperCase() ? "white" : "black");

// Rows 8 → 1, `/` between rows, a digit for a run of empty cells; `token` is a RegExp for one
// cell's text. Returns Map name → token text.
function readRows(placement, token, cols) {
  const cells = new Map();
  const rows = placement.split("/");
  rows.forEach((row, fromTop) => {
    let x = 0;
    for (const [text] of row.matchAll(token)) {
      if (/^\d+$/.test(text)) {
        x += Number(text);
      } else {
        cells.set("abcdefghij"[x] + String(rows.length - fromTop), text);
        x += 1;
      }
    }
    if (x !== cols) throw new Error(`row ${rows.length - fromTop} of the FEN is not ${cols} cells`);
  });
  return cells;
}

function mapValues(map, read) {
  return new Map([...map].map(([name, text]) => [name, read(text)]));
}

const READERS = {
  // `(RRS)`: a stack's rounds and squares
  gounki: (placement, cols) =>
    mapValues(readRows(placement, /\([RSrs]+\)|[RSrs]|\d/g, cols), (text) => ({
      colour: colourOf(text.replace("(", "")[0]),
      rounds: (text.match(/[Rr]/g) || []).length,
      squares: (text.match(/[Ss]/g) || []).length,
    })),
  // `W(3)`: a stack's height
  ecroulement: (placement, cols) =>
    mapValues(readRows(placement, /[WB](?:\(\d+\))?|\d/g, cols), (text) => ({
      colour: text[0] === "W" ? "white" : "black",
      height: text.length > 1 ? Number(text.slice(2, -1)) : 1,
    })),
  // `[tA]`: the lower piece, then the one on top
  tawol: (placement, cols) =>
    mapValues(readRows(placement, /\[[TABtab]{2}\]|[TABtab]|\d/g, cols), (text) => {
      const letters = text.replace(/[[\]]/g, "");
      const piece = (letter) => ({ colour: colourOf(letter), kind: TAWOL_KINDS[letter.toUpperCase()] });
      return { lower: piece(letters[0]), upper: letters.length > 1 ? piece(letters[1]) : null };
    }),
};
const TAWOL_KINDS = { T: "tower", A: "collar1", B: "collar2" };

// `W:W21,K22:B1-12`: square numbers, K for a king, ranges accepted
function readDraughts(fen) {
  const cells = new Map();
  for (const field of fen.split(":").slice(1)) {
    const colour = { W: "white", B: "black" }[field[0]];
    if (!colour) continue; // trailing PDN fields
    for (const item of field.slice(1).split(",").filter(Boolean)) {
      const king = item.startsWith("K");
      const [first, last] = item.replace("K", "").split("-").map(Number);
      for (let n = first; n <= (last || first); n++) cells.set(String(n), { colour, king });
    }
  }
  return cells;
}

// Map cell name → what stands there, for the game's family.
export function readPosition(family, fen, cols) {
  if (family === "draughts") return readDraughts(fen);
  return READERS[family](fen.split(" ")[0], cols);
}

// --- drawing: each function draws in a 100×100 cell whose centre is (0, 0) ---

function drawDraughtsPiece(group, { colour, king }) {
  svgElement("circle", { class: `piece ${king ? "king" : "man"} ${colour}`, r: 38, cy: 3 }, group);
  svgElement("circle", { class: `rim ${colour}`, r: 27, cy: 3 }, group);
  if (king) {
    svgElement("path", { class: `crown ${colour}`, d: "M-17 12 L-20 -10 L-9 0 L0 -15 L9 0 L20 -10 L17 12 Z" }, group);
  }
}

// A stack reads bottom-left to top-right, rounds (circles) below squares: the FEN's order.
const GOUNKI_LAYOUT = {
  1: { size: 62, offsets: [[0, 0]] },
  2: { size: 46, offsets: [[-15, 15], [15, -15]] },
  3: { size: 38, offsets: [[-24, 24], [0, 0], [24, -24]] },
};

function drawGounkiStack(group, { colour, rounds, squares }) {
  const shapes = [...Array(rounds).fill("round"), ...Array(squares).fill("square")];
  const { size, offsets } = GOUNKI_LAYOUT[shapes.length] || GOUNKI_LAYOUT[3];
  shapes.forEach((shape, i) => {
    const [dx, dy] = offsets[Math.min(i, offsets.length - 1)];
    const cls = `piece ${shape} ${colour}`;
    if (shape === "round") {
      svgElement("circle", { class: cls, cx: dx, cy: dy, r: size / 2 }, group);
    } else {
      svgElement("rect", { class: cls, x: dx - size / 2, y: dy - size / 2, width: size, height: size, rx: 3 }, group);
    }
  });
}

// A stack is a pile of discs seen slightly from the side, its height written on top.
function drawEcroulementStack(group, { colour, height }) {
  const layers = Math.min(height, 6);
  const lift = 6;
  const baseY = ((layers - 1) * lift) / 2 + 4;
  for (let i = 0; i < layers - 1; i++) {
    svgElement("ellipse", { class: `layer ${colour}`, cx: 0, cy: baseY - i * lift, rx: 34, ry: 26 }, group);
  }
  const topY = baseY - (layers - 1) * lift;
  svgElement("ellipse", { class: `piece pawn ${colour}`, cx: 0, cy: topY, rx: 34, ry: 26 }, group);
  if (height > 1) {
    const label = svgElement("text", { class: `height ${colour}`, x: 0, y: topY + 11 }, group);
    label.textContent = String(height);
  }
}

function drawTawolPiece(group, { colour, kind }, level) {
  const cls = `piece ${kind} ${colour}`;
  if (kind === "tower") {
    svgElement("path", {
      class: cls, "data-level": level,
      d: "M-28 32 L-28 -18 L-28 -32 L-16 -32 L-16 -22 L-6 -22 L-6 -32 L6 -32 L6 -22 L16 -22 L16 -32 L28 -32 L28 32 Z",
    }, group);
    return;
  }
  svgElement("circle", { class: cls, "data-level": level, r: 30 }, group);
  const collars = kind === "collar1" ? [20] : [20, 11];
  for (const r of collars) svgElement("circle", { class: `collar ${colour}`, r }, group);
}

// Tawol's levels: a piece on the board fills its cell; a pawn standing on another piece is drawn
// smaller, up and to the right, over the lower piece pushed down and to the left.
function drawTawolCell(group, { lower, upper }) {
  if (!upper) {
    drawTawolPiece(group, lower, 1);
    return;
  }
  const below = svgElement("g", { transform: "translate(-9 9) scale(0.9)" }, group);
  drawTawolPiece(below, lower, 1);
  const above = svgElement("g", { class: "upstairs", transform: "translate(17 -17) scale(0.72)" }, group);
  svgElement("circle", { class: "shadow", r: 36, cx: 4, cy: 5 }, above);
  drawTawolPiece(above, upper, 2);
}

const DRAWERS = {
  draughts: drawDraughtsPiece,
  gounki: drawGounkiStack,
  ecroulement: drawEcroulementStack,
  tawol: drawTawolCell,
};

export function drawCell(family, content, parent) {
  const group = svgElement("g", { class: "stack" }, parent);
  DRAWERS[family](group, content);
  return group;
}
