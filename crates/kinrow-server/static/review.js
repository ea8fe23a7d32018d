// "Review game": POST /v1/review grades every move of a finished game (best, good,
// inaccuracy, mistake, blunder, only move) and gives x's expected result after each
// move, which replaces the move list's own values in the graph. Hidden when the server
// has no such route.

import { api, ApiError } from './api.js';
import { analysisEngine } from './settings.js';
import { CLASS_MARK } from './panels.js';
import { requestShape } from './notation.js';

const $ = (id) => document.getElementById(id);

// Asks once whether the server reviews games (an empty game is the cheapest question).
export async function initReview(S) {
  try {
    await api('POST', '/v1/review', { rules: { m: 3, n: 3, k: 3 }, moves: [] });
    S.caps.review = true;
  } catch (e) {
    S.caps.review = !(e instanceof ApiError && e.unsupported) && e instanceof ApiError;
  }
}

export async function reviewGame(S, showMsg, render) {
  const plies = S.cursor;
  const gen = S.gen;
  const body = {
    ...requestShape(S.start),
    moves: S.entries.slice(0, plies).map((e) => e.move),
    engine: analysisEngine(),
  };
  showMsg('controls-msg', 'Reviewing ' + plies + ' moves…', 'note');
  try {
    const resp = await api('POST', '/v1/review', body);
    if (gen !== S.gen) return;
    for (const m of resp.moves || []) {
      const e = S.entries[m.index];
      if (!e) continue;
      e.review = m;
      // A game loaded from a link has no values of its own: the review's value after
      // each move (for its mover) fills the move list.
      if (typeof e.value !== 'number' && typeof m.value_after === 'number') {
        e.value = m.value_after;
        e.outcome = 'unknown';
        e.plies = null;
      }
    }
    S.review = { values: Array.isArray(resp.values) ? resp.values : null, plies };
    $('review-summary').textContent = summaryText(resp);
    $('review-summary').hidden = false;
    $('controls-msg').hidden = true;
    render();
  } catch (e) {
    if (gen !== S.gen) return;
    if (e instanceof ApiError && e.unsupported && e.status !== 400) {
      S.caps.review = false;
      $('controls-msg').hidden = true;
      render();
      return;
    }
    showMsg('controls-msg', e);
  }
}

// "x: 87% accuracy, 1 mistake · o: ..." from the summary's counts per class and its
// accuracy (a percentage, null for a player without moves).
const WORST_FIRST = ['blunder', 'mistake', 'inaccuracy', 'forced'];

// "1 inaccuracy", "2 inaccuracies", "3 mistakes".
function plural(word, count) {
  if (count === 1) return word;
  return word.endsWith('y') ? word.slice(0, -1) + 'ies' : word + 's';
}

function summaryText(resp) {
  const parts = [];
  for (const side of ['x', 'o']) {
    const s = (resp.summary && resp.summary[side]) || {};
    let text = side + ':';
    if (typeof s.accuracy === 'number') text += ' ' + Math.round(s.accuracy) + '% accuracy';
    else text += ' no moves';
    const listed = WORST_FIRST.filter((c) => s[c] > 0).map((c) => s[c] + ' ' + plural(CLASS_MARK[c][0], s[c]));
    if (listed.length) text += ', ' + listed.join(', ');
    parts.push(text);
  }
  return 'Review: ' + parts.join(' · ');
}

// x's expected result after each ply from the review, while the game is as reviewed.
export function reviewSeries(S) {
  const r = S.review;
  if (!r || !r.values || r.values.length !== r.plies + 1) return null;
  return r.values.concat(new Array(Math.max(0, S.entries.length - r.plies)).fill(null));
}
