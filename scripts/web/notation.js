// notation.js — how each game names its cells and writes its moves, as far as the page needs:
// which cell a name stands for, and the cells a person clicks to enter a move. No rules here:
// which moves exist is always the engine's answer.

const DRAUGHTS = new Set(["checkers", "russian", "brazilian", "international"]);

export function familyOf(variant) {
  if (DRAUGHTS.has(variant)) return "draughts";
  if (variant === "ecroulement-rapide") return "ecroulement";
  return variant; // gounki, ecroulement, tawol
}

// Cells are (x, y): x the file from the left (a = 0), y the row from the bottom (row 1 = 0), as
// White sees the board. Gounki's exit cells are rows 0 and 9 (y = -1 and y = rows).

const FILES = "abcdefghij";

// PDN numbering: dark squares from the top row down, left to right on each row; the top row's
// first dark square is its second cell.
function draughtsNumber(x, y, cols, rows) {
  const fromTop = rows - 1 - y;
  const firstDark = fromTop % 2 === 0 ? 1 : 0;
  if ((x - firstDark) % 2 !== 0) return null;
  return fromTop * (cols / 2) + (x - firstDark) / 2 + 1;
}

function draughtsCell(number, cols, rows) {
  const perRow = cols / 2;
  const fromTop = Math.floor((number - 1) / perRow);
  const x = 2 * ((number - 1) % perRow) + (fromTop % 2 === 0 ? 1 : 0);
  return { x, y: rows - 1 - fromTop };
}

// The name of cell (x, y), or null where the game has no cell (draughts' light squares).
export function cellName(family, x, y, cols, rows) {
  if (family === "draughts") {
    const n = draughtsNumber(x, y, cols, rows);
    return n === null ? null : String(n);
  }
  return FILES[x] + String(y + 1);
}

export function cellOf(family, name, cols, rows) {
  if (family === "draughts") return draughtsCell(Number(name), cols, rows);
  return { x: FILES.indexOf(name[0]), y: Number(name.slice(1)) - 1 };
}

// Every cell a person can click: the board's, plus gounki's exit rows.
export function clickableCells(family, cols, rows) {
  const cells = [];
  const lowest = family === "gounki" ? -1 : 0;
  const highest = family === "gounki" ? rows : rows - 1;
  for (let y = lowest; y <= highest; y++) {
    for (let x = 0; x < cols; x++) {
      const name = cellName(family, x, y, cols, rows);
      if (name !== null) cells.push({ name, x, y, exit: y < 0 || y >= rows });
    }
  }
  return cells;
}

// The cells a person clicks, in order, to enter a move:
// - draughts: from, to, then the landing squares between, which the engine writes only when two
//   routes join the same squares (`28x19x10` is clicked 28, 10, 19);
// - gounki: a displacement's two cells, a deployment's origin then each cell it fills
//   (`a6*a7,b8,c9`);
// - ecroulement and tawol: from and to.
export function clickPath(family, move) {
  if (family === "draughts") {
    const squares = move.split(/[-x:]/);
    return [squares[0], squares[squares.length - 1], ...squares.slice(1, -1)];
  }
  if (move.includes("*")) {
    const [from, rest] = move.split("*");
    return [from, ...rest.split(",")];
  }
  return move.split(/[-x]/);
}
