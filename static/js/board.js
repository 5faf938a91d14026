// Keyboard play on the board: arrow keys move a cursor over the squares (one
// focusable square at a time), Enter or Space plays the square under it. After
// each server update the cursor stays where it was, and an older state never
// replaces a newer one. Squares are announced as legal moves, and can be played,
// only on the page of the player to move.
(function () {
  "use strict";
  var cursor = null; // the square the player put the cursor on (null: not yet)
  var onBoard = false; // whether the keyboard focus is on the board (kept across updates)

  function cells(board) { return Array.prototype.slice.call(board.querySelectorAll("button.cell")); }

  function place(board, name, focus) {
    var all = cells(board), target = null;
    all.forEach(function (cell) {
      cell.tabIndex = -1;
      if (cell.dataset.square === name && !cell.disabled) target = cell;
    });
    // Until the player moves the cursor, it waits on the first legal move.
    target = target || board.querySelector("button.cell.legal") || all.filter(function (c) { return !c.disabled; })[0];
    if (!target) return;
    target.tabIndex = 0;
    if (focus) target.focus();
  }

  function step(board, from, dx, dy) {
    var width = Number(board.dataset.width), all = cells(board);
    var index = all.indexOf(from), col = index % width, row = Math.floor(index / width);
    var rows = all.length / width;
    for (;;) {
      col += dx; row += dy;
      if (col < 0 || col >= width || row < 0 || row >= rows) return from;
      var next = all[row * width + col];
      if (!next.disabled) return next; // removed squares are skipped
    }
  }

  var moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

  document.addEventListener("keydown", function (event) {
    var cell = event.target.closest && event.target.closest(".board button.cell");
    if (!cell || !moves[event.key]) return;
    event.preventDefault();
    var board = cell.closest(".board"), d = moves[event.key];
    place(board, step(board, cell, d[0], d[1]).dataset.square, true);
  });

  document.addEventListener("focusin", function (event) {
    var cell = event.target.closest && event.target.closest(".board button.cell");
    onBoard = Boolean(cell);
    if (cell) cursor = cell.dataset.square;
  });

  // The state is drawn once for everybody; this page shows the legal moves, and lets
  // the squares be played, only when it is its viewer's turn.
  function myTurn() {
    var page = document.getElementById("game"), state = document.getElementById("game-state");
    if (!page || !state || state.dataset.status !== "playing") return false;
    return (page.dataset.viewerColours || "").split(" ").indexOf(state.dataset.turn) >= 0;
  }

  function markTurn(board) {
    var mine = myTurn(); // the dots follow the same rule in css/site.css
    cells(board).forEach(function (cell) {
      if (cell.disabled) return;
      if (mine) cell.removeAttribute("aria-disabled"); else cell.setAttribute("aria-disabled", "true");
      if (cell.dataset.labelForOthers === undefined) return;
      if (!cell.dataset.labelForMover) cell.dataset.labelForMover = cell.getAttribute("aria-label");
      cell.setAttribute("aria-label", mine ? cell.dataset.labelForMover : cell.dataset.labelForOthers);
    });
  }

  // A square clicked (or Enter pressed on it) out of turn does nothing.
  document.addEventListener("click", function (event) {
    var cell = event.target.closest && event.target.closest("#game-state .board button.cell");
    if (cell && !myTurn()) {
      event.preventDefault();
      event.stopPropagation();
    }
  }, true);

  function refresh() {
    var board = document.querySelector("#game-state .board");
    if (!board) return;
    markTurn(board);
    // The update replaced the focused square; give the focus back only if it was there.
    var lost = !document.activeElement || document.activeElement === document.body;
    place(board, cursor, onBoard && lost);
  }

  document.addEventListener("DOMContentLoaded", function () {
    var board = document.querySelector("#game-state .board");
    if (!board) return;
    markTurn(board);
    place(board, null, false);
    // A table page may learn its viewer's seat after it was served (lobby/table.js).
    new MutationObserver(refresh).observe(document.getElementById("game"), { attributeFilter: ["data-viewer-colours"] });
  });
  // The answer to a click and the pushes over the websocket race each other: the
  // computer's reply can be pushed before the answer to the move it replies to
  // arrives. Never let an older state replace a newer one.
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var shown = event.detail.target, fragment = event.detail.fragment;
    var incoming = fragment && (fragment.firstElementChild || fragment);
    if (!shown.dataset || !shown.dataset.version || !incoming || !incoming.dataset) return;
    if (Number(incoming.dataset.version) < Number(shown.dataset.version)) event.detail.shouldSwap = false;
  });
  // A refusal is about the position it answered: once a newer one is shown, it goes.
  function dropStaleMessage() {
    var message = document.getElementById("game-message"), state = document.getElementById("game-state");
    if (message && state && message.dataset.version && Number(message.dataset.version) < Number(state.dataset.version)) {
      message.textContent = "";
      delete message.dataset.version;
    }
  }
  document.addEventListener("htmx:oobAfterSwap", refresh);
  document.addEventListener("htmx:wsAfterMessage", refresh);
  document.addEventListener("htmx:wsAfterMessage", dropStaleMessage);

  // The move list shows its newest move (it scrolls once it is long).
  function lastMove() {
    var list = document.getElementById("move-list");
    if (list) list.scrollTop = list.scrollHeight;
  }
  document.addEventListener("htmx:wsAfterMessage", lastMove);
  document.addEventListener("htmx:afterSwap", lastMove);
  document.addEventListener("DOMContentLoaded", lastMove);
})();
