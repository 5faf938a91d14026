// While a page's websocket is down (the server restarts, Redis is away), a small
// notice says so; htmx's ws extension reconnects, and the server sends the whole
// current state on connect, so the page catches up by itself.
(function () {
  "use strict";
  // Retry after 0.5 s, then doubling up to 5 s, with jitter (htmx's own default grows to 64 s).
  htmx.config.wsReconnectDelay = function (retries) {
    var most = Math.min(5000, 500 * Math.pow(2, retries));
    return most / 2 + Math.random() * most / 2;
  };
  var RETRIED = [1006, 1011, 1012, 1013]; // the close codes htmx reconnects after
  var down = new Set();

  function show() {
    var notice = document.getElementById("connection-notice");
    if (notice) notice.hidden = down.size === 0;
  }

  document.addEventListener("htmx:wsClose", function (event) {
    if (RETRIED.indexOf(event.detail.event.code) >= 0) down.add(event.target);
    show();
  });
  document.addEventListener("htmx:wsOpen", function (event) {
    down.delete(event.target);
    show();
  });
})();
