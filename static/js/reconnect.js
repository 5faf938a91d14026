// While a page's websocket is down (the server restarts, Redis is away), a small
// notice says so; htmx's ws extension reconnects, and the server sends the whole
// current state on connect, so the page catches up by itself.
//
// A socket can also go silent without closing (the network drops: the browser keeps
// it open). A socket element marked data-heartbeat is pinged ("ping", answered "pong",
// infra/page_socket.py): one that heard nothing since its last ping, a ping interval
// ago, is taken as down, dropped and opened again.
//
// A socket closed with 4429 (this address holds as many sockets as the site allows,
// config/socket_limit.py) is not reconnected by htmx: it is tried again after a pause
// of 30-60 s, so pages do not hammer a site that is refusing them.
(function () {
  "use strict";
  // Retry after 0.5 s, then doubling up to 5 s, with jitter (htmx's own default grows to 64 s).
  htmx.config.wsReconnectDelay = function (retries) {
    var most = Math.min(5000, 500 * Math.pow(2, retries));
    return most / 2 + Math.random() * most / 2;
  };
  var RETRIED = [1006, 1011, 1012, 1013]; // the close codes htmx reconnects after
  var TOO_MANY = 4429, TOO_MANY_PAUSE_MS = 60000;
  var PING_MS = 5000;
  var down = new Set();
  var beats = new Map(); // socket element -> {socket, wrapper, heard, pinged}

  function show() {
    var notice = document.getElementById("connection-notice");
    if (notice) notice.hidden = down.size === 0;
  }

  document.addEventListener("htmx:wsClose", function (event) {
    var code = event.detail.event.code, element = event.target, wrapper = event.detail.socketWrapper;
    if (RETRIED.indexOf(code) >= 0 || code === TOO_MANY) down.add(element);
    if (code === TOO_MANY) {
      element.dataset.socketRefused = "too-many";
      setTimeout(function () {
        if (document.body.contains(element)) wrapper.reconnect();
      }, TOO_MANY_PAUSE_MS / 2 + Math.random() * TOO_MANY_PAUSE_MS / 2);
    }
    beats.delete(element);
    show();
  });
  document.addEventListener("htmx:wsOpen", function (event) {
    down.delete(event.target);
    if (event.target.hasAttribute("data-heartbeat")) {
      beats.set(event.target, { socket: event.detail.event.target, wrapper: event.detail.socketWrapper,
                                heard: Date.now(), pinged: 0 });
    }
    show();
  });
  document.addEventListener("htmx:wsBeforeMessage", function (event) {
    var beat = beats.get(event.target);
    if (beat) beat.heard = Date.now();
    delete event.target.dataset.socketRefused; // served
    if (event.detail.message === "pong") event.preventDefault(); // nothing to swap
  });

  setInterval(function () {
    beats.forEach(function (beat, element) {
      if (!document.body.contains(element)) {
        beats.delete(element);
      } else if (beat.pinged && beat.heard < beat.pinged) {
        // Silent since the last ping: this socket will tell nothing more. Its own close
        // may come much later, so it is forgotten and a new one opened at once.
        beats.delete(element);
        beat.socket.onclose = null;
        down.add(element);
        show();
        beat.wrapper.reconnect(); // a move clicked meanwhile waits for the new socket
      } else if (beat.socket.readyState === WebSocket.OPEN) {
        beat.pinged = Date.now();
        beat.socket.send("ping");
      }
    });
  }, PING_MS);
})();
