// The settings form (rules, who plays each side, the analysis engine) and the shareable
// link: `/?rules=15,15,5&board=...&x=human&o=auto:7` holds the rules, the position and
// the players, and opening it restores the game.

import { api } from './api.js';

const $ = (id) => document.getElementById(id);
const HAND = ['block', 'remove', 'bomb'];

export const PRESETS = {
  ttt: { m: 3, n: 3, k: 3, overline: true, variant: 'free' },
  444: { m: 4, n: 4, k: 4, overline: true, variant: 'free' },
  774: { m: 7, n: 7, k: 4, overline: true, variant: 'free' },
  c4: { m: 7, n: 6, k: 4, overline: true, variant: 'free', gravity: true },
  free: { m: 15, n: 15, k: 5, overline: true, variant: 'free' },
  exact: { m: 15, n: 15, k: 5, overline: false, variant: 'free' },
  renju: { m: 15, n: 15, k: 5, overline: false, variant: 'renju' },
  caro: { m: 15, n: 15, k: 5, overline: false, variant: 'caro' },
  special: { m: 7, n: 7, k: 4, overline: true, variant: 'free', pieces: [1, 1, 1] },
};

function number(id) {
  const v = $(id).value.trim();
  if (v === '') return undefined;
  const x = Number(v);
  return Number.isFinite(x) ? x : v;
}

// The rules as the form says, in the API's shape (`variant` only when it is not free,
// so that a server without variants still takes freestyle and exactly-five games).
export function readRules() {
  const hand = (side) => Object.fromEntries(HAND.map((p) => [p, number(side + '-' + p) ?? 0]));
  const rules = {
    m: number('rule-m'),
    n: number('rule-n'),
    k: number('rule-k'),
    overline: $('rule-overline').checked,
    pieces: { x: hand('x'), o: hand('o') },
  };
  const variant = $('rule-variant').value;
  if (variant !== 'free') rules.variant = variant;
  // `gravity` only when on, so that a server without gravity still takes the rest.
  if ($('rule-gravity').checked) rules.gravity = true;
  // `opening` only when there is one, for the same reason.
  if ($('rule-opening').value !== 'free') rules.opening = $('rule-opening').value;
  return rules;
}

// Opening rules: why `opening` cannot be played under the form's rules (the server's
// own checks, rules.rs `with_opening`), or '' when it can. A board the page cannot judge
// is left to the server, whose 422 names the reason.
export function openingProblem(opening, r) {
  if (opening === 'free') return '';
  const held = ['x', 'o'].some((side) => HAND.some((p) => (r.pieces && r.pieces[side] && r.pieces[side][p]) > 0));
  if (r.gravity) return 'not played with gravity';
  if (held) return 'played with marks only (no special pieces)';
  if (opening === 'pro' || opening === 'long_pro') {
    const d = opening === 'pro' ? 3 : 4;
    if (Math.max(Math.floor(r.m / 2), Math.floor(r.n / 2)) < d) return 'needs a board with a cell ' + d + ' cells from the centre';
  } else if (!(r.k >= 4)) return 'needs at least four in a row to win';
  return '';
}

const OPENING_ABOUT = {
  free: 'Every move is free from the first.',
  pro: "x's first stone goes on the centre; x's second stone at least 3 cells from it (outside the 5x5 square).",
  long_pro: "x's first stone goes on the centre; x's second stone at least 4 cells from it (outside the 7x7 square).",
  swap: 'The first player (the x settings above) places three stones, two x and one o; the second player (the o settings) then picks the side it plays. If it picks x, the players swap sides. Then o moves.',
  swap2: 'The first player (the x settings above) places three stones, two x and one o; the second player (the o settings) picks a side, or places two more stones (one of each) and lets the first player pick. If a player picks the other side, the players swap sides. Then o moves.',
};

// Offers only the opening rules the form's rules allow, each refused one saying why.
export function updateOpenings() {
  const sel = $('rule-opening');
  const r = readRules();
  for (const opt of sel.options) {
    const why = openingProblem(opt.value, r);
    opt.disabled = why !== '';
    opt.title = why;
  }
  const why = openingProblem(sel.value, r);
  $('opening-about').textContent = why ? sel.selectedOptions[0].textContent + ': ' + why + ' under these rules.' : OPENING_ABOUT[sel.value] || '';
}

export function writeRules(r) {
  $('rule-m').value = r.m;
  $('rule-n').value = r.n;
  $('rule-k').value = r.k;
  $('rule-overline').checked = r.overline !== false;
  $('rule-variant').value = r.variant || 'free';
  $('rule-gravity').checked = r.gravity === true;
  $('rule-opening').value = r.opening || 'free';
  for (const side of ['x', 'o']) {
    const hand = (r.pieces && r.pieces[side]) || {};
    HAND.forEach((p, i) => {
      $(side + '-' + p).value = Array.isArray(hand) ? hand[i] || 0 : hand[p] || 0;
    });
  }
}

export function applyPreset(name) {
  const p = PRESETS[name];
  if (!p) return false;
  const hand = Object.fromEntries(HAND.map((h, i) => [h, (p.pieces || [0, 0, 0])[i]]));
  // The opening rule stays when the preset allows it.
  const rules = { ...p, pieces: { x: hand, o: hand }, opening: $('rule-opening').value };
  if (openingProblem(rules.opening, rules)) rules.opening = 'free';
  writeRules(rules);
  updateOpenings();
  return true;
}

// The preset that matches the rules, else "custom".
export function matchPreset(rules) {
  const hand = (side) => HAND.map((p) => (rules.pieces && rules.pieces[side] && rules.pieces[side][p]) || 0);
  for (const [name, p] of Object.entries(PRESETS)) {
    const want = (p.pieces || [0, 0, 0]).join();
    if (p.m === rules.m && p.n === rules.n && p.k === rules.k && (p.variant === (rules.variant || 'free'))
      && !!p.gravity === (rules.gravity === true)
      && (p.variant !== 'free' || p.overline === (rules.overline !== false))
      && hand('x').join() === want && hand('o').join() === want) return name;
  }
  return 'custom';
}

export function isEngine(side) {
  return $(side + '-who').value === 'engine';
}

// The request parameters each engine reads, by name (from /v1/engines). An external
// engine (a Gomocup brain behind the server) takes no `level`: it plays at its own
// strength, and a level below 10 would be refused.
const ENGINE_PARAMETERS = {};

// The games each engine plays, by name (/v1/engines' `plays`: absent for an engine that
// plays every game), and the menus' words for each engine.
const ENGINE_PLAYS = {};
const ENGINE_TITLE = {};
let preferredEngine = 'auto';

// Why the engine `name` cannot play a game of `rules`, in words; '' when it can.
export function cannotPlay(name, rules) {
  const p = ENGINE_PLAYS[name];
  if (!p || !rules) return '';
  if (rules.k !== p.k) return 'it plays ' + p.k + ' in a row only';
  if (!p.gravity && rules.gravity === true) return 'it plays without gravity only';
  const held = ['x', 'o'].some((side) => HAND.some((h) => (rules.pieces && rules.pieces[side] && rules.pieces[side][h]) > 0));
  if (!p.pieces && held) return 'it plays marks only, no special pieces';
  if (Array.isArray(p.openings) && !p.openings.includes(rules.opening || 'free')) return 'it plays the ' + p.openings.join(', ') + ' opening only';
  return '';
}

// Offers in every engine menu only what can play `rules`: the others stay listed, off,
// with the reason. A menu whose engine cannot play them takes the default engine, and
// says so next to it.
export function offerEngines(rules) {
  for (const sel of document.querySelectorAll('.engine-select')) {
    for (const opt of sel.options) {
      const why = cannotPlay(opt.value, rules);
      opt.disabled = !!why;
      opt.textContent = (ENGINE_TITLE[opt.value] || opt.value) + (why ? ' (unavailable here: ' + why + ')' : '');
    }
    const chosen = sel.value;
    const why = cannotPlay(chosen, rules);
    if (!why) continue;
    const usable = [...sel.options].find((o) => o.value === preferredEngine && !o.disabled) || [...sel.options].find((o) => !o.disabled);
    if (!usable) continue;
    sel.value = usable.value;
    const side = sel.id.split('-')[0];
    if (side === 'x' || side === 'o') syncLevel(side);
    const box = $(side + '-msg');
    // A side played by a person is told nothing: its engine menu is hidden.
    if (box && !((side === 'x' || side === 'o') && !isEngine(side))) {
      box.className = 'msg wide note';
      box.textContent = 'The engine ' + chosen + ' cannot play these rules (' + why + '): ' + usable.value + ' plays instead.';
      box.hidden = false;
    }
  }
}

// True when `err` is the engine's refusal of the game (the rules are fine, the engine
// cannot play them): the server names the engine first in such a message.
export function engineRefused(err, engine) {
  if (!engine || !err || err.status !== 422 || !/^(rules|board)/.test(err.field || '')) return false;
  return typeof err.message === 'string' && err.message.startsWith(engine.name + ':');
}

function takesLevel(name) {
  const params = ENGINE_PARAMETERS[name];
  return !params || params.includes('level');
}

// The engine parameters of a side's player: name, level 1..10 (where the engine takes
// one) and a time budget.
export function engineOf(side) {
  const name = $(side + '-engine').value;
  const engine = { name, time_ms: Number($(side + '-time').value) };
  if (takesLevel(name)) engine.level = Number($(side + '-level').value);
  return engine;
}

// A side's level menu shows only while its engine takes a level (an external engine
// plays at its own strength).
function syncLevel(side) {
  const sel = $(side + '-level');
  const takes = takesLevel($(side + '-engine').value);
  sel.disabled = !takes;
  sel.closest('label').hidden = !takes;
}

// "auto, level 7": how the page names a computer player.
export function engineLabel(engine) {
  return engine.name + (engine.level ? ', level ' + engine.level : '');
}

// Swap and swap2: the player who picks the other side takes over its settings.
export function swapPlayers() {
  for (const f of ['who', 'engine', 'level', 'time']) {
    const [a, b] = [$('x-' + f).value, $('o-' + f).value];
    setSelect('x-' + f, b);
    setSelect('o-' + f, a);
  }
  syncLevel('x');
  syncLevel('o');
}

export function analysisEngine() {
  return { name: $('a-engine').value, time_ms: Number($('a-time').value) };
}

function playerParam(side) {
  if (!isEngine(side)) return 'human';
  const e = engineOf(side);
  return e.name + ':' + (e.level ?? '') + ':' + e.time_ms;
}

function readPlayerParam(side, text) {
  if (!text) return;
  if (text === 'human') {
    $(side + '-who').value = 'human';
    return;
  }
  const [name, level, time] = text.split(':');
  $(side + '-who').value = 'engine';
  if (name) setSelect(side + '-engine', name.toLowerCase());
  if (level) setSelect(side + '-level', level);
  if (time) setSelect(side + '-time', time);
  syncLevel(side);
}

// Sets a select to `value`, adding the option when the list lacks it (a link may carry a
// time the menu does not offer).
function setSelect(id, value) {
  const sel = $(id);
  if (![...sel.options].some((o) => o.value === value)) {
    const opt = document.createElement('option');
    opt.value = value;
    opt.textContent = value;
    sel.append(opt);
  }
  sel.value = value;
}

// The link to the game: rules, players, and the position, as the start position and the
// moves played from it (`moves=7.7,8.8,6.6:block`) when `game` has moves, so that undo,
// the move list and the last-move mark come back with it.
export function shareLink(pos, game) {
  const played = game && game.start && game.moves && game.moves.length ? game : null;
  if (played) pos = { ...played.start, rules: pos.rules };
  const r = pos.rules;
  const q = new URLSearchParams();
  q.set('rules', r.m + ',' + r.n + ',' + r.k);
  if (r.variant && r.variant !== 'free') q.set('variant', r.variant);
  if (r.overline === false && (!r.variant || r.variant === 'free')) q.set('exact', '1');
  if (r.gravity === true) q.set('gravity', '1');
  if (r.opening && r.opening !== 'free') q.set('opening', r.opening);
  // Swap and swap2: the board alone cannot tell whether a side was chosen.
  if (game && game.opened) q.set('opened', '1');
  let special = false;
  for (const side of ['x', 'o']) {
    const h = (r.pieces && r.pieces[side]) || {};
    const counts = HAND.map((p) => h[p] || 0);
    if (counts.some((c) => c > 0)) {
      q.set(side + 'p', counts.join(','));
      special = true;
    }
  }
  if (pos.board.some((row) => /[^.]/.test(row))) q.set('board', pos.board.join('/'));
  if (special && pos.to_move) q.set('to', pos.to_move);
  if (played) {
    const text = (mv) => mv.row + '.' + mv.col + (mv.piece && mv.piece !== 'mark' ? ':' + mv.piece : '');
    q.set('moves', played.moves.map(text).join(','));
  }
  q.set('x', playerParam('x'));
  q.set('o', playerParam('o'));
  return location.origin + location.pathname + '?' + q.toString().replace(/%2F/g, '/').replace(/%2C/g, ',').replace(/%3A/g, ':');
}

// Reads a shared link into the form; returns the position to start from, or null when
// the address carries no game.
export function readLink(search) {
  const q = new URLSearchParams(search);
  const rules = q.get('rules');
  if (!rules) return null;
  const [m, n, k] = rules.split(',').map((s) => (s.trim() === '' ? undefined : Number(s)));
  const pieces = {};
  for (const side of ['x', 'o']) {
    const counts = (q.get(side + 'p') || '0,0,0').split(',').map(Number);
    pieces[side] = Object.fromEntries(HAND.map((p, i) => [p, counts[i] || 0]));
  }
  const variant = q.get('variant') || 'free';
  // Renju and caro have no overline win (the server answers `overline: false` for both).
  writeRules({ m, n, k, overline: q.get('exact') !== '1' && variant === 'free', variant, pieces, gravity: q.get('gravity') === '1', opening: q.get('opening') || 'free' });
  updateOpenings();
  readPlayerParam('x', q.get('x'));
  readPlayerParam('o', q.get('o'));
  const board = q.get('board');
  const moves = (q.get('moves') || '')
    .split(',')
    .filter((t) => t !== '')
    .map((t) => {
      const [cell, piece] = t.split(':');
      const [row, col] = cell.split('.').map(Number);
      return { row, col, piece: piece || 'mark' };
    })
    .filter((mv) => Number.isInteger(mv.row) && Number.isInteger(mv.col));
  return { rules: readRules(), board: board ? board.split('/') : undefined, to_move: q.get('to') || undefined, moves, opened: q.get('opened') === '1' };
}

// ------------------------------------------------------------------ filling the form

const PLAIN_ENGINE = {
  auto: 'strongest',
  perfect: 'exact, small boards',
  minimax: 'looks ahead',
  threat: 'reads threats',
  priority: 'rules of thumb',
  greedy: 'one move deep',
  mcts: 'random play-outs',
};

// What each engine does, in plain words (the server's own descriptions, shown in the API
// docs, name the techniques).
const ABOUT_ENGINE = {
  auto: 'Picks the strongest method for the position: solves it exactly when it can, otherwise reads forcing sequences of threats and looks ahead many moves.',
  perfect: 'Plays every game out to the end, so its W/D/L labels are certain; on large boards it runs out of time and most cells stay unproven (use auto there).',
  minimax: 'Looks a few moves ahead for both players and scores the lines each still has open.',
  threat: 'Looks one move ahead: a cell is worth the lines it builds for the player and spoils for the opponent. Instant on any board.',
  priority: 'Fixed rules of thumb: win, stop a win, extend a line, block one, stay near its own marks.',
  greedy: 'Tries every piece on every cell one move ahead and takes the best-looking one. The weakest opponent.',
  mcts: 'Plays many quick random games from each move and prefers the moves that win most often.',
};


export function fillSelects() {
  for (const sel of document.querySelectorAll('.level-select')) {
    for (let l = 10; l >= 1; l--) sel.append(new Option(l === 10 ? '10 (full strength)' : l === 1 ? '1 (weakest)' : String(l), String(l)));
    sel.value = '7';
  }
  for (const sel of document.querySelectorAll('.time-select')) {
    for (const ms of [100, 300, 1000, 3000]) sel.append(new Option(ms < 1000 ? ms / 1000 + ' s' : ms / 1000 + ' s', String(ms)));
    sel.value = '300';
  }
}

export async function loadEngines(onError) {
  let list = [];
  let preferred = 'auto';
  try {
    const data = await api('GET', '/v1/engines');
    list = (data.engines || []).filter((e) => e && typeof e.name === 'string');
    for (const e of list) if (Array.isArray(e.parameters)) ENGINE_PARAMETERS[e.name] = e.parameters;
    for (const e of list) if (e.plays && typeof e.plays === 'object') ENGINE_PLAYS[e.name] = e.plays;
    if (typeof data.default === 'string') preferred = data.default;
  } catch (e) {
    onError(e);
  }
  if (list.length === 0) list = [{ name: 'auto' }];
  preferredEngine = preferred;
  for (const e of list) ENGINE_TITLE[e.name] = e.name + (PLAIN_ENGINE[e.name] ? ' (' + PLAIN_ENGINE[e.name] + ')' : '');
  for (const sel of document.querySelectorAll('.engine-select')) {
    sel.replaceChildren(...list.map((e) => {
      const opt = new Option(ENGINE_TITLE[e.name], e.name);
      opt.title = ABOUT_ENGINE[e.name] || e.description || '';
      return opt;
    }));
    sel.value = list.some((e) => e.name === preferred) ? preferred : list[0].name;
  }
  const info = () => {
    const e = list.find((x) => x.name === $('a-engine').value);
    $('engine-info').textContent = e ? ABOUT_ENGINE[e.name] || e.description || '' : '';
  };
  $('a-engine').addEventListener('change', info);
  info();
  for (const side of ['x', 'o']) {
    $(side + '-engine').addEventListener('change', () => syncLevel(side));
    syncLevel(side);
  }
}

// Rule variants and opening rules: offered only when the server takes `rules.variant`
// and `rules.opening`.
export async function probeVariants() {
  const probe = async (rules, sel) => {
    try {
      await api('POST', '/v1/state', { rules: { m: 15, n: 15, k: 5, ...rules } });
    } catch (_) {
      for (const opt of document.querySelectorAll(sel)) opt.remove();
    }
  };
  await Promise.all([probe({ variant: 'renju' }, 'option[data-variant]'), probe({ opening: 'swap2' }, '#rule-opening option:not([value="free"])')]);
}
