// connection.js — the page's one WebSocket to scripts/serve: JSON messages both ways. The game
// (and its engine) lives as long as the socket; when the socket drops, the page opens a new one
// and hands back the game it kept (app.js).

const RETRY_MS = 2000;

export class Connection {
  // onOpen(): a new socket, hence a new game; onEvent(event); onLost(): the socket dropped
  constructor({ onOpen, onEvent, onLost }) {
    Object.assign(this, { onOpen, onEvent, onLost });
    this.socket = null;
    this.open();
  }

  open() {
    const socket = new WebSocket(`ws://${location.host}/ws`);
    this.socket = socket;
    socket.addEventListener("open", () => this.onOpen());
    socket.addEventListener("message", (message) => this.onEvent(JSON.parse(message.data)));
    socket.addEventListener("close", () => {
      if (this.socket !== socket) return;
      this.onLost();
      setTimeout(() => this.open(), RETRY_MS);
    });
  }

  send(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify(message));
    }
  }
}
