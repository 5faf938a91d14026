// A form with data-confirm asks before it is sent, while the element data-confirm-if
// names is on the page (New Game: while the game is still running, which a push may
// change at any moment). Confirmed, it says so (confirm=1) and the server does not ask
// again; without scripts the server asks on a page of its own.
(function () {
  "use strict";
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches("form[data-confirm]")) return;
    var when = form.dataset.confirmIf;
    if ((!when || document.querySelector(when)) && !window.confirm(form.dataset.confirm)) {
      event.preventDefault();
      return;
    }
    var confirmed = form.querySelector('input[name="confirm"]');
    if (!confirmed) {
      confirmed = document.createElement("input");
      confirmed.type = "hidden";
      confirmed.name = "confirm";
      form.appendChild(confirmed);
    }
    confirmed.value = "1";
  });
})();
