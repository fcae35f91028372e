// panels.js — the text around the board: whose turn or the result, the engine's thinking with its
// evaluation bar, and the move list. Scores are shown from White's side, as on a scoresheet.

const PV_LENGTH = 12; // moves of a line shown; the rest would only wrap

// The engine scores from the side to move; +1 means White is better.
function forWhite(score, turn) {
  const sign = turn === "white" ? 1 : -1;
  if ("mate" in score) return { mate: sign * score.mate };
  return { cp: sign * score.cp };
}

export function scoreText(score) {
  if ("mate" in score) return `#${score.mate}`;
  const pawns = score.cp / 100;
  return `${pawns > 0 ? "+" : ""}${pawns.toFixed(2)}`;
}

// Share of the bar that is White's: a smooth curve of the score, full for a mate.
function whiteShare(score) {
  if ("mate" in score) return score.mate > 0 ? 1 : 0;
  return 1 / (1 + Math.exp(-score.cp / 250));
}

export function describeResult(result) {
  const [winner, ...why] = result.split(" ");
  const reason = why.join(" ");
  if (winner === "draw") return `Draw — ${reason}`;
  return `${winner === "white" ? "White" : "Black"} wins — ${reason}`;
}

export function showStatus(element, state, thinking) {
  element.classList.toggle("over", state.result !== "none");
  if (state.result !== "none") {
    element.textContent = describeResult(state.result);
    return;
  }
  const side = state.turn === "white" ? "White" : "Black";
  let who = "";
  if (state.mode === "analysis") who = " — analysis";
  else if (state.your_turn) who = " — your move";
  else if (state.mode === "engines" && state.paused) who = " — paused";
  else if (thinking) who = " — Donjon is thinking";
  element.textContent = `${side} to move${who}`;
}

export class EnginePanel {
  constructor({ summary, lines, bar, barText }) {
    Object.assign(this, { summary, lines, bar, barText });
    this.clear();
  }

  clear() {
    this.summary.textContent = "";
    this.lines.replaceChildren();
    this.setBar(null);
  }

  setBar(score) {
    const share = score === null ? 0.5 : whiteShare(score);
    this.bar.style.height = `${(share * 100).toFixed(1)}%`;
    this.barText.textContent = score === null ? "" : scoreText(score);
  }

  // One `info` event of the current search, for a position with `turn` to move.
  show(info, turn) {
    if (!info.score || !info.pv) return;
    const score = forWhite(info.score, turn);
    const rank = info.multipv || 1;
    if (rank === 1) {
      this.setBar(score);
      const speed = info.nps ? `${Math.round(info.nps / 1000)} kn/s` : "";
      this.summary.textContent = `depth ${info.depth}/${info.seldepth || info.depth} · ` +
        `${(info.nodes || 0).toLocaleString("en")} nodes · ${speed} · ${((info.time || 0) / 1000).toFixed(1)} s`;
    }
    while (this.lines.children.length < rank) {
      this.lines.appendChild(document.createElement("li"));
    }
    const line = this.lines.children[rank - 1];
    const bound = info.bound === "lowerbound" ? "≥" : info.bound === "upperbound" ? "≤" : "";
    const more = info.pv.length > PV_LENGTH ? " …" : "";
    line.replaceChildren();
    const value = document.createElement("b");
    value.textContent = bound + scoreText(score);
    line.append(value);
    for (const move of info.pv.slice(0, PV_LENGTH)) {
      const word = document.createElement("span"); // a line wraps between moves, never inside one
      word.className = "pv-move";
      word.textContent = move;
      line.append(" ", word);
    }
    line.append(more);
  }
}

// The move list: one row per move number, starting whenever the side that opens the game moves
// after the other side (a handicap's moves in a row share their row). Moves after the cursor
// (undone, can be redone) are dimmed. onGoto(ply) when a move is clicked.
export function showMoves(table, state, onGoto) {
  const body = document.createElement("tbody");
  let row = null;
  let number = 0;
  state.line.forEach((entry, ply) => {
    const previous = ply > 0 ? state.line[ply - 1].mover : null;
    const opensRow = entry.mover === state.first_mover ? previous !== entry.mover : previous === null;
    if (opensRow || row === null) {
      number += 1;
      row = body.insertRow();
      row.insertCell().textContent = `${number}.`;
      row.insertCell();
      row.insertCell();
    }
    const cell = row.cells[entry.mover === state.first_mover ? 1 : 2];
    const move = document.createElement("span");
    move.className = "move";
    if (ply >= state.cursor) move.classList.add("future");
    if (ply === state.cursor - 1) move.classList.add("current");
    move.dataset.ply = String(ply);
    move.textContent = entry.move;
    move.addEventListener("click", () => onGoto(ply + 1));
    if (cell.childNodes.length > 0) cell.append(" ");
    cell.append(move);
  });
  table.replaceChildren(body);
  const current = table.querySelector(".current");
  if (current) current.scrollIntoView({ block: "nearest" });
}
