// board.js — the board in SVG: cells, coordinates, pieces, highlights, and the pointer (click or
// drag) turned into cell presses. It draws what it is given; it decides nothing about moves.

import { cellName, clickableCells } from "./notation.js";
import { drawCell, svgElement } from "./pieces.js";

const CELL = 100;
const MARGIN = 34;      // room for coordinates
const EXIT_STRIP = 56;  // height of gounki's exit rows, drawn beyond the far edges
const DRAG_THRESHOLD = 8; // pixels a press must travel before it counts as a drag

export class BoardView {
  // onPress(cell name): a cell was pressed (a click, or the start of a drag);
  // onDrop(cell name): a dragged piece was let go over another cell.
  constructor(svg, { onPress, onDrop }) {
    this.svg = svg;
    this.onPress = onPress;
    this.onDrop = onDrop;
    this.flipped = false;
    this.geometry = null;
    this.drag = null;
    svg.addEventListener("pointerdown", (event) => this.pointerDown(event));
    svg.addEventListener("pointermove", (event) => this.pointerMove(event));
    svg.addEventListener("pointerup", (event) => this.pointerUp(event));
    svg.addEventListener("pointercancel", () => this.endDrag());
  }

  // (Re)builds the cells when the game or the orientation changes.
  setup(family, cols, rows, flipped) {
    const key = `${family} ${cols}x${rows} ${flipped}`;
    if (this.geometry && this.geometry.key === key) return;
    this.flipped = flipped;
    const exits = family === "gounki";
    this.geometry = { key, family, cols, rows, top: MARGIN / 2 + (exits ? EXIT_STRIP : 0) };
    const height = this.geometry.top + rows * CELL + (exits ? EXIT_STRIP : 0) + MARGIN;
    this.svg.setAttribute("viewBox", `0 0 ${MARGIN + cols * CELL + MARGIN / 2} ${height}`);
    this.svg.replaceChildren();
    this.squares = svgElement("g", { class: "squares" }, this.svg);
    this.marks = svgElement("g", { class: "marks" }, this.svg);
    this.pieces = svgElement("g", { class: "pieces" }, this.svg);
    this.hints = svgElement("g", { class: "hints" }, this.svg);
    this.cells = new Map();
    for (let y = 0; y < rows; y++) {
      for (let x = 0; x < cols; x++) {
        const dark = (x + y) % 2 === 0; // a1 is dark in every game
        const rect = this.rectOf(x, y);
        const name = cellName(family, x, y, cols, rows);
        const square = svgElement("rect", {
          class: `square ${dark ? "dark" : "light"} ${family}`, x: rect.x, y: rect.y, width: CELL, height: CELL,
        }, this.squares);
        if (name !== null) {
          square.dataset.cell = name;
          this.cells.set(name, { rect, element: square });
          if (family === "draughts") {
            const number = svgElement("text", { class: "number", x: rect.x + 5, y: rect.y + 17 }, this.squares);
            number.textContent = name;
          }
        }
      }
    }
    for (const cell of clickableCells(family, cols, rows).filter((c) => c.exit)) {
      const rect = this.rectOf(cell.x, cell.y);
      const strip = svgElement("rect", {
        class: "square exit", x: rect.x + 2, y: rect.y + 2, width: CELL - 4, height: rect.height - 4, rx: 8,
      }, this.squares);
      strip.dataset.cell = cell.name;
      this.cells.set(cell.name, { rect, element: strip });
    }
    this.drawCoordinates(family, cols, rows);
  }

  // The rectangle of cell (x, y) in SVG units, for the current orientation.
  rectOf(x, y) {
    const { cols, rows, top } = this.geometry;
    const column = this.flipped ? cols - 1 - x : x;
    const line = this.flipped ? y : rows - 1 - y; // 0 = the top row on screen
    const left = MARGIN + column * CELL;
    if (y < 0 || y >= rows) { // an exit row, beyond the top or the bottom edge
      const above = (y >= rows) !== this.flipped;
      return { x: left, y: above ? top - EXIT_STRIP : top + rows * CELL, width: CELL, height: EXIT_STRIP };
    }
    return { x: left, y: top + line * CELL, width: CELL, height: CELL };
  }

  drawCoordinates(family, cols, rows) {
    if (family === "draughts") return; // the squares carry their numbers
    const { top } = this.geometry;
    for (let x = 0; x < cols; x++) {
      const rect = this.rectOf(x, 0);
      const label = svgElement("text", { class: "coordinate", x: rect.x + CELL / 2, y: top + rows * CELL + (family === "gounki" ? EXIT_STRIP : 0) + 24 }, this.squares);
      label.textContent = "abcdefghij"[x];
    }
    for (let y = 0; y < rows; y++) {
      const rect = this.rectOf(0, y);
      const label = svgElement("text", { class: "coordinate", x: MARGIN / 2, y: rect.y + CELL / 2 + 8 }, this.squares);
      label.textContent = String(y + 1);
    }
  }

  // position: Map name → content (pieces.js readPosition)
  drawPosition(position) {
    this.pieces.replaceChildren();
    for (const [name, content] of position) {
      const cell = this.cells.get(name);
      if (!cell) continue;
      const group = drawCell(this.geometry.family, content, this.pieces);
      group.dataset.on = name;
      group.setAttribute("transform", `translate(${cell.rect.x + CELL / 2} ${cell.rect.y + CELL / 2})`);
    }
  }

  // marks: { last: [names], selected: [names], targets: [names], sources: [names], confirm: name }
  mark({ last = [], selected = [], targets = [], sources = [], confirm = null }) {
    this.marks.replaceChildren();
    this.hints.replaceChildren();
    for (const [name, { element }] of this.cells) {
      element.classList.toggle("source", sources.includes(name));
      element.classList.toggle("target", targets.includes(name));
    }
    const shade = (names, cls) => {
      for (const name of names) {
        const cell = this.cells.get(name);
        if (cell) svgElement("rect", { class: cls, x: cell.rect.x, y: cell.rect.y, width: CELL, height: cell.rect.height }, this.marks);
      }
    };
    shade(last, "last-move");
    shade(selected, "selected");
    const occupied = new Set([...this.pieces.children].map((g) => g.dataset.on));
    for (const name of targets) {
      const cell = this.cells.get(name);
      if (!cell) continue;
      const centre = { cx: cell.rect.x + CELL / 2, cy: cell.rect.y + cell.rect.height / 2 };
      svgElement("circle", occupied.has(name) ? { class: "target-ring", r: 44, ...centre } : { class: "target-dot", r: 13, ...centre }, this.hints);
    }
    if (confirm && this.cells.has(confirm)) {
      const { rect } = this.cells.get(confirm);
      svgElement("rect", { class: "confirm", x: rect.x + 4, y: rect.y + 4, width: CELL - 8, height: rect.height - 8, rx: 10 }, this.hints);
    }
  }

  // --- pointer: a press selects or steps; dragging a piece and letting it go elsewhere steps too
  cellAt(clientX, clientY) {
    const element = document.elementFromPoint(clientX, clientY);
    return element && element.dataset ? element.dataset.cell || null : null;
  }

  pointerDown(event) {
    if (event.button !== 0) return;
    const name = event.target.dataset ? event.target.dataset.cell : undefined;
    if (!name) return;
    event.preventDefault();
    const piece = [...this.pieces.children].find((g) => g.dataset.on === name);
    this.drag = { name, piece, startX: event.clientX, startY: event.clientY, moved: false, base: piece ? piece.getAttribute("transform") : null };
    this.svg.setPointerCapture(event.pointerId);
    this.onPress(name);
  }

  pointerMove(event) {
    if (!this.drag || !this.drag.piece) return;
    const dx = event.clientX - this.drag.startX;
    const dy = event.clientY - this.drag.startY;
    if (!this.drag.moved && Math.hypot(dx, dy) < DRAG_THRESHOLD) return;
    this.drag.moved = true;
    const scale = this.svg.viewBox.baseVal.width / this.svg.getBoundingClientRect().width;
    this.drag.piece.classList.add("dragging");
    this.drag.piece.setAttribute("transform", `${this.drag.base} translate(${dx * scale} ${dy * scale})`);
  }

  pointerUp(event) {
    const drag = this.drag;
    this.endDrag();
    if (!drag || !drag.moved) return;
    const name = this.cellAt(event.clientX, event.clientY);
    if (name && name !== drag.name) this.onDrop(name);
  }

  endDrag() {
    if (this.drag && this.drag.piece && this.drag.piece.isConnected) {
      this.drag.piece.classList.remove("dragging");
      this.drag.piece.setAttribute("transform", this.drag.base);
    }
    this.drag = null;
  }
}
