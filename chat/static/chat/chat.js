// The table's chat: a message the server took empties the text box (a refused one
// stays, with the reason under it), and each room's log shows its newest line.
(function () {
  "use strict";
  function showNewest() {
    document.querySelectorAll("#chat .chat-log").forEach(function (log) { log.scrollTop = log.scrollHeight; });
  }
  document.addEventListener("htmx:wsAfterMessage", function () {
    var notice = document.getElementById("chat-notice");
    if (notice && notice.dataset.sent) {
      delete notice.dataset.sent;
      var box = document.getElementById("chat-text");
      if (box) box.value = "";
    }
    showNewest();
  });
  document.addEventListener("DOMContentLoaded", showNewest);
})();
