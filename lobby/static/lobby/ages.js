// The lobby: each open table's age counts on between pushes (the rows carry when the
// table opened, data-since, in seconds; the wrapper carries the page's wording).
(function () {
  "use strict";
  function tick() {
    var wrapper = document.querySelector(".lobby-filtered");
    if (!wrapper) return;
    var now = Date.now() / 1000;
    wrapper.querySelectorAll(".age[data-since]").forEach(function (age) {
      var minutes = Math.max(0, Math.floor((now - Number(age.dataset.since)) / 60));
      var text = minutes < 1 ? wrapper.dataset.ageNew
        : minutes < 60 ? wrapper.dataset.ageMinutes.replace("{m}", minutes)
        : wrapper.dataset.ageHours.replace("{h}", Math.floor(minutes / 60)).replace("{m}", minutes % 60);
      if (age.textContent !== text) age.textContent = text;
    });
  }
  setInterval(tick, 20000);
})();
