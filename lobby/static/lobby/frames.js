// The lobby's live list: its frames carry table rows each in a <template> (lobby.feed),
// since a row or a table body on its own does not survive HTML parsing. htmx's ws
// extension swaps only a frame's top-level elements, so the page hands each of the
// lobby's frames (those that say the list's version) to htmx's own swap, which also
// swaps the out-of-band parts inside templates. The page's other frames (announcements,
// notifications) go the usual way.
(function () {
  "use strict";
  document.addEventListener("htmx:wsBeforeMessage", function (event) {
    var message = event.detail.message;
    if (typeof message !== "string" || message.indexOf('id="lobby-version"') < 0) return;
    event.preventDefault();
    htmx.swap(event.target, event.detail.message, { swapStyle: "none" });
  });
})();
