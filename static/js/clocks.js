// The clocks of a clock or correspondence game (docs/rules.md §11.3). The server keeps
// them and computes every time (games.turn.clock): each state it sends carries each clock's
// seconds when the turn began (data-remaining), for the running one the instant its
// turn began (data-started; after an outage a little ahead, so it waits till then),
// the instant a first move's time is up (#first-move, data-due: the game is then
// aborted), the threshold under which a clock is low (data-low) and the server's time
// at sending (#server-now). The page only subtracts the time elapsed since, on the
// monotonic performance.now() from the moment the server's time arrived, never by
// taking a tick off per tick: no drift.
// A low clock turns red; the player to move is warned, and beeped at if they turned
// the sound on (remembered in localStorage, off by default). The page also answers the
// server's pings at once: their round trip is the player's lag credit.
(function () {
  "use strict";
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

  function text(seconds, low) {
    seconds = Math.max(0, seconds);
    if (seconds < low) return (Math.floor(seconds * 10) / 10).toFixed(1);
    var whole = Math.floor(seconds), hours = Math.floor(whole / 3600);
    var minutes = Math.floor((whole % 3600) / 60), secs = whole % 60;
    var mm = hours ? String(minutes).padStart(2, "0") : String(minutes);
    return (hours ? hours + ":" : "") + mm + ":" + String(secs).padStart(2, "0");
  }

  function low(list) {
    var threshold = list ? Number(list.dataset.low) : NaN;
    return isNaN(threshold) ? 0 : threshold;
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
      first.querySelector(".first-move-time").textContent = text(due, low(list));
    }
    if (list && anchor) {
      var threshold = low(list);
      Array.prototype.forEach.call(list.querySelectorAll(".clock"), function (clock) {
        var running = clock.dataset.running && clock.dataset.started;
        var elapsed = running ? Math.max(0, serverNow - Number(clock.dataset.started)) : 0;
        var left = Math.max(0, Number(clock.dataset.remaining) - elapsed);
        clock.dataset.left = left.toFixed(3);
        clock.querySelector(".clock-time").textContent = text(left, threshold);
        clock.classList.toggle("low", left < threshold);
        if (running && left < threshold && mine(clock.dataset.colour)) {
          warn = true;
          var sound = document.getElementById("clock-sound");
          if (sound && sound.checked && beeped !== clock.dataset.started) {
            beeped = clock.dataset.started;
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
