// Every page: answers "busy" (HTTP 503 with HX-Reswap: none, infra/write_waits.py: the
// database kept the write waiting and nothing changed) show their notice, out of band,
// like any answer rather than as an error; the element that asked stays as it is.
document.addEventListener("htmx:beforeSwap", function (event) {
  var xhr = event.detail.xhr;
  if (xhr.status !== 503 || xhr.getResponseHeader("HX-Reswap") !== "none") return;
  event.detail.shouldSwap = true;
  event.detail.isError = false;
});

// Every page: answers to requests whose element a push replaced meanwhile.
//
// htmx swaps an answer's out-of-band parts (the state, the message) relative to the
// element that sent the request. A live page replaces its parts from the websocket
// at any moment, often the very element that was clicked (Undo lives inside the state
// it undoes, "Sit here" inside the seats panel): the answer then finds no targets and
// its message is lost. Such an answer is swapped against the whole document instead.
(function () {
  "use strict";
  var control = /^hx-(refresh|redirect|location|retarget|reswap):/im;

  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    // An event on an element that left the document reaches only the element itself.
    elt.addEventListener("htmx:beforeOnLoad", function answered(load) {
      if (load.target !== elt) return;
      elt.removeEventListener("htmx:beforeOnLoad", answered);
      var xhr = load.detail.xhr;
      if (document.body.contains(elt) || xhr.status === 204 || xhr.status >= 500) return;
      if (control.test(xhr.getAllResponseHeaders())) return;
      load.preventDefault();
      htmx.swap(document.body, xhr.response, { swapStyle: "none" });
    });
  });
})();
