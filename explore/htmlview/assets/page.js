// The step panel of an mxcheck trace page: select a step by clicking its
// row, with the arrow keys or j/k, or with #step=N in the address.
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('trace-data').textContent);
  var steps = data.steps || [];
  if (steps.length === 0) { return; }
  var rows = document.querySelectorAll('#diagram .row');
  var cur = -1;

  function el(id) { return document.getElementById(id); }
  function fillList(ul, items, classify) {
    ul.textContent = '';
    items.forEach(function (text) {
      var li = document.createElement('li');
      li.textContent = text;
      if (classify) { li.className = classify(text); }
      ul.appendChild(li);
    });
  }
  function changeClass(line) {
    if (line.indexOf('+ ') === 0) { return 'add'; }
    if (line.indexOf('- ') === 0) { return 'del'; }
    return 'field';
  }

  function select(i, updateHash) {
    if (isNaN(i)) { return; }
    i = Math.max(0, Math.min(steps.length - 1, i));
    var s = steps[i];
    if (cur >= 0 && rows[cur]) { rows[cur].classList.remove('selected'); }
    cur = i;
    if (rows[i]) {
      rows[i].classList.add('selected');
      var pane = el('diagram-pane');
      var r = rows[i].getBoundingClientRect(), p = pane.getBoundingClientRect();
      if (r.top < p.top || r.bottom > p.bottom) {
        pane.scrollTop += r.top - p.top - p.height / 2;
      }
    }
    el('step-title').textContent = i === 0 ? 'Step 0: initial state' : 'Step ' + i + ': ' + s.label;
    var kind = s.kind ? s.kind + ' step' : 'the state the trace starts from';
    if (i === steps.length - 1 && data.verdict === 'violated') {
      kind += ' — this state violates ' + data.property;
    }
    if (data.loop >= 0 && i > data.loop) { kind += ' — in the loop'; }
    el('step-kind').textContent = kind;
    var names = function (xs) { return (xs || []).map(function (u) { return data.nodes[u]; }).join(', ') || 'none'; };
    el('step-cs').textContent = 'in the critical section: ' + names(s.incs) + ' · waiting: ' + names(s.hungry);
    var changes = el('changes');
    if (i === 0) {
      fillList(changes, ['(the initial state: see the full state below)'], function () { return 'none'; });
    } else if (s.changes.length === 0) {
      fillList(changes, ['(nothing changed: a stutter step)'], function () { return 'none'; });
    } else {
      fillList(changes, s.changes, changeClass);
    }
    el('state').textContent = s.state.join('\n');
    el('state-box').open = el('state-box').open || i === 0;
    fillList(el('transit'), s.transit || []);
    el('transit-count').textContent = String((s.transit || []).length);
    el('adjacency').textContent = (s.adjacency || []).join('\n');
    if (updateHash) {
      history.replaceState(null, '', '#step=' + i);
    }
  }

  function fromHash() {
    var m = /^#step=(\d+)$/.exec(location.hash);
    return m ? parseInt(m[1], 10) : NaN;
  }

  Array.prototype.forEach.call(rows, function (row) {
    row.addEventListener('click', function () {
      select(parseInt(row.getAttribute('data-step'), 10), true);
    });
  });
  document.addEventListener('keydown', function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) { return; }
    var next = null;
    switch (e.key) {
      case 'ArrowDown': case 'j': next = cur + 1; break;
      case 'ArrowUp': case 'k': next = cur - 1; break;
      case 'Home': next = 0; break;
      case 'End': next = steps.length - 1; break;
    }
    if (next !== null) {
      e.preventDefault();
      select(next, true);
    }
  });
  window.addEventListener('hashchange', function () {
    var i = fromHash();
    if (!isNaN(i) && i !== cur) { select(i, false); }
  });
  var start = fromHash();
  select(isNaN(start) ? steps.length - 1 : start, false);
}());
