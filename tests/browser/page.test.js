// Browser test of the kinrow demo page: a person's session in headless Debian chromium,
// driven by playwright-core, against a real kinrow server (BASE_URL).
//
//   BASE_URL=http://127.0.0.1:8080 node page.test.js
//
// Screenshots go to SCREENSHOTS (default: ./screenshots). Exits non-zero on the first
// failed check, with the page's console output for context.
'use strict';

const path = require('path');
const fs = require('fs');
const { chromium } = require('playwright-core');

const BASE_URL = process.env.BASE_URL || 'http://127.0.0.1:8080';
const SHOTS = process.env.SCREENSHOTS || path.join(__dirname, 'screenshots');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const TIMEOUT = 30000;
const OVER = ['x_wins', 'o_wins', 'draw'];
const LABEL = /^(W\d{1,2}|W99\+|D|L\d{1,2}|L99\+|[≤≥]?\d{1,2})$/;

const consoleLines = [];
const t0 = Date.now();

function log(...args) {
  console.log('[' + ((Date.now() - t0) / 1000).toFixed(1) + 's]', ...args);
}

function check(cond, what) {
  if (!cond) throw new Error('check failed: ' + what);
  log('ok:', what);
}

// What the page shows, read from the DOM.
async function readBoard(page) {
  return page.evaluate(() => {
    const status = document.getElementById('status');
    const cells = [...document.querySelectorAll('#board .cell')].map((el) => ({
      row: Number(el.dataset.row),
      col: Number(el.dataset.col),
      ch: el.classList.contains('x') ? 'x' : el.classList.contains('o') ? 'o' : el.classList.contains('block') ? '#' : '.',
      label: el.querySelector('.label') ? el.querySelector('.label').textContent : null,
      hint: el.classList.contains('hint'),
      best: el.classList.contains('best'),
      win: el.classList.contains('win'),
      size: el.getBoundingClientRect().width,
    }));
    return { state: status.dataset.state, status: status.textContent, cells };
  });
}

// Waits until it is the human's turn with the values drawn (or the game is over).
async function waitHumanTurnOrOver(page, withLabels) {
  await page.waitForFunction(
    ({ over, withLabels }) => {
      const st = document.getElementById('status').dataset.state;
      if (over.includes(st)) return true;
      if (st !== 'human_to_move') return false;
      if (!withLabels) return true;
      const empties = [...document.querySelectorAll('#board .cell.empty')];
      // Every empty cell is coloured by its value, or marked as having none.
      return empties.length > 0 && empties.every((el) => el.classList.contains('heat') || el.classList.contains('unevaluated'));
    },
    { over: OVER, withLabels },
    { timeout: TIMEOUT },
  ).catch(async (e) => {
    // Say what the page showed instead: its status, and the cells still without a value.
    const seen = await page.evaluate(() => {
      const st = document.getElementById('status');
      const bare = [...document.querySelectorAll('#board .cell.empty')]
        .filter((el) => !el.classList.contains('heat') && !el.classList.contains('unevaluated'));
      return st.dataset.state + ': ' + st.textContent + ' (' + bare.length + ' empty cells without a value)';
    });
    throw new Error(e.message + '\nthe page showed ' + seen);
  });
}

async function shot(page, name) {
  const file = path.join(SHOTS, name);
  await page.screenshot({ path: file });
  log('screenshot', file);
  return file;
}

const cellName = (c) => String.fromCharCode(65 + c.col) + c.row;
const cellSel = (r, c) => '#board .cell[data-row="' + r + '"][data-col="' + c + '"]';
const marks = (page) => page.evaluate(() => document.querySelectorAll('#board .cell.x, #board .cell.o').length);

// Clicks a cell and waits for the move (and the reply) to be drawn.
async function play(page, r, c) {
  const before = await marks(page);
  await page.click(cellSel(r, c));
  await page.waitForFunction((n) => document.querySelectorAll('#board .cell.x, #board .cell.o').length > n, before, {
    timeout: TIMEOUT,
  });
}

// The page's own inViewport test of an element (fully inside the window).
const inViewport = (page, sel) =>
  page.$eval(sel, (el) => {
    const r = el.getBoundingClientRect();
    return r.height > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
  });

// A full 3x3 game against `perfect` at level 10, played by clicks following the hint.
async function ticTacToe(page) {
  await page.selectOption('#o-engine', 'perfect');
  await page.selectOption('#o-level', '10');
  await page.selectOption('#a-engine', 'perfect');
  await page.selectOption('#preset', 'ttt');
  let moves = 0;
  for (;;) {
    await waitHumanTurnOrOver(page, true);
    const b = await readBoard(page);
    if (OVER.includes(b.state)) return { b, moves };
    const empties = b.cells.filter((c) => c.ch === '.');
    check(empties.every((c) => /^(W\d+|D|L\d+)$/.test(c.label)), 'perfect labels every empty cell W/D/L: ' + empties.map((c) => c.label).join(' '));
    if (moves === 1) await shot(page, '01-ttt-midgame.png');
    await page.click('#btn-hint');
    await page.waitForSelector('#board .cell.hint', { timeout: TIMEOUT });
    const h = (await readBoard(page)).cells.find((c) => c.hint);
    check(h.ch === '.', 'the hint outlines an empty cell (' + h.row + ',' + h.col + ')');
    await play(page, h.row, h.col);
    moves += 1;
  }
}

// POST to the real server from the test, to compare the page with the server's answers.
async function serverPost(route, body) {
  const res = await fetch(BASE_URL + route, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, json: await res.json() };
}

// Every text the live panel shows, recorded as it changes (the stream can be quicker
// than a poll from the test).
function recordLive() {
  window.liveLog = [];
  document.addEventListener('DOMContentLoaded', () => {
    const box = document.getElementById('live-text');
    new MutationObserver(() => window.liveLog.push(box.textContent)).observe(box, { childList: true, subtree: true, characterData: true });
  });
}

// The live panel reads the real /v1/analyse stream: `info` events while auto searches a
// 15x15 position for 1 s (each event names the best move so far, the depth, the nodes),
// then the `result`, whose best move is the one outlined on the board.
async function liveStream(page) {
  const board = ['...............', '...............', '...............', '...............', '...............',
    '...............', '......o........', '......xx.......', '.......o.......', '...............',
    '...............', '...............', '...............', '...............', '...............'];
  const streams = [];
  page.on('response', (r) => r.url().endsWith('/v1/analyse') && streams.push(r.headers()['content-type']));
  await page.goto(BASE_URL + '/?rules=15,15,5&board=' + board.join('/') + '&x=human&o=human', { waitUntil: 'load' });
  await waitHumanTurnOrOver(page, false);
  await page.selectOption('#a-engine', 'auto');
  await page.selectOption('#a-time', '1000');
  await page.evaluate(() => (window.liveLog = []));
  await page.waitForFunction(() => window.liveLog.some((t) => t.startsWith('Best') && t.includes('Finished')), null, { timeout: TIMEOUT });
  await waitHumanTurnOrOver(page, true);
  check(streams.length > 0 && streams.every((t) => t.startsWith('text/event-stream')), 'the page asked /v1/analyse and got event streams (' + streams.length + ')');
  const log = await page.evaluate(() => window.liveLog);
  const thinking = log.filter((t) => t.startsWith('Best for x') && t.includes('Still thinking'));
  const depths = thinking.map((t) => Number((/(\d+) moves? ahead/.exec(t) || [])[1]));
  check(thinking.length > 0 && thinking.every((t) => /Best for x: [A-O]\d+ — x expects \d+%/.test(t) && /positions looked at/.test(t)),
    'the panel showed ' + thinking.length + ' info events while auto searched: ' + (thinking[0] || '').slice(0, 120));
  check(depths.every((d, i) => d >= 1 && (i === 0 || d >= depths[i - 1])), 'the depths it showed never decrease: ' + depths.join(' '));
  const final = await page.textContent('#live-text');
  const best = (await readBoard(page)).cells.find((c) => c.best);
  const name = String.fromCharCode(65 + best.col) + best.row;
  check(final.includes('Finished') && final.includes('Best for x: ' + name), 'the result event ends the panel with the outlined best move ' + name);
  await shot(page, '02b-gomoku-live.png');
}

// The heat map of a 15x15 middlegame, from the real server: the page's own /v1/analyse
// request, narrowed to depth 4 (seed 1) so that the answer holds moves a null window
// only bounded (the ten best are searched again, the rest keep `bound: upper`). The
// answer the page got is read from the route; the board must draw it: a value on every
// empty cell near the stones, the five top candidates strong, every bound hatched with
// ≤ in its label and its hover text saying what it is, the shallow values pale, a
// legend, and no "not searched" left anywhere.
async function heatMapCheck(browser, pageErrors) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  page.on('console', (m) => consoleLines.push(m.type() + ': ' + m.text()));
  const board = ['...............', '...............', '...............', '...............', '...............',
    '........x......', '......o.x......', '.....x.o.......', '......xo.......', '.....o..x......',
    '....o..........', '...............', '...............', '...............', '...............'];
  let answer = null;
  await page.route('**/v1/analyse', async (route) => {
    const body = JSON.parse(route.request().postData());
    body.engine = { ...body.engine, depth: 4, seed: 1 };
    const response = await route.fetch({ postData: JSON.stringify(body) });
    const text = await response.text();
    const ev = text.split('\n\n').find((e) => /^event: result$/m.test(e));
    if (ev) answer = JSON.parse(ev.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5)).join('\n'));
    await route.fulfill({ response, body: text });
  });
  await page.goto(BASE_URL + '/?rules=15,15,5&board=' + board.join('/') + '&x=human&o=human', { waitUntil: 'load' });
  await page.selectOption('#a-engine', 'auto');
  await waitHumanTurnOrOver(page, true);
  await page.waitForFunction(() => document.querySelectorAll('#board .cell.top').length > 0, null, { timeout: TIMEOUT });
  check(answer && Array.isArray(answer.moves) && answer.stats.depth === 4, 'the page got a depth-4 answer from the server');

  // What the page drew, per cell.
  const drawn = await page.$$eval('#board .cell', (els) => els.map((el) => ({
    row: Number(el.dataset.row),
    col: Number(el.dataset.col),
    cls: [...el.classList],
    label: el.querySelector('.label') ? el.querySelector('.label').textContent : null,
    title: el.title,
    aria: el.getAttribute('aria-label'),
  })));
  const at = (r, c) => drawn.find((d) => d.row === r && d.col === c);
  const stone = (r, c) => r >= 0 && r < 15 && c >= 0 && c < 15 && board[r][c] !== '.';
  const near = drawn.filter((d) => board[d.row][d.col] === '.'
    && [-2, -1, 0, 1, 2].some((dr) => [-2, -1, 0, 1, 2].some((dc) => stone(d.row + dr, d.col + dc))));
  const unvalued = near.filter((d) => !d.cls.includes('heat') || !d.label);
  check(near.length > 40 && unvalued.length === 0, 'every one of the ' + near.length + ' empty cells near the stones shows a value'
    + (unvalued.length ? '; not: ' + unvalued.map(cellName).join(' ') : ''));

  // The page draws what the answer says, cell by cell (the first move of a cell is its best).
  const first = new Map();
  for (const mv of answer.moves) if (!first.has(mv.row + ',' + mv.col)) first.set(mv.row + ',' + mv.col, mv);
  const bounds = [...first.values()].filter((mv) => mv.bound === 'upper');
  check(bounds.length > 0, 'the answer holds ' + bounds.length + ' upper bounds (moves a null window refuted)');
  for (const mv of first.values()) {
    const d = at(mv.row, mv.col);
    const isBound = mv.bound === 'upper' || mv.bound === 'lower';
    if (isBound !== d.cls.includes('value-bound')) check(false, cellName(mv) + ' bound ' + mv.bound + ' drawn ' + d.cls.join(' '));
    if (mv.evaluated && mv.outcome === 'unknown' && !isBound && 2 * mv.depth < answer.stats.depth && !d.cls.includes('value-shallow')) {
      check(false, cellName(mv) + ' at depth ' + mv.depth + ' is not drawn as a shallow value: ' + d.cls.join(' '));
    }
  }
  const b0 = bounds[0];
  const bc = at(b0.row, b0.col);
  check(/^≤\d{1,2}$/.test(bc.label) && bc.cls.includes('bound-upper'), 'a bound is hatched and labelled ' + bc.label + ' at ' + cellName(b0));
  check(new RegExp('at most \\d+%.*a bound at depth ' + b0.depth + ', the main search did not prefer this move').test(bc.title),
    'its hover text says what it is: ' + bc.title);
  check(/at most/.test(bc.aria), 'and so does its accessible name');
  const shallow = drawn.filter((d) => d.cls.includes('value-shallow'));
  check(shallow.length > 0 && shallow.every((d) => /searched 1 ply deep: a quick estimate/.test(d.title) || /searched \d plies deep: a quick estimate/.test(d.title)),
    shallow.length + ' shallow values are drawn pale and say they are quick estimates: ' + (shallow[0] || {}).title);

  // The top candidates: the first five valued cells of the answer's ranking, the best among them.
  const top = drawn.filter((d) => d.cls.includes('top'));
  const want = [...first.values()].filter((mv) => typeof mv.value === 'number' && mv.outcome !== 'loss').slice(0, 5);
  check(top.length === 5 && want.every((mv) => at(mv.row, mv.col).cls.includes('top')), 'the five top candidates stand out: ' + top.map(cellName).join(' '));
  check(top.some((d) => d.cls.includes('best')) && top.every((d) => d.cls.includes('value-exact') || d.cls.includes('value-proven')), 'the best move is among them, and they are exact values');
  const colours = await page.$$eval('#board .cell.heat', (els) => new Set(els.map((el) => getComputedStyle(el).backgroundColor)).size);
  check(colours > 10, 'the values are drawn in ' + colours + ' colours');

  check(!(await page.isHidden('#heat-legend')) && /bound/.test(await page.textContent('#heat-legend')) && /quick estimate/.test(await page.textContent('#heat-legend')),
    'the legend explains the colours, the hatching and the pale cells');
  const everywhere = await page.evaluate(() => document.body.innerText + [...document.querySelectorAll('[aria-label],[title]')]
    .map((el) => (el.getAttribute('aria-label') || '') + (el.title || '')).join(' '));
  check(!/not searched/i.test(everywhere), 'no "not searched" wording is left');
  await shot(page, '02c-heat-map.png');

  // Hovering the bound: the details say it in words.
  await page.hover(cellSel(b0.row, b0.col));
  await page.waitForFunction((name) => document.getElementById('cell-info').textContent.includes(name), cellName(b0), { timeout: TIMEOUT });
  const info = await page.textContent('#cell-info');
  check(/x gets at most \d+% here/.test(info) && /a bound at depth \d+, the main search did not prefer this move/.test(info) && !/no value/.test(info),
    'hovering the bound explains it: ' + info.slice(0, 160));
  await shot(page, '02d-heat-map-bound-hover.png');
  // Hovering a top candidate: its value and its depth.
  const t0c = top.find((d) => !d.cls.includes('best')) || top[0];
  await page.hover(cellSel(t0c.row, t0c.col));
  await page.waitForFunction((name) => document.getElementById('cell-info').textContent.includes(name), cellName(t0c), { timeout: TIMEOUT });
  const tinfo = await page.textContent('#cell-info');
  check(/x expects \d+% here \(value -?\d\.\d\d\), searched \d plies deep/.test(tinfo), 'hovering a top candidate gives its value and depth: ' + tinfo.slice(0, 120));
  await page.close();
}

// A tic-tac-toe game lost on purpose (x takes the first empty cell), reviewed by the real
// /v1/review with perfect (exact values, so the classes are the same on every run): every
// move is marked with the server's class, the graph draws its values, the summary its
// accuracy.
async function reviewGameCheck(page) {
  await page.goto(BASE_URL + '/?rules=3,3,3&x=human&o=perfect:10:100', { waitUntil: 'load' });
  await page.selectOption('#a-engine', 'perfect');
  for (;;) {
    await waitHumanTurnOrOver(page, true);
    const b = await readBoard(page);
    if (OVER.includes(b.state)) break;
    const empty = b.cells.find((c) => c.ch === '.');
    await play(page, empty.row, empty.col);
  }
  let asked = null;
  page.on('request', (r) => r.url().endsWith('/v1/review') && (asked = JSON.parse(r.postData())));
  await page.waitForSelector('#btn-review:not([hidden])', { timeout: TIMEOUT });
  await page.click('#btn-review');
  await page.waitForSelector('#review-summary:not([hidden])', { timeout: TIMEOUT });
  const { status, json } = await serverPost('/v1/review', asked);
  check(status === 200, 'the server reviews the game the page sent');
  const want = json.moves.map((m) => m.class);
  const shown = await page.$$eval('#move-list .move', (els) => els.map((e) => {
    const r = e.querySelector('.review');
    return r ? r.className.replace(/^review review-/, '') : null;
  }));
  check(JSON.stringify(shown) === JSON.stringify(want), 'every move is marked with the class the server gives: ' + shown.join(' '));
  check(want.some((c) => c === 'blunder' || c === 'mistake') && /\?\??\s(blunder|mistake)/.test(await page.textContent('#move-list')), 'the losing move is named a blunder or mistake in plain words');
  check((await page.$eval('#graph-box', (e) => Number(e.dataset.points))) === json.values.length, 'the graph draws the ' + json.values.length + ' review values');
  const acc = (side) => (json.summary[side].accuracy === null ? 'no moves' : Math.round(json.summary[side].accuracy) + '% accuracy');
  const summary = await page.textContent('#review-summary');
  check(summary.includes('x: ' + acc('x')) && summary.includes('o: ' + acc('o')), 'the summary gives the server\'s accuracy: ' + summary);
  // Each class the server counted, in words with its plural ("2 inaccuracies").
  const plural = { blunder: 'blunders', mistake: 'mistakes', inaccuracy: 'inaccuracies' };
  for (const side of ['x', 'o']) {
    for (const [c, many] of Object.entries(plural)) {
      const n = json.summary[side][c] || 0;
      if (n > 0) check(summary.includes(n + ' ' + (n === 1 ? c : many)), 'the summary counts ' + side + '\'s ' + c + ': ' + summary);
    }
  }
  check(!/inaccuracys/.test(summary), 'no "inaccuracys"');
  await shot(page, '06-review.png');
}

// Renju: the preset starts a renju game, x's forbidden cells from /v1/state are marked
// with their reason, playing one is refused, and after o's move /v1/play's list marks
// them again.
async function renjuMarks(page) {
  await page.goto(BASE_URL + '/?rules=3,3,3&x=human&o=human', { waitUntil: 'load' });
  await waitHumanTurnOrOver(page, false);
  await page.selectOption('#preset', 'renju');
  await page.waitForFunction(() => /variant=renju/.test(location.search), null, { timeout: TIMEOUT });
  check((await page.inputValue('#rule-variant')) === 'renju', 'the renju preset starts a renju game');

  // x on I5, I6 and G7, H7 (0-based rows): I7 makes two open threes.
  const board = ['...............', '...............', '...............', '...............', '...............',
    '.......ox......', '.......ox......', '......xx.......', '.......o.o.....', '...............',
    '...............', '...............', '...............', '...............', '...............'];
  await page.goto(BASE_URL + '/?rules=15,15,5&variant=renju&board=' + board.join('/') + '&x=human&o=human', { waitUntil: 'load' });
  await page.waitForSelector('#board .cell.forbidden', { timeout: TIMEOUT });
  const { json } = await serverPost('/v1/state', { rules: { m: 15, n: 15, k: 5, variant: 'renju' }, board });
  const marked = () => page.$$eval('#board .cell.forbidden', (els) => els.map((e) => e.dataset.row + ',' + e.dataset.col + ':' + e.dataset.forbidden).sort());
  const want = json.forbidden.map((f) => f.row + ',' + f.col + ':' + f.reason).sort();
  check(want.includes('7,8:double_three') && JSON.stringify(await marked()) === JSON.stringify(want), 'the page marks the cells /v1/state forbids: ' + want.join(' '));
  check(/two open threes/.test(await page.getAttribute(cellSel(7, 8), 'aria-label')), 'the mark says why in plain words');
  // The engines never suggest a forbidden cell: the heat map leaves it blank.
  await page.waitForFunction(() => document.getElementById('live').dataset.done === 'true', null, { timeout: TIMEOUT });
  check(!(await page.getAttribute(cellSel(7, 8), 'class')).includes('heat'), 'the analysis gives the forbidden cell no value');
  await page.hover(cellSel(7, 8));
  check(/x may not play here under renju: it would make two open threes/.test(await page.textContent('#cell-info')), 'pointing at it says why');
  await shot(page, '07-renju-forbidden.png');
  await page.click(cellSel(7, 8));
  await page.waitForSelector('#board-msg:not([hidden])', { timeout: TIMEOUT });
  check(/forbidden_move/.test(await page.textContent('#board-msg')) && (await marks(page)) === 8, 'playing the forbidden cell is refused: ' + (await page.textContent('#board-msg')));
  // In words for the player; the code only in the folded details line.
  const words = await page.$eval('#board-msg', (e) => [...e.childNodes].filter((n) => n.nodeName !== 'DETAILS').map((n) => n.textContent).join(''));
  const code = await page.$eval('#board-msg details.error-code code', (e) => e.textContent).catch(() => '');
  check(/forbidden/.test(words) && !/forbidden_move|HTTP \d/.test(words) && /forbidden_move/.test(code), 'the refusal is in words, its code in a details line: ' + words + ' / ' + code);
  await play(page, 0, 7);
  check((await page.$$('#board .cell.forbidden')).length === 0, 'o to move: no cell is forbidden');
  await play(page, 14, 7);
  await page.waitForSelector('#board .cell.forbidden', { timeout: TIMEOUT });
  check(JSON.stringify(await marked()) === JSON.stringify(want), 'x to move again: the marks from /v1/play are back');
}

// Caro: the preset is offered and sent; a five blocked at both ends does not win, while
// the same move wins under freestyle rules.
async function caroPreset(page) {
  await page.goto(BASE_URL + '/?rules=3,3,3&x=human&o=human', { waitUntil: 'load' });
  await waitHumanTurnOrOver(page, false);
  await page.selectOption('#preset', 'caro');
  await page.waitForFunction(() => /variant=caro/.test(location.search), null, { timeout: TIMEOUT });
  check((await page.inputValue('#rule-variant')) === 'caro' && (await page.$$('#board .cell')).length === 225, 'the caro preset starts a 15x15 caro game');
  const board = ['o.............o', '...............', '...............', '...............', '...............',
    '...............', '...............', 'oxxxx.o........', '...............', '...............',
    '...............', '...............', '...............', '...............', '...............'];
  const link = '/?rules=15,15,5&board=' + board.join('/') + '&x=human&o=human';
  for (const [variant, want] of [['caro', 'human_to_move'], ['free', 'x_wins']]) {
    await page.goto(BASE_URL + link + '&variant=' + variant, { waitUntil: 'load' });
    await waitHumanTurnOrOver(page, false);
    await play(page, 7, 5);
    await page.waitForFunction((w) => document.getElementById('status').dataset.state === w, want, { timeout: TIMEOUT });
    check(true, variant + ': x completing the five blocked at both ends gives ' + want);
  }
}

// The routes of the live analysis, the review and the variants, all against the real
// server: no request is answered by a stand-in.
async function analysisAndVariants(browser, pageErrors) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(recordLive);
  const page = await context.newPage();
  page.on('console', (m) => consoleLines.push(m.type() + ': ' + m.text()));
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  await liveStream(page);
  await reviewGameCheck(page);
  await renjuMarks(page);
  await caroPreset(page);
  await context.close();
}

// One scale (issue 59): after x's first stone on 15x15 (auto, the page's default
// analysis), no cell shows a higher number than the outlined best move: an estimate
// that read higher is drawn as a bound (≤) at the best move's value.
async function firstStoneScale(browser, pageErrors) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  await page.goto(BASE_URL + '/?rules=15,15,5&moves=7.7&x=human&o=human', { waitUntil: 'load' });
  await page.selectOption('#a-engine', 'auto');
  await waitHumanTurnOrOver(page, true);
  await page.waitForFunction(() => document.querySelector('#board .cell.best .label'), null, { timeout: TIMEOUT });
  const number = (t) => (/^[≤≥]?\d+$/.test(t || '') ? Number(t.replace(/[≤≥]/, '')) : null);
  const best = number(await page.$eval('#board .cell.best .label', (e) => e.textContent));
  const labels = await page.$$eval('#board .cell .label', (els) => els.map((e) => e.textContent));
  const above = labels.map(number).filter((v) => v !== null && best !== null && v > best);
  check(best !== null && above.length === 0,
    'after x\'s first stone no cell reads above the outlined best move (' + best + '): ' + above.join(' '));
  await shot(page, '02e-first-stone-one-scale.png');
  await page.close();
}

// Connect Four opened directly on positions of 13 and 14 stones (the page's default
// analysis, auto at 0.3 s; run.sh reads the book at start and makes the tables):
// every column shows its outcome (W, D or L, `≤` where only the distance is a bound),
// the labels agree with the reference scores, and no losing column is a top candidate.
async function connectFourOutcomes(browser, pageErrors) {
  // Each position's moves, and each column's score in the published unit (BitBully's,
  // crates/kinrow-engine/tests/engine/data/connect4_columns.txt): > 0 wins, 0 draws.
  const positions = [['6634273655235', [-13, 2, 2, 4, 4, 5, 5]], ['32746371716136', [-3, -14, -14, -14, -14, -14, 14]]];
  for (const [moves, scores] of positions) {
    const board = [...Array(6)].map(() => [...Array(7)].map(() => '.'));
    const height = Array(7).fill(0);
    [...moves].forEach((d, i) => { const c = Number(d) - 1; board[5 - height[c]][c] = i % 2 ? 'o' : 'x'; height[c] += 1; });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    await page.goto(BASE_URL + '/?rules=7,6,4&gravity=1&board=' + board.map((r) => r.join('')).join('/') + '&x=human&o=human', { waitUntil: 'load' });
    await page.waitForFunction(() => document.getElementById('live').dataset.done === 'true', null, { timeout: TIMEOUT });
    const cols = await page.$$eval('#board .cell.empty', (els) => els.map((el) => ({
      row: Number(el.dataset.row), col: Number(el.dataset.col), top: el.classList.contains('top'),
      label: el.querySelector('.label') ? el.querySelector('.label').textContent : null })));
    const landing = [...Array(7)].map((_, c) => cols.filter((x) => x.col === c).sort((a, b) => b.row - a.row)[0]);
    const shown = landing.map((x) => x.label).join(' ');
    const want = (score) => (score > 0 ? 'W' : score === 0 ? 'D' : 'L');
    check(landing.every((x, c) => x && new RegExp('^' + want(scores[c]) + '(≤?\\d+)?$').test(x.label || '')),
      moves.length + ' stones: every column shows its outcome (' + shown + ')');
    check(landing.every((x, c) => !(x.top && scores[c] < 0)), moves.length + ' stones: no losing column is a top candidate');
    await shot(page, '02f-connect-four-' + moves.length + '-stones.png');
    await page.close();
  }
}

// A shared link carries the moves: the move list, the last-move mark and undo come back,
// and the address keeps them.
async function sharedLinkMoves(browser) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(BASE_URL + '/?rules=15,15,5&moves=7.7,8.8,7.8&x=human&o=human', { waitUntil: 'load' });
  await page.waitForFunction(() => document.querySelectorAll('#move-list .move').length === 3, null, { timeout: TIMEOUT });
  check(await page.$eval(cellSel(7, 8), (e) => e.classList.contains('last')), 'a shared link marks its last move');
  check(/moves=7\.7,8\.8,7\.8/.test(page.url()), 'the address keeps the moves: ' + page.url());
  await page.click('#btn-undo');
  await page.waitForFunction(() => document.querySelectorAll('#board .cell.x, #board .cell.o').length < 3, null, { timeout: TIMEOUT });
  check((await marks(page)) < 3, 'undo takes back a move of a shared game');
  // Who plays, the engine and the level are in view without scrolling.
  await page.goto(BASE_URL + '/?rules=15,15,5&x=human&o=auto:7', { waitUntil: 'load' });
  await waitHumanTurnOrOver(page, false);
  for (const sel of ['#x-who', '#o-who', '#o-engine', '#o-level']) check(await inViewport(page, sel), sel + ' is visible without scrolling at 1280x800');
  await page.screenshot({ path: path.join(SHOTS, '08-selectors-1280x800.png') });
  await page.close();
}

// An external engine (run.sh serves `kinrow pbrain` as `brain` over the Gomocup
// protocol): listed with the others, its level menu off (it takes no level), and the
// page plays against it: the reply lands and the analysis shows its value and depth.
async function externalEngine(browser, pageErrors) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  // A second a move: CI serves the debug build, where the brain's first search (with
  // its start-up) can pass 300 ms and the server stops it (a 503, as documented).
  await page.goto(BASE_URL + '/?rules=15,15,5&x=human&o=brain::1000', { waitUntil: 'load' });
  await waitHumanTurnOrOver(page, false);
  const engines = await page.$$eval('#o-engine option', (os) => os.map((o) => o.value));
  check(engines.includes('brain'), 'the external engine is listed: ' + engines.join(', '));
  check((await page.inputValue('#o-engine')) === 'brain' && (await page.$eval('#o-level', (e) => e.closest('label').hidden)), 'the external engine plays o and shows no level');
  await page.selectOption('#a-time', '1000');
  await page.selectOption('#a-engine', 'brain');
  await play(page, 7, 7);
  await page.waitForFunction(() => document.querySelectorAll('#board .cell.o').length === 1, null, { timeout: TIMEOUT });
  await waitHumanTurnOrOver(page, false);
  const status = await page.textContent('#status');
  check(!/error|refused|invalid/i.test(status), 'the external engine replied without an error: ' + status);
  check((await page.$$('#move-list .move')).length === 2, 'the move list has the move and the external reply');
  await page.screenshot({ path: path.join(SHOTS, '11-external-engine.png') });
  // On tic-tac-toe it cannot play (/v1/engines' `plays`: five in a row): every menu
  // keeps it, off, with the reason, and o is given the default engine, which says so;
  // no request reaches the server with it, so no rules field is marked.
  await page.selectOption('#preset', 'ttt');
  await waitHumanTurnOrOver(page, false);
  const offered = await page.$$eval('#o-engine option, #a-engine option', (os) => os.filter((o) => o.value === 'brain').map((o) => ({ off: o.disabled, text: o.textContent })));
  check(offered.length === 2 && offered.every((o) => o.off && /unavailable here: it plays 5 in a row only/.test(o.text)), 'on tic-tac-toe the external engine is listed as unavailable, with the reason: ' + JSON.stringify(offered));
  check((await page.inputValue('#o-engine')) === 'auto' && (await page.inputValue('#a-engine')) === 'auto', 'o and the analysis play auto instead');
  const note = await page.$eval('#o-msg', (e) => (e.hidden ? '' : e.textContent));
  check(/brain cannot play these rules/.test(note) && !/not possible/.test(note), 'the note says the engine, not the rules, is the reason: ' + note);
  check((await page.$$('[aria-invalid="true"]')).length === 0, 'no rules field is marked invalid');
  check(!(await page.$eval('#o-level', (e) => e.closest('label').hidden)), 'auto shows its level again');
  await page.close();
}

// A shared link opened on a phone: the whole board is in view at once, for a gomoku game
// with moves (the move list below the board must not scroll the page to itself), Connect
// Four and a board taller than wide.
async function phoneLink(browser) {
  for (const [width, height, query] of [
    [390, 844, '/?rules=15,15,5&moves=7.7,8.8,7.8&x=human&o=auto:7:300'],
    [360, 640, '/?rules=15,15,5&moves=7.7,8.8,7.8,6.6&x=human&o=human'],
    [360, 640, '/?rules=7,6,4&gravity=1&x=human&o=auto:7:300'],
    [390, 844, '/?rules=10,20,5&x=human&o=human'],
  ]) {
    const context = await browser.newContext({ viewport: { width, height }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    const page = await context.newPage();
    await page.goto(BASE_URL + query, { waitUntil: 'load' });
    await waitHumanTurnOrOver(page, false);
    await page.waitForTimeout(300);
    const box = await page.evaluate(() => {
      const b = document.getElementById('board').getBoundingClientRect();
      return { top: b.top, bottom: b.bottom, left: b.left, right: b.right, w: innerWidth, h: innerHeight };
    });
    check(box.top >= 0 && box.left >= 0 && box.bottom <= box.h && box.right <= box.w, width + 'x' + height + ' ' + query + ': the whole board is in view ' + JSON.stringify(box));
    await page.screenshot({ path: path.join(SHOTS, '13-phone-' + width + 'x' + height + '-' + query.split('&')[0].replace(/\W+/g, '') + '.png') });
    await context.close();
  }
}

// Opening rules. Swap2 with the computer as the first player: it places three stones
// through /v1/opening, the page draws them and says so in words with the value; the
// person places two more; the computer picks a side (in words, with both values); the
// game goes on with a normal move. No /v1/suggest, /v1/play or /v1/analyse is sent
// before the opening is done. Swap with the person placing x, o, x by clicks. Pro: a
// near-centre second x stone is marked, explained and refused.
async function openingRules(browser, pageErrors) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on('console', (m) => consoleLines.push(m.type() + ': ' + m.text()));
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  const sent = [];
  page.on('request', (r) => sent.push(new URL(r.url()).pathname));
  const sentence = () => page.$$eval('#opening-log li', (els) => els.map((e) => e.textContent));
  const stones = () => page.$$eval('#board .cell.x, #board .cell.o', (els) => els.map((e) => (e.classList.contains('x') ? 'x ' : 'o ') + e.dataset.row + ',' + e.dataset.col).sort());
  const named = (text) => [...text.matchAll(/\b([xo]) ([A-O])(\d+)\b/g)].map((m) => m[1] + ' ' + m[3] + ',' + (m[2].charCodeAt(0) - 65)).sort();
  await page.goto(BASE_URL + '/?rules=15,15,5&opening=swap2&x=auto:5:300&o=human', { waitUntil: 'load' });
  // The page reads the link once its start-up requests are answered (after 'load').
  await page.waitForFunction(() => document.getElementById('rule-opening').value === 'swap2', null, { timeout: TIMEOUT })
    .catch(() => null);
  check((await page.inputValue('#rule-opening')) === 'swap2', 'the link selects the swap2 opening rule');
  await page.waitForSelector('#btn-place2', { timeout: TIMEOUT });
  let log = await sentence();
  check(log.length === 1 && /^The computer \(first player, auto, level 5\) placed three stones \(two x, one o\): x [A-O]\d+, o [A-O]\d+, x [A-O]\d+\. It judges them .* value [+-]\d\.\d\d for the placer/.test(log[0]), 'the computer places three stones and says so: ' + log[0]);
  check(JSON.stringify(await stones()) === JSON.stringify(named(log[0])), 'the board shows the stones the sentence names');
  check(/x has two of the three stones/.test(await page.textContent('#opening-text')) && !!(await page.$('#btn-play-x')) && !!(await page.$('#btn-play-o')), 'the person is offered x, o or two more stones, in words');
  await page.$eval('.side', (el) => { el.scrollTop = el.scrollHeight; });
  check((await inViewport(page, '#btn-play-x')) && (await inViewport(page, '#status')), 'the decision and the status stay in view with the side panel scrolled down');
  await shot(page, '09-swap2-engine-placed.png');
  await page.click('#btn-curl');
  check((await page.inputValue('#share-text')).startsWith('curl -s ' + BASE_URL + '/v1/opening'), 'during the opening, copy as curl asks /v1/opening');
  await page.click('#btn-place2');
  const free = (await readBoard(page)).cells.filter((c) => c.ch === '.' && Math.abs(c.row - 7) + Math.abs(c.col - 7) <= 2);
  await page.click(cellSel(free[0].row, free[0].col));
  check((await page.$$('#board .cell.pending')).length === 1, 'the first of two more stones is drawn as placed, not yet sent');
  await page.click(cellSel(free[1].row, free[1].col));
  await page.waitForSelector('#opening[data-step="done"]', { timeout: TIMEOUT });
  log = await sentence();
  check(/^You \(second player\) placed two more stones: o [A-O]\d+, x [A-O]\d+\.$/.test(log[1]), 'the person\'s placement is told: ' + log[1]);
  const chose = /chose to play ([xo]): it values [xo] at [+-]\d\.\d\d, [xo] at [+-]\d\.\d\d\./.exec(log[2] || '');
  check(/^The computer \(first player/.test(log[2]) && !!chose, 'the computer picks a side with both values: ' + log[2]);
  const human = chose[1] === 'x' ? 'o' : 'x';
  check((await page.inputValue('#' + human + '-who')) === 'human' && (await page.inputValue('#' + chose[1] + '-who')) === 'engine', 'the person plays ' + human + ', the side the computer left');
  const openings = sent.filter((p) => p === '/v1/opening').length;
  const firstGame = sent.findIndex((p) => /^\/v1\/(suggest|play|analyse)$/.test(p));
  check(openings === 2 && (firstGame < 0 || firstGame > sent.lastIndexOf('/v1/opening')), 'two /v1/opening calls, and no /v1/suggest, /v1/play or /v1/analyse before the opening is done');
  await waitHumanTurnOrOver(page, false);
  const before = await marks(page);
  check(before === (human === 'o' ? 5 : 6), 'o moves first after the opening (' + before + ' stones)');
  const empty = (await readBoard(page)).cells.find((c) => c.ch === '.' && Math.abs(c.row - 7) <= 3 && Math.abs(c.col - 7) <= 3);
  await play(page, empty.row, empty.col);
  await waitHumanTurnOrOver(page, false);
  const listed = await page.$$eval('#move-list .move-name', (els) => els.map((e) => e.textContent));
  check(listed.includes(human + ' ' + cellName(empty)) && listed.length >= 2, 'the game goes on through /v1/play: ' + listed.join(' | '));
  check(new URL(page.url()).searchParams.get('opened') === '1', 'the address says the opening is done');
  await shot(page, '10-swap2-game-on.png');

  // Swap, the person first: x, o, x by clicks, then the computer picks a side.
  await page.goto(BASE_URL + '/?rules=15,15,5&opening=swap&x=human&o=auto:5:300', { waitUntil: 'load' });
  await page.waitForSelector('#btn-takeback', { timeout: TIMEOUT });
  for (const [r, c] of [[7, 7], [7, 8], [8, 8]]) await page.click(cellSel(r, c));
  await page.waitForSelector('#opening[data-step="done"]', { timeout: TIMEOUT });
  const now = await stones();
  check(['x 7,7', 'o 7,8', 'x 8,8'].every((st) => now.includes(st)), 'the person\'s stones go x, o, x');
  log = await sentence();
  check(/^You \(first player\) placed three stones: x H7, o I7, x I8\.$/.test(log[0]) && /^The computer \(second player.*\) chose to play [xo]: it values/.test(log[1]), 'the computer picks a side after the person\'s placement: ' + log[1]);

  // Pro: x on the centre, o beside it; x's second stone may not go near the centre.
  const board = ['...............', '...............', '...............', '...............', '...............',
    '...............', '...............', '.......x.......', '........o......', '...............',
    '...............', '...............', '...............', '...............', '...............'];
  await page.goto(BASE_URL + '/?rules=15,15,5&opening=pro&board=' + board.join('/') + '&x=human&o=human', { waitUntil: 'load' });
  await page.waitForSelector('#board .cell.forbidden', { timeout: TIMEOUT });
  const { json } = await serverPost('/v1/state', { rules: { m: 15, n: 15, k: 5, opening: 'pro' }, board });
  const marked = await page.$$eval('#board .cell.forbidden', (els) => els.map((e) => e.dataset.row + ',' + e.dataset.col + ':' + e.dataset.forbidden).sort());
  const want = json.forbidden.map((f) => f.row + ',' + f.col + ':' + f.reason).sort();
  check(want.length === 23 && want.includes('6,6:near_centre') && JSON.stringify(marked) === JSON.stringify(want), 'the page marks the 23 near-centre cells /v1/state forbids');
  check(/under the pro rule: x's second stone goes at least 3 cells from the centre/.test(await page.getAttribute(cellSel(6, 6), 'aria-label')), 'the mark says why in words');
  await page.click(cellSel(6, 6));
  await page.waitForSelector('#board-msg:not([hidden])', { timeout: TIMEOUT });
  const msg = await page.textContent('#board-msg');
  check(/^x may not play here under the pro rule: x's second stone goes at least 3 cells from the centre/.test(msg) && (await marks(page)) === 2, 'the near-centre stone is refused with the reason: ' + msg);
  await shot(page, '11-pro-refused.png');
  await play(page, 4, 7);
  check((await page.$$('#board .cell.forbidden')).length === 0, 'a stone 3 cells away is played; no cell is forbidden for o');
  await page.selectOption('#preset', 'ttt');
  check((await page.inputValue('#rule-opening')) === 'free' && (await page.$eval('#rule-opening option[value="swap2"]', (o) => o.disabled)), 'tic-tac-toe offers no opening rule (k = 3, a 3x3 board)');
  await page.close();
}

// The side panel on a short window: its head (the status line, the buttons, an
// opening's decision) stays in view when the panel scrolls, also after "Start a new game
// with these rules" at its bottom; a click on an occupied cell is ignored, not sent.
async function sidePanelAndOccupiedCells(browser, pageErrors) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 560 } });
  page.on('console', (m) => consoleLines.push(m.type() + ': ' + m.text()));
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  await page.goto(BASE_URL + '/?rules=15,15,5&x=human&o=auto:3:100', { waitUntil: 'load' });
  await waitHumanTurnOrOver(page, false);
  const scrollable = await page.$eval('.side', (el) => el.scrollHeight > el.clientHeight + 100);
  check(scrollable, 'on a 560 px window the side panel scrolls');
  await page.$eval('.side', (el) => { el.scrollTop = el.scrollHeight; });
  check(await inViewport(page, '#status'), 'the status line stays in view with the panel scrolled down');
  await page.click('#btn-apply');
  await waitHumanTurnOrOver(page, false);
  check((await inViewport(page, '#status')) && (await inViewport(page, '#btn-new')), 'after "Start a new game" the status and the buttons are in view');
  await play(page, 7, 7);
  await waitHumanTurnOrOver(page, false);
  const sent = [];
  page.on('request', (r) => sent.push(new URL(r.url()).pathname));
  const before = await marks(page);
  const taken = (await readBoard(page)).cells.find((c) => c.ch !== '.');
  await page.click(cellSel(taken.row, taken.col));
  await page.waitForTimeout(300);
  check(sent.filter((p) => p === '/v1/play').length === 0 && (await marks(page)) === before && (await page.isHidden('#board-msg')),
    'a click on an occupied cell is ignored: nothing sent, nothing shown');
  await page.close();
}

async function main() {
  fs.mkdirSync(SHOTS, { recursive: true });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-sync'],
  });
  const pageErrors = [];
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.on('console', (m) => consoleLines.push(m.type() + ': ' + m.text()));
    page.on('pageerror', (e) => pageErrors.push(String(e)));

    // 1. The page loads from the real server, lists the engines, draws coordinates.
    await page.goto(BASE_URL + '/', { waitUntil: 'load' });
    await waitHumanTurnOrOver(page, false);
    const engines = await page.$$eval('#o-engine option', (os) => os.map((o) => o.value));
    check(engines.includes('perfect') && engines.includes('auto'), 'GET /v1/engines lists auto and perfect: ' + engines.join(', '));
    check((await page.$$('#board .coord.col')).length === 3 && (await page.$$('#board .coord.row')).length === 3, 'coordinates A-C and 0-2 are drawn');
    check((await page.textContent('#board .coord.col')) === 'A', 'the first column is A');

    // 2. A full tic-tac-toe game by clicks: perfect never loses.
    const game = await ticTacToe(page);
    check(['draw', 'o_wins'].includes(game.b.state), 'the game ends in a draw or a loss for the human: ' + game.b.status);
    const listed = await page.$$eval('#move-list .move', (els) => els.map((e) => e.textContent));
    check(listed.length === 9 - game.b.cells.filter((c) => c.ch === '.').length, 'the move list has every move: ' + listed.join(' | '));
    check((await page.$eval('#graph-box', (e) => Number(e.dataset.points))) >= 2, 'the value graph has points');

    // 3. Undo takes back the human move and the reply; redo plays them again.
    const full = await marks(page);
    await page.click('#btn-undo');
    await page.waitForFunction((n) => document.querySelectorAll('#board .cell.x, #board .cell.o').length < n, full, { timeout: TIMEOUT });
    await page.click('#btn-redo');
    await page.waitForFunction((n) => document.querySelectorAll('#board .cell.x, #board .cell.o').length === n, full, { timeout: TIMEOUT });
    check(true, 'undo and redo move through the game');
    await page.click('#move-list .move[data-index="0"]');
    await page.waitForFunction(() => document.querySelectorAll('#board .cell.x, #board .cell.o').length === 1, null, { timeout: TIMEOUT });
    check((await page.$$('#move-list .move.undone')).length === full - 1, 'clicking the first move shows the position after it');
    await page.click('#btn-redo');

    // 4. Copy as JSON and as curl fill the box with the request.
    await page.click('#btn-json');
    const json = JSON.parse(await page.inputValue('#share-text'));
    check(json.rules.m === 3 && json.board.length === 3, 'copy position as JSON gives the request body');
    await page.click('#btn-curl');
    check((await page.inputValue('#share-text')).startsWith('curl -s ' + BASE_URL + '/v1/suggest'), 'copy as curl gives a curl command');

    // 5. A shared link restores the rules, the position and the players.
    const board = ['...............', '...............', '...............', '...............', '...............',
      '...............', '......o........', '......xx.......', '.......o.......', '...............',
      '...............', '...............', '...............', '...............', '...............'];
    await page.goto(BASE_URL + '/?rules=15,15,5&board=' + board.join('/') + '&x=human&o=auto:10:300', { waitUntil: 'load' });
    await waitHumanTurnOrOver(page, true);
    let b = await readBoard(page);
    const drawn = [];
    for (let r = 0; r < 15; r++) drawn.push(b.cells.filter((c) => c.row === r).map((c) => c.ch).join(''));
    check(JSON.stringify(drawn) === JSON.stringify(board), 'the shared link restores the position');
    check((await page.inputValue('#o-level')) === '10' && (await page.inputValue('#o-time')) === '300' && (await page.inputValue('#o-who')) === 'engine', 'the link restores o as the computer at level 10, 0.3 s a move');
    check(b.cells.every((c) => c.size >= 36), '15x15 cells are at least 36 px at 1280x800 (' + Math.round(b.cells[0].size) + ' px)');
    check(b.cells.filter((c) => c.label !== null).every((c) => LABEL.test(c.label)), 'every 15x15 label is W/D/L or a percentage');
    await play(page, 7, 8);
    await waitHumanTurnOrOver(page, true);
    const best = (await readBoard(page)).cells.find((c) => c.best);
    check(!!best, 'the best move is outlined');
    await page.hover(cellSel(best.row, best.col));
    await page.waitForSelector('#board .cell.pv', { timeout: TIMEOUT });
    check(/Expected line/.test(await page.textContent('#cell-info')), 'hovering the best move shows its details and line');
    await shot(page, '02-gomoku-midgame.png');
    // The address keeps the start position and the moves played since.
    const moves = new URL(page.url()).searchParams.get('moves') || '';
    check(moves.split(',')[0] === '7.8' && moves.split(',').length === 2, 'the address follows the game: moves ' + moves);

    // 5b. Connect Four from a link: a click on a column's top cell drops the stone to
    // its bottom, the computer's reply lands too, and the address keeps gravity.
    await page.goto(BASE_URL + '/?rules=7,6,4&gravity=1&x=human&o=auto:10:300', { waitUntil: 'load' });
    await waitHumanTurnOrOver(page, false);
    check((await page.inputValue('#preset')) === 'c4', 'the gravity link selects the Connect Four preset');
    // Values sit on the landing cells only: the bottom row is coloured, the top row not.
    await page.waitForFunction(() => [...document.querySelectorAll('#board .cell[data-row="5"]')].every((el) => el.classList.contains('heat')), null, { timeout: TIMEOUT });
    check((await page.$$('#board .cell[data-row="0"].heat')).length === 0, 'values sit on the landing cells only');
    await play(page, 0, 3);
    await waitHumanTurnOrOver(page, false);
    const c4 = (await readBoard(page)).cells.filter((c) => c.ch === 'x' || c.ch === 'o');
    check(c4.some((c) => c.ch === 'x' && c.row === 5 && c.col === 3), 'the stone dropped to the bottom of column 3');
    check(c4.length === 2 && c4.every((c) => c.row === 5 || (c.row === 4 && c.col === 3)), 'the reply landed on a landing cell');
    check(new URL(page.url()).searchParams.get('gravity') === '1', 'the address keeps gravity');
    await page.waitForTimeout(400); // the last stone's drop animation (0.25 s)
    await shot(page, '02b-connect-four.png');

    // 6. A 15x15 position where auto proves a loss: o has an open four, x cannot stop it.
    const lost = ['...............', '...............', 'x..............', '...............', '..............x',
      '...............', '...............', '.....oooo......', '...............', '...............',
      '...............', '...............', 'x.............x', '...............', '...............'];
    await page.goto(BASE_URL + '/?rules=15,15,5&board=' + lost.join('/') + '&x=human&o=human', { waitUntil: 'load' });
    await page.selectOption('#a-engine', 'auto');
    await waitHumanTurnOrOver(page, true);
    b = await readBoard(page);
    const labels = b.cells.map((c) => c.label).filter((l) => l !== null);
    check(labels.length > 200 && labels.every((l) => l.length <= 4), 'no label is longer than 4 characters (' + labels.length + ' labels)');
    check(labels.some((l) => /^L\d+$/.test(l)), 'auto proves the loss: ' + [...new Set(labels)].slice(0, 8).join(' '));
    const overflowing = await page.$$eval('#board .cell .label', (els) => els.filter((el) => el.getBoundingClientRect().width > el.parentElement.clientWidth).length);
    check(overflowing === 0, 'every label fits inside its cell');
    await shot(page, '03-gomoku-proven-loss.png');

    // 7. A bad setting: its error is next to the settings and inside the window.
    await page.goto(BASE_URL + '/', { waitUntil: 'load' });
    await waitHumanTurnOrOver(page, false);
    await page.fill('#rule-m', '99');
    await page.click('#btn-apply');
    await page.waitForSelector('#rules-msg.error:not([hidden])', { timeout: TIMEOUT });
    const msg = await page.textContent('#rules-msg');
    check(/invalid_rules/.test(msg), 'm = 99 shows the invalid_rules message: ' + msg);
    check(await inViewport(page, '#rules-msg'), 'the error is inside the viewport');
    check((await page.getAttribute('#rule-m', 'aria-invalid')) === 'true', 'the columns field is marked');
    await shot(page, '04-bad-setting.png');

    // 8. Coordinates can be turned off.
    await page.uncheck('#opt-coords');
    check((await page.$$('#board .coord')).length === 0, 'coordinates can be hidden');

    // 9. Special pieces: choose the block (key 2), place it; the hand shrinks, o replies.
    await page.goto(BASE_URL + '/?rules=7,7,4&xp=1,1,1&op=1,1,1&to=x&x=human&o=threat:10:100', { waitUntil: 'load' });
    await waitHumanTurnOrOver(page, true);
    await page.keyboard.press('2');
    await page.waitForSelector('.piece[data-piece="block"][aria-pressed="true"]', { timeout: TIMEOUT });
    await page.click(cellSel(3, 3));
    await page.waitForFunction(() => document.querySelectorAll('#board .cell.o').length === 1, null, { timeout: TIMEOUT });
    check((await readBoard(page)).cells.find((c) => c.row === 3 && c.col === 3).ch === '#', 'the block stands on D3 and the computer replied');
    check((await page.textContent('#pieces')).includes('x holds 0 block'), 'the hand from /v1/play shows x has no block left');

    // 10. The computer against itself on 3x3 plays to the end: perfect draws with perfect.
    await page.goto(BASE_URL + '/?rules=3,3,3&x=perfect:10:100&o=perfect:10:100', { waitUntil: 'load' });
    await page.waitForFunction((over) => over.includes(document.getElementById('status').dataset.state), OVER, { timeout: TIMEOUT });
    check((await readBoard(page)).state === 'draw', 'perfect against perfect draws on 3x3');
    await context.close();

    // 9. A phone: the board fits, a move can be played, 15x15 fits too.
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    const pp = await phone.newPage();
    pp.on('pageerror', (e) => pageErrors.push(String(e)));
    await pp.goto(BASE_URL + '/?rules=15,15,5&x=human&o=auto:5:100', { waitUntil: 'load' });
    await waitHumanTurnOrOver(pp, false);
    await pp.tap(cellSel(7, 7));
    await pp.waitForFunction(() => document.querySelectorAll('#board .cell.o').length === 1, null, { timeout: TIMEOUT });
    const box = await pp.locator('#board').boundingBox();
    check(box.x >= 0 && box.x + box.width <= 390, 'the 15x15 board fits the phone width (' + Math.round(box.width) + ' px)');
    check((await pp.evaluate(() => document.documentElement.scrollWidth)) <= 390, 'the page does not scroll sideways');
    await pp.screenshot({ path: path.join(SHOTS, '05-phone.png') });
    await phone.close();

    await heatMapCheck(browser, pageErrors);
    await firstStoneScale(browser, pageErrors);
    await connectFourOutcomes(browser, pageErrors);
    await analysisAndVariants(browser, pageErrors);
    await sharedLinkMoves(browser);
    await openingRules(browser, pageErrors);
    await sidePanelAndOccupiedCells(browser, pageErrors);
    await externalEngine(browser, pageErrors);
    await phoneLink(browser);

    check(pageErrors.length === 0, 'no JavaScript errors' + (pageErrors.length ? ': ' + pageErrors.join('; ') : ''));
    log('all checks passed');
  } finally {
    await browser.close();
  }
}

main().catch((e) => {
  console.error(e && e.stack ? e.stack : e);
  console.error('--- page console ---\n' + consoleLines.slice(-40).join('\n'));
  process.exit(1);
});
