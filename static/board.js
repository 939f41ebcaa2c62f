// Click-to-move: click a piece, then a target square; the move field is
// filled with the matching legal move. Where several legal moves join the
// same squares (promotions, capture chains, a Spear's direction), a chooser
// lists them in words ("Spear step b3-b4, turn to point forward-right").
// A move that costs the mover their own pieces (a Nuke beside them, a step
// onto a trap) is marked on the board and is never filled in without a
// warning to confirm. A two-leg move is clicked through its middle square;
// where a move may also stop there, the chooser says so: stop, or click a
// second square. A click fills the field without focusing it (on a phone
// that raised the keyboard over the board); the keyboard's Enter does. A
// `//` comment already typed in the field is kept. The board is also a
// keyboard control: Tab reaches it, the arrow keys move a marked
// square (and the pieces in hand), Enter or Space acts as a click there, and
// a status line says what the marked square holds. The page works without
// this script.
(function () {
  var input = document.getElementById("move-input");
  var list = document.getElementById("legal-moves");
  var board = document.getElementById("board");
  if (!input || !list || !board) return;
  // The squares a coordinate move names, in order ("e2c4d5": e2, c4, d5).
  function squaresOf(coord) { return (coord || "").match(/[a-z][0-9]+/g) || []; }
  var moves = Array.prototype.map.call(list.querySelectorAll("li"), function (li) {
    var sqs = squaresOf(li.dataset.coord);
    return {
      from: li.dataset.from, to: li.dataset.to, text: li.dataset.move, coord: li.dataset.coord,
      say: li.dataset.say || li.dataset.move, harm: li.dataset.harm || "",
      // The middle square of a two-leg move, when its coordinate names one.
      via: li.dataset.from && sqs.length >= 3 && sqs[0] === li.dataset.from ? sqs[1] : null
    };
  });
  var selected = null;
  var via = null;
  var handLetter = null;
  // Whether the act under way came from the keyboard (Enter or Space).
  var byKeyboard = false;
  // The piece letter of a drop ("P@e5", "P*e5"), upper case.
  function dropOf(m) {
    var c = m.coord || "";
    var i = c.search(/[@*]/);
    return i > 0 ? c.slice(0, i).replace("+", "").toUpperCase() : null;
  }
  function clear() {
    board.querySelectorAll("g.sq.selected, g.sq.target, g.sq.via, g.sq.harm, g.in-hand.selected").forEach(function (g) {
      g.classList.remove("selected", "target", "via", "harm");
    });
  }
  // A target every one of whose moves costs the mover their own pieces.
  function markTargets(found, key) {
    var by = {};
    found.forEach(function (m) {
      var sq = key(m);
      if (!by[sq]) by[sq] = { all: true };
      by[sq].all = by[sq].all && !!m.harm;
    });
    Object.keys(by).forEach(function (sq) {
      mark(sq, "target");
      if (by[sq].all) mark(sq, "harm");
    });
  }
  function square(name) { return board.querySelector('g.sq[data-sq="' + name + '"]'); }
  function mark(name, cls) { var g = square(name); if (g) g.classList.add(cls); }
  function closeChooser() {
    var old = document.getElementById("move-chooser");
    if (old) old.parentNode.removeChild(old);
  }
  // Put a move in the field, after the comment typed there if any.
  function setMove(text) {
    closeChooser();
    var at = input.value.indexOf("//");
    input.value = at >= 0 ? text + " " + input.value.slice(at) : text;
    if (byKeyboard) input.focus();
    else say("Move filled in: " + text + ". Press " + submitLabel() + " to send it.");
  }
  function submitLabel() {
    var b = document.querySelector("#move-form button[type=submit]");
    return b ? "“" + b.textContent.trim() + "”" : "the button";
  }
  // One button per move: its words, its notation beside, and a warning
  // where the move costs the mover their own pieces.
  function choiceButton(m, label) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = m.harm ? "choice harm" : "choice";
    b.dataset.move = m.text;
    var words = document.createElement("span");
    words.textContent = (label || "") + m.say;
    b.appendChild(words);
    var code = document.createElement("code");
    code.textContent = m.text;
    b.appendChild(document.createTextNode(" "));
    b.appendChild(code);
    if (m.harm) {
      var w = document.createElement("strong");
      w.className = "harm-note";
      w.textContent = "Warning: " + m.harm + ".";
      b.appendChild(document.createTextNode(" "));
      b.appendChild(w);
    }
    b.addEventListener("click", function () { setMove(m.text); });
    return b;
  }
  // The chooser, after the move form: a heading line, then the buttons.
  function chooser(title, buttons, note) {
    closeChooser();
    var box = document.createElement("div");
    box.id = "move-chooser";
    box.setAttribute("role", "group");
    box.setAttribute("aria-label", title);
    var p = document.createElement("p");
    p.textContent = title;
    box.appendChild(p);
    buttons.forEach(function (b) { box.appendChild(b); });
    if (note) {
      var n = document.createElement("p");
      n.className = "muted";
      n.textContent = note;
      box.appendChild(n);
    }
    var form = document.getElementById("move-form");
    form.parentNode.insertBefore(box, form.nextSibling);
    box.querySelector("button").focus({ preventScroll: !byKeyboard });
  }
  function choose(found) {
    var harmful = found.filter(function (m) { return m.harm; }).length;
    var title = found.length === 1 ? "This move costs you your own pieces. Play it?" :
      harmful === found.length ? "Every move here costs you your own pieces. Which one?" :
      "Several moves match. Which one?";
    chooser(title, found.map(function (m) { return choiceButton(m); }));
  }
  function pick(found) {
    clear();
    selected = null;
    via = null;
    // A single move is filled in, unless it costs the mover their own
    // pieces: that is asked first.
    if (found.length === 1 && !found[0].harm) setMove(found[0].text);
    else if (found.length > 0) choose(found);
  }
  // The status line under the board says what a click did.
  function say(text) { if (status) status.textContent = text; }
  function select(sq, g) {
    clear();
    closeChooser();
    via = null;
    var from = moves.filter(function (m) { return m.from === sq; });
    if (from.length === 0) { selected = null; return; }
    selected = sq;
    g.classList.add("selected");
    markTargets(from, function (m) { return m.to; });
    from.forEach(function (m) { if (m.via) mark(m.via, "via"); });
  }
  // A click, or Enter on the marked square: the same step either way.
  function actHand(hand) {
    clear();
    closeChooser();
    selected = null;
    via = null;
    handLetter = hand.dataset.hand.replace("+", "").toUpperCase();
    hand.classList.add("selected");
    markTargets(moves.filter(function (m) { return !m.from && dropOf(m) === handLetter; }),
      function (m) { return m.to; });
  }
  function actSquare(g) {
    var sq = g.dataset.sq;
    if (handLetter) {
      var letter = handLetter;
      handLetter = null;
      var drops = moves.filter(function (m) { return !m.from && m.to === sq && dropOf(m) === letter; });
      if (drops.length > 0) { pick(drops); return; }
    }
    if (selected && via) {
      var legs = moves.filter(function (m) { return m.from === selected && m.via === via && m.to === sq; });
      if (legs.length > 0) { pick(legs); return; }
    }
    if (selected) {
      var direct = moves.filter(function (m) {
        return m.from === selected && m.to === sq && (!m.via || m.via === m.to);
      });
      var through = moves.filter(function (m) { return m.from === selected && m.via === sq && m.to !== sq; });
      if (through.length > 0) {
        // The middle square of a two-leg move: now its second legs.
        clear();
        mark(selected, "selected");
        via = sq;
        g.classList.add("via");
        markTargets(through, function (m) { return m.to; });
        if (direct.length > 0) stopOrGoOn(direct, sq);
        return;
      }
      var found = moves.filter(function (m) { return m.from === selected && m.to === sq; });
      if (found.length > 0) { pick(found); return; }
    }
    select(sq, g);
  }
  // A move may end on the middle square or go on: two clear choices.
  function stopOrGoOn(direct, sq) {
    var buttons = direct.map(function (m) { return choiceButton(m, "Stop on " + sq + ": "); });
    var on = document.createElement("button");
    on.type = "button";
    on.className = "choice go-on";
    on.textContent = "Go on: click a second square (marked on the board)";
    on.addEventListener("click", function () {
      closeChooser();
      say("Now click the second square: one of those marked.");
      if (byKeyboard) svg.focus();
    });
    buttons.push(on);
    chooser("The move can stop on " + sq + " or go on from there.", buttons);
  }
  board.addEventListener("click", function (ev) {
    byKeyboard = false;
    var hand = ev.target.closest("g.in-hand");
    if (hand) { actHand(hand); return; }
    var g = ev.target.closest("g.sq");
    if (g) actSquare(g);
  });

  // The keyboard: the board's picture becomes one focusable control.
  var svg = board.querySelector("svg");
  var status = document.createElement("p");
  status.id = "board-status";
  status.className = "board-status";
  status.setAttribute("aria-live", "polite");
  svg.parentNode.insertBefore(status, svg.nextSibling);
  svg.setAttribute("tabindex", "0");
  svg.setAttribute("role", "application");
  svg.setAttribute("aria-describedby", "board-status");
  var name = svg.getAttribute("aria-label") || "Board";
  svg.setAttribute("aria-label", name + ". Arrow keys move between squares; Enter or Space picks a piece, then where it goes.");
  // The keyboard's marked square: a dashed frame over a solid one of
  // another colour, unlike a picked square's frame.
  var under = document.createElementNS("http://www.w3.org/2000/svg", "rect");
  under.setAttribute("class", "cursor-mark-under");
  svg.appendChild(under);
  var marker = document.createElementNS("http://www.w3.org/2000/svg", "rect");
  marker.setAttribute("class", "cursor-mark");
  svg.appendChild(marker);
  var cursor = null;
  function items() { return Array.prototype.slice.call(svg.querySelectorAll("g.sq, g.in-hand")); }
  function centre(el) { var b = el.getBBox(); return { x: b.x + b.width / 2, y: b.y + b.height / 2, b: b }; }
  function describe(el) {
    var title = el.querySelector("g.piece title");
    var what = title ? title.textContent : "empty";
    var where = el.dataset.sq || "in hand";
    var state = el.classList.contains("selected") ? ", selected" :
      el.classList.contains("via") ? ", middle square" :
      el.classList.contains("harm") ? ", a target: a move there costs you your own pieces" :
      el.classList.contains("target") ? ", a target" : "";
    return where + ": " + what + state;
  }
  function moveCursor(el) {
    cursor = el;
    var c = centre(el).b;
    [under, marker].forEach(function (r) {
      r.setAttribute("x", c.x + 2);
      r.setAttribute("y", c.y + 2);
      r.setAttribute("width", Math.max(c.width - 4, 1));
      r.setAttribute("height", Math.max(c.height - 4, 1));
    });
    status.textContent = describe(el);
  }
  // The nearest square in a direction on the screen, the flipped board's
  // too; holes and the hands' rows are skipped or reached alike.
  function step(dx, dy) {
    var here = centre(cursor);
    var best = null, bestScore = Infinity;
    items().forEach(function (el) {
      if (el === cursor) return;
      var c = centre(el);
      var along = (c.x - here.x) * dx + (c.y - here.y) * dy;
      var across = Math.abs((c.x - here.x) * dy) + Math.abs((c.y - here.y) * dx);
      if (along < 8) return;
      var score = along + 3 * across;
      if (score < bestScore) { bestScore = score; best = el; }
    });
    if (best) moveCursor(best);
  }
  svg.addEventListener("focus", function () {
    if (!cursor || !svg.contains(cursor)) {
      var first = moves.length && moves[0].from ? square(moves[0].from) : null;
      moveCursor(first || svg.querySelector("g.sq"));
    } else {
      status.textContent = describe(cursor);
    }
  });
  svg.addEventListener("keydown", function (ev) {
    if (ev.altKey || ev.ctrlKey || ev.metaKey || !cursor) return;
    var dirs = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (dirs[ev.key]) {
      ev.preventDefault();
      step(dirs[ev.key][0], dirs[ev.key][1]);
    } else if (ev.key === "Enter" || ev.key === " ") {
      ev.preventDefault();
      byKeyboard = true;
      if (cursor.classList.contains("in-hand")) actHand(cursor); else actSquare(cursor);
      // A move filled in moves the focus to the field; otherwise say what
      // the square is now.
      if (document.activeElement === svg) status.textContent = describe(cursor);
    }
  });
  list.addEventListener("click", function (ev) {
    var li = ev.target.closest("li");
    if (!li) return;
    byKeyboard = false;
    var m = moves.filter(function (x) { return x.text === li.dataset.move; });
    pick(m.length ? m : [{ text: li.dataset.move, say: li.dataset.move, harm: "" }]);
  });
})();
