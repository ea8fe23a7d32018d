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
const TIMEOUT = 20000;

const consoleLines = [];
const t0 = Date.now();

function log(...args) {
  console.log('[' + ((Date.now() - t0) / 1000).toFixed(1) + 's]', ...args);
}

function check(cond, what) {
  if (!cond) throw new Error('check failed: ' + what);
  log('ok:', what);
}

// What the page shows, read from the DOM (the page's own data attributes and text).
async function readBoard(page) {
  return page.evaluate(() => {
    const status = document.getElementById('status');
    const cells = [...document.querySelectorAll('#board .cell')].map((el) => ({
      row: Number(el.dataset.row),
      col: Number(el.dataset.col),
      ch: el.classList.contains('x') ? 'x' : el.classList.contains('o') ? 'o' : el.classList.contains('block') ? '#' : '.',
      score: el.querySelector('.score') ? el.querySelector('.score').textContent : null,
      outcome: el.querySelector('.outcome') ? el.querySelector('.outcome').textContent : null,
      hint: el.classList.contains('hint'),
      best: el.classList.contains('best'),
      last: el.classList.contains('last'),
      win: el.classList.contains('win'),
      pv: el.dataset.pv || null,
    }));
    const error = document.getElementById('error');
    return {
      state: status.dataset.state,
      status: status.textContent,
      toMove: status.dataset.toMove,
      cells,
      error: error.hidden ? null : { cls: error.className, text: error.textContent },
    };
  });
}

const OVER = ['x_wins', 'o_wins', 'draw'];

// Waits until it is the human's turn with the heat map drawn, or the game is over.
async function waitHumanTurnOrOver(page, withScores) {
  await page.waitForFunction(
    ({ over, withScores }) => {
      const st = document.getElementById('status').dataset.state;
      if (over.includes(st)) return true;
      if (st !== 'human_to_move') return false;
      if (!withScores) return true;
      const empties = [...document.querySelectorAll('#board .cell.empty')];
      return empties.length > 0 && empties.every((el) => el.querySelector('.score'));
    },
    { over: OVER, withScores },
    { timeout: TIMEOUT },
  );
}

async function shot(page, name) {
  const file = path.join(SHOTS, name);
  await page.screenshot({ path: file, fullPage: true });
  log('screenshot', file);
}

async function setSelect(page, id, value) {
  await page.selectOption('#' + id, value);
}

async function setInput(page, id, value) {
  await page.fill('#' + id, String(value));
}

// Plays one 3x3 game as x against `perfect`; `pick` chooses the human's cell.
async function playTicTacToe(page, pick, label) {
  await setSelect(page, 'preset', 'ttt');
  await page.click('#btn-new');
  let moves = 0;
  for (;;) {
    await waitHumanTurnOrOver(page, true);
    const b = await readBoard(page);
    if (OVER.includes(b.state)) {
      log(label + ': game over after', moves, 'human moves:', b.status);
      return b;
    }
    const empties = b.cells.filter((c) => c.ch === '.');
    check(
      empties.every((c) => c.score !== null && /^-?(\d+\.?\d*|\.\d+)[kM]?$/.test(c.score)),
      label + ': the heat map shows a number on every empty cell (' + empties.length + ' empty)',
    );
    check(
      empties.every((c) => c.outcome !== null && /^(W\d+|D|L\d+)$/.test(c.outcome)),
      label + ': perfect labels every empty cell win/draw/loss (' + empties.map((c) => c.outcome).join(' ') + ')',
    );
    const cell = await pick(page, b, empties);
    const before = b.cells.filter((c) => c.ch !== '.').length;
    await page.click('#board .cell[data-row="' + cell.row + '"][data-col="' + cell.col + '"]');
    moves += 1;
    await page.waitForFunction(
      (n) => document.querySelectorAll('#board .cell:not(.empty)').length > n,
      before,
      { timeout: TIMEOUT },
    );
  }
}

async function main() {
  fs.mkdirSync(SHOTS, { recursive: true });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const pageErrors = [];
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.on('console', (m) => consoleLines.push(m.type() + ': ' + m.text()));
    page.on('pageerror', (e) => pageErrors.push(String(e)));

    // 1. The page loads from the real server and lists the engines.
    await page.goto(BASE_URL + '/', { waitUntil: 'load' });
    await waitHumanTurnOrOver(page, false);
    const engines = await page.$$eval('#o-engine option', (os) => os.map((o) => o.value));
    log('engines offered:', engines.join(', '));
    check(engines.includes('perfect'), 'GET /v1/engines lists perfect');

    // 2. 3x3 against perfect, playing the hint every move: perfect never loses.
    await setSelect(page, 'o-who', 'engine');
    await setSelect(page, 'o-engine', 'perfect');
    await setInput(page, 'o-mistake', 0);
    await setSelect(page, 'a-engine', 'perfect');
    const viaHint = async (pg) => {
      await pg.keyboard.press('h');
      await pg.waitForSelector('#board .cell.hint', { timeout: TIMEOUT });
      const b = await readBoard(pg);
      const h = b.cells.find((c) => c.hint);
      check(h.ch === '.', 'the hint (H) points at an empty cell (' + h.row + ',' + h.col + ')');
      return h;
    };
    let first = true;
    const end1 = await playTicTacToe(
      page,
      async (pg, b, empties) => {
        if (first) {
          first = false;
          await shot(pg, '01-ttt-heatmap.png');
          // The principal variation on hover over the best move.
          const best = b.cells.find((c) => c.best);
          check(!!best, 'the analysis marks a best move');
          await pg.hover('#board .cell[data-row="' + best.row + '"][data-col="' + best.col + '"]');
          await pg.waitForSelector('#board .cell.pv', { timeout: TIMEOUT });
          await shot(pg, '02-ttt-pv-hover.png');
          await pg.mouse.move(5, 5);
        }
        return viaHint(pg);
      },
      'game 1 (hints)',
    );
    check(['draw', 'o_wins'].includes(end1.state), 'game 1 ends in a draw or a human loss: ' + end1.state);
    await shot(page, '03-ttt-end-hints.png');

    // 3. A weaker human (always the first empty cell): perfect wins or draws, never loses.
    const end2 = await playTicTacToe(page, async (_pg, _b, empties) => empties[0], 'game 2 (first empty cell)');
    check(['draw', 'o_wins'].includes(end2.state), 'game 2 ends in a draw or a human loss: ' + end2.state);
    if (end2.state === 'o_wins') {
      const line = end2.cells.filter((c) => c.win);
      check(line.length === 3 && line.every((c) => c.ch === 'o'), 'the winning line is drawn on three o cells');
    }
    await shot(page, '04-ttt-end-naive.png');

    // 4. Undo (U) takes back the engine's reply and the human's move.
    await page.click('#btn-new');
    await waitHumanTurnOrOver(page, true);
    await page.click('#board .cell[data-row="0"][data-col="0"]');
    await page.waitForFunction(() => document.querySelectorAll('#board .cell:not(.empty)').length === 2, null, {
      timeout: TIMEOUT,
    });
    await waitHumanTurnOrOver(page, true);
    await page.keyboard.press('u');
    await page.waitForFunction(() => document.querySelectorAll('#board .cell:not(.empty)').length === 0, null, {
      timeout: TIMEOUT,
    });
    check(true, 'U undoes the human move and the engine reply');

    // 5. T toggles the heat map off and on.
    await waitHumanTurnOrOver(page, true);
    await page.keyboard.press('t');
    check((await page.$$('#board .cell .score')).length === 0, 'T hides the scores');
    await page.keyboard.press('t');
    await waitHumanTurnOrOver(page, true);
    check((await page.$$('#board .cell .score')).length === 9, 'T shows them again');

    // 6. Special pieces: choose the block first (key 2), place it, the hand shrinks.
    await setSelect(page, 'o-engine', engines.includes('auto') ? 'auto' : engines[0]);
    await setInput(page, 'o-time', 300);
    await setSelect(page, 'a-engine', engines.includes('threat') ? 'threat' : engines.includes('auto') ? 'auto' : engines[0]);
    await setInput(page, 'a-time', 300);
    await setSelect(page, 'preset', 'special'); // starts a new game
    await page.waitForFunction(() => document.getElementById('board').dataset.m === '7', null, { timeout: TIMEOUT });
    await waitHumanTurnOrOver(page, true);
    check((await page.textContent('#pieces')).includes('block ×1'), 'x holds a block in the special-pieces game');
    await page.evaluate(() => document.activeElement.blur()); // keys in a form field are the field's
    await page.keyboard.press('2');
    await page.waitForSelector('.piece[data-piece="block"][aria-pressed="true"]', { timeout: TIMEOUT });
    await page.click('#board .cell[data-row="3"][data-col="3"]');
    await page.waitForFunction(() => document.querySelectorAll('#board .cell.o').length === 1, null, {
      timeout: TIMEOUT,
    });
    await waitHumanTurnOrOver(page, true);
    const sp = await readBoard(page);
    check(sp.cells.find((c) => c.row === 3 && c.col === 3).ch === '#', 'the block stands on (3,3) and the engine replied');
    check(
      (await page.textContent('#pieces')).includes('x: 0 block'),
      'the hand from /v1/play shows x has no block left',
    );
    await shot(page, '05a-special-pieces.png');

    // 7. Gomoku 15x15: the human plays the centre, the engine answers.
    await setSelect(page, 'preset', 'gomoku'); // starts a new game
    await page.waitForFunction(() => document.getElementById('board').dataset.m === '15', null, { timeout: TIMEOUT });
    await waitHumanTurnOrOver(page, false);
    await page.click('#board .cell[data-row="7"][data-col="7"]');
    await page.waitForFunction(() => document.querySelectorAll('#board .cell.o').length === 1, null, {
      timeout: TIMEOUT,
    });
    await waitHumanTurnOrOver(page, true);
    const g = await readBoard(page);
    check(g.cells.length === 225, 'the gomoku board has 225 cells');
    const reply = g.cells.find((c) => c.ch === 'o');
    check(!!reply && g.cells.find((c) => c.ch === 'o').last, 'the engine replied at (' + reply.row + ',' + reply.col + '), drawn as the last move');
    check(
      g.cells.filter((c) => c.ch === '.').every((c) => c.score !== null),
      'the 15x15 heat map shows a number on every empty cell',
    );
    await shot(page, '05-gomoku.png');

    // 8. API errors are shown as readable messages.
    await page.click('#board .cell[data-row="7"][data-col="7"]'); // occupied
    await page.waitForSelector('#error.error:not([hidden])', { timeout: TIMEOUT });
    let err = (await readBoard(page)).error;
    log('error shown:', err.text);
    check(/refused/i.test(err.text) && /422/.test(err.text), 'playing on an occupied cell shows the API error');
    await setSelect(page, 'preset', 'custom');
    await setInput(page, 'rule-m', 99);
    await page.click('#btn-apply');
    await page.waitForFunction(
      () => {
        const e = document.getElementById('error');
        return !e.hidden && e.className === 'error' && /start the game/.test(e.textContent);
      },
      null,
      { timeout: TIMEOUT },
    );
    err = (await readBoard(page)).error;
    log('error shown:', err.text);
    check(/invalid_rules/.test(err.text) && /rules/i.test(err.text), 'm = 99 shows the invalid_rules message');
    await shot(page, '06-api-error.png');

    // 9. Engine against engine on 3x3 plays to the end (x may open with the default engine
    //    before its select switches to perfect; both prove 3x3, so it must be a draw).
    await setSelect(page, 'preset', 'ttt');
    await page.waitForFunction(() => document.getElementById('board').dataset.m === '3', null, { timeout: TIMEOUT });
    await setSelect(page, 'o-engine', 'perfect');
    await setSelect(page, 'x-who', 'engine');
    await setSelect(page, 'x-engine', 'perfect');
    await page.waitForFunction((over) => over.includes(document.getElementById('status').dataset.state), OVER, {
      timeout: TIMEOUT,
    });
    const eve = await readBoard(page);
    check(eve.state === 'draw', 'perfect against perfect draws on 3x3: ' + eve.status);
    await shot(page, '07-engine-vs-engine.png');
    await context.close();

    // 10. A phone-sized screen: the board fits, a move can be played, 15x15 fits too.
    const phone = await browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
    });
    const pp = await phone.newPage();
    pp.on('pageerror', (e) => pageErrors.push(String(e)));
    await pp.goto(BASE_URL + '/', { waitUntil: 'load' });
    await waitHumanTurnOrOver(pp, true);
    await pp.tap('#board .cell[data-row="1"][data-col="1"]');
    await pp.waitForFunction(() => document.querySelectorAll('#board .cell.o').length === 1, null, {
      timeout: TIMEOUT,
    });
    await waitHumanTurnOrOver(pp, true);
    let box = await pp.locator('#board').boundingBox();
    check(box.x >= 0 && box.x + box.width <= 390, 'the 3x3 board fits the phone width (' + Math.round(box.width) + 'px)');
    await pp.screenshot({ path: path.join(SHOTS, '08-phone-ttt.png') });
    await setSelect(pp, 'a-engine', engines.includes('threat') ? 'threat' : 'auto');
    await setInput(pp, 'a-time', 300);
    await setSelect(pp, 'preset', 'gomoku');
    await pp.waitForFunction(() => document.getElementById('board').dataset.m === '15', null, { timeout: TIMEOUT });
    await waitHumanTurnOrOver(pp, true);
    box = await pp.locator('#board').boundingBox();
    check(box.x >= 0 && box.x + box.width <= 390, 'the 15x15 board fits the phone width (' + Math.round(box.width) + 'px)');
    const scroll = await pp.evaluate(() => document.documentElement.scrollWidth);
    check(scroll <= 390, 'the page does not scroll sideways on a phone (' + scroll + 'px)');
    await pp.evaluate(() => {
      document.activeElement.blur();
      window.scrollTo(0, 0);
    });
    await pp.screenshot({ path: path.join(SHOTS, '09-phone-gomoku.png') });
    await phone.close();

    check(pageErrors.length === 0, 'no JavaScript errors on the page' + (pageErrors.length ? ': ' + pageErrors.join('; ') : ''));
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
