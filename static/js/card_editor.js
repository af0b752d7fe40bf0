/* The card editor: line numbers beside the YAML, the lines with a problem
   marked there (the preview lists them in data-problem-lines), and a
   problem clicked takes the cursor to its line. The page works without
   this file: the problems are listed with their line numbers anyway. */
(function () {
  "use strict";
  var text = document.getElementById("card_text");
  var code = document.querySelector("[data-editor-code]");
  if (!text || !code) return;

  var gutter = document.createElement("div");
  gutter.className = "editor__gutter";
  gutter.setAttribute("aria-hidden", "true");
  code.insertBefore(gutter, text);
  code.classList.add("has-gutter");
  var shown = -1;
  var marked = "";

  function problemLines() {
    var preview = document.getElementById("editor-preview");
    var raw = preview ? preview.getAttribute("data-problem-lines") || "" : "";
    var lines = {};
    raw.split(" ").forEach(function (n) { if (n) lines[n] = true; });
    document.querySelectorAll("#save-problems [data-line]").forEach(function (el) {
      lines[el.getAttribute("data-line")] = true;
    });
    return lines;
  }

  function render() {
    var count = text.value.split("\n").length;
    var lines = problemLines();
    var key = Object.keys(lines).join(" ");
    if (count === shown && key === marked) return;
    shown = count;
    marked = key;
    var out = document.createDocumentFragment();
    for (var n = 1; n <= count; n++) {
      var span = document.createElement("span");
      span.textContent = String(n);
      if (lines[n]) {
        span.className = "is-problem";
        span.title = "A problem on this line";
      }
      out.appendChild(span);
    }
    gutter.replaceChildren(out);
    gutter.scrollTop = text.scrollTop;
  }

  function goToLine(n) {
    var rows = text.value.split("\n");
    if (n < 1 || n > rows.length) return;
    var start = 0;
    for (var i = 0; i < n - 1; i++) start += rows[i].length + 1;
    text.focus();
    text.setSelectionRange(start, start + rows[n - 1].length);
    var lineHeight = text.scrollHeight / Math.max(rows.length, 1);
    text.scrollTop = Math.max(0, (n - 4) * lineHeight);
  }

  // "Start from this year's layout" replaces the text: ask first when something was typed.
  var typed = text.value;
  var layout = document.getElementById("start-layout");
  if (layout) {
    layout.addEventListener("click", function (event) {
      if (text.value.trim() && text.value !== typed && !window.confirm("Replace what you typed with this year's layout?")) {
        event.preventDefault();
      }
    });
  }

  text.addEventListener("input", render);
  text.addEventListener("scroll", function () { gutter.scrollTop = text.scrollTop; });
  document.addEventListener("htmx:afterSwap", render);
  function lineOf(event) {
    var item = event.target.closest && event.target.closest(".editor-problem[data-line], .printed-line[data-line]");
    return item ? parseInt(item.getAttribute("data-line"), 10) : 0;
  }
  document.addEventListener("click", function (event) {
    var n = lineOf(event);
    if (n) goToLine(n);
  });
  // A problem is reached with Tab too, and Enter takes the cursor to its line.
  function focusable() {
    document.querySelectorAll(".editor-problem[data-line]").forEach(function (el) {
      el.setAttribute("tabindex", "0");
      el.setAttribute("title", "Go to line " + el.getAttribute("data-line"));
    });
  }
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" || !event.target.classList || !event.target.classList.contains("editor-problem")) return;
    var n = lineOf(event);
    if (n) {
      event.preventDefault();
      goToLine(n);
    }
  });
  document.addEventListener("htmx:afterSwap", focusable);
  focusable();
  render();
})();
