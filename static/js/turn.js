// While the player's tab is hidden and it becomes their turn, the page title says so
// ("Your turn · Reversi") and, if they allowed it with the button, a browser
// notification too. The title comes back when the tab is shown again.
(function () {
  "use strict";
  var notice = document.getElementById("turn-notice");
  var page = document.getElementById("game");
  if (!notice || !page) return;
  var title = document.title, told = null; // told: the ply the player was told about

  function myTurn() {
    var state = document.getElementById("game-state");
    if (!state || state.dataset.status !== "playing") return null;
    var mine = (page.dataset.viewerColours || "").split(" ").indexOf(state.dataset.turn) >= 0;
    return mine ? state.dataset.ply : null;
  }

  function check() {
    var ply = myTurn();
    if (!document.hidden || ply === null || ply === told) return;
    told = ply;
    document.title = notice.dataset.title;
    if ("Notification" in window && Notification.permission === "granted") {
      try { new Notification(notice.dataset.title, { body: notice.dataset.body, tag: "reversi-turn" }); } catch (e) { /* not on this platform */ }
    }
  }

  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) { document.title = title; told = null; }
  });
  document.addEventListener("htmx:wsAfterMessage", check);

  // The button asks for permission once; it shows only where the browser can still ask.
  if ("Notification" in window && Notification.permission === "default") notice.hidden = false;
  document.getElementById("notify-turn").addEventListener("click", function () {
    Notification.requestPermission().then(function () { notice.hidden = Notification.permission !== "default"; });
  });
})();
