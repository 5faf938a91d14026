// Flash messages ("You sit at the White seat.") say what just happened: they go after a
// few seconds (errors a little later), as they would with the next page. They float over
// the page (css/site.css), so nothing moves when they go.
(function () {
  "use strict";
  var SHOWN_MS = 6000, ERROR_MS = 10000, FADE_MS = 400;
  var still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;

  function dismiss(message) {
    var list = message.parentElement;
    message.classList.add("leaving");
    setTimeout(function () {
      message.remove();
      if (list && !list.querySelector(".message")) list.remove();
    }, still ? 0 : FADE_MS);
  }

  document.querySelectorAll(".messages .message").forEach(function (message) {
    setTimeout(dismiss, message.classList.contains("error") ? ERROR_MS : SHOWN_MS, message);
  });
})();
