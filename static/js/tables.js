// A live table's page (issue 28): the stream, and what to do without it.
//
// htmx's SSE extension keeps /tables/<code>/events open; each "moved" event
// makes the hidden fetcher ([data-table-fetch]) ask for this seat's view.
// When the stream is refused (204: the server's stream slots are full) or
// the browser has no EventSource, the same fetcher is asked every 2 s
// instead ("table-poll"); it sends the version shown, and the server answers
// 204 (nothing to swap) while the table has not changed. When a stream
// opens again, the polling stops.
//
// Tiles ticked for a pass survive a refresh caused by someone else's move
// (while the same decision is asked of the same rack),
// and focus moves to the status line only after this page's own move.
(function () {
  "use strict";
  var POLL_MS = 2000;
  var timer = null;

  function fetcher() { return document.querySelector("[data-table-fetch]"); }
  function poll() {
    var elt = fetcher();
    if (elt && window.htmx) window.htmx.trigger(elt, "table-poll");
  }
  function startPolling() {
    if (timer === null) timer = window.setInterval(poll, POLL_MS);
    document.documentElement.setAttribute("data-table-polling", "1");
  }
  function stopPolling() {
    if (timer !== null) window.clearInterval(timer);
    timer = null;
    document.documentElement.removeAttribute("data-table-polling");
  }

  document.addEventListener("htmx:sseOpen", stopPolling);
  document.addEventListener("htmx:sseError", function (event) {
    var source = event.detail && event.detail.source;
    // CLOSED: the server refused the stream (204) or it failed for good; the extension retries later.
    if (!source || source.readyState === 2) startPolling();
  });
  if (!("EventSource" in window)) {
    // No stream to open: take the attributes away before htmx reads it (it does so once the page has
    // loaded; this deferred script runs before that), and poll from the start.
    Array.prototype.forEach.call(document.querySelectorAll("[sse-connect]"), function (elt) {
      elt.removeAttribute("sse-connect");
      elt.removeAttribute("hx-ext");
    });
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", startPolling);
    else startPolling();
  }

  // Keep the ticked tiles (and a blind pass's choice) when the view is fetched again for another's move.
  var kept = null;
  document.addEventListener("htmx:beforeSwap", function (event) {
    var table = document.getElementById("table");
    if (!table || event.detail.target !== table) return;
    var form = table.querySelector(".play-pick");
    kept = null;
    if (!form || event.detail.requestConfig && event.detail.requestConfig.verb === "post") return;
    kept = {
      owed: table.getAttribute("data-owed"),
      rack: table.getAttribute("data-rack-sig"),
      tiles: Array.prototype.map.call(form.querySelectorAll("input[name=tiles]:checked"), function (i) { return i.value; }),
      blind: (form.querySelector("input[name=blind]:checked") || {}).value
    };
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    var table = document.getElementById("table");
    if (!table) return;
    var mine = event.detail.requestConfig && event.detail.requestConfig.verb === "post";
    if (kept && !mine && table.getAttribute("data-owed") === kept.owed && table.getAttribute("data-rack-sig") === kept.rack) {
      var left = kept.tiles.slice();
      Array.prototype.forEach.call(table.querySelectorAll(".play-pick input[name=tiles]"), function (input) {
        var at = left.indexOf(input.value);
        if (at >= 0 && !input.disabled) { input.checked = true; left.splice(at, 1); }
      });
      if (kept.blind) {
        var radio = table.querySelector(".play-pick input[name=blind][value='" + kept.blind + "']");
        if (radio) radio.checked = true;
      }
      table.querySelectorAll(".play-pick input").forEach(function (i) { i.dispatchEvent(new Event("change", { bubbles: true })); });
    }
    kept = null;
    if (mine) {
      var focus = table.querySelector(".play-note--problem") || document.getElementById("table-status");
      if (focus) focus.focus({ preventScroll: true });
    }
  });

  // The turn timer's seconds left, counted down here; the server decides when time is up.
  window.setInterval(function () {
    var timer = document.querySelector("[data-deadline]");
    var left = timer && timer.querySelector("[data-time-left]");
    if (!left) return;
    var seconds = Math.max(0, Math.round((Date.parse(timer.getAttribute("data-deadline")) - Date.now()) / 1000));
    left.textContent = " (" + seconds + " s left)";
  }, 1000);
})();
