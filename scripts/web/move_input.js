// move_input.js — turns a person's clicks on cells into one of the engine's legal moves.
//
// Each legal move has a click path (notation.js): the cells a person clicks, in order. The clicks
// so far narrow the moves down; a move is played as soon as it is the only one left. When the
// clicks spell a whole move that is also the start of longer ones (a gounki displacement and a
// deployment through the same cell, two capture routes of which one is longer), clicking the last
// cell again plays the shorter move, and the longer ones go on with their next cell.

import { clickPath } from "./notation.js";

const startsWith = (path, prefix) => prefix.every((cell, i) => path[i] === cell);

export class MoveInput {
  constructor() {
    this.moves = [];   // [{ move, path }]
    this.clicked = []; // cells clicked so far
    this.enabled = false;
  }

  setLegal(family, moves, enabled) {
    this.moves = moves.map((move) => ({ move, path: clickPath(family, move) }));
    this.enabled = enabled;
    this.clicked = [];
  }

  reset() {
    this.clicked = [];
  }

  candidates(clicked = this.clicked) {
    return this.moves.filter((m) => startsWith(m.path, clicked));
  }

  // The move the clicks spell exactly, if any.
  complete(clicked = this.clicked) {
    return this.candidates(clicked).find((m) => m.path.length === clicked.length) || null;
  }

  // A press on a cell: returns the move to play, or null (the marks change).
  press(cell) {
    if (!this.enabled) return null;
    const clicked = this.clicked;
    const again = clicked.length > 0 && cell === clicked[clicked.length - 1];
    const whole = again && clicked.length > 1 ? this.complete() : null;
    if (whole) return this.finish(whole.move);
    const next = [...clicked, cell];
    const left = this.candidates(next);
    if (again && left.length === 0) {
      this.clicked = clicked.length === 1 ? [] : clicked; // pressing the chosen piece again drops it
      return null;
    }
    if (left.length === 0) {
      // not a step of the move begun: perhaps another piece of one's own, else nothing
      this.clicked = this.candidates([cell]).length > 0 ? [cell] : [];
      return null;
    }
    if (left.length === 1 && next.length > 1) return this.finish(left[0].move);
    this.clicked = next;
    return null;
  }

  finish(move) {
    this.clicked = [];
    return move;
  }

  // What to show: the cells a move can start from, those clicked, the possible next cells, the
  // cell to click again for a move already spelt whole, and the moves still possible.
  marks() {
    if (!this.enabled) return { sources: [], selected: [], targets: [], confirm: null, choices: [] };
    const left = this.candidates();
    const depth = this.clicked.length;
    const next = new Set(left.filter((m) => m.path.length > depth).map((m) => m.path[depth]));
    const whole = depth > 1 ? this.complete() : null;
    return {
      sources: depth === 0 ? [...next] : [],
      selected: [...this.clicked],
      targets: depth === 0 ? [] : [...next],
      confirm: whole ? this.clicked[depth - 1] : null,
      choices: depth > 1 && left.length > 1 ? left.map((m) => m.move) : [],
    };
  }
}
