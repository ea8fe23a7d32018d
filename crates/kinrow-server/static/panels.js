// The panels beside the board: the evaluation bar, the move list, the graph of the value
// over the game, the live analysis and the details of the cell under the pointer.

import { cellWords, moveName, other, percent, shortLabel, valueWords } from './notation.js';

const $ = (id) => document.getElementById(id);
// The SVG namespace (written in two parts: the page's assets name no outside address).
const SVG = ['http', '//www.w3.org/2000/svg'].join(':');

// Plain words for the review's classes, and the mark drawn after such a move.
export const CLASS_MARK = {
  best: ['best', '!'],
  good: ['good', ''],
  inaccuracy: ['inaccuracy', '?!'],
  mistake: ['mistake', '?'],
  blunder: ['blunder', '??'],
  forced: ['only move', '□'],
};

// x's share of the expected result, from x's point of view value in [-1, 1] (or null).
export function renderEvalBar(xValue, proven, over) {
  const bar = $('evalbar');
  if (typeof xValue !== 'number') {
    bar.dataset.known = 'false';
    bar.style.setProperty('--x-share', '50%');
    $('evalbar-text').textContent = 'No estimate yet';
    return;
  }
  const share = Math.round((xValue + 1) * 50);
  bar.dataset.known = 'true';
  bar.style.setProperty('--x-share', share + '%');
  $('evalbar-text').textContent = over
    ? xValue > 0 ? 'x won' : xValue < 0 ? 'o won' : 'a draw'
    : proven
    ? xValue > 0 ? 'x wins with best play' : xValue < 0 ? 'o wins with best play' : 'a draw with best play'
    : 'Expected result: x ' + percent(xValue) + '% · o ' + percent(-xValue) + '%';
}

// entries: [{ side, move, value (for the mover), outcome, plies, who, review }], cursor:
// how many are played (the rest can be redone).
export function renderMoveList(entries, cursor) {
  const list = $('move-list');
  const items = entries.map((e, i) => {
    const li = document.createElement('li');
    li.className = 'move side-' + e.side + (i >= cursor ? ' undone' : '') + (i === cursor - 1 ? ' current' : '');
    li.dataset.index = i;
    const name = document.createElement('span');
    name.className = 'move-name';
    name.textContent = e.side + ' ' + moveName(e.move);
    const val = document.createElement('span');
    val.className = 'move-value';
    val.textContent = typeof e.value === 'number' ? shortLabel(e) : '–';
    val.title = typeof e.value === 'number' ? 'for ' + e.side + ': ' + valueWords(e, e.side) : 'no value';
    const who = document.createElement('span');
    who.className = 'move-who';
    who.textContent = e.who;
    who.title = e.who;
    li.append(name, val, who);
    if (e.review) {
      const [word, mark] = CLASS_MARK[e.review.class] || [e.review.class, ''];
      const badge = document.createElement('span');
      badge.className = 'review review-' + e.review.class;
      badge.textContent = (mark ? mark + ' ' : '') + word;
      if (e.review.best && e.review.class !== 'best') badge.title = 'best was ' + moveName(e.review.best);
      li.append(badge);
    }
    return li;
  });
  list.replaceChildren(...items);
  $('moves-empty').hidden = entries.length > 0;
  const current = list.querySelector('.current');
  // The list scrolls to its current move by itself: scrolling the page too would take
  // the board out of view on a phone, where the list sits below it.
  if (current) {
    const [lr, cr] = [list.getBoundingClientRect(), current.getBoundingClientRect()];
    if (cr.top < lr.top) list.scrollTop += cr.top - lr.top;
    else if (cr.bottom > lr.bottom) list.scrollTop += cr.bottom - lr.bottom;
  }
}

// series: x's expected result in [-1, 1] after each ply (index 0 the start), null where
// unknown; cursor: the ply shown on the board.
export function renderGraph(series, cursor) {
  const svg = $('graph');
  const w = 300;
  const h = 80;
  svg.setAttribute('viewBox', '0 0 ' + w + ' ' + h);
  const plies = Math.max(series.length - 1, 1);
  const x = (i) => (i / plies) * (w - 8) + 4;
  const y = (v) => h / 2 - v * (h / 2 - 4);
  const parts = [];
  const mid = document.createElementNS(SVG, 'line');
  mid.setAttribute('x1', 0);
  mid.setAttribute('x2', w);
  mid.setAttribute('y1', h / 2);
  mid.setAttribute('y2', h / 2);
  mid.setAttribute('class', 'graph-mid');
  parts.push(mid);
  const points = series.map((v, i) => (typeof v === 'number' ? x(i).toFixed(1) + ',' + y(v).toFixed(1) : null));
  let run = [];
  const flush = () => {
    if (run.length > 1) {
      const pl = document.createElementNS(SVG, 'polyline');
      pl.setAttribute('points', run.join(' '));
      pl.setAttribute('class', 'graph-line');
      parts.push(pl);
    }
    run = [];
  };
  for (const p of points) {
    if (p) run.push(p);
    else flush();
  }
  flush();
  points.forEach((p, i) => {
    if (!p) return;
    const dot = document.createElementNS(SVG, 'circle');
    const [cx, cy] = p.split(',');
    dot.setAttribute('cx', cx);
    dot.setAttribute('cy', cy);
    dot.setAttribute('r', i === cursor ? 3.5 : 2);
    dot.setAttribute('class', i === cursor ? 'graph-dot current' : 'graph-dot');
    parts.push(dot);
  });
  svg.replaceChildren(...parts);
  $('graph-box').dataset.points = String(points.filter(Boolean).length);
}

// The live analysis panel: what the search has found so far (`info` events), or, once
// `done`, its final answer (which may carry a proof: `outcome`).
export function renderLive(info, side, done) {
  const box = $('live-text');
  if (!info) {
    box.textContent = '';
    return;
  }
  const parts = [done ? 'Finished' : 'Still thinking'];
  // What answered: the opening book, a proof, or a search so many moves ahead (a
  // book answer or a threat-space proof looks at no positions "ahead").
  const path = typeof info.path === 'string' ? info.path : '';
  const proven = info.outcome === 'win' || info.outcome === 'draw' || info.outcome === 'loss';
  if (/book/.test(path)) parts.push('answered from the opening book');
  else if (done && proven) parts.push('answered by a proof' + (path ? ' (' + path + ')' : ''));
  else if (done && path) parts.push('answered by a search (' + path + ')');
  if (typeof info.depth === 'number' && info.depth > 0) parts.push(info.depth + (info.depth === 1 ? ' move' : ' moves') + ' ahead');
  if (typeof info.nodes === 'number' && info.nodes > 0) parts.push(info.nodes.toLocaleString('en') + ' positions looked at');
  if (typeof info.elapsed_ms === 'number') parts.push((info.elapsed_ms / 1000).toFixed(2) + ' s');
  const best = info.move ? 'Best for ' + side + ': ' + moveName(info.move) : '';
  // Progress reports carry a value but no proof: said as an expectation unless proven.
  const value = typeof info.value === 'number' ? ' — ' + valueWords(info, side) : '';
  fillParagraphs(box, [best + value, parts.join(' · '), lineText(info.pv, side)]);
}

// The details of the cell under the pointer: every move on it explained in words (its
// value, how deep it was searched, whether it is a bound, a quick estimate or a proof;
// `mainDepth` is the answer's stats.depth), and its line.
export function renderCellInfo(name, moves, side, pv, mainDepth) {
  const box = $('cell-info');
  if (!name) {
    box.textContent = 'Point at a cell to see what the engine thinks of it.';
    return;
  }
  const lines = [];
  if (!moves || moves.length === 0) lines.push(name + (/holding|may not play/.test(name) ? '.' : ': no value.'));
  for (const mv of moves || []) {
    const piece = mv.piece && mv.piece !== 'mark' ? ' (' + mv.piece + ')' : '';
    // The engine's own score, only for an unproven value (a proof says its outcome; a
    // move without a value, or a raw null, has none).
    const proven = mv.outcome === 'win' || mv.outcome === 'draw' || mv.outcome === 'loss';
    const raw = typeof mv.value === 'number' && typeof mv.raw === 'number' && !proven ? ' (engine score ' + mv.raw + ')' : '';
    const why = mv.action ? '; rule: ' + mv.action : '';
    lines.push(name + piece + ': ' + cellWords(mv, side, mainDepth) + raw + why + '.');
  }
  lines.push(lineText(pv, side));
  fillParagraphs(box, lines);
}

// The heat map's legend above the board, for `side` to move: visible while the board
// shows values (it keeps its place otherwise, so that the board does not move).
export function renderHeatLegend(side, shown) {
  const box = $('heat-legend');
  box.classList.toggle('off', !shown);
  if (!shown) return;
  for (const el of box.querySelectorAll('[data-side]')) el.textContent = side;
}

// "Expected line (best play): x H7, o I8, ..." or '' without a line.
function lineText(pv, side) {
  if (!Array.isArray(pv) || pv.length === 0) return '';
  let s = side;
  const names = pv.map((mv) => {
    const t = s + ' ' + moveName(mv);
    s = other(s);
    return t;
  });
  return 'Expected line (best play, the principal variation): ' + names.join(', ');
}

function fillParagraphs(box, lines) {
  box.replaceChildren(
    ...lines.filter(Boolean).map((t) => {
      const p = document.createElement('p');
      p.textContent = t;
      return p;
    }),
  );
}
