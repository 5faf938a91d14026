// A square played goes over the page's websocket while it is open: the server then
// has no HTTP request to handle for it, and the push that follows is the answer (a
// refusal comes back on this socket alone, with the position as it now is). While
// the socket is down, and without JavaScript, the form posts the move as before.
(function () {
  "use strict";
  var open = new Map(); // socket element -> htmx's socket, while it is open
  // A second click before the first one's answer (a double click) is not sent: it
  // could only be refused as stale. The answer, or 3 s without one, ends the wait.
  var awaiting = null, awaitingUntil = 0;

  // A socket carries clicks from its first push on: a game page's first push is the
  // position as the server has it (its game stream comes first, config/routing.py), and
  // a move sent before it would take it for its answer. data-socket on the socket's
  // element (the body) says which way a click goes (and lets tests wait for it).
  var opening = new Map(); // socket element -> htmx's socket, open, before its first push
  document.addEventListener("htmx:wsOpen", function (event) {
    opening.set(event.target, event.detail.socketWrapper);
  });
  document.addEventListener("htmx:wsClose", function (event) {
    opening.delete(event.target);
    open.delete(event.target);
    event.target.dataset.socket = "closed";
    if (awaiting === event.target) awaiting = null;
  });
  document.addEventListener("htmx:wsAfterMessage", function (event) {
    if (opening.has(event.target)) {
      open.set(event.target, opening.get(event.target));
      opening.delete(event.target);
      event.target.dataset.socket = "open";
    }
    if (awaiting === event.target) awaiting = null;
    var message = document.getElementById("game-message");
    if (message && message.dataset.retry) {
      retrySoon(Number(message.dataset.retry));
      delete message.dataset.retry; // once per answer
    }
  });

  // A move the server answered "busy" (it could not get the database; nothing changed:
  // HTTP 503, or over the socket the message line marked data-retry) is sent again
  // after the seconds it says, by clicking the same square of the same position again,
  // so it goes whichever way is open by then. The ply guard keeps it to one move.
  var lastMove = null, retryTimer = null;
  function retrySoon(seconds) {
    if (retryTimer || !lastMove) return;
    var move = lastMove;
    retryTimer = setTimeout(function () {
      retryTimer = null;
      var form = document.getElementById("move-form");
      if (!form || form.elements.ply.value !== move.ply) return; // the position moved on meanwhile
      var cell = form.querySelector('button.cell[value="' + move.square + '"]');
      if (cell) cell.click();
    }, (seconds || 1) * 1000);
  }
  document.addEventListener("htmx:responseError", function (event) {
    var xhr = event.detail.xhr, form = event.detail.elt && event.detail.elt.closest && event.detail.elt.closest("#move-form");
    if (!form || xhr.status !== 503) return;
    var answer = new DOMParser().parseFromString(xhr.responseText, "text/html").getElementById("game-message");
    var message = document.getElementById("game-message");
    var shown = document.getElementById("game-state");
    if (answer && message) {
      delete answer.dataset.retry; // retried here, not again on the next socket message
      if (shown) answer.dataset.version = shown.dataset.version; // goes once a newer position is shown
      message.replaceWith(answer);
    }
    retrySoon(Number(xhr.getResponseHeader("Retry-After")));
  });

  document.addEventListener("click", function (event) {
    if (event.defaultPrevented) return; // out of turn: board.js stopped it
    var cell = event.target.closest && event.target.closest("#move-form button.cell");
    var form = cell && cell.form, holder = form && form.closest("[ws-connect]");
    if (form) lastMove = { square: cell.value, ply: form.elements.ply.value };
    var socket = holder && open.get(holder);
    if (!socket) return; // the form posts it
    event.preventDefault();
    if (awaiting === holder && Date.now() < awaitingUntil) return;
    awaiting = holder;
    awaitingUntil = Date.now() + 3000;
    socket.send(JSON.stringify({ move: cell.value, ply: form.elements.ply.value }), cell);
  });

  // An action (resign) asked for by a confirmed dialog, below.
  document.addEventListener("socket-action", function (event) {
    var socket = open.get(event.target);
    if (socket) socket.send(JSON.stringify({ action: event.detail.action }), event.target);
  });
})();

// A link with data-confirm opens its dialog instead of the confirmation page. A form
// or button with data-socket-action (the dialog's resign, the draw offer and its
// answers) goes over the page's socket while it is open, and posts otherwise.
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[data-confirm]");
    var dialog = link && document.querySelector(link.dataset.confirm);
    if (!dialog || typeof dialog.showModal !== "function") return; // the page asks instead
    event.preventDefault();
    dialog.showModal();
  });
  // On the window, in the capture phase: the post that is not made is nobody's business
  // (table.js waits for the answer of every form it sees submitted).
  window.addEventListener("submit", function (event) {
    var form = event.target, submitter = event.submitter;
    var action = (submitter && submitter.dataset.socketAction) || (form.dataset && form.dataset.socketAction);
    if (!action) return;
    if (submitter && submitter.getAttribute("formmethod") === "dialog") return; // "keep playing"
    var holder = document.querySelector("[ws-connect]");
    if (!holder || holder.dataset.socket !== "open") return; // the form posts it
    event.preventDefault();
    event.stopPropagation();
    var dialog = form.closest("dialog");
    if (dialog) dialog.close();
    holder.dispatchEvent(new CustomEvent("socket-action", { bubbles: true, detail: { action: action } }));
  }, true);
})();
