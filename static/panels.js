// The panels beside the board: the evaluation bar, the move list, the graph of the value
// over the game, the live analysis and the details of the cell under the pointer.

import { moveName, other, percent, shortLabel, valueWords } from './notation.js';

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
    val.title = typeof e.value === 'number' ? 'for ' + e.side + ': ' + valueWords(e, e.side) : 'not evaluated';
    const who = document.createElement('span');
    who.className = 'move-who';
    who.textContent = e.who;
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
  if (current) current.scrollIntoView({ block: 'nearest' });
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

// The live analysis panel: what the search has found so far (or its final answer).
export function renderLive(info, side) {
  const box = $('live-text');
  if (!info) {
    box.textContent = '';
    return;
  }
  const parts = [];
  if (info.depth !== undefined && info.depth !== null) parts.push(info.depth + ' moves ahead');
  if (info.nodes !== undefined) parts.push(Number(info.nodes).toLocaleString('en') + ' positions looked at');
  if (info.elapsed_ms !== undefined) parts.push((Number(info.elapsed_ms) / 1000).toFixed(2) + ' s');
  const best = info.move ? 'Best for ' + side + ': ' + moveName(info.move) : '';
  // Progress reports carry a value but no proof: say it as an expectation.
  const value = typeof info.value === 'number' ? ' — ' + side + ' expects ' + percent(info.value) + '%' : '';
  const lines = [best + value, parts.join(' · ')];
  lines.push(lineText(info.pv, side));
  fillParagraphs(box, lines);
}

// The details of the cell under the pointer: every evaluated move on it and its line.
export function renderCellInfo(name, moves, side, pv) {
  const box = $('cell-info');
  if (!name) {
    box.textContent = 'Point at a cell to see what the engine thinks of it.';
    return;
  }
  const lines = [];
  if (!moves || moves.length === 0) lines.push(name + (/holding/.test(name) ? '.' : ': not evaluated.'));
  for (const mv of moves || []) {
    const piece = mv.piece && mv.piece !== 'mark' ? ' (' + mv.piece + ')' : '';
    const raw = typeof mv.raw === 'number' ? '; engine score ' + mv.raw : '';
    const why = mv.action ? '; rule: ' + mv.action : '';
    lines.push(name + piece + ': ' + valueWords(mv, side) + raw + why);
  }
  lines.push(lineText(pv, side));
  fillParagraphs(box, lines);
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
