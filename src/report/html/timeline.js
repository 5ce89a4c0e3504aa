// The HTML report's script (report/html.c embeds it): draws the timeline
// from the page's JSON data (#rc-data) as SVG, a row per thread, and links
// the findings above it to the calls they quote, both ways. Only what is
// in view is drawn, and calls narrower than a pixel share it, so a page of
// a long trace stays quick to zoom and pan.
(function () {
  'use strict';

  // Event flags, as report/html.c writes them (event/timeline.h's, and three of its own).
  var FAILED = 1, WAIT = 2, BLOCKED = 4, EXEC = 8, FORK = 16, SIGNAL = 256, EXIT = 512, LONG = 1024;
  var MARKS = EXEC | FORK | SIGNAL | EXIT;
  var LABEL_W = 180, ROW_H = 20, AXIS_H = 24, BAR_Y = 3, BAR_H = 12, DENS_H = 3;
  var SVGNS = 'http://www.w3.org/2000/svg';

  var findingEls = document.querySelectorAll('li.finding');
  var dataEl = document.getElementById('rc-data');
  var box = document.getElementById('timeline');
  if (!dataEl || !box) {
    // core and stack: no trace, only the findings and the stacks.
    findingEls.forEach(function (li) {
      li.addEventListener('click', function (e) {
        if (e.target.closest('li.finding') !== li) return;
        findingEls.forEach(function (o) { o.classList.remove('selected'); });
        li.classList.add('selected');
      });
    });
    window.rootcause = { data: null };
    return;
  }
  var D = JSON.parse(dataEl.textContent);
  var names = D.names;
  var span = D.span > 0 ? D.span : 1;

  // Rows, and every event by its position in the trace.
  var rows = [], bySeq = new Map(), drawn = 0;
  D.threads.forEach(function (t, i) {
    var evs = t.ev.map(function (a) {
      var ev = { seq: a[0], x: a[1], dur: a[2], name: names[a[3]], flags: a[4], err: a[5], line: a[6], row: i };
      ev.end = ev.dur > 0 ? ev.x + ev.dur : ((ev.flags & BLOCKED) && D.timed ? D.span : ev.x);
      bySeq.set(ev.seq, ev);
      return ev;
    });
    evs.sort(function (a, b) { return a.x - b.x || a.seq - b.seq; });
    drawn += evs.length;
    var dens = new Array(D.buckets).fill(0);
    t.counts.forEach(function (c) { c[1].forEach(function (n, b) { dens[b] += n; }); });
    rows.push({ t: t, evs: evs, dens: dens, leader: t.tid === t.pid });
  });
  var densMax = 1;
  rows.forEach(function (r) { r.dens.forEach(function (n) { if (n > densMax) densMax = n; }); });

  // Which finding quotes an event (the first that does), and each finding's events.
  var evFinding = new Map(), findingEvs = new Map();
  D.findings.forEach(function (f) {
    findingEvs.set(f.id, f.ev.filter(function (s) { return bySeq.has(s); }));
    f.ev.forEach(function (s) { if (!evFinding.has(s)) evFinding.set(s, f.id); });
  });

  // What was summarised, in words.
  (function () {
    var counted = 0, dropped = 0, calls = 0;
    D.threads.forEach(function (t) { counted += t.counted; dropped += t.dropped; calls += t.calls; });
    var s = D.threads.length + ' thread' + (D.threads.length === 1 ? '' : 's') + ', ' +
      calls.toLocaleString('en') + ' calls. Drawn as bars: ' + drawn.toLocaleString('en') +
      ' (every failed call, every call of 10 ms or more, exec, fork, signals and exits, and the calls findings quote). ' +
      'The other ' + counted.toLocaleString('en') + ' are summarised as counts per call over time: the grey strip under each row (hover it).';
    if (dropped)
      s += ' Of the calls worth a bar, ' + dropped.toLocaleString('en') + ' fell between the first ones a thread keeps (up to ' +
        D.caps.head.toLocaleString('en') + ', ' + D.caps.heads.toLocaleString('en') + ' for all threads) and its last ' +
        D.caps.tail + ', and are in the counts too.';
    if (D.other_threads)
      s += ' ' + D.other_threads + ' threads past the first ' + D.caps.threads + ' have no row: their ' +
        D.other_calls.toLocaleString('en') + ' calls are only counted.';
    if (!D.timed)
      s += ' The trace has no timestamps (strace -tt): calls are placed in the order they came.';
    document.getElementById('tl-summary').textContent = s;
  })();

  var v0 = 0, v1 = span, hl = new Set(), width = 800;
  var svg = document.createElementNS(SVGNS, 'svg');
  box.appendChild(svg);
  var tip = document.getElementById('tl-tip');
  var detail = document.getElementById('tl-detail');

  function el(name, attrs, parent) {
    var e = document.createElementNS(SVGNS, name);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    parent.appendChild(e);
    return e;
  }
  function sx(x) { return LABEL_W + (x - v0) / (v1 - v0) * (width - LABEL_W); }
  // X in the unit STEP (a tick's spacing, or X itself) reads best in,
  // with the digits that tell ticks apart.
  function fmtX(x, step) {
    if (!D.timed) return '#' + Math.round(x);
    var a = Math.abs(step || x) || 1e-6;
    var unit = a >= 0.1 ? [1, ' s'] : a >= 1e-4 ? [1e3, ' ms'] : [1e6, ' \u00b5s'];
    var digits = Math.min(6, Math.max(0, -Math.floor(Math.log10(a * unit[0]) + 1e-9)));
    return (x * unit[0]).toFixed(step ? digits : Math.max(digits, 3)) + unit[1];
  }
  function fmtDur(d) {
    if (d < 0) return 'duration unknown';
    if (d >= 1) return d.toFixed(3) + ' s';
    if (d >= 1e-3) return (d * 1e3).toFixed(2) + ' ms';
    return (d * 1e6).toFixed(0) + ' \u00b5s';
  }
  function niceStep(range) {
    var raw = range / 8, p = Math.pow(10, Math.floor(Math.log10(raw)));
    var m = raw / p;
    return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
  }
  function classOf(ev) {
    var c;
    if (ev.flags & MARKS)
      c = 'mark' + (ev.flags & SIGNAL ? ' signal' : ev.flags & EXIT ? ' exit' : ev.flags & EXEC ? ' exec' : ' fork');
    else
      c = 'bar' + (ev.flags & FAILED ? ' failed' : ev.flags & LONG ? ' long' : ev.flags & WAIT ? ' wait' : '');
    if (evFinding.has(ev.seq)) c += ' linked';
    if (hl.has(ev.seq)) c += ' hl';
    return c;
  }

  function render() {
    width = Math.max(box.clientWidth, 400);
    var height = AXIS_H + rows.length * ROW_H + 4;
    svg.setAttribute('width', width);
    svg.setAttribute('height', height);
    svg.setAttribute('viewBox', '0 0 ' + width + ' ' + height);
    while (svg.firstChild) svg.removeChild(svg.firstChild);

    var axis = el('g', { 'class': 'axis' }, svg);
    var step = niceStep(v1 - v0);
    for (var t = Math.ceil(v0 / step) * step; t <= v1; t += step) {
      var px = sx(t);
      el('line', { 'class': 'tick', x1: px, x2: px, y1: AXIS_H - 6, y2: height }, axis);
      if (px + 60 > width) continue;	// a label the edge would cut
      var lab = el('text', { 'class': 'ticklabel', x: px + 2, y: AXIS_H - 9 }, axis);
      lab.textContent = fmtX(t, step);
    }
    var lanes = el('g', {}, svg), marks = el('g', {}, svg), top = el('g', {}, svg);
    rows.forEach(function (r, i) {
      var y = AXIS_H + i * ROW_H;
      el('rect', { 'class': 'lane' + (i % 2 ? ' odd' : ''), x: 0, y: y, width: width, height: ROW_H }, lanes);
      if (r.leader && i)
        el('line', { 'class': 'proc-sep', x1: 0, x2: width, y1: y, y2: y }, lanes);
      var label = el('text', { x: r.leader ? 4 : 16, y: y + 14 }, lanes);
      label.textContent = r.leader ? r.t.pid + ' ' + r.t.label : 'thread ' + r.t.tid;

      // The counted calls: a strip of buckets, darker where there were more.
      for (var b = 0; b < D.buckets; b++) {
        var n = r.dens[b];
        if (!n) continue;
        var bx0 = D.bucket_origin + b * D.bucket, bx1 = bx0 + D.bucket;
        if (bx1 < v0 || bx0 > v1) continue;
        var x0 = Math.max(sx(bx0), LABEL_W), x1 = Math.min(sx(bx1), width);
        el('rect', {
          'class': 'density', x: x0, y: y + ROW_H - DENS_H - 1, width: Math.max(x1 - x0, 1), height: DENS_H,
          'fill-opacity': (0.15 + 0.85 * Math.log(1 + n) / Math.log(1 + densMax)).toFixed(2),
          'data-row': i, 'data-b': b
        }, lanes);
      }

      // The kept calls; those that would share a pixel with the last of
      // their kind are left to it, evidence never.
      var last = {};
      r.evs.forEach(function (ev) {
        if (ev.end < v0 || ev.x > v1) return;
        var cls = classOf(ev), special = evFinding.has(ev.seq);
        var isMark = (ev.flags & MARKS) !== 0;
        var a = sx(ev.x), z = sx(ev.end);
        var x0 = Math.max(a, LABEL_W), x1 = Math.min(z, width);
        var w = Math.max(x1 - x0, isMark ? 3 : 2);
        if (!special && w <= 2 && last[cls] === Math.floor(x0)) return;
        last[cls] = Math.floor(x0);
        var g = hl.has(ev.seq) ? top : isMark ? marks : lanes;
        el('rect', {
          'class': cls, x: isMark ? x0 - 1 : x0, y: y + (isMark ? 1 : BAR_Y), width: w,
          height: isMark ? ROW_H - 2 : BAR_H, 'data-seq': ev.seq
        }, g);
      });
    });
    // A guide down the whole timeline at each highlighted call's start,
    // to find it among many rows.
    hl.forEach(function (s) {
      var ev = bySeq.get(s);
      if (!ev || ev.x < v0 || ev.x > v1) return;
      var gx = sx(ev.x);
      el('line', { 'class': 'guide', x1: gx, x2: gx, y1: AXIS_H - 4, y2: height }, top);
    });
    el('rect', { x: 0, y: 0, width: LABEL_W - 4, height: AXIS_H, fill: '#fff' }, svg);
  }

  function setView(a, b) {
    var min = D.timed ? 1e-6 : 4;
    if (b - a < min) { var m = (a + b) / 2; a = m - min / 2; b = m + min / 2; }
    var pad = span * 0.05;
    if (a < -pad) { b += -pad - a; a = -pad; }
    if (b > span + pad) { a -= b - span - pad; b = span + pad; }
    v0 = Math.max(a, -pad);
    v1 = b;
    render();
  }
  function zoom(factor, at) {
    setView(at - (at - v0) * factor, at + (v1 - at) * factor);
  }
  function whole() {
    setView(-span * 0.01, span * 1.01);
  }

  function showDetail(ev) {
    var where = D.threads[ev.row];
    var s = (ev.line || ev.name) + '\n' + 'thread ' + where.tid + (where.tid !== where.pid ? ' of pid ' + where.pid : '') +
      ', at ' + fmtX(ev.x) + (ev.dur >= 0 ? ', took ' + fmtDur(ev.dur) : '') + (ev.err ? ', failed: ' + ev.err : '');
    var fid = evFinding.get(ev.seq);
    if (fid) {
      var li = document.getElementById(fid);
      var sum = li ? li.querySelector('.summary') : null;
      s += '\nevidence of ' + fid + (sum ? ': ' + sum.textContent : '');
    }
    detail.textContent = s;
    detail.classList.remove('dim');
  }

  function markEvidence() {
    document.querySelectorAll('ul.evidence li.linked').forEach(function (li) {
      li.classList.toggle('hl', hl.has(Number(li.dataset.seq)));
    });
  }

  // Show finding ID: its calls highlighted, and in view when ZOOM.
  function selectFinding(id, zoomTo) {
    findingEls.forEach(function (o) { o.classList.toggle('selected', o.id === id); });
    // A folded finding (a note, one of many causes) is unfolded to be seen.
    for (var p = document.getElementById(id); p; p = p.parentElement)
      if (p.tagName === 'DETAILS') p.open = true;
    var seqs = findingEvs.get(id) || [];
    hl = new Set(seqs);
    markEvidence();
    if (zoomTo && seqs.length) {
      var lo = Infinity, hi = -Infinity, firstRow = Infinity;
      seqs.forEach(function (s) {
        var ev = bySeq.get(s);
        lo = Math.min(lo, ev.x);
        hi = Math.max(hi, ev.end);
        firstRow = Math.min(firstRow, ev.row);
      });
      // Some of what came before and after, for context.
      var pad = Math.max((hi - lo) * 0.3, D.timed ? Math.max(span * 0.01, 2e-4) : 8);
      setView(lo - pad, hi + pad);
      box.scrollTop = Math.max(0, firstRow * ROW_H - box.clientHeight / 3);
      document.getElementById('timeline-section').scrollIntoView({ block: 'nearest' });
    } else {
      render();
    }
  }

  findingEls.forEach(function (li) {
    li.addEventListener('click', function (e) {
      if (e.target.closest('li.finding') !== li) return;
      var ev = e.target.closest('li.linked');
      selectFinding(li.id, true);
      if (ev && bySeq.has(Number(ev.dataset.seq))) showDetail(bySeq.get(Number(ev.dataset.seq)));
    });
    li.addEventListener('keydown', function (e) {
      if (e.key === 'Enter' && e.target === li) selectFinding(li.id, true);
    });
  });

  // Zoom, pan, hover and click on the timeline.
  svg.addEventListener('wheel', function (e) {
    e.preventDefault();
    var r = svg.getBoundingClientRect();
    var at = v0 + (e.clientX - r.left - LABEL_W) / (width - LABEL_W) * (v1 - v0);
    zoom(Math.exp(e.deltaY * 0.0015), Math.min(Math.max(at, v0), v1));
  }, { passive: false });
  var drag = null, moved = false;
  svg.addEventListener('mousedown', function (e) {
    drag = { x: e.clientX, v0: v0, v1: v1 };
    moved = false;
  });
  window.addEventListener('mousemove', function (e) {
    if (!drag) return;
    var dx = e.clientX - drag.x;
    if (Math.abs(dx) > 3) { moved = true; svg.classList.add('panning'); }
    if (!moved) return;
    var shift = dx / (width - LABEL_W) * (drag.v1 - drag.v0);
    setView(drag.v0 - shift, drag.v1 - shift);
  });
  window.addEventListener('mouseup', function () {
    drag = null;
    svg.classList.remove('panning');
  });
  svg.addEventListener('dblclick', whole);
  svg.addEventListener('click', function (e) {
    if (moved) return;
    var seq = e.target.dataset ? Number(e.target.dataset.seq) : NaN;
    var ev = bySeq.get(seq);
    if (!ev) return;
    showDetail(ev);
    var fid = evFinding.get(seq);
    if (fid) {
      selectFinding(fid, false);
      var li = document.getElementById(fid);
      if (li) li.scrollIntoView({ block: 'nearest' });
    }
  });
  svg.addEventListener('mousemove', function (e) {
    var d = e.target.dataset || {};
    var text = null;
    if (d.seq) {
      var ev = bySeq.get(Number(d.seq));
      if (ev) text = (ev.line || ev.name) + '\n' + fmtX(ev.x) + (ev.dur >= 0 ? ', ' + fmtDur(ev.dur) : '');
    } else if (d.b) {
      var r = rows[Number(d.row)], b = Number(d.b), parts = [];
      r.t.counts.forEach(function (c) { if (c[1][b]) parts.push([c[1][b], names[c[0]]]); });
      parts.sort(function (x, y) { return y[0] - x[0]; });
      text = r.dens[b].toLocaleString('en') + ' calls counted here: ' +
        parts.slice(0, 6).map(function (p) { return p[1] + ' ' + p[0]; }).join(', ') + (parts.length > 6 ? ', ...' : '');
    }
    if (!text) { tip.hidden = true; return; }
    tip.textContent = text;
    tip.hidden = false;
    tip.style.left = Math.min(e.clientX + 12, window.innerWidth - tip.offsetWidth - 8) + 'px';
    tip.style.top = (e.clientY + 14) + 'px';
  });
  svg.addEventListener('mouseleave', function () { tip.hidden = true; });
  document.getElementById('tl-all').addEventListener('click', whole);
  document.getElementById('tl-in').addEventListener('click', function () { zoom(0.5, (v0 + v1) / 2); });
  document.getElementById('tl-out').addEventListener('click', function () { zoom(2, (v0 + v1) / 2); });
  window.addEventListener('resize', render);

  // For a test or a console: the data, the events by position, the view.
  window.rootcause = {
    data: D,
    event: function (seq) { return bySeq.get(seq) || null; },
    view: function () { return [v0, v1]; },
    select: selectFinding
  };
  whole();
})();
