// Click-to-move: click a piece, then a target square; the move field is
// filled with the matching legal move. The page works without this script.
(function () {
  var input = document.getElementById("move-input");
  var list = document.getElementById("legal-moves");
  var board = document.getElementById("board");
  if (!input || !list || !board) return;
  var moves = Array.prototype.map.call(list.querySelectorAll("li"), function (li) {
    return { from: li.dataset.from, to: li.dataset.to, text: li.dataset.move, coord: li.dataset.coord, li: li };
  });
  var selected = null;
  // The piece letter of a drop ("P@e5", "P*e5"), upper case.
  function dropOf(m) {
    var c = m.coord || "";
    var i = c.search(/[@*]/);
    return i > 0 ? c.slice(0, i).replace("+", "").toUpperCase() : null;
  }
  function clear() {
    board.querySelectorAll("g.sq.selected, g.sq.target").forEach(function (g) {
      g.classList.remove("selected", "target");
    });
  }
  function square(name) { return board.querySelector('g.sq[data-sq="' + name + '"]'); }
  var handLetter = null;
  board.addEventListener("click", function (ev) {
    var hand = ev.target.closest("g.in-hand");
    if (hand) {
      clear();
      selected = null;
      handLetter = hand.dataset.hand.replace("+", "").toUpperCase();
      moves.forEach(function (m) {
        if (!m.from && dropOf(m) === handLetter) { var t = square(m.to); if (t) t.classList.add("target"); }
      });
      return;
    }
    var g = ev.target.closest("g.sq");
    if (!g) return;
    if (handLetter) {
      var letter = handLetter;
      handLetter = null;
      var drops = moves.filter(function (m) { return !m.from && m.to === g.dataset.sq && dropOf(m) === letter; });
      clear();
      if (drops.length > 0) { input.value = drops[0].text; input.focus(); return; }
    }
    var sq = g.dataset.sq;
    if (selected) {
      var found = moves.filter(function (m) { return m.from === selected && m.to === sq; });
      if (found.length > 0) {
        input.value = found[0].text;
        input.focus();
        clear();
        selected = null;
        return;
      }
    }
    clear();
    var from = moves.filter(function (m) { return m.from === sq; });
    if (from.length === 0) { selected = null; return; }
    selected = sq;
    g.classList.add("selected");
    from.forEach(function (m) { var t = square(m.to); if (t) t.classList.add("target"); });
  });
  list.addEventListener("click", function (ev) {
    var li = ev.target.closest("li");
    if (li) { input.value = li.dataset.move; input.focus(); }
  });
})();
