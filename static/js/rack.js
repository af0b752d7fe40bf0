// Your rack at the practice table, in the order you like (issue 16, part 3).
//
// The server always sends the rack sorted by suit and never depends on its
// order; the order a learner gives it is theirs, so it stays in this browser
// (localStorage, one entry per hand): no request per drag, nothing to store
// or migrate. A hand resumed on another device starts sorted by suit again.
//
// Ways to reorder: drag a tile; "Sort by suit" / "Sort by number"; "Move
// tiles" then tap a tile and Left / Right (touch screens); on the keyboard,
// the arrow keys go from tile to tile and Shift + arrow moves the tile.
// Tiles that arrived since the last view (a draw, a pass received) are
// marked new and, in an order of your own, join it at the right end.
// It also counts the tiles ticked for a pass, and after each move at the
// table returns focus to the status line, which says what is asked now
// (the coach's advice is read out too). A finished hand's order is dropped.
(function () {
  "use strict";
  var KEY = "coach:rack:";
  var HONOURS = { E: 10, S: 10, W: 10, N: 10, RD: 11, GD: 11, WD: 11, F: 12, J: 13 };
  var arranging = false;
  var chosen = null; // the tile picked in "Move tiles" mode, by its place in the rack
  var dragged = null;

  function theRack() { return document.querySelector("[data-rack]"); }
  function slotsOf(rack) { return Array.prototype.slice.call(rack.children); }
  function codesOf(list) { return list.map(function (li) { return li.getAttribute("data-code"); }); }
  function nameOf(li) { return li.getAttribute("data-name") || li.getAttribute("data-code"); }
  function controlOf(li) { return li.querySelector("input:not([disabled]), button, [tabindex]"); }

  function read(id) {
    try { return JSON.parse(window.localStorage.getItem(KEY + id)) || {}; } catch (e) { return {}; }
  }
  function write(id, state) {
    try { window.localStorage.setItem(KEY + id, JSON.stringify(state)); } catch (e) { /* private mode: order for this view only */ }
  }
  function remember(rack, mode) {
    write(rack.getAttribute("data-rack"), { order: codesOf(slotsOf(rack)), mode: mode });
  }

  function say(text) {
    var news = document.getElementById("rack-news");
    if (!news) return;
    news.textContent = "";
    window.setTimeout(function () { news.textContent = text; }, 30); // a changed text is announced again
  }

  function numberKey(li) {
    var code = li.getAttribute("data-code");
    var rank = /^[1-9]/.test(code) ? Number(code.charAt(0)) : (HONOURS[code] || 14);
    return rank * 1000 + Number(li.getAttribute("data-i"));
  }
  function suitKey(li) { return Number(li.getAttribute("data-i")); }

  function place(rack, list) {
    list.forEach(function (li) { rack.appendChild(li); });
    roving(rack);
  }

  // Tiles shown as pictures (no pass or throw asked) are one tab stop: the arrows go along.
  function roving(rack) {
    var shown = rack.querySelectorAll(".play-rack__tile");
    Array.prototype.forEach.call(shown, function (tile, n) { tile.tabIndex = n === 0 ? 0 : -1; });
  }

  // Put the rack in the learner's order and mark what is new since the last view.
  function arrange(rack) {
    var id = rack.getAttribute("data-rack");
    var state = read(id);
    var list = slotsOf(rack);
    var mode = state.mode || "suit";
    if (Array.isArray(state.order)) {
      var before = {};
      state.order.forEach(function (c) { before[c] = (before[c] || 0) + 1; });
      list.forEach(function (li) {
        var c = li.getAttribute("data-code");
        if (before[c]) before[c] -= 1; else li.classList.add("is-new");
      });
    }
    if (mode === "number") list.sort(function (a, b) { return numberKey(a) - numberKey(b); });
    else if (mode === "own" && Array.isArray(state.order)) {
      var pool = list.slice();
      var ordered = [];
      state.order.forEach(function (c) {
        for (var n = 0; n < pool.length; n++) {
          if (pool[n].getAttribute("data-code") === c) { ordered.push(pool.splice(n, 1)[0]); return; }
        }
      });
      list = ordered.concat(pool); // new tiles at the right end, as at a real rack
    }
    list.forEach(function (li) { li.draggable = true; });
    place(rack, list);
    if (document.querySelector("#table[data-owed='over']")) {
      try { window.localStorage.removeItem(KEY + id); } catch (e) { /* nothing kept */ }
    } else {
      remember(rack, mode);
    }
    var tools = document.querySelector("[data-rack-tools]");
    if (tools) tools.hidden = false;
    setArranging(rack, arranging);
  }

  function moved(rack, li, how) {
    remember(rack, "own");
    var list = slotsOf(rack);
    say((how ? how + " " : "Moved ") + "the " + nameOf(li) + " to place " + (list.indexOf(li) + 1) + " of " + list.length + ".");
  }

  function step(rack, li, delta, keepFocus) {
    var sibling = delta < 0 ? li.previousElementSibling : li.nextElementSibling;
    if (!sibling) { say("The " + nameOf(li) + " is already at the " + (delta < 0 ? "left" : "right") + " end."); return; }
    var focused = keepFocus ? document.activeElement : null;
    rack.insertBefore(li, delta < 0 ? sibling : sibling.nextElementSibling);
    if (focused && li.contains(focused)) focused.focus(); // moving an element blurs it
    roving(rack);
    moved(rack, li);
  }

  function sortBy(rack, mode) {
    var list = slotsOf(rack);
    list.sort(function (a, b) { return mode === "number" ? numberKey(a) - numberKey(b) : suitKey(a) - suitKey(b); });
    place(rack, list);
    remember(rack, mode);
    say(mode === "number" ? "Sorted by number: ones first, then winds, dragons, flowers, jokers." : "Sorted by suit: Dots, Bams, Craks, then the honours.");
  }

  function setArranging(rack, on) {
    arranging = on;
    var toggle = document.querySelector("[data-arrange]");
    var tools = document.querySelector("[data-move-tools]");
    if (toggle) {
      toggle.setAttribute("aria-pressed", on ? "true" : "false");
      toggle.textContent = on ? "Done moving" : "Move tiles";
    }
    if (tools) tools.hidden = !on;
    rack.classList.toggle("is-arranging", on);
    var list = slotsOf(rack);
    if (!on || chosen === null || chosen >= list.length) chosen = null;
    list.forEach(function (li, n) { li.classList.toggle("is-chosen", n === chosen); });
  }

  function choose(rack, li) {
    var list = slotsOf(rack);
    chosen = list.indexOf(li);
    list.forEach(function (other) { other.classList.toggle("is-chosen", other === li); });
    say("The " + nameOf(li) + " is chosen: move it with Left and Right.");
  }

  document.addEventListener("click", function (event) {
    var rack = theRack();
    if (!rack || !event.target.closest) return;
    var sorter = event.target.closest("[data-sort]");
    if (sorter) { sortBy(rack, sorter.getAttribute("data-sort")); return; }
    if (event.target.closest("[data-arrange]")) {
      setArranging(rack, !arranging);
      say(arranging ? "Tap a tile, then Left or Right to move it." : "Done moving tiles.");
      return;
    }
    var mover = event.target.closest("[data-move]");
    if (mover) {
      var list = slotsOf(rack);
      if (chosen === null || !list[chosen]) { say("First tap the tile to move."); return; }
      var li = list[chosen];
      step(rack, li, Number(mover.getAttribute("data-move")), false);
      chosen = slotsOf(rack).indexOf(li);
      return;
    }
    var slot = arranging && event.target.closest(".play-rack__slot");
    if (slot && rack.contains(slot)) {
      // Choosing a tile to move must neither tick it for a pass nor throw it.
      event.preventDefault();
      event.stopPropagation();
      choose(rack, slot);
    }
  }, true);

  document.addEventListener("keydown", function (event) {
    var rack = theRack();
    if (!rack || !event.target.closest || !rack.contains(event.target)) return;
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    var li = event.target.closest(".play-rack__slot");
    if (!li || event.ctrlKey || event.metaKey) return;
    var delta = event.key === "ArrowLeft" ? -1 : 1;
    event.preventDefault();
    if (event.shiftKey || event.altKey) { step(rack, li, delta, true); return; }
    var next = delta < 0 ? li.previousElementSibling : li.nextElementSibling;
    while (next && !controlOf(next)) next = delta < 0 ? next.previousElementSibling : next.nextElementSibling;
    if (next) controlOf(next).focus();
  });

  // Dragging: the tile goes before or after the one it is dropped on, by which half.
  function dropSpot(event) {
    var target = event.target.closest && event.target.closest(".play-rack__slot");
    if (!target || target === dragged) return null;
    var box = target.getBoundingClientRect();
    return { li: target, after: event.clientX > box.left + box.width / 2 };
  }
  function clearMarks(rack) {
    slotsOf(rack).forEach(function (li) { li.classList.remove("is-drop-before", "is-drop-after", "is-dragging"); });
  }
  document.addEventListener("dragstart", function (event) {
    var rack = theRack();
    var li = rack && event.target.closest && event.target.closest(".play-rack__slot");
    if (!li || !rack.contains(li)) return;
    dragged = li;
    li.classList.add("is-dragging");
    event.dataTransfer.effectAllowed = "move";
    event.dataTransfer.setData("text/plain", li.getAttribute("data-code"));
  });
  document.addEventListener("dragover", function (event) {
    var rack = theRack();
    if (!dragged || !rack || !rack.contains(event.target)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "move";
    var spot = dropSpot(event);
    slotsOf(rack).forEach(function (li) { li.classList.remove("is-drop-before", "is-drop-after"); });
    if (spot) spot.li.classList.add(spot.after ? "is-drop-after" : "is-drop-before");
  });
  document.addEventListener("drop", function (event) {
    var rack = theRack();
    if (!dragged || !rack || !rack.contains(event.target)) return;
    event.preventDefault();
    var spot = dropSpot(event);
    var li = dragged;
    clearMarks(rack);
    dragged = null;
    if (!spot) return;
    rack.insertBefore(li, spot.after ? spot.li.nextElementSibling : spot.li);
    roving(rack);
    moved(rack, li);
  });
  document.addEventListener("dragend", function () {
    var rack = theRack();
    if (rack) clearMarks(rack);
    dragged = null;
  });

  // Tiles you pass or throw leave your order now, so the ones that come back
  // (the same face received in a pass) count as new, not as the old ones.
  document.addEventListener("submit", function (event) {
    var rack = theRack();
    if (!rack || !event.target.contains(rack)) return;
    var leaving = [];
    Array.prototype.forEach.call(rack.querySelectorAll("input[name=tiles]:checked"), function (box) { leaving.push(box.value); });
    if (event.submitter && event.submitter.name === "tile") leaving.push(event.submitter.value);
    var id = rack.getAttribute("data-rack");
    var state = read(id);
    if (!Array.isArray(state.order)) return;
    leaving.forEach(function (code) {
      var at = state.order.indexOf(code);
      if (at >= 0) state.order.splice(at, 1);
    });
    write(id, state);
  }, true);

  // How many tiles are ticked for the pass, out of how many it takes.
  function countPicks() {
    var form = document.querySelector(".play-pick[data-need]");
    var count = form && form.querySelector("[data-pick-count]");
    if (!count) return;
    // A blind pass (C5): each incoming tile sent on unseen is one fewer of your own to pick.
    var blind = form.querySelector("input[name=blind]:checked");
    var unseen = blind ? Number(blind.value) : 0;
    var need = Number(form.getAttribute("data-need")) - unseen;
    var picks = form.querySelectorAll("input[name=tiles]:checked").length;
    count.hidden = false;
    count.textContent = picks + " of " + need + " chosen" + (picks > need ? ": that is too many" : "") +
      (unseen ? "; " + unseen + " of the tiles coming to you go straight on, unseen" : "");
  }
  document.addEventListener("change", function (event) {
    if (event.target.name === "tiles" || event.target.name === "blind") countPicks();
  });

  function ready() {
    var rack = theRack();
    if (rack) arrange(rack);
    countPicks();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();

  // htmx put a new table in: reorder it before the browser paints, then focus the status line.
  document.addEventListener("htmx:afterSwap", function () {
    var table = document.getElementById("table");
    if (!table) return;
    chosen = null;
    ready();
    var focus = table.querySelector(".play-note--problem") || document.getElementById("play-status");
    if (focus) {
      if (!focus.hasAttribute("tabindex")) focus.setAttribute("tabindex", "-1");
      focus.focus({ preventScroll: true });
    }
    // The coach's advice arrives inside the new table, where a live region is not reliably heard: say it here.
    var advice = table.querySelector(".play-note--advice");
    if (advice) say(advice.textContent);
    // A call is asked for: bring its window into sight (on a phone it may sit above the rack you were looking at).
    var call = table.querySelector("[data-call-window]");
    if (call && call.scrollIntoView) call.scrollIntoView({ block: "nearest" });
  });
})();
