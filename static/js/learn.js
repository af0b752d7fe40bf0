/* Glossary words (coach/web/learn/lessons.py): a tap opens a word's meaning and
   another tap, a tap elsewhere or Escape closes it (hover and keyboard
   focus open it by CSS alone); an open meaning is kept inside the screen.
   Lesson checks: after htmx swaps a verdict in, focus follows it. */
(function () {
  "use strict";

  function keepOnScreen(word) {
    var tip = word.querySelector(".gloss__tip");
    if (!tip) return;
    tip.style.setProperty("--gloss-shift", "0px");
    var box = tip.getBoundingClientRect();
    var room = document.documentElement.clientWidth - 12;
    var shift = 0;
    if (box.right > room) shift = room - box.right;
    if (box.left + shift < 12) shift = 12 - box.left;
    tip.style.setProperty("--gloss-shift", shift + "px");
  }

  function closeAll(except) {
    document.querySelectorAll(".gloss.is-open").forEach(function (word) {
      if (word !== except) word.classList.remove("is-open");
    });
  }

  document.addEventListener("click", function (event) {
    var word = event.target.closest && event.target.closest(".gloss");
    closeAll(word);
    if (!word) return;
    word.classList.toggle("is-open");
    if (word.classList.contains("is-open")) keepOnScreen(word);
    else word.blur();
  });

  document.addEventListener("focusin", function (event) {
    if (event.target.classList && event.target.classList.contains("gloss")) keepOnScreen(event.target);
  });

  document.addEventListener("mouseover", function (event) {
    var word = event.target.closest && event.target.closest(".gloss");
    if (word) keepOnScreen(word);
  });

  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") return;
    closeAll(null);
    var active = document.activeElement;
    if (active && active.classList && active.classList.contains("gloss")) active.blur();
  });

  document.addEventListener("htmx:afterSwap", function (event) {
    var target = event.detail.target;
    if (!target || !target.hasAttribute || !target.hasAttribute("data-check-verdict")) return;
    var verdict = target.querySelector(".lesson-verdict, .problem");
    if (!verdict) return;
    if (!verdict.hasAttribute("tabindex")) verdict.setAttribute("tabindex", "-1");
    verdict.focus({ preventScroll: true });
    verdict.scrollIntoView({ block: "nearest", behavior: "smooth" });
  });
})();
