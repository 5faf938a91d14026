// A table page: the move countdown, reloading when the game starts or a rematch begins, copying the link.
(function () {
  "use strict";
  var page = document.getElementById("game");
  // How far the server's clock is ahead of this one (measured when the page was served).
  var offset = page && page.dataset.serverNow ? Number(page.dataset.serverNow) - Date.now() : 0;

  function tick() {
    var clock = document.getElementById("move-clock");
    if (!clock) return;
    var state = document.getElementById("game-state");
    var deadline = state && state.dataset.status === "playing" ? Date.parse(state.dataset.deadline || "") : NaN;
    if (isNaN(deadline)) { clock.hidden = true; return; }
    var left = Math.max(0, Math.ceil((deadline - (Date.now() + offset)) / 1000));
    clock.hidden = false;
    clock.dataset.turn = state.dataset.turn;
    clock.querySelector(".seconds").textContent = String(left);
    clock.classList.toggle("urgent", left <= 10);
  }

  // The game the page was served with: a rematch makes a new game at the table.
  var servedGame = (document.getElementById("table-seats") || {dataset: {}}).dataset.game;

  function startedOrClosed() {
    var seats = document.getElementById("table-seats");
    if (!page || !seats) return;
    if (servedGame && seats.dataset.game && seats.dataset.game !== servedGame) {
      window.location.reload();
      return;
    }
    // The page was served while the table waited for players: once it starts, show the board.
    if (page.dataset.tableStatus === "waiting" && (seats.dataset.status === "playing" || seats.dataset.status === "finished")) {
      window.location.reload();
    }
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-copy]");
    if (!button) return;
    var field = document.querySelector(button.dataset.copy);
    if (!field) return;
    field.select();
    var done = function () { button.textContent = button.dataset.copied || button.textContent; };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(done, function () { document.execCommand("copy"); done(); });
    } else {
      document.execCommand("copy");
      done();
    }
  });

  document.addEventListener("htmx:wsAfterMessage", function () { startedOrClosed(); tick(); });
  document.addEventListener("DOMContentLoaded", function () { startedOrClosed(); tick(); });
  setInterval(tick, 250);
})();
