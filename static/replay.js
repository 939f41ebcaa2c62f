// Replay with the keyboard: left/right arrows follow the page's previous and
// next links, Home and End the first and last (the links work without this).
document.addEventListener("keydown", function (e) {
  var t = e.target;
  // The board's own arrow keys (static/board.js) are not replay steps.
  if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.isContentEditable))) return;
  var ids = { ArrowLeft: "replay-prev", ArrowRight: "replay-next", Home: "replay-first", End: "replay-last" };
  var link = ids[e.key] && document.getElementById(ids[e.key]);
  // At either end the link is a plain, inactive label: nothing to follow.
  if (link && link.href) { e.preventDefault(); window.location.href = link.href; }
});
