// The setup forms (/play/, /tables/new/) are drawn again by the server on every change
// (data-redraw: the address that draws the page for the choices made), so the choices
// offered follow the ones made. A newer choice, or the form's submission, makes the
// redraw on its way pointless: it is cancelled quietly (an aborted htmx request is
// reported as two console errors; a cancelled fetch is nothing). The form is marked
// aria-busy meanwhile.
(function () {
  "use strict";
  var pending = null; // {form, controller}: the redraw on its way

  function cancel() {
    if (!pending) return;
    pending.controller.abort();
    pending.form.removeAttribute("aria-busy");
    pending = null;
  }

  document.addEventListener("change", function (event) {
    var form = event.target.form;
    if (!form || !form.hasAttribute("data-redraw")) return;
    cancel();
    var mine = pending = { form: form, controller: new AbortController() };
    var choices = new FormData(form);
    choices.delete("csrfmiddlewaretoken");
    form.setAttribute("aria-busy", "true");
    fetch(form.getAttribute("data-redraw") + "?" + new URLSearchParams(choices),
          { signal: mine.controller.signal, credentials: "same-origin" })
      .then(function (answer) {
        // a "busy" page, an error or a sign-in holds no form: keep the one shown
        if (!answer.ok || answer.redirected) throw new Error(answer.status);
        return answer.text();
      })
      .then(function (html) {
        if (pending !== mine) return;
        pending = null;
        if (html.indexOf('id="' + form.id + '"') < 0) { form.removeAttribute("aria-busy"); return; }
        htmx.swap(form, html, { swapStyle: "outerHTML", ignoreTitle: true }, { select: "#" + form.id });
      })
      .catch(function () {
        // Cancelled, or the network is down: the form stays as it is, and its
        // submission carries every choice anyway.
        if (pending === mine) cancel();
      });
  });

  // Run after every other listener: a submission another script held back keeps its redraw.
  window.addEventListener("submit", function (event) {
    if (!event.defaultPrevented && event.target.hasAttribute("data-redraw")) cancel();
  });
})();
