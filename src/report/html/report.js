// Steps each puzzle's board through its solution. The boards are drawn by the page itself;
// this only switches classes (hop cells, tilt holes) and moves marbles, frame by frame.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("marbles-data").textContent);
  var players = [];
  var current = null;

  // On a board of pieces of kinds a frame holds each piece's letter: a disc of its kind's
  // colour, the letter on it.
  function hopFrame(p, k) {
    var frame = p.d.hop.frames[k];
    var mark = k > 0 ? p.d.hop.marks[k - 1] || [] : [];
    var kinds = {};
    var list = p.d.hop.kinds || [];
    for (var j = 0; j < list.length; j++) kinds[list[j][0]] = list[j][1];
    for (var i = 0; i < p.cells.length; i++) {
      var ch = frame.charAt(i);
      var piece = ch !== "1" && ch !== "0" && ch !== "";
      var cls = "cell " + (ch === "1" ? "peg" : piece ? "piece k-" + (kinds[ch] || "green") : "empty");
      var letter = p.cells[i].querySelector(".letter");
      if (letter) letter.textContent = piece ? ch : "";
      if (mark.length) {
        if (i === mark[1]) cls += " moved";
        else if (i === mark[0]) cls += " from";
        else if (mark.indexOf(i, 2) >= 0) cls += " jumped";
      }
      p.cells[i].setAttribute("class", cls);
    }
  }

  function tiltFrame(p, k) {
    var t = p.d.tilt;
    var frame = t.frames[k];
    var before = k > 0 ? t.frames[k - 1] : null;
    for (var m = 0; m < p.marbles.length; m++) {
      var g = p.marbles[m];
      var idx = +g.getAttribute("data-k");
      var at = frame[idx];
      // A marble home moves onto its hole; a slider gone by an exit fades where it last stood.
      var cell = at || t.holes[idx];
      if (cell) g.style.transform = "translate(" + (cell[1] + 0.5) + "px," + (cell[0] + 0.5) + "px)";
      g.setAttribute("class", g.getAttribute("class").replace(/ sunk\b/g, "") + (at ? "" : " sunk"));
    }
    for (var h = 0; h < p.goals.length; h++) {
      var goal = p.goals[h];
      var j = +goal.getAttribute("data-k");
      var filled = frame[j] === null;
      var just = filled && before && before[j] !== null;
      var base = goal.getAttribute("class").replace(/ (filled|just)\b/g, "");
      goal.setAttribute("class", base + (filled ? " filled" : "") + (just ? " just" : ""));
    }
  }

  function show(p, k) {
    k = Math.max(0, Math.min(p.n, k));
    p.k = k;
    if (p.d.kind === "hop") hopFrame(p, k);
    else tiltFrame(p, k);
    // A hop board steps through jumps (a move is a chain of them), others through moves.
    p.count.textContent = (p.count.getAttribute("data-step") || "move") + " " + k + " of " + p.n;
    p.words.textContent = k === 0 ? (p.n ? "start position" : p.words.textContent) : p.d.words[k - 1];
    p.scrub.value = String(k);
    p.btn.first.disabled = p.btn.prev.disabled = k === 0;
    p.btn.next.disabled = p.btn.last.disabled = k === p.n;
  }

  function go(p, how) {
    var k = how === "first" ? 0 : how === "last" ? p.n : how === "prev" ? p.k - 1 : p.k + 1;
    show(p, k);
  }

  function use(p) {
    if (current && current !== p) current.sec.classList.remove("active");
    current = p;
    p.sec.classList.add("active");
  }

  var sections = document.querySelectorAll("section.card[data-idx]");
  for (var s = 0; s < sections.length; s++) {
    (function (sec) {
      var d = data[+sec.getAttribute("data-idx")];
      if (!d) return;
      var frames = d.kind === "hop" ? d.hop.frames : d.tilt.frames;
      var p = {
        sec: sec,
        d: d,
        k: 0,
        n: Math.max(0, Math.min(d.words.length, frames.length - 1)),
        cells: sec.querySelectorAll("svg.board .cell"),
        marbles: sec.querySelectorAll("svg.board .marble"),
        goals: sec.querySelectorAll("svg.board .goal"),
        count: sec.querySelector(".count"),
        words: sec.querySelector(".words"),
        scrub: sec.querySelector(".scrub"),
        btn: {}
      };
      var buttons = sec.querySelectorAll("button[data-go]");
      for (var b = 0; b < buttons.length; b++) {
        (function (button) {
          p.btn[button.getAttribute("data-go")] = button;
          button.addEventListener("click", function () {
            use(p);
            go(p, button.getAttribute("data-go"));
          });
        })(buttons[b]);
      }
      p.scrub.addEventListener("input", function () {
        use(p);
        show(p, +p.scrub.value);
      });
      sec.addEventListener("pointerdown", function () { use(p); });
      sec.addEventListener("focusin", function () { use(p); });
      sec.player = p;
      players.push(p);
      if (p.n > 0) show(p, 0);
    })(sections[s]);
  }

  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    var keys = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
    var how = keys[e.key];
    if (!how) return;
    var t = e.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable)) return;
    var sec = t && t.closest ? t.closest("section.card[data-idx]") : null;
    var p = (sec && sec.player) || current;
    if (!p || p.n === 0) return;
    e.preventDefault();
    use(p);
    go(p, how);
  });

  // `?step=last`, `#step=3`, `#step=all-last`: open every puzzle at that move.
  function wanted() {
    var m = /(?:^|[?#&])step=([^&#]*)/.exec(location.search + location.hash);
    return m ? decodeURIComponent(m[1]).replace(/^all-/, "") : null;
  }
  var step = wanted();
  if (step !== null && step !== "") {
    document.body.classList.add("no-anim");
    for (var i = 0; i < players.length; i++) {
      var p = players[i];
      if (p.n === 0) continue;
      if (step === "last" || step === "end") show(p, p.n);
      else if (step === "first" || step === "start") show(p, 0);
      else if (/^\d+$/.test(step)) show(p, +step);
    }
    requestAnimationFrame(function () {
      requestAnimationFrame(function () { document.body.classList.remove("no-anim"); });
    });
  }
})();

// The summary table: a click on a column's head sorts the rows by it (a second click, the other
// way); the box above it keeps only the rows holding its text.
(function () {
  "use strict";
  var table = document.querySelector("section.summary table");
  if (!table || !table.tHead || !table.tBodies.length) return;
  var body = table.tBodies[0];
  var box = document.createElement("input");
  box.type = "search";
  box.className = "filter";
  box.placeholder = "filter: a file, a name, a status, a reason";
  box.setAttribute("aria-label", "filter the rows");
  table.parentNode.parentNode.insertBefore(box, table.parentNode);
  box.addEventListener("input", function () {
    var q = box.value.toLowerCase();
    for (var i = 0; i < body.rows.length; i++) {
      var r = body.rows[i];
      r.hidden = q !== "" && r.textContent.toLowerCase().indexOf(q) < 0;
    }
  });
  // A number column sorts by value: `1,234` nodes, `4.2ms` and `12.50s` of time.
  function key(row, c, number) {
    var t = row.cells[c] ? row.cells[c].textContent : "";
    if (!number) return t.toLowerCase();
    var x = parseFloat(t.replace(/,/g, ""));
    if (/ms$/.test(t)) x /= 1000;
    return isNaN(x) ? -1 : x;
  }
  var heads = table.tHead.rows[0].cells;
  Array.prototype.forEach.call(heads, function (th, c) {
    var up = true;
    th.style.cursor = "pointer";
    th.title = "sort by " + th.textContent;
    th.addEventListener("click", function () {
      var number = th.classList.contains("n");
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = key(a, c, number), y = key(b, c, number);
        return (x < y ? -1 : x > y ? 1 : 0) * (up ? 1 : -1);
      });
      up = !up;
      rows.forEach(function (r) { body.appendChild(r); });
    });
  });
})();
