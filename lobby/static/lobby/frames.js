// The lobby's live list: its socket's frames carry table rows each in a <template>
// (lobby.feed), since a row or a table body on its own does not survive HTML parsing.
// htmx's ws extension swaps only a frame's top-level elements, so the page hands each
// frame to htmx's own swap, which also swaps the out-of-band parts inside templates.
(function () {
  "use strict";
  document.addEventListener("htmx:wsBeforeMessage", function (event) {
    if (!event.target.matches(".lobby-filtered[ws-connect]")) return;
    event.preventDefault();
    htmx.swap(event.target, event.detail.message, { swapStyle: "none" });
  });
})();
