// kinrow demo page: plain JavaScript modules, no build step, no dependencies.
//
// The page holds no game logic: POST /v1/state starts a game, each human move is one
// POST /v1/play (with `reply` when the computer answers: both moves in one call), a
// computer's own turn is one POST /v1/suggest whose `after` is the next position, and the
// values drawn on the board come from POST /v1/analyse (streamed) or /v1/suggest. The page
// keeps the positions it was given (for undo and redo) and draws what the server answered.
// Features a server does not offer (variants, the stream, the review) are hidden.
// Under swap and swap2 the opening phase comes first (opening.js: POST /v1/opening).

import { api, ApiError } from './api.js';
import { analyseNow, analysisOf, forX, showLiveNow } from './analysis.js';
import { fitBoard, forbiddenWords, renderBoard, showLine } from './board.js';
import { cellName, other, requestShape } from './notation.js';
import { renderCellInfo, renderEvalBar, renderGraph, renderHeatLegend, renderLive, renderMoveList } from './panels.js';
import * as settings from './settings.js';
import { clearMsgs, engineError, settingError, showMsg } from './messages.js';
import { PIECES, renderPieceChoices } from './pieces.js';
import { initReview, reviewGame, reviewSeries } from './review.js';
import { hasPhase, initOpening, openingClick, openingStatus, openingTurn, openingView, phaseOf, renderOpening } from './opening.js';
import { wireSharing } from './share.js';

const $ = (id) => document.getElementById(id);
// Everything the page knows. `gen` changes with every new position, so that answers
// about an older position are dropped.
const S = {
  start: null, // the position the game started from
  entries: [], // the moves: { side, move, who, value, outcome, plies, after, review }
  cursor: 0, // how many entries are on the board (the rest can be redone)
  pos: null, // the current position, as the server answered it
  gen: 0,
  analysis: null, // { gen, resp }: the analysis engine's answer for the current position
  live: null, // { gen, info }: the latest progress of the streamed analysis
  controller: null, // aborts the running analysis
  hint: false,
  thinking: null, // the side whose computer player is searching
  pending: false, // a human move is on its way
  paused: false,
  piece: 'mark',
  forbidden: new Map(),
  caps: { analyse: true },
  review: null, // { values, summary } of the game as it was reviewed
  values: [], // x's expected result per ply, from the analyses made at those positions
  phase: null, // swap / swap2: the opening step due (opening.js), null once the game is on
  openingLog: [], // what each player did in the opening, in words
  starting: null, // the gen of a game start on its way (its position not yet answered)
};

const isOver = (pos) => !!pos && pos.status !== 'in_progress';
const bothEngines = () => settings.isEngine('x') && settings.isEngine('o');
const positionAt = (i) => (i === 0 ? S.start : S.entries[i - 1].after);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ------------------------------------------------------------------ the game

function newPosition() {
  S.gen += 1;
  if (S.controller) S.controller.abort();
  S.controller = null;
  S.analysis = null;
  S.live = null;
  S.hint = false;
  S.thinking = null;
  S.forbidden = new Map();
  renderCellInfo(null);
  const hand = S.pos && S.pos.rules.pieces && S.pos.rules.pieces[S.pos.to_move];
  if (S.piece !== 'mark' && !(hand && hand[S.piece] > 0)) S.piece = 'mark';
}

async function startGame(from) {
  clearMsgs();
  // The link's moves are replayed after the start position is read.
  const body = from ? { rules: from.rules, board: from.board, to_move: from.to_move } : { rules: settings.readRules() };
  const sel = $('preset');
  if (from) sel.value = settings.matchPreset(body.rules);
  newPosition();
  const gen = S.gen;
  setStatus('Starting a new game…', 'starting');
  S.starting = gen;
  try {
    const st = await api('POST', '/v1/state', body);
    if (gen !== S.gen) return;
    S.start = st;
    S.pos = st;
    settings.offerEngines(st.rules);
    S.entries = [];
    S.values = [];
    S.cursor = 0;
    S.review = null;
    S.paused = false;
    S.phase = phaseOf(st, from && from.opened);
    S.openingLog = [];
    if (!S.phase && from && from.moves && from.moves.length) await replayLinked(from.moves, gen);
    if (gen !== S.gen) return;
    newPosition();
    advance();
  } catch (e) {
    if (gen !== S.gen) return;
    S.starting = null;
    settingError(e, 'rules-msg');
    if (S.pos) advance();
  }
}

// Makes the moves the current end of the game (dropping what could have been redone).
function enter(entries) {
  S.entries = S.entries.slice(0, S.cursor).concat(entries);
  S.values = S.values.slice(0, S.cursor + 1);
  S.cursor = S.entries.length;
  S.pos = S.entries[S.cursor - 1].after;
  S.review = null;
  newPosition();
  advance();
}

// The start position and the moves played from it (up to the cursor), for the link.
function playedGame() {
  const opened = !S.phase && hasPhase(S.start.rules);
  return { start: S.start, moves: S.entries.slice(0, S.cursor).map((e) => e.move), opened };
}

// Replays a shared link's moves from the start position, one /v1/play each, into the
// move list (values unknown until analysed); stops at the first the server refuses.
async function replayLinked(moves, gen) {
  const entries = [];
  let pos = S.pos;
  for (const move of moves) {
    const resp = await api('POST', '/v1/play', { ...requestShape(pos), move });
    if (gen !== S.gen) return;
    const after = {
      rules: resp.rules, board: resp.board, to_move: resp.to_move, status: resp.status,
      winner: resp.winner, winning_line: resp.winning_line, forbidden: resp.forbidden, moves: resp.moves,
    };
    const who = settings.isEngine(pos.to_move) ? 'computer' : 'you';
    entries.push({ side: pos.to_move, move, who, value: null, outcome: null, plies: null, after });
    pos = after;
  }
  if (!entries.length) return;
  S.entries = entries;
  S.cursor = entries.length;
  S.pos = pos;
}

// After every change of position: draw, then let the computer move or analyse for the human.
function advance() {
  if (!S.pos) return; // a setting changed before the first position arrived
  render();
  history.replaceState(null, '', settings.shareLink(S.pos, playedGame()));
  loadForbidden();
  if (isOver(S.pos)) return;
  if (S.phase) openingTurn();
  else if (settings.isEngine(S.pos.to_move)) {
    if (!S.paused) engineTurn();
  } else if ($('opt-heat').checked) {
    analyse().catch(() => {});
  }
}

function entryFromSuggestion(side, resp, who) {
  const ev = resp.evaluation || {};
  return { side, move: resp.move, who, value: ev.value, outcome: ev.outcome, plies: ev.plies, after: resp.after };
}

// A computer player's turn: one /v1/suggest, whose `after` is the next position.
async function engineTurn() {
  const gen = S.gen;
  const side = S.pos.to_move;
  const engine = settings.engineOf(side);
  S.thinking = side;
  render();
  try {
    if (bothEngines()) await sleep(300);
    if (gen !== S.gen) return;
    const resp = await api('POST', '/v1/suggest', { ...requestShape(S.pos), engine });
    if (gen !== S.gen) return;
    enter([entryFromSuggestion(side, resp, settings.engineLabel(engine))]);
  } catch (e) {
    if (gen !== S.gen) return;
    S.thinking = null;
    if (settings.engineRefused(e, engine)) engineError(e, side + '-msg', engine.name);
    else settingError(e, side + '-msg');
    render();
  }
}

// The analysed value of a move in the current position (for the move list), if known.
const currentAnalysis = () => analysisOf(S);
const analyse = () => analyseNow(S, render);
const showLive = () => showLiveNow(S);

function analysedMove(move) {
  const a = currentAnalysis();
  if (!a || !Array.isArray(a.moves)) return null;
  return a.moves.find((m) => m.row === move.row && m.col === move.col && (m.piece || 'mark') === move.piece) || null;
}

// A human move: one /v1/play, with the computer's reply in the same call when the other
// side is a computer player.
async function humanMove(row, col) {
  const side = S.pos.to_move;
  // Under gravity a click anywhere in a column drops a stone there: the server finds the row.
  const gravity = S.pos.rules && S.pos.rules.gravity === true;
  let move = { row, col, piece: S.piece };
  const body = { ...requestShape(S.pos), move: gravity ? { col, piece: S.piece } : move };
  const replier = other(side);
  const reply = settings.isEngine(replier) ? settings.engineOf(replier) : null;
  if (reply) body.reply = reply;
  const gen = S.gen;
  S.pending = true;
  if (reply) {
    S.thinking = replier;
    renderStatus();
  }
  try {
    const resp = await api('POST', '/v1/play', body);
    if (gen !== S.gen) return;
    if (gravity) move = { row: resp.move.row, col: resp.move.col, piece: S.piece };
    const played = {
      rules: resp.rules, board: resp.board, to_move: resp.to_move, status: resp.status,
      winner: resp.winner, winning_line: resp.winning_line, forbidden: resp.forbidden, moves: resp.moves,
    };
    const known = analysedMove(move);
    const mine = { side, move, who: 'you', value: known && known.value, outcome: known && known.outcome, plies: known && known.plies, after: played };
    const entries = [mine];
    if (resp.reply && resp.reply.move) entries.push(entryFromSuggestion(replier, resp.reply, settings.engineLabel(reply)));
    enter(entries);
  } catch (e) {
    if (gen !== S.gen) return;
    S.thinking = null;
    if (settings.engineRefused(e, reply)) engineError(e, replier + '-msg', reply.name);
    else if (e instanceof ApiError && /^reply/.test(e.field || '')) settingError(e, replier + '-msg');
    else showMsg('board-msg', e);
    // A cell the rules forbid: why, in words, before the server's own.
    const why = S.forbidden.get(row + ',' + col);
    if (why && e.code === 'forbidden_move') $('board-msg').prepend(forbiddenWords(why, S.pos.rules.opening) + '. ');
    render();
  } finally {
    S.pending = false;
  }
}

// A cell that holds a piece takes no mark or block (nor, under gravity, does a full
// column): such a click is ignored rather than sent for a 422.
function takesNoPiece(row, col) {
  const board = S.pos.board;
  if (S.pos.rules && S.pos.rules.gravity === true) return board[0][col] !== '.';
  return board[row][col] !== '.' && (!!S.phase || S.piece === 'mark' || S.piece === 'block');
}

function onCellClick(row, col) {
  if (!S.pos) return;
  if (!isOver(S.pos) && takesNoPiece(row, col)) return;
  clearMsgs();
  if (isOver(S.pos)) return showMsg('board-msg', 'The game is over: press Undo, Review game or New game.', 'note');
  if (S.phase) return openingClick(row, col);
  if (settings.isEngine(S.pos.to_move)) return showMsg('board-msg', 'Wait: the computer plays ' + S.pos.to_move + '.', 'note');
  if (S.pending) return;
  humanMove(row, col);
}

// Renju, pro and long pro: the cells x may not play, from /v1/state's `forbidden`.
async function loadForbidden() {
  const pos = S.pos;
  const rules = pos && pos.rules;
  if (!rules || (rules.variant !== 'renju' && !/pro$/.test(rules.opening || '')) || isOver(pos)) return;
  const gen = S.gen;
  try {
    const st = Array.isArray(pos.forbidden) ? pos : await api('POST', '/v1/state', requestShape(pos));
    if (gen !== S.gen || !Array.isArray(st.forbidden)) return;
    S.forbidden = new Map(st.forbidden.map((f) => [f.row + ',' + f.col, f.reason || 'forbidden']));
    renderBoardNow();
  } catch (_) {
    // An older server knows no forbidden cells: nothing to mark.
  }
}

function hint() {
  if (!S.pos || isOver(S.pos) || S.phase || settings.isEngine(S.pos.to_move)) return;
  const gen = S.gen;
  analyse().then(() => {
    if (gen !== S.gen) return;
    S.hint = true;
    render();
  }, () => {});
}

// Undo and redo move between the positions already played; against the computer they
// stop only where you are to move.
function setCursor(i) {
  S.cursor = i;
  S.pos = positionAt(i);
  if (settings.isEngine(S.pos.to_move) && !isOver(S.pos)) S.paused = true;
  newPosition();
  advance();
}

function undo() {
  if (S.cursor === 0) return;
  let i = S.cursor - 1;
  while (i > 0 && !bothEngines() && settings.isEngine(positionAt(i).to_move)) i -= 1;
  setCursor(i);
}

function redo() {
  if (S.cursor >= S.entries.length) return;
  let i = S.cursor + 1;
  while (i < S.entries.length && !bothEngines() && settings.isEngine(positionAt(i).to_move)) i += 1;
  setCursor(i);
}

function togglePause() {
  S.paused = !S.paused;
  newPosition();
  advance();
}

// ------------------------------------------------------------------ drawing

function setStatus(text, state) {
  const el = $('status');
  el.textContent = text;
  el.dataset.state = state;
}

function sideName(side) {
  return settings.isEngine(side) ? side + ' (computer, ' + settings.engineLabel(settings.engineOf(side)) + ')' : side + ' (you)';
}

function renderStatus() {
  const pos = S.pos;
  if (!pos) return;
  $('status').dataset.toMove = pos.to_move;
  if (isOver(pos)) {
    if (pos.winner) {
      const you = !settings.isEngine(pos.winner) && !bothEngines();
      return setStatus(sideName(pos.winner) + ' wins' + (you ? ' — well played!' : '.'), pos.winner + '_wins');
    }
    return setStatus('A draw: nobody can win any more.', 'draw');
  }
  if (S.phase) return setStatus(...openingStatus());
  if (S.thinking) return setStatus(sideName(S.thinking) + ' is thinking…', 'thinking');
  if (settings.isEngine(pos.to_move)) {
    return setStatus(sideName(pos.to_move) + ' to move' + (S.paused ? ' — paused: press Resume.' : '.'), S.paused ? 'paused' : 'engine_to_move');
  }
  const what = S.piece === 'mark' ? 'click a cell' : 'click where your ' + S.piece + ' goes';
  setStatus(pos.to_move + ' to move — your turn: ' + what + '.', 'human_to_move');
}

function heatMap() {
  const a = $('opt-heat').checked ? currentAnalysis() : null;
  if (!a || !Array.isArray(a.moves)) return null;
  const at = new Map();
  for (const mv of a.moves) {
    const key = mv.row + ',' + mv.col;
    if (!at.has(key)) at.set(key, []);
    at.get(key).push(mv);
  }
  return at;
}

function renderBoardNow() {
  const pos = S.pos;
  const a = $('opt-heat').checked ? currentAnalysis() : null;
  const last = S.cursor > 0 ? S.entries[S.cursor - 1].move : null;
  const coords = $('opt-coords').checked;
  const m = pos.board.length ? pos.board[0].length : 0;
  const opening = openingView(); // the opening phase's stones placed and suggested
  fitBoard($('board'), $('board-stage'), m, pos.board.length, coords);
  // Under gravity the last stone drops into its cell (style.css: .gravity .last .mark).
  $('board').classList.toggle('gravity', !!(S.pos.rules && S.pos.rules.gravity === true));
  renderBoard($('board'), {
    board: opening ? opening.board : pos.board,
    pending: opening && opening.pending,
    ghosts: opening && opening.ghosts,
    opening: pos.rules.opening,
    toMove: pos.to_move,
    coords,
    heat: heatMap(),
    depth: a && a.stats ? a.stats.depth : null,
    best: a && a.move,
    last,
    line: new Set((pos.winning_line || []).map((c) => c.row + ',' + c.col)),
    forbidden: S.forbidden,
    hint: S.hint && a ? a.move : null,
  });
  renderHeatLegend(pos.to_move, !!(a && Array.isArray(a.moves) && a.moves.length > 0));
}


function renderPanels() {
  const a = currentAnalysis();
  const proven = (o) => o === 'win' || o === 'draw' || o === 'loss';
  let series = reviewSeries(S);
  if (!series) {
    // x's expected result after each ply: the analysis of that position where there was
    // one, else the value of the move that led to it.
    series = [null].concat(S.entries.map((e) => forX(e.side, e.value)));
    series = series.map((v, i) => (typeof S.values[i] === 'number' ? S.values[i] : v));
  }
  if (isOver(S.pos)) renderEvalBar(S.pos.winner ? forX(S.pos.winner, 1) : 0, true, true);
  else if (a && a.evaluation) renderEvalBar(forX(S.pos.to_move, a.evaluation.value), proven(a.evaluation.outcome));
  else if (S.cursor > 0) {
    const e = S.entries[S.cursor - 1];
    renderEvalBar(forX(e.side, e.value), proven(e.outcome));
  } else renderEvalBar(null);
  renderMoveList(S.entries, S.cursor);
  renderGraph(series, S.cursor);
  // The live panel shows while the stream reports on this position.
  const live = S.live && S.live.gen === S.gen ? S.live : null;
  if (live && S.caps.analyse) showLive();
  else {
    $('live').hidden = true;
    renderLive(null);
  }
}

function renderPieces() {
  renderPieceChoices(S.pos, S.piece, !isOver(S.pos) && !settings.isEngine(S.pos.to_move), choosePiece);
}

function choosePiece(piece) {
  if (!S.pos || isOver(S.pos) || settings.isEngine(S.pos.to_move)) return;
  const hand = S.pos.rules.pieces[S.pos.to_move] || {};
  if (piece !== 'mark' && !(hand[piece] > 0)) return;
  S.piece = piece;
  render();
}

function renderButtons() {
  const over = isOver(S.pos);
  $('btn-undo').disabled = S.cursor === 0;
  $('btn-redo').disabled = S.cursor >= S.entries.length;
  $('btn-hint').disabled = over || !!S.phase || settings.isEngine(S.pos.to_move);
  const pause = $('btn-pause');
  pause.hidden = over || !(bothEngines() || (S.paused && settings.isEngine(S.pos.to_move)));
  pause.textContent = S.paused ? 'Resume' : 'Pause';
  $('btn-review').hidden = !over || S.cursor === 0 || !S.caps.review;
  for (const side of ['x', 'o']) {
    document.querySelector('fieldset.player[data-side="' + side + '"]').classList.toggle('is-engine', settings.isEngine(side));
  }
}

function render() {
  if (!S.pos) return;
  renderStatus();
  renderBoardNow();
  renderPieces();
  renderPanels();
  renderButtons();
  renderOpening();
}

// ------------------------------------------------------------------ start

function wire() {
  const board = $('board');
  board.addEventListener('click', (ev) => {
    const cell = ev.target.closest('.cell');
    if (cell) onCellClick(Number(cell.dataset.row), Number(cell.dataset.col));
  });
  // The details of a cell: under the pointer, or focused from the keyboard.
  const details = (ev) => {
    const cell = ev.target.closest('.cell');
    if (!cell || !S.pos) return;
    const row = Number(cell.dataset.row);
    const col = Number(cell.dataset.col);
    const heat = heatMap();
    const moves = heat ? heat.get(row + ',' + col) : null;
    const a = currentAnalysis();
    const isBest = a && a.move && a.move.row === row && a.move.col === col;
    const pv = moves && moves[0] && Array.isArray(moves[0].pv) && moves[0].pv.length ? moves[0].pv : isBest ? a.pv : null;
    const held = { x: 'x', o: 'o', '#': 'a block' }[S.pos.board[row][col]];
    const banned = S.forbidden.get(row + ',' + col);
    const name = cellName({ row, col }) + ' (row ' + row + ', col ' + col + ')' + (held ? ', holding ' + held : '')
      + (banned && !held ? ': ' + forbiddenWords(banned, S.pos.rules.opening) : '');
    renderCellInfo(name, moves, S.pos.to_move, pv, a && a.stats ? a.stats.depth : null);
    showLine(board, pv, S.pos.to_move);
  };
  board.addEventListener('mouseover', details);
  board.addEventListener('focusin', details);
  // A click on a move in the list shows the position after it.
  $('move-list').addEventListener('click', (ev) => {
    const li = ev.target.closest('.move');
    if (li) setCursor(Number(li.dataset.index) + 1);
  });
  board.addEventListener('mouseleave', () => {
    renderCellInfo(null);
    showLine(board, null);
  });
  $('btn-undo').addEventListener('click', undo);
  $('btn-redo').addEventListener('click', redo);
  $('btn-hint').addEventListener('click', hint);
  $('btn-new').addEventListener('click', () => startGame());
  $('btn-pause').addEventListener('click', togglePause);
  $('btn-review').addEventListener('click', () => reviewGame(S, showMsg, render));
  wireSharing(() => S.pos, showMsg, playedGame, () => !!S.phase);
  $('settings').addEventListener('submit', (ev) => {
    ev.preventDefault();
    startGame();
  });
  $('preset').addEventListener('change', () => {
    if (settings.applyPreset($('preset').value)) startGame();
  });
  for (const el of $('settings').querySelectorAll('[name^="rules"]:not(#rule-opening)')) {
    el.addEventListener('input', () => {
      $('preset').value = 'custom';
      settings.updateOpenings();
      settings.offerEngines(settings.readRules());
    });
  }
  // An opening rule, like a preset, starts a new game at once.
  $('rule-opening').addEventListener('change', () => {
    settings.updateOpenings();
    startGame();
  });
  // Who plays and the engines' settings apply at once; the rules wait for a new game.
  for (const el of document.querySelectorAll('fieldset.player select, #a-engine, #a-time')) {
    el.addEventListener('change', () => {
      S.paused = false;
      clearMsgs();
      // While a game is starting, its start reads the settings when it is done: a new
      // position now would make it drop its answer and leave the page starting.
      if (S.starting === S.gen) return;
      newPosition();
      advance();
    });
  }
  for (const id of ['opt-heat', 'opt-coords']) $(id).addEventListener('change', () => (id === 'opt-heat' ? advance() : render()));
  window.addEventListener('resize', () => S.pos && renderBoardNow());
  document.addEventListener('keydown', (ev) => {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const t = ev.target;
    if (t && /^(INPUT|SELECT|TEXTAREA)$/.test(t.tagName)) return;
    const key = ev.key.toLowerCase();
    if (key === 'h') hint();
    else if (key === 'u') undo();
    else if (key === 'r') redo();
    else if (key === 't') {
      $('opt-heat').checked = !$('opt-heat').checked;
      advance();
    } else if (key >= '1' && key <= '4') choosePiece(PIECES[Number(key) - 1]);
    else return;
    ev.preventDefault();
  });
}

async function main() {
  settings.fillSelects();
  initOpening({ S, render, newPosition, advance });
  wire();
  await Promise.all([settings.loadEngines((e) => showMsg('a-msg', e)), settings.probeVariants(), initReview(S)]);
  const linked = settings.readLink(location.search);
  if (!linked) settings.applyPreset($('preset').value);
  settings.updateOpenings();
  await startGame(linked);
}

main();
