/* Mahjong Coach: the little the pages need beyond htmx.
   - the card's search box filters lines by words (the index of coach/notation/line_search.py:
     a phrase starting at a word, else every word; the same rule as its `search`);
   - a row of tiles is one tab stop, arrow keys move between its tiles;
   - after htmx swaps in a verdict or a new question, focus follows it. */
(function () {
  "use strict";

  var SMALL_WORDS = ["of", "a", "an", "the", "and", "with", "in"];

  function normal(text) {
    return text.toLowerCase().replace(/[^\w&-]+/g, " ").trim().split(/\s+/).join(" ");
  }

  function lineMatches(index, phrase, loose) {
    if (!phrase) return true;
    if (!loose) {
      var escaped = phrase.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      return new RegExp("(?:^|[ |])" + escaped + "(?![0-9])").test(index);
    }
    var held = index.replace(/\|/g, " ").split(/\s+/);
    return phrase.split(" ").every(function (word) {
      return SMALL_WORDS.indexOf(word) !== -1 || held.indexOf(word) !== -1;
    });
  }

  function filterCard(input) {
    var query = normal(input.value);
    var panel = document.getElementById(input.getAttribute("aria-controls"));
    if (!panel) return;
    var lines = panel.querySelectorAll("[data-line]");
    var loose = !Array.prototype.some.call(lines, function (line) {
      return lineMatches(line.dataset.text, query, false);
    });
    var shown = 0;
    panel.querySelectorAll("[data-section]").forEach(function (section) {
      var inSection = 0;
      section.querySelectorAll("[data-line]").forEach(function (line) {
        var match = lineMatches(line.dataset.text, query, loose);
        line.hidden = !match;
        if (match) inSection += 1;
      });
      section.hidden = inSection === 0;
      if (query && inSection > 0) section.open = true;
      shown += inSection;
    });
    var none = panel.querySelector("[data-no-match]");
    if (none) none.hidden = shown > 0;
  }

  document.addEventListener("input", function (event) {
    if (event.target.matches && event.target.matches("[data-card-search]")) {
      filterCard(event.target);
    }
  });

  // Enter in the search box picks the only line left instead of submitting.
  document.addEventListener("keydown", function (event) {
    var target = event.target;
    if (target.matches && target.matches("[data-card-search]") && event.key === "Enter") {
      event.preventDefault();
      var panel = document.getElementById(target.getAttribute("aria-controls"));
      var visible = Array.prototype.filter.call(
        panel.querySelectorAll("[data-line]"), function (line) { return !line.hidden; });
      if (visible.length >= 1) {
        var radio = visible[0].querySelector("input[type=radio]");
        radio.checked = true;
        radio.focus();
      }
      return;
    }
    var row = target.closest && target.closest("[data-roving]");
    if (!row || !target.classList.contains("tile")) return;
    var items = Array.prototype.slice.call(row.querySelectorAll(".tile[tabindex]"));
    var index = items.indexOf(target);
    var next = null;
    if (event.key === "ArrowRight" || event.key === "ArrowDown") next = items[index + 1];
    else if (event.key === "ArrowLeft" || event.key === "ArrowUp") next = items[index - 1];
    else if (event.key === "Home") next = items[0];
    else if (event.key === "End") next = items[items.length - 1];
    if (next) {
      event.preventDefault();
      target.setAttribute("tabindex", "-1");
      next.setAttribute("tabindex", "0");
      next.focus();
    }
  });

  // A new question on the card the page kept (hx-preserve): the last pick and search go.
  function freshCard(stage) {
    var kept = stage.querySelector("[data-card-kept]");
    if (!kept) return;
    kept.querySelectorAll("input[type=radio]:checked").forEach(function (radio) { radio.checked = false; });
    var search = stage.querySelector("[data-card-search]");
    if (search) filterCard(search);
  }

  document.addEventListener("htmx:afterSwap", function (event) {
    var target = event.detail.target;
    if (!target) return;
    if (target.id === "stage") freshCard(target);
    var focus = null;
    if (target.id === "verdict") focus = target.querySelector("#verdict-card, .problem");
    else if (target.id === "stage") focus = target.querySelector("#prompt");
    if (focus) {
      if (!focus.hasAttribute("tabindex")) focus.setAttribute("tabindex", "-1");
      focus.focus({ preventScroll: true });
      focus.scrollIntoView({ block: "nearest", behavior: "smooth" });
    }
  });
})();

/* The first pass: count the tiles chosen, three exactly (C1): once three
   are chosen the other tiles cannot be picked until one is unchecked. */
(function () {
  "use strict";
  function update(form) {
    var picks = form.querySelectorAll("[data-pass-pick]:checked").length;
    var count = form.querySelector("[data-pass-count]");
    if (!count) return;
    count.textContent = picks + " of 3 chosen" + (picks > 3 ? ": a pass is exactly three tiles" : "");
    count.classList.toggle("is-full", picks === 3);
    count.classList.toggle("is-over", picks > 3);
    form.querySelectorAll("[data-pass-pick]").forEach(function (box) {
      if (!box.checked) box.disabled = picks >= 3;
      box.closest(".pass-tile").classList.toggle("is-locked", !box.checked && picks >= 3);
    });
  }
  document.addEventListener("change", function (event) {
    var form = event.target.closest && event.target.closest("[data-pass-form]");
    if (form) update(form);
  });
})();

/* Progress: each answer says how long it took and the learner's time zone,
   so streaks and daily goals follow the learner's own midnight. */
(function () {
  "use strict";
  var shownAt = Date.now();
  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.detail.target && event.detail.target.id === "stage") shownAt = Date.now();
  });
  function setField(form, name, value) {
    var input = form.querySelector("input[type=hidden][name='" + name + "']");
    if (!input) {
      input = document.createElement("input");
      input.type = "hidden";
      input.name = name;
      form.appendChild(input);
    }
    input.value = value;
  }
  // Capture phase: the fields are in place before htmx reads the form.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var action = form.getAttribute && form.getAttribute("action");
    if (!action || !/\/answer$/.test(action)) return;
    setField(form, "elapsed_ms", String(Date.now() - shownAt));
    try {
      setField(form, "tz", Intl.DateTimeFormat().resolvedOptions().timeZone || "");
    } catch (error) { /* an old browser: the server keeps UTC */ }
  }, true);
})();

/* Accounts: the browser's time zone for sign-up and an empty time-zone
   field (with a one-click switch when the device's differs), and
   "Show password". */
(function () {
  "use strict";
  function browserZone() {
    try { return Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (error) { return ""; }
  }
  function setUp() {
    var here = browserZone();
    if (!here) return;
    document.querySelectorAll("input[data-browser-tz]").forEach(function (input) {
      if (!input.value) input.value = here;
    });
    document.querySelectorAll("input[data-tz-field]").forEach(function (input) {
      if (!input.value) input.value = here;
      var use = input.parentNode.querySelector("[data-tz-use]");
      if (!use || input.value === here) return;
      use.textContent = "Use this device\u2019s time zone: " + here;
      use.hidden = false;
      use.addEventListener("click", function () {
        input.value = here;
        use.hidden = true;
        input.focus();
      });
    });
    document.querySelectorAll("[data-show-password]").forEach(function (label) {
      var input = document.getElementById(label.getAttribute("data-show-password"));
      var box = label.querySelector("input[type=checkbox]");
      if (!input || !box) return;
      label.hidden = false;
      box.addEventListener("change", function () { input.type = box.checked ? "text" : "password"; });
      // Sent as a password field, so the browser offers to save it.
      if (input.form) input.form.addEventListener("submit", function () { input.type = "password"; });
    });
    // The current password is asked for only once the email changes.
    document.querySelectorAll("input[data-email-field]").forEach(function (email) {
      var password = email.form && email.form.querySelector("input[name=current_password]");
      var field = password && password.closest(".field");
      if (!field || field.classList.contains("field--error")) return;
      var original = email.defaultValue.trim().toLowerCase();
      function update() { field.hidden = email.value.trim().toLowerCase() === original; }
      email.addEventListener("input", update);
      update();
    });
    var summary = document.querySelector("[data-error-summary]");
    if (summary) summary.focus();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUp);
  else setUp();
})();

/* Table rules (issue 27): once a save is swapped in, focus goes to what it said
   ("Saved." or why not), so a keyboard or screen reader user hears it and goes on from there. */
(function () {
  "use strict";
  document.addEventListener("htmx:afterSwap", function (event) {
    var target = event.detail.target;
    if (!target || target.id !== "table-rules") return;
    var section = document.getElementById("table-rules");  // an outerHTML swap: the new section
    var said = section && section.querySelector(".notice");
    if (!said) return;
    said.setAttribute("tabindex", "-1");
    said.focus({ preventScroll: true });
    said.scrollIntoView({ block: "nearest", behavior: "smooth" });
  });
})();

/* A boosted form (hx-boost; "Seat the class", so that htmx disables its button while it posts:
   hx-disabled-elt) answered with an error page ("This page has expired", say) shows it as a
   plain post would (the server sends a boosted request the whole page, and the htmx-config
   meta swaps 4xx and 5xx), but htmx would put the post's address in the address bar, where a
   reload is a GET the route does not answer: the page's own address stays instead. */
(function () {
  "use strict";
  document.addEventListener("htmx:beforeHistoryUpdate", function (event) {
    var detail = event.detail;
    if (!detail.boosted || !detail.xhr || detail.xhr.status < 400) return;
    detail.history.type = "replace";
    detail.history.path = window.location.pathname + window.location.search;
  });
})();
