// A table page: the move countdown, a gone player's claims when they are due, reloading when the game starts or a rematch begins,
// the viewer's seat, the free seats of the guest form, hiding the invitation of a closed
// table, copying the link.
(function () {
  "use strict";
  var page = document.getElementById("game");
  // How far the server's clock is ahead of this one (measured when the page was served).
  var offset = page && page.dataset.serverNow ? Number(page.dataset.serverNow) - Date.now() : 0;

  // A gone player's claims show while that player is to move and their time has come.
  function claims() {
    var state = document.getElementById("game-state");
    Array.prototype.forEach.call(document.querySelectorAll(".gone-claims"), function (claim) {
      var due = Date.now() + offset >= Number(claim.dataset.readyAt);
      claim.hidden = !(state && state.dataset.status === "playing" && state.dataset.turn === claim.dataset.colour && due);
    });
  }

  function tick() {
    claims();
    var clock = document.getElementById("move-clock");
    if (!clock) return;
    var state = document.getElementById("game-state");
    var deadline = state && state.dataset.status === "playing" ? Date.parse(state.dataset.deadline || "") : NaN;
    if (isNaN(deadline)) { clock.hidden = true; return; }
    // The offset is measured late by the time the page took to arrive: never show more
    // than the whole limit.
    var limit = Number(page.dataset.moveSeconds) || Infinity;
    var left = Math.min(limit, Math.max(0, Math.ceil((deadline - (Date.now() + offset)) / 1000)));
    clock.hidden = false;
    clock.dataset.turn = state.dataset.turn;
    clock.querySelector(".seconds").textContent = String(left);
    clock.classList.toggle("urgent", left <= 10);
  }

  // The game the page was served with: a rematch makes a new game at the table.
  var servedGame = (document.getElementById("table-seats") || {dataset: {}}).dataset.game;

  // A form of this page on its way (taking a seat): its answer brings the page this
  // person lands on, with the session that holds their seat. Reloading for a push
  // meanwhile would cancel it and could load the page without that seat.
  var submitting = false;
  document.addEventListener("submit", function () { submitting = true; }, true);
  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail && event.detail.xhr;
    // An answer that reloads the page (HX-Refresh): one reload, the one that shows its message.
    if (xhr && xhr.status === 204 && xhr.getResponseHeader("HX-Refresh") === "true") return;
    submitting = false;
    startedOrClosed();
  });

  function startedOrClosed() {
    var seats = document.getElementById("table-seats");
    if (!page || !seats) return;
    // The seats panel is drawn for this viewer over their own websocket: it knows their
    // seat even when this page was served a moment before they sat down.
    if (seats.dataset.viewerColour && !page.dataset.viewerColours) page.dataset.viewerColours = seats.dataset.viewerColour;
    if (seats.dataset.status === "closed") {
      // Nobody can join a closed table any more: no code, link or seat form.
      Array.prototype.forEach.call(document.querySelectorAll(".invite, .take-seat"), function (part) { part.hidden = true; });
    }
    if (submitting) return;
    if (servedGame && seats.dataset.game && seats.dataset.game !== servedGame) {
      window.location.reload();
      return;
    }
    // The page was served while the table waited for players: once it starts, show the board.
    if (page.dataset.tableStatus === "waiting" && (seats.dataset.status === "playing" || seats.dataset.status === "finished")) {
      window.location.reload();
    }
  }

  // The guest form offers the seats that are still free.
  function freeSeatsOnly() {
    Array.prototype.forEach.call(document.querySelectorAll(".guest-form select[name=seat] option"), function (option) {
      if (!option.value) return;
      var seat = document.querySelector('#table-seats .seat[data-colour="' + option.value + '"]');
      option.disabled = option.hidden = !seat || seat.dataset.kind !== "free";
      if (option.disabled && option.selected) option.parentNode.value = "";
    });
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

  document.addEventListener("htmx:wsAfterMessage", function () { startedOrClosed(); freeSeatsOnly(); tick(); });
  document.addEventListener("DOMContentLoaded", function () { startedOrClosed(); freeSeatsOnly(); tick(); });
  setInterval(tick, 250);
})();
