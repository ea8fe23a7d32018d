// Swap and swap2 on the demo page: the opening phase, whose decisions the person and the
// computer take in turn before the game proper.
//
// The x settings are the first player's (who places the first three stones), the o
// settings the second player's. An engine's decision is one POST /v1/opening, whose
// `after` is the next position and names the next step; a person's placement is sent to
// POST /v1/state, whose `opening` names the next step; a person's choice of side needs no
// request. A player who picks the side it did not hold takes over that side's settings
// (settings.swapPlayers), so that after the opening the rest of the page plays on as
// usual, o to move. /v1/suggest, /v1/play and /v1/analyse are not called during the phase
// (they answer 422 opening_phase on a board still in its first placement).

import { api } from './api.js';
import { cellName, requestShape } from './notation.js';
import { settingError, showMsg } from './messages.js';
import * as settings from './settings.js';

const $ = (id) => document.getElementById(id);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
let H = null; // the page's { S, render, newPosition, advance }

export function initOpening(hooks) {
  H = hooks;
}

// True for the rules with an opening phase.
export const hasPhase = (rules) => !!rules && (rules.opening === 'swap' || rules.opening === 'swap2');

// The phase of a step (from /v1/state's `opening` or /v1/opening's `after`): the step,
// who decides it, the stones a person has placed so far (not yet sent), the sides still
// to place (null while a person may still choose instead), the engine's suggestion.
function phase(step, decides) {
  return { step, decides, placing: [], need: step === 'place3' ? ['x', 'o', 'x'] : null, suggestion: null };
}

// The phase a position read with /v1/state starts in: null without an opening rule, past
// the opening, or when a shared link says the side was already chosen (`opened`).
export function phaseOf(st, opened) {
  if (!hasPhase(st.rules) || !st.opening || opened) return null;
  return phase(st.opening.step, st.opening.decides);
}

// The side whose settings take the decision: the first player's are x's.
const deciderSide = (P) => (P.decides === 'first' ? 'x' : 'o');
const roleName = (side) => (side === 'x' ? 'first player' : 'second player');

function who(side) {
  const role = roleName(side);
  if (!settings.isEngine(side)) return 'You (' + role + ')';
  return 'The computer (' + role + ', ' + settings.engineLabel(settings.engineOf(side)) + ')';
}

const fmt = (v) => (typeof v !== 'number' ? 'unknown' : (v >= 0 ? '+' : '-') + Math.abs(v).toFixed(2));
const stonesWords = (list) => list.map((s) => s.side + ' ' + cellName(s)).join(', ');

// Below level 10 an engine draws its choice by the level's temperature: say so when it
// took an option worth less than the best.
function weaker(options, taken) {
  const best = Math.max(...options.map((o) => o.value));
  return typeof taken === 'number' && taken < best ? ' (Below level 10 the engine does not always take the best option.)' : '';
}

// An answer of /v1/opening in words, with the values of its options: what `subject` did
// (or, `would`, suggests) and why.
export function decisionWords(resp, subject, would) {
  const options = resp.options || [];
  const value = (name) => {
    const o = options.find((x) => x.option === name);
    return o ? o.value : null;
  };
  const d = resp.decision || {};
  if (d.choose) {
    const other = d.choose === 'x' ? 'o' : 'x';
    let text = subject + (would ? ' would play ' : ' chose to play ') + d.choose + ': it values ' + d.choose + ' at '
      + fmt(value('choose_' + d.choose)) + ', ' + other + ' at ' + fmt(value('choose_' + other));
    if (value('place2') !== null) text += ', placing two more stones at ' + fmt(value('place2'));
    return text + '.' + weaker(options, value('choose_' + d.choose));
  }
  const stones = d.place || [];
  const three = stones.length === 3;
  const v = value(three ? 'place3' : 'place2');
  let text = subject + (would ? ' would place ' : ' placed ') + (three ? 'three stones (two x, one o): ' : 'two more stones (one o, one x): ')
    + stonesWords(stones) + '. It judges them ' + (typeof v === 'number' && Math.abs(v) <= 0.15 ? 'close to even' : 'the most even it found')
    + ': value ' + fmt(v) + ' for the placer once the other player takes the better side';
  if (!three) text += ' (choosing x was worth ' + fmt(value('choose_x')) + ', o ' + fmt(value('choose_o')) + ')';
  return text + '.' + weaker(options, v);
}

function log(text) {
  H.S.openingLog.push(text);
}

// Moves the phase on after a placement (`next`: the step now due, with who decides it),
// or ends it.
function nextStep(pos, next) {
  const S = H.S;
  S.pos = pos;
  S.phase = next && next.step ? phase(next.step, next.decides) : null;
  H.newPosition();
  H.advance();
}

// The opening is done: the decider (the player of `side`'s settings) took `chosen`; the
// game starts from `pos` with o to move.
function finish(pos, side, chosen) {
  const S = H.S;
  if (chosen !== side) settings.swapPlayers();
  const plays = (s) => (settings.isEngine(s) ? 'the computer (' + settings.engineLabel(settings.engineOf(s)) + ') plays ' + s : 'you play ' + s);
  log('The opening is done' + (chosen !== side ? ', the players swap sides' : '') + ': ' + plays('x') + ', ' + plays('o') + '; o moves next.');
  S.phase = null;
  S.start = pos;
  S.entries = [];
  S.values = [];
  S.cursor = 0;
  S.review = null;
  nextStep(pos, null);
}

// After every change of position in the phase: the computer decides when it is its turn.
export function openingTurn() {
  const side = deciderSide(H.S.phase);
  // A redraw (the values toggle) while the computer decides asks nothing new.
  if (settings.isEngine(side) && !H.S.paused && H.S.thinking !== side) engineDecides(side);
}

async function engineDecides(side) {
  const S = H.S;
  const gen = S.gen;
  const engine = settings.engineOf(side);
  S.thinking = side;
  H.render();
  try {
    if (settings.isEngine('x') && settings.isEngine('o')) await sleep(300);
    if (gen !== S.gen) return;
    const resp = await api('POST', '/v1/opening', { ...requestShape(S.pos), engine });
    if (gen !== S.gen) return;
    S.thinking = null;
    log(decisionWords(resp, who(side)));
    const a = resp.after;
    const pos = { rules: a.rules, board: a.board, to_move: a.to_move, status: a.status };
    if (resp.decision.choose && !a.step) finish(pos, side, resp.decision.choose);
    else nextStep(pos, a);
  } catch (e) {
    if (gen !== S.gen) return;
    S.thinking = null;
    settingError(e, side + '-msg');
    H.render();
  }
}

// A person's stones, once all are placed: /v1/state checks the board and names the next
// step.
async function submitPlacement() {
  const S = H.S;
  const P = S.phase;
  const gen = S.gen;
  const board = S.pos.board.map((row, r) => [...row].map((ch, c) => {
    const s = P.placing.find((x) => x.row === r && x.col === c);
    return s ? s.side : ch;
  }).join(''));
  S.pending = true;
  try {
    const st = await api('POST', '/v1/state', { rules: S.pos.rules, board });
    if (gen !== S.gen) return;
    if (!st.opening) throw new Error('the server names no opening step after these stones');
    log(who(deciderSide(P)) + ' placed ' + (P.need.length === 3 ? 'three stones: ' : 'two more stones: ') + stonesWords(P.placing) + '.');
    nextStep(st, st.opening);
  } catch (e) {
    if (gen !== S.gen) return;
    P.placing = [];
    showMsg('board-msg', e);
    H.render();
  } finally {
    S.pending = false;
  }
}

// A click on the board during the phase: the next stone of a person's placement.
export function openingClick(row, col) {
  const S = H.S;
  const P = S.phase;
  const side = deciderSide(P);
  if (settings.isEngine(side)) return showMsg('board-msg', 'Wait: the computer (' + roleName(side) + ') takes this decision.', 'note');
  if (!P.need) {
    const more = P.step === 'place2_or_choose' ? ', or press "Place two more stones" first' : '';
    return showMsg('board-msg', 'Choose a side with the buttons in the Opening panel' + more + '.', 'note');
  }
  if (S.pending) return;
  if (S.pos.board[row][col] !== '.' || P.placing.some((s) => s.row === row && s.col === col)) {
    return showMsg('board-msg', 'That cell is taken: place the stone on an empty cell.', 'note');
  }
  P.placing.push({ row, col, side: P.need[P.placing.length] });
  if (P.placing.length === P.need.length) submitPlacement();
  H.render();
}

function choose(chosen) {
  const S = H.S;
  const side = deciderSide(S.phase);
  log(who(side) + ' chose to play ' + chosen + '.');
  finish(S.pos, side, chosen);
}

function takeBack() {
  const P = H.S.phase;
  if (P.placing.length) P.placing.pop();
  else if (P.step === 'place2_or_choose') P.need = null;
  H.render();
}

// "Suggest": the analysis engine's decision for the person's step, in words, with its
// stones outlined on the board.
async function suggest() {
  const S = H.S;
  const P = S.phase;
  const gen = S.gen;
  P.suggestion = { text: 'The engine is thinking…' };
  H.render();
  try {
    const resp = await api('POST', '/v1/opening', { ...requestShape(S.pos), engine: settings.analysisEngine() });
    if (gen !== S.gen || S.phase !== P) return;
    P.suggestion = { text: decisionWords(resp, 'The engine', true), stones: resp.decision.place || null };
  } catch (e) {
    if (gen !== S.gen || S.phase !== P) return;
    P.suggestion = null;
    settingError(e, 'a-msg');
  }
  H.render();
}

// The board as drawn during the phase: the position with the person's stones placed so
// far, and the suggested stones; null outside the phase.
export function openingView() {
  const P = H.S.phase;
  if (!P) return null;
  const key = (s) => s.row + ',' + s.col;
  const board = H.S.pos.board.map((row, r) => [...row].map((ch, c) => {
    const s = P.placing.find((x) => x.row === r && x.col === c);
    return s ? s.side : ch;
  }).join(''));
  const stones = (P.suggestion && P.suggestion.stones) || [];
  return { board, pending: new Set(P.placing.map(key)), ghosts: new Map(stones.map((s) => [key(s), s.side])) };
}

const STEP_WORDS = {
  place3: 'placing three stones',
  choose: 'picking a side',
  place2_or_choose: 'picking a side or placing two more stones',
  choose_after_5: 'picking a side',
};

// The status line during the phase: [text, state].
export function openingStatus() {
  const S = H.S;
  const P = S.phase;
  const side = deciderSide(P);
  const rule = S.pos.rules.opening;
  if (S.thinking) return [who(side) + ' is ' + STEP_WORDS[P.step] + '…', 'opening_thinking'];
  if (settings.isEngine(side)) return ['Opening (' + rule + '): ' + who(side) + ' decides next' + (S.paused ? ' — paused: press Resume.' : '.'), S.paused ? 'paused' : 'opening_engine'];
  const what = P.need ? 'place ' + P.need[P.placing.length] + ' (stone ' + (P.placing.length + 1) + ' of ' + P.need.length + ')' : 'pick a side';
  return ['Opening (' + rule + '): your decision as the ' + roleName(side) + ' — ' + what + '.', 'opening_human'];
}

// What the person may do at the step, in words.
function stepWords(P, rule) {
  const then = P.step === 'place3'
    ? rule === 'swap' ? ' Then the second player picks the side it plays.' : ' Then the second player picks a side, or places two more stones and lets you pick.'
    : ' Then the first player picks a side.';
  if (P.need) {
    const next = P.placing.length < P.need.length ? ' Next: ' + P.need[P.placing.length] + ', stone ' + (P.placing.length + 1) + ' of ' + P.need.length + '.' : '';
    const order = P.need.length === 3 ? 'three stones, in the order x, o, x' : 'two more stones, o then x';
    return 'Place ' + order + ', by clicking empty cells.' + next + then;
  }
  const stones = P.step === 'choose_after_5' ? 'x has three stones, o two' : 'x has two of the three stones, o one';
  const or = P.step === 'place2_or_choose' ? ' Or place two more stones, one o and one x, and let the first player pick.' : '';
  return 'Pick the side you play from now on: ' + stones + ', and o moves next.' + or;
}

function button(id, text, title, onClick, disabled) {
  const b = document.createElement('button');
  b.type = 'button';
  b.id = id;
  b.textContent = text;
  b.title = title;
  b.disabled = !!disabled;
  b.addEventListener('click', onClick);
  return b;
}

// The Opening panel: the step in words, the person's buttons, and what each player did.
export function renderOpening() {
  const S = H.S;
  const box = $('opening');
  box.hidden = !S.pos || !hasPhase(S.pos.rules);
  // During the phase the players' settings are the first and the second player's.
  const legend = (side) => document.querySelector('fieldset.player[data-side="' + side + '"] legend');
  legend('x').textContent = S.phase ? 'x: the first player (places the first stones)' : 'x (moves first)';
  legend('o').textContent = S.phase ? 'o: the second player' : 'o';
  if (box.hidden) return;
  const rule = S.pos.rules.opening;
  $('opening-title').textContent = 'Opening: ' + rule;
  $('opening-log').replaceChildren(...S.openingLog.map((t) => {
    const li = document.createElement('li');
    li.textContent = t;
    return li;
  }));
  const P = S.phase;
  box.dataset.step = P ? P.step : 'done';
  const buttons = [];
  let text = 'The opening is done; the game goes on.';
  if (P && settings.isEngine(deciderSide(P))) {
    text = who(deciderSide(P)) + (S.thinking ? ' is ' : ' decides next: ') + STEP_WORDS[P.step] + (S.thinking ? '…' : '.');
  } else if (P) {
    text = stepWords(P, rule);
    if (P.need) {
      const back = P.placing.length > 0 || P.step === 'place2_or_choose';
      buttons.push(button('btn-takeback', 'Take back a stone', 'Remove the last stone you placed', takeBack, !back || S.pending));
    } else {
      buttons.push(button('btn-play-x', 'Play x', 'Play x from now on', () => choose('x')));
      buttons.push(button('btn-play-o', 'Play o', 'Play o from now on (o moves next)', () => choose('o')));
      if (P.step === 'place2_or_choose') {
        buttons.push(button('btn-place2', 'Place two more stones', 'Place one o and one x, then the first player picks a side', () => {
          P.need = ['o', 'x'];
          H.render();
        }));
      }
    }
    buttons.push(button('btn-suggest', 'Suggest', "Ask the engine (the settings' analysis engine) what it would do here", suggest, S.pending));
  }
  $('opening-text').textContent = text;
  const hint = P && !settings.isEngine(deciderSide(P)) && P.suggestion;
  $('opening-suggestion').hidden = !hint;
  $('opening-suggestion').textContent = hint ? 'Suggestion: ' + hint.text : '';
  $('opening-buttons').replaceChildren(...buttons);
}
