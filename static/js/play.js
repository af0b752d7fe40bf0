// The call window on the practice table: after a short wait with no
// answer, "Pass" is pressed for you, as the table moves on at a real game.
// A keyboard or pointer user who starts to decide (focus or hover in the
// window) stops the clock: nobody is rushed into a choice.
(function () {
  "use strict";
  var SECONDS = 12;
  var timer = null;

  function arm(root) {
    var box = root.querySelector("[data-call-window]");
    if (timer) { clearInterval(timer); timer = null; }
    if (!box) return;
    var pass = box.querySelector("[data-pass]");
    var note = box.querySelector("[data-countdown]");
    if (!pass || !note) return;
    var left = SECONDS;
    var stop = function () { if (timer) { clearInterval(timer); timer = null; note.textContent = "Take your time: choose a call or Pass."; } };
    box.addEventListener("focusin", stop);
    box.addEventListener("pointerenter", stop);
    note.textContent = "Pass in " + left + " s unless you call.";
    timer = setInterval(function () {
      left -= 1;
      if (left <= 0) { clearInterval(timer); timer = null; pass.click(); return; }
      note.textContent = "Pass in " + left + " s unless you call.";
    }, 1000);
  }

  document.addEventListener("DOMContentLoaded", function () { arm(document); });
  document.addEventListener("htmx:afterSettle", function () { arm(document); });
})();
