// The clocks of a clock or correspondence game (docs/rules.md §11.3). The server keeps
// them: every state it sends carries each seat's time left when the turn began, when
// that was and the server's time at sending (#server-now). The running clock is that
// time less what passed since, counted on the monotonic performance.now() from the
// moment the server's time arrived, never by taking a tick off per tick: no drift.
// A player's first move counts down to its own end (#first-move, data-due: the server's
// time at which the game is aborted), the same way.
// Under 10 s a clock turns red; the player to move is warned, and beeped at if they
// turned the sound on (remembered in localStorage, off by default). The page also
// answers the server's pings at once: their round trip is the player's lag credit.
(function () {
  "use strict";
  var LOW = 10;
  var SOUND_KEY = "reversi.clock-sound";
  var anchor = null; // {server: seconds since the epoch, local: performance.now() then}
  var beeped = ""; // the turn (started at) already beeped for
  var answered = "";
  var sockets = new Map();

  function sync() {
    var now = document.getElementById("server-now");
    var server = now ? Number(now.dataset.now) : NaN;
    if (!isNaN(server) && (!anchor || anchor.server !== server)) anchor = { server: server, local: performance.now() };
  }

  function text(seconds) {
    seconds = Math.max(0, seconds);
    if (seconds < LOW) return (Math.floor(seconds * 10) / 10).toFixed(1);
    var whole = Math.floor(seconds), hours = Math.floor(whole / 3600);
    var minutes = Math.floor((whole % 3600) / 60), secs = whole % 60;
    var mm = hours ? String(minutes).padStart(2, "0") : String(minutes);
    return (hours ? hours + ":" : "") + mm + ":" + String(secs).padStart(2, "0");
  }

  function mine(colour) {
    var page = document.getElementById("game");
    var colours = page && page.dataset.viewerColours ? page.dataset.viewerColours.split(/[ ,]+/) : [];
    return colours.indexOf(colour) >= 0;
  }

  function beep() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    var audio = new Context(), tone = audio.createOscillator(), gain = audio.createGain();
    tone.frequency.value = 880;
    gain.gain.value = 0.1;
    tone.connect(gain);
    gain.connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.15);
  }

  function tick() {
    var list = document.getElementById("clocks");
    var warning = document.getElementById("clock-warning");
    var first = document.getElementById("first-move");
    var warn = false;
    var serverNow = anchor ? anchor.server + (performance.now() - anchor.local) / 1000 : NaN;
    if (first && anchor) {
      var due = Math.max(0, Number(first.dataset.due) - serverNow);
      first.dataset.left = due.toFixed(3);
      first.querySelector(".first-move-time").textContent = text(due);
    }
    if (list && anchor) {
      var started = Number(list.dataset.turnStarted);
      Array.prototype.forEach.call(list.querySelectorAll(".clock"), function (clock) {
        var left = Number(clock.dataset.remaining);
        // A turn given back an outage starts again a little after it (docs/rules.md §11.3).
        if (clock.dataset.running && !isNaN(started)) left -= Math.max(0, serverNow - started);
        left = Math.max(0, left);
        clock.dataset.left = left.toFixed(3);
        clock.querySelector(".clock-time").textContent = text(left);
        clock.classList.toggle("low", left < LOW);
        if (clock.dataset.running && left < LOW && mine(clock.dataset.colour)) {
          warn = true;
          var sound = document.getElementById("clock-sound");
          if (sound && sound.checked && beeped !== list.dataset.turnStarted) {
            beeped = list.dataset.turnStarted;
            beep();
          }
        }
      });
    }
    if (warning) warning.hidden = !warn;
  }

  function pong(holder) {
    var ping = document.getElementById("clock-ping");
    var token = ping && ping.dataset.ping;
    var socket = sockets.get(holder);
    if (!token || token === answered || !socket) return;
    answered = token;
    socket.send(JSON.stringify({ pong: token }));
  }

  document.addEventListener("htmx:wsOpen", function (event) { sockets.set(event.target, event.detail.socketWrapper); });
  document.addEventListener("htmx:wsClose", function (event) { sockets.delete(event.target); });
  document.addEventListener("htmx:wsAfterMessage", function (event) { sync(); pong(event.target); tick(); });
  document.addEventListener("htmx:oobAfterSwap", function () { sync(); tick(); });
  document.addEventListener("change", function (event) {
    if (event.target.id === "clock-sound") {
      try { localStorage.setItem(SOUND_KEY, event.target.checked ? "on" : "off"); } catch (e) { /* private mode */ }
    }
  });
  document.addEventListener("DOMContentLoaded", function () {
    var sound = document.getElementById("clock-sound");
    try { if (sound) sound.checked = localStorage.getItem(SOUND_KEY) === "on"; } catch (e) { /* private mode */ }
    sync();
    tick();
  });
  setInterval(tick, 100);
})();
