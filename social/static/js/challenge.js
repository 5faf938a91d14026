// A challenge's page, for its challenger: once the header's live part (pushed over the
// notification socket) says the challenge was accepted, go to the table; once it says
// it was declined or lapsed, show the page again with its answer (once: the page then
// no longer waits).
(function () {
  "use strict";
  function check() {
    var waiting = document.getElementById("await-challenge");
    if (!waiting) return;
    var id = waiting.getAttribute("data-challenge");
    var go = document.querySelector('#challenge-notices a[data-go][data-challenge="' + id + '"]');
    if (go) { window.location.assign(go.getAttribute("href")); return; }
    var answer = document.querySelector('#challenge-notices [data-answered][data-challenge="' + id + '"]');
    if (answer) { waiting.removeAttribute("id"); window.location.reload(); }
  }
  document.addEventListener("htmx:wsAfterMessage", check);
  document.addEventListener("DOMContentLoaded", check);
})();
