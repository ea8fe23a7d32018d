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
const LABEL = /^(W\d{1,2}|W99\+|D|L\d{1,2}|L99\+|\d{1,2})$/;

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
      return empties.length > 0 && empties.every((el) => el.classList.contains('heat'));
    },
    { over: OVER, withLabels },
    { timeout: TIMEOUT },
  );
}

async function shot(page, name) {
  const file = path.join(SHOTS, name);
  await page.screenshot({ path: file });
  log('screenshot', file);
  return file;
}

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

// POST to the real server from the test (for the stand-ins below).
async function serverPost(route, body) {
  const res = await fetch(BASE_URL + route, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, json: await res.json() };
}

// The page's use of routes the contract describes (the /v1/analyse stream, /v1/review,
// renju's forbidden cells), checked whether or not this server has them: the browser's
// requests to them are answered by stand-ins built from the real server's own answers,
// in the contract's shapes. What is tested is the page: it reads the stream, draws the
// review, marks the forbidden cells.
async function contractFeatures(browser, pageErrors) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  let streamed = 0;
  await context.route('**/v1/analyse', async (route) => {
    const body = JSON.parse(route.request().postData());
    delete body.rules.variant;
    const { status, json } = await serverPost('/v1/suggest', body);
    if (status !== 200) return route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(json) });
    const info = (depth) => ({ depth, nodes: depth * 100, elapsed_ms: depth * 3, move: json.move, value: json.evaluation.value, pv: json.pv, lines: [] });
    const events = [['info', info(1)], ['info', info(2)], ['result', json]];
    streamed += 1;
    await route.fulfill({
      status: 200,
      contentType: 'text/event-stream',
      body: events.map(([name, data]) => 'event: ' + name + '\ndata: ' + JSON.stringify(data) + '\n\n').join(''),
    });
  });
  let reviewed = null;
  await context.route('**/v1/review', async (route) => {
    const body = JSON.parse(route.request().postData());
    reviewed = body;
    const classes = ['best', 'good', 'inaccuracy', 'mistake', 'blunder', 'forced'];
    const moves = body.moves.map((move, index) => ({
      index, player: index % 2 ? 'o' : 'x', move, value_before: 0, value_after: 0, best: move, best_value: 0, loss: 0, class: classes[index % 6],
    }));
    const values = [0].concat(body.moves.map((_, i) => (i % 2 ? -0.2 : 0.2)));
    await route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({ moves, summary: { x: { accuracy: 0.9 }, o: { accuracy: 0.8 } }, values, stats: {} }),
    });
  });
  await context.route('**/v1/state', async (route) => {
    const body = JSON.parse(route.request().postData());
    if (!body.rules || body.rules.variant !== 'renju') return route.continue();
    const plain = { ...body, rules: { ...body.rules } };
    delete plain.rules.variant;
    const { status, json } = await serverPost('/v1/state', plain);
    if (status === 200) {
      json.rules.variant = 'renju';
      json.forbidden = json.to_move === 'x' ? [{ row: 7, col: 8, reason: 'double three' }] : [];
    }
    await route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(json) });
  });

  // The stream feeds the live panel and the heat map.
  await page.goto(BASE_URL + '/?rules=3,3,3&x=human&o=perfect:10:100', { waitUntil: 'load' });
  await waitHumanTurnOrOver(page, true);
  check(streamed > 0 && !(await page.isHidden('#live')), 'the live analysis panel reads the /v1/analyse stream');
  check(/2 moves ahead/.test(await page.textContent('#live-text')), 'it shows the last info event: ' + (await page.textContent('#live-text')));

  // A finished game can be reviewed: classes in the move list, the graph from `values`.
  for (;;) {
    await waitHumanTurnOrOver(page, true);
    const b = await readBoard(page);
    if (OVER.includes(b.state)) break;
    const empty = b.cells.find((c) => c.ch === '.');
    await play(page, empty.row, empty.col);
  }
  await page.waitForSelector('#btn-review:not([hidden])', { timeout: TIMEOUT });
  await page.click('#btn-review');
  await page.waitForSelector('#move-list .review', { timeout: TIMEOUT });
  const plies = reviewed.moves.length;
  check((await page.$$('#move-list .review')).length === plies, 'every move of the ' + plies + ' is marked with its class');
  check((await page.textContent('#move-list')).includes('blunder') || plies < 5, 'a blunder is named in plain words');
  check((await page.$eval('#graph-box', (e) => Number(e.dataset.points))) === plies + 1, 'the graph draws the review values');
  check(/90% accuracy/.test(await page.textContent('#review-summary')), 'the summary gives the accuracy');
  await shot(page, '06-review.png');

  // Renju: the preset is offered and x's forbidden cells are marked.
  await page.goto(BASE_URL + '/?rules=15,15,5&variant=renju&x=human&o=human', { waitUntil: 'load' });
  await page.waitForSelector('#board .cell.forbidden', { timeout: TIMEOUT });
  check((await page.$$('#preset option[value="renju"]')).length === 1, 'the renju preset is offered');
  check((await page.getAttribute(cellSel(7, 8), 'class')).includes('forbidden'), 'the forbidden cell I7 is marked');
  await context.close();
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
    const row7 = new URL(page.url()).searchParams.get('board').split('/')[7];
    check(row7.slice(6, 9) === 'xxx', 'the address follows the game: row 7 is ' + row7);

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

    await contractFeatures(browser, pageErrors);

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
