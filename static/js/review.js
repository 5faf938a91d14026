// Game review keys: Left/Right step back and forward, Home/End jump to the start
// and the end. Each key follows the matching link of the page, so htmx (or, if it
// is missing, the browser) loads that position. After htmx swaps the position
// in, focus returns to the control that had it, and the current move is scrolled
// into view in the move list.
(function () {
  "use strict";
  var keys = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
  var focusKey = null;

  document.addEventListener("keydown", function (event) {
    var which = keys[event.key];
    if (!which || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var target = event.target;
    if (target && target.closest && target.closest("input, textarea, select, [contenteditable], .board button")) return;
    if (!document.getElementById("review")) return;
    event.preventDefault();
    var link = document.querySelector('#review [data-nav="' + which + '"]');
    if (link) link.click();
  });

  document.addEventListener("htmx:beforeSwap", function (event) {
    if (!event.detail.target || event.detail.target.id !== "review") return;
    var active = document.activeElement;
    focusKey = active && active.dataset ? active.dataset.focusKey || null : null;
  });

  function showCurrent() {
    var current = document.querySelector("#review .move-table tr.current");
    var wrap = document.querySelector("#review .move-table-wrap");
    if (current && wrap) {
      var top = current.offsetTop - wrap.clientHeight / 2;
      wrap.scrollTop = Math.max(0, top);
    }
  }

  document.addEventListener("htmx:afterSettle", function (event) {
    if (!event.detail.target || !document.getElementById("review")) return;
    showCurrent();
    if (!focusKey) return;
    var again = document.querySelector('#review [data-focus-key="' + focusKey + '"]');
    if (!again) again = document.getElementById("position-heading"); // e.g. "Next" at the last move
    if (again) again.focus();
    focusKey = null;
  });

  document.addEventListener("DOMContentLoaded", showCurrent);
})();
