// Drawing the board: the cells with their marks, the heat map of the engine's values with
// a short label per cell, the best move's outline, the last move, the winning line, cells
// forbidden under renju, the principal variation on hover, and coordinates around it.

import { cellName, cellWords, colName, heatColour, shortLabel, valueKind } from './notation.js';

const LABEL_SHARE = 0.62; // a coordinate label's width, in cells
const TOP = 5; // the top candidates drawn strong: the first cells of the answer's ranking
// The reasons of /v1/state's `forbidden` cells, in plain words: renju's shapes, and
// the pro / long pro rule's distances (3 / 4 cells, in rows or columns).
const FORBIDDEN_WORDS = {
  overline: 'it would make six or more in a row',
  double_four: 'it would make two fours at once',
  double_three: 'it would make two open threes at once',
  off_centre: "x's first stone goes on the centre",
  near_centre: (d) => "x's second stone goes at least " + d + ' cells from the centre in rows or columns, outside the '
    + (2 * d - 1) + 'x' + (2 * d - 1) + ' square around it',
};

// Why x may not play a cell, in plain words; `opening` is the rules' opening rule.
export function forbiddenWords(reason, opening) {
  const words = FORBIDDEN_WORDS[reason] || reason;
  if (reason !== 'off_centre' && reason !== 'near_centre') return 'x may not play here under renju: ' + words;
  const long = opening === 'long_pro';
  return 'x may not play here under the ' + (long ? 'long pro' : 'pro') + ' rule: ' + (typeof words === 'function' ? words(long ? 4 : 3) : words);
}

// Sizes the board to the space its container gives it: the width, and the height of the
// window below the board's top too, so that a 15x15 board fits a laptop screen unscrolled
// and a tall board a phone's (on a narrow screen only while that leaves half the window:
// the controls above it may have grown).
export function fitBoard(boardEl, stageEl, m, n, coords) {
  const width = stageEl.clientWidth;
  const wide = window.innerWidth > 880;
  const top = stageEl.getBoundingClientRect().top + window.scrollY;
  const below = window.innerHeight - top - 12;
  const height = wide || below >= window.innerHeight / 2 ? below : Infinity;
  const lab = coords ? LABEL_SHARE : 0;
  let cell = Math.min(width / (m + lab), height / (n + lab), 120);
  cell = Math.max(12, Math.floor(cell));
  boardEl.style.setProperty('--cell', cell + 'px');
  boardEl.style.setProperty('--lab', coords ? Math.round(cell * LABEL_SHARE) + 'px' : '0px');
}

function label(text, cls) {
  const el = document.createElement('span');
  el.className = 'coord ' + cls;
  el.textContent = text;
  el.setAttribute('aria-hidden', 'true');
  return el;
}

// view: { board, toMove, coords, heat: Map "r,c" -> moves best first (in the order of
//         the answer's `moves`), depth: the answer's stats.depth, best, last,
//         line: Set "r,c", forbidden: Map "r,c" -> reason, opening, hint,
//         pending: Set "r,c" (opening stones placed but not yet sent),
//         ghosts: Map "r,c" -> side (an opening placement the engine suggests) }
// Every valued cell is coloured on a quiet scale and labelled; the top candidates and
// the proofs are drawn strong, a bound hatched (its label says ≤ or ≥), a quick estimate
// paler, a cell without a value plain with a dot (hover a cell for the words).
export function renderBoard(boardEl, view) {
  const n = view.board.length;
  const m = n > 0 ? view.board[0].length : 0;
  view.top = topCells(view.heat, TOP);
  boardEl.style.setProperty('--m', m);
  boardEl.style.setProperty('--n', n);
  boardEl.dataset.m = m;
  boardEl.dataset.n = n;
  boardEl.classList.toggle('with-coords', view.coords);
  const frag = document.createDocumentFragment();
  if (view.coords) {
    frag.append(label('', 'corner'));
    for (let c = 0; c < m; c++) frag.append(label(colName(c), 'col'));
  }
  for (let r = 0; r < n; r++) {
    if (view.coords) frag.append(label(String(r), 'row'));
    for (let c = 0; c < m; c++) frag.append(cellElement(view, r, c));
  }
  boardEl.replaceChildren(frag);
}

function cellElement(view, r, c) {
  const ch = view.board[r][c];
  const key = r + ',' + c;
  const el = document.createElement('button');
  el.type = 'button';
  el.className = 'cell';
  el.dataset.row = r;
  el.dataset.col = c;
  const words = [cellName({ row: r, col: c })];
  if (ch === 'x' || ch === 'o') {
    el.classList.add(ch);
    const mk = document.createElement('span');
    mk.className = 'mark';
    mk.textContent = ch;
    el.append(mk);
    words.push(ch);
    if (view.pending && view.pending.has(key)) {
      el.classList.add('pending');
      words.push('placed, not yet sent');
    }
  } else if (ch === '#') {
    el.classList.add('block');
    words.push('block');
  } else {
    el.classList.add('empty');
    words.push('empty');
  }
  const moves = view.heat ? view.heat.get(key) : null;
  const mv = moves ? moves[0] : null;
  if (mv && typeof mv.value === 'number') {
    const kind = valueKind(mv, view.depth);
    const top = view.top.has(key);
    el.style.setProperty('--heat', heatColour(mv.value, kind, top));
    el.classList.add('heat', 'value-' + kind);
    if (top) el.classList.add('top');
    if (kind === 'bound') el.classList.add('bound-' + mv.bound);
    el.dataset.depth = String(mv.depth);
    const sentence = (mv.piece && mv.piece !== 'mark' ? mv.piece + ': ' : '') + cellWords(mv, view.toMove, view.depth);
    if (ch === '.') {
      const lb = document.createElement('span');
      lb.className = 'label ' + (mv.outcome || 'unknown');
      lb.textContent = shortLabel(mv);
      el.append(lb);
      el.title = cellName({ row: r, col: c }) + ': ' + sentence;
    }
    words.push(sentence);
  } else if (mv && ch === '.') {
    // A legal move the engine gave no value (listed by its move ordering only).
    el.classList.add('unevaluated');
    words.push(cellWords(mv, view.toMove, view.depth));
    el.title = cellName({ row: r, col: c }) + ': ' + cellWords(mv, view.toMove, view.depth);
  }
  const reason = view.forbidden.get(key);
  if (reason && ch === '.') {
    el.classList.add('forbidden');
    el.dataset.forbidden = reason;
    words.push(forbiddenWords(reason, view.opening));
  }
  const ghost = view.ghosts && view.ghosts.get(key);
  if (ghost && ch === '.') {
    el.classList.add('ghost', 'ghost-' + ghost);
    el.dataset.ghost = ghost;
    words.push('suggested ' + ghost);
  }
  if (view.last && view.last.row === r && view.last.col === c) {
    el.classList.add('last');
    words.push('last move');
  }
  if (view.line.has(key)) {
    el.classList.add('win');
    words.push('winning line');
  }
  if (view.best && view.best.row === r && view.best.col === c) {
    el.classList.add('best');
    words.push('best move');
  }
  if (view.hint && view.hint.row === r && view.hint.col === c) {
    el.classList.add('hint');
    words.push('hint');
  }
  el.setAttribute('aria-label', words.join(', '));
  return el;
}

// Numbers the moves of a principal variation on the board (1 = the move itself).
export function showLine(boardEl, pv, firstSide) {
  for (const el of boardEl.querySelectorAll('.cell.pv')) {
    el.classList.remove('pv', 'pv-x', 'pv-o');
    delete el.dataset.pv;
  }
  if (!Array.isArray(pv)) return;
  let side = firstSide;
  pv.forEach((mv, i) => {
    const el = boardEl.querySelector('.cell[data-row="' + mv.row + '"][data-col="' + mv.col + '"]');
    if (el && !el.dataset.pv) {
      el.classList.add('pv', 'pv-' + side);
      el.dataset.pv = String(i + 1);
    }
    side = side === 'x' ? 'o' : 'x';
  });
}

// The keys of the first `count` cells with a value in the answer's ranking (`heat` keeps
// the order of `moves`, best first), proven losses left out.
// The top candidates: the first `count` cells of the ranking with a value that is no
// proven loss and no bound (a bound is an estimate the main search did not prefer);
// beside a proven win or draw only proven moves (an unproven move is not a candidate
// next to a result).
function topCells(heat, count) {
  const top = new Set();
  if (!heat) return top;
  const proven = (mv) => mv.outcome === 'win' || mv.outcome === 'draw';
  const anyProven = [...heat.values()].some((moves) => proven(moves[0]));
  for (const [key, moves] of heat) {
    if (top.size >= count) break;
    const mv = moves[0];
    if (typeof mv.value !== 'number' || mv.outcome === 'loss' || mv.bound === 'upper') continue;
    if (anyProven && !proven(mv)) continue;
    top.add(key);
  }
  return top;
}
