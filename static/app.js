// kinrow demo page. Plain JavaScript, no build step, no dependencies.
//
// The page holds no game logic: every position change goes through the HTTP API
// (POST /v1/state to start, POST /v1/play for every move, POST /v1/suggest for the
// engines, the hint and the heat map). The page only remembers the positions it was
// given (for undo) and draws what the server answered.
'use strict';

(() => {
  const $ = (id) => document.getElementById(id);

  const PIECES = ['mark', 'block', 'remove', 'bomb'];
  const PRESETS = {
    ttt: { m: 3, n: 3, k: 3, overline: true, x: [0, 0, 0], o: [0, 0, 0] },
    444: { m: 4, n: 4, k: 4, overline: true, x: [0, 0, 0], o: [0, 0, 0] },
    774: { m: 7, n: 7, k: 4, overline: true, x: [0, 0, 0], o: [0, 0, 0] },
    gomoku: { m: 15, n: 15, k: 5, overline: false, x: [0, 0, 0], o: [0, 0, 0] },
    special: { m: 7, n: 7, k: 4, overline: true, x: [1, 1, 1], o: [1, 1, 1] },
  };
  const FRIENDLY = {
    invalid_json: 'The request was not valid JSON',
    invalid_request: 'The request has the wrong shape',
    invalid_board: 'The board is not valid',
    invalid_rules: 'The rules are not valid',
    inconsistent_turn: 'The side to move does not fit the board',
    game_over: 'The game is already over',
    illegal_move: 'That move is not allowed',
    unknown_engine: 'There is no such engine',
    invalid_limits: 'The engine settings are out of range',
    network: 'The server cannot be reached',
    bad_response: 'The server answered with something unexpected',
  };

  // Everything the page knows. `gen` changes with every new position (or a change of
  // who plays), so that answers to requests about an older position are dropped.
  const S = {
    game: false, // a game has been started
    rules: null, // the rules with the hands as they are NOW (the server decrements them)
    board: null, // array of n strings
    toMove: 'x',
    state: { status: 'in_progress', winner: null, line: null, over: false },
    lastMove: null,
    history: [], // snapshots before each move, for undo
    gen: 0,
    analysis: null, // { gen, resp, engine }: an analysis of the current position
    analyzing: null, // { gen, promise }
    lastEngine: null, // { side, resp }: what the last engine move was based on
    hint: null, // { gen, move }
    thinking: null, // the side whose engine is searching
    pending: false, // a human move is on its way to the server
    paused: false, // engine vs engine, paused
    showScores: true,
    piece: 'mark',
    engines: [], // from GET /v1/engines
    defaultEngine: null,
  };

  // ---------------------------------------------------------------- the API

  class ApiError extends Error {
    constructor(status, code, message, field, retryAfter) {
      super(message);
      this.status = status;
      this.code = code;
      this.field = field;
      this.retryAfter = retryAfter;
    }
  }

  async function api(method, path, body) {
    let res;
    try {
      res = await fetch(path, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (e) {
      throw new ApiError(0, 'network', String(e && e.message ? e.message : e));
    }
    const text = await res.text();
    let data = null;
    try {
      data = text ? JSON.parse(text) : null;
    } catch (_) {
      data = null;
    }
    if (!res.ok) {
      const err = (data && data.error) || {};
      throw new ApiError(
        res.status,
        err.code || 'http_' + res.status,
        err.message || text.slice(0, 300) || res.statusText || 'no message',
        err.field,
        res.headers.get('retry-after'),
      );
    }
    if (data === null) {
      throw new ApiError(res.status, 'bad_response', 'the answer to ' + path + ' is not JSON');
    }
    return data;
  }

  function describeError(err) {
    if (!(err instanceof ApiError)) return { head: 'Something went wrong', text: String(err) };
    let head = FRIENDLY[err.code];
    if (err.status === 503) {
      head = 'The server is busy' + (err.retryAfter ? '; try again in ' + err.retryAfter + ' s' : '');
    } else if (err.status === 413) {
      head = 'The request is too large for the server';
    } else if (!head) {
      head = 'The server refused the request';
    }
    let text = err.message;
    if (err.field) text += ' (field ' + err.field + ')';
    const tag = err.status ? 'HTTP ' + err.status + ', ' + err.code : err.code;
    return { head, text, tag };
  }

  function showError(err, context) {
    const d = describeError(err);
    const box = $('error');
    box.className = 'error';
    box.replaceChildren();
    const strong = document.createElement('strong');
    strong.textContent = (context ? context + ': ' : '') + d.head + '.';
    box.append(strong, ' ', d.text);
    if (d.tag) {
      const code = document.createElement('code');
      code.className = 'error-code';
      code.textContent = d.tag;
      box.append(' ', code);
    }
    box.hidden = false;
  }

  function showNote(text) {
    const box = $('error');
    box.className = 'note';
    box.textContent = text;
    box.hidden = false;
  }

  function clearMessage() {
    $('error').hidden = true;
  }

  // ---------------------------------------------------------------- settings

  function numberOrRaw(id) {
    const v = $(id).value.trim();
    if (v === '') return undefined;
    const x = Number(v);
    return Number.isFinite(x) ? x : v;
  }

  function readRules() {
    const hand = (p) => ({
      block: numberOrRaw(p + '-block') ?? 0,
      remove: numberOrRaw(p + '-remove') ?? 0,
      bomb: numberOrRaw(p + '-bomb') ?? 0,
    });
    return {
      m: numberOrRaw('rule-m'),
      n: numberOrRaw('rule-n'),
      k: numberOrRaw('rule-k'),
      overline: $('rule-overline').checked,
      pieces: { x: hand('x'), o: hand('o') },
    };
  }

  function applyPreset(name) {
    const p = PRESETS[name];
    if (!p) return;
    $('rule-m').value = p.m;
    $('rule-n').value = p.n;
    $('rule-k').value = p.k;
    $('rule-overline').checked = p.overline;
    ['block', 'remove', 'bomb'].forEach((piece, i) => {
      $('x-' + piece).value = p.x[i];
      $('o-' + piece).value = p.o[i];
    });
  }

  function isEngine(side) {
    return $(side + '-who').value === 'engine';
  }

  function bothEngines() {
    return isEngine('x') && isEngine('o');
  }

  function engineConfig(prefix, withMistakes) {
    const e = { name: $(prefix + '-engine').value };
    const time = numberOrRaw(prefix + '-time');
    const depth = numberOrRaw(prefix + '-depth');
    if (time !== undefined) e.time_ms = time;
    if (depth !== undefined) e.depth = depth;
    if (withMistakes) {
      const mistake = numberOrRaw(prefix + '-mistake');
      const seed = numberOrRaw(prefix + '-seed');
      if (mistake !== undefined) e.mistake_probability = mistake;
      if (seed !== undefined) e.seed = seed;
    }
    return e;
  }

  function syncPlayerFieldsets() {
    for (const side of ['x', 'o']) {
      const fs = document.querySelector('fieldset.player[data-side="' + side + '"]');
      fs.classList.toggle('is-engine', isEngine(side));
    }
  }

  function engineInfo(name) {
    return S.engines.find((e) => e.name === name);
  }

  function showEngineInfo() {
    const info = engineInfo($('a-engine').value);
    const el = $('engine-info');
    if (!info) {
      el.textContent = '';
      return;
    }
    const unit = info.raw_unit || info.score_unit;
    el.textContent =
      (info.description || '') +
      ' Values: the expected result for the side to move, -1 (loss) to 1 (win).' +
      (typeof unit === 'string' ? ' Raw scores: ' + unit + '.' : '');
  }

  async function loadEngines() {
    let list = [];
    try {
      const data = await api('GET', '/v1/engines');
      const raw = Array.isArray(data) ? data : data.engines || [];
      if (data && typeof data.default === 'string') S.defaultEngine = data.default;
      list = raw
        .map((e) => (typeof e === 'string' ? { name: e } : e))
        .filter((e) => e && typeof e.name === 'string');
    } catch (e) {
      showError(e, 'Could not list the engines');
    }
    if (list.length === 0) list = [{ name: 'auto', description: '' }];
    S.engines = list;
    for (const sel of document.querySelectorAll('select.engine-select')) {
      const keep = sel.value;
      sel.replaceChildren();
      for (const e of list) {
        const opt = document.createElement('option');
        opt.value = e.name;
        opt.textContent = e.name;
        const params = Array.isArray(e.parameters) ? ' Reads: ' + e.parameters.join(', ') + '.' : '';
        if (e.description) opt.title = e.description + params;
        sel.append(opt);
      }
      const preferred = S.defaultEngine || (list.some((e) => e.name === 'auto') ? 'auto' : list[0].name);
      const want = keep || preferred;
      if (list.some((e) => e.name === want)) sel.value = want;
    }
    showEngineInfo();
  }

  // ---------------------------------------------------------------- the game

  function positionBody() {
    return { rules: S.rules, board: S.board, to_move: S.toMove };
  }

  function other(side) {
    return side === 'x' ? 'o' : 'x';
  }

  // The server's answer about a position, whatever optional fields it carries.
  function readState(resp) {
    const status = String(resp.status || 'in_progress');
    let winner = resp.winner || null;
    if (!winner) {
      const m = /^([xo])_(wins|won)$/.exec(status);
      if (m) winner = m[1];
    }
    let line = resp.winning_line || resp.line || null;
    if (line && !Array.isArray(line) && Array.isArray(line.cells)) line = line.cells;
    const over = resp.over === true || !/progress|ongoing|playing/.test(status);
    return { status, winner, line: Array.isArray(line) ? line : null, over };
  }

  function snapshot() {
    return {
      rules: S.rules,
      board: S.board,
      toMove: S.toMove,
      state: S.state,
      lastMove: S.lastMove,
      lastEngine: S.lastEngine,
    };
  }

  function newPosition() {
    S.gen += 1;
    S.analysis = null;
    S.analyzing = null;
    S.hint = null;
    S.thinking = null;
  }

  async function newGame() {
    clearMessage();
    const rules = readRules();
    newPosition();
    const gen = S.gen;
    setStatus('Starting a new game…', 'starting');
    try {
      const st = await api('POST', '/v1/state', { rules, to_move: 'x' });
      if (gen !== S.gen) return;
      S.rules = rules;
      S.board = Array.isArray(st.board) ? st.board : null;
      if (!S.board) throw new ApiError(200, 'bad_response', '/v1/state answered without a board');
      S.toMove = st.to_move || 'x';
      S.state = readState(st);
      S.history = [];
      S.lastMove = null;
      S.lastEngine = null;
      S.paused = false;
      S.piece = 'mark';
      S.game = true;
      advance();
    } catch (e) {
      if (gen !== S.gen) return;
      showError(e, 'Could not start the game' + (S.game ? ' (the current game goes on)' : ''));
      advance();
    }
  }

  // After every change of position: draw, then let the engine move or analyse for the human.
  function advance() {
    render();
    if (!S.game || S.state.over) return;
    if (isEngine(S.toMove)) {
      if (!S.paused) engineTurn();
    } else if (S.showScores) {
      analyze().catch(() => {});
    }
  }

  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

  async function engineTurn() {
    const gen = S.gen;
    const side = S.toMove;
    const engine = engineConfig(side, true);
    S.thinking = side;
    render();
    try {
      if (bothEngines()) await sleep(350);
      if (gen !== S.gen) return;
      const resp = await api('POST', '/v1/suggest', { ...positionBody(), engine });
      if (gen !== S.gen) return;
      S.analysis = { gen, resp, engine: engine.name, side };
      render();
      const mv = resp.move;
      if (!mv) throw new ApiError(200, 'bad_response', '/v1/suggest answered without a move');
      const move = { row: mv.row, col: mv.col, piece: mv.piece || 'mark' };
      // One call per engine turn: the suggestion's `after` is the position after its move.
      if (resp.after && Array.isArray(resp.after.board)) {
        enterPosition(snapshot(), resp.after, readState(resp.after), move, { side, resp });
        return;
      }
      const played = await playMove(move, gen, { side, resp });
      if (!played) return;
    } catch (e) {
      if (gen !== S.gen) return;
      S.thinking = null;
      showError(e, side + ' (' + engine.name + ') could not move');
      render();
    }
  }

  // Sends one move to the server; on success the answer becomes the current position.
  async function playMove(move, gen, engineMove) {
    const before = snapshot();
    const resp = await api('POST', '/v1/play', { ...positionBody(), move });
    if (gen !== S.gen) return false;
    let state = readState(resp);
    const rules = { ...S.rules };
    if (resp.rules && resp.rules.pieces) rules.pieces = resp.rules.pieces;
    else if (resp.pieces) rules.pieces = resp.pieces;
    const board = resp.board;
    const toMove = resp.to_move || other(S.toMove);
    if (state.over && state.winner && !state.line) {
      // The play answer did not carry the winning line: ask for the state of the new position.
      const st = await api('POST', '/v1/state', { rules, board, to_move: toMove });
      if (gen !== S.gen) return false;
      state = readState(st);
    }
    enterPosition(before, { rules, board, to_move: toMove }, state, move, engineMove);
    return true;
  }

  // Makes `position` (rules, board, to_move, as /v1/play and a suggestion's `after` give
  // them) the current one, `before` the last step of the history.
  function enterPosition(before, position, state, move, engineMove) {
    S.history.push(before);
    S.rules = { ...S.rules, pieces: (position.rules && position.rules.pieces) || S.rules.pieces };
    S.board = position.board;
    S.toMove = position.to_move || other(S.toMove);
    S.state = state;
    S.lastMove = move;
    if (engineMove) S.lastEngine = engineMove;
    const hand = S.rules.pieces && S.rules.pieces[S.toMove];
    if (S.piece !== 'mark' && !(hand && hand[S.piece] > 0)) S.piece = 'mark';
    newPosition();
    advance();
  }

  async function onCellClick(row, col) {
    if (!S.game) return;
    if (S.state.over) {
      showNote('The game is over: press Undo or New game.');
      return;
    }
    if (isEngine(S.toMove)) {
      showNote('Wait: ' + S.toMove + ' is played by the engine.');
      return;
    }
    if (S.pending) return;
    clearMessage();
    S.pending = true;
    const gen = S.gen;
    try {
      await playMove({ row, col, piece: S.piece }, gen, null);
    } catch (e) {
      if (gen === S.gen) showError(e, 'Your move was refused');
    } finally {
      S.pending = false;
    }
  }

  // Asks the analysis engine about the current position (for the heat map and the hint).
  function analyze() {
    const gen = S.gen;
    if (S.analysis && S.analysis.gen === gen) return Promise.resolve(S.analysis.resp);
    if (S.analyzing && S.analyzing.gen === gen) return S.analyzing.promise;
    const engine = engineConfig('a', false);
    const promise = api('POST', '/v1/suggest', { ...positionBody(), engine }).then(
      (resp) => {
        if (gen === S.gen) {
          S.analysis = { gen, resp, engine: engine.name, side: S.toMove };
          S.analyzing = null;
          render();
        }
        return resp;
      },
      (err) => {
        if (gen === S.gen) {
          S.analyzing = null;
          showError(err, 'The analysis (' + engine.name + ') failed');
          render();
        }
        throw err;
      },
    );
    S.analyzing = { gen, promise };
    render();
    return promise;
  }

  function hint() {
    if (!S.game) return;
    if (S.state.over) {
      showNote('The game is over: there is nothing to hint.');
      return;
    }
    if (isEngine(S.toMove)) {
      showNote('A hint is for a human player’s turn.');
      return;
    }
    clearMessage();
    const gen = S.gen;
    analyze().then(
      (resp) => {
        if (gen !== S.gen || !resp.move) return;
        S.hint = { gen, move: resp.move };
        render();
      },
      () => {},
    );
  }

  function toggleScores() {
    S.showScores = !S.showScores;
    if (S.showScores && S.game && !S.state.over && !isEngine(S.toMove)) {
      analyze().catch(() => {});
    }
    render();
  }

  function undo() {
    if (!S.game || S.history.length === 0) {
      showNote('Nothing to undo.');
      return;
    }
    clearMessage();
    let snap = S.history.pop();
    // Go back to the last position where a human was to move, so the engine does
    // not simply answer again.
    if (!bothEngines()) {
      while (S.history.length > 0 && isEngine(snap.toMove)) snap = S.history.pop();
    } else {
      S.paused = true;
    }
    S.rules = snap.rules;
    S.board = snap.board;
    S.toMove = snap.toMove;
    S.state = snap.state;
    S.lastMove = snap.lastMove;
    S.lastEngine = snap.lastEngine;
    S.piece = 'mark';
    newPosition();
    advance();
  }

  function togglePause() {
    S.paused = !S.paused;
    newPosition();
    advance();
  }

  // ---------------------------------------------------------------- drawing

  function setStatus(text, state) {
    const el = $('status');
    el.textContent = text;
    el.dataset.state = state;
  }

  function sideLabel(side) {
    return isEngine(side) ? side + ' (' + $(side + '-engine').value + ')' : side + ' (you)';
  }

  function renderStatus() {
    if (!S.game) return;
    const el = $('status');
    el.dataset.winner = S.state.winner || '';
    el.dataset.toMove = S.toMove;
    if (S.state.over) {
      if (S.state.winner) {
        const human = !isEngine(S.state.winner);
        setStatus(
          sideLabel(S.state.winner) + ' wins' + (human && !bothEngines() ? ' — well played!' : '.'),
          S.state.winner + '_wins',
        );
      } else {
        setStatus('Draw: nobody can move and nobody has won.', 'draw');
      }
      return;
    }
    if (S.thinking) {
      setStatus(sideLabel(S.thinking) + ' is thinking…', 'thinking');
    } else if (isEngine(S.toMove)) {
      setStatus(
        sideLabel(S.toMove) + ' to move' + (S.paused ? ' — paused (press Resume).' : '.'),
        S.paused ? 'paused' : 'engine_to_move',
      );
    } else {
      const what = S.piece === 'mark' ? 'click a cell' : 'click where your ' + S.piece + ' goes';
      setStatus(S.toMove + ' to move — your turn: ' + what + '.', 'human_to_move');
    }
  }

  function fmtScore(v) {
    if (typeof v !== 'number' || !Number.isFinite(v)) return String(v);
    const a = Math.abs(v);
    if (a >= 1e6) return (v / 1e6).toPrecision(2).replace(/\.0+$/, '') + 'M';
    if (a >= 1e4) return Math.round(v / 1e3) + 'k';
    if (Number.isInteger(v)) return String(v);
    if (a >= 100) return String(Math.round(v));
    if (a >= 1) return v.toFixed(1).replace(/\.0$/, '');
    return v.toFixed(2).replace(/0$/, '').replace(/^(-?)0\./, '$1.');
  }

  function outcomeLabel(mv) {
    if (!mv || !mv.outcome || mv.outcome === 'unknown') return null;
    const letter = { win: 'W', draw: 'D', loss: 'L' }[mv.outcome];
    if (!letter) return null;
    const plies = mv.plies === null || mv.plies === undefined ? '' : String(mv.plies);
    return { short: letter + (letter === 'D' ? '' : plies), cls: mv.outcome, plies };
  }

  function outcomeWords(mv) {
    if (!mv || !mv.outcome) return '';
    if (mv.outcome === 'unknown') return 'not proven';
    const n = mv.plies;
    const plies = n === null || n === undefined ? '' : ' in ' + n + (n === 1 ? ' ply' : ' plies');
    return mv.outcome + plies;
  }

  function cellName(mv) {
    return '(' + mv.row + ',' + mv.col + ')' + (mv.piece && mv.piece !== 'mark' ? ' ' + mv.piece : '');
  }

  function currentAnalysis() {
    return S.analysis && S.analysis.gen === S.gen ? S.analysis : null;
  }

  // Values lie in [-1, 1]; a sign-preserving logarithmic scale keeps them in order
  // (and would keep any wider unit readable too).
  const squash = (v) => Math.sign(v) * Math.log1p(Math.abs(v));

  // The heat map's colour for a score between lo and hi (green best, red worst).
  function heatColour(v, lo, hi) {
    const [a, b, x] = [squash(lo), squash(hi), squash(v)];
    const t = b > a ? (x - a) / (b - a) : 0.5;
    return 'hsl(' + Math.round(t * 120) + ' 70% 78%)';
  }

  const OUTCOME_COLOUR = { win: 'hsl(120 60% 72%)', draw: 'hsl(50 85% 78%)', loss: 'hsl(0 70% 80%)' };

  function renderBoard() {
    const boardEl = $('board');
    if (!S.game) return;
    const n = S.board.length;
    const m = n > 0 ? S.board[0].length : 0;
    boardEl.style.setProperty('--m', m);
    boardEl.style.setProperty('--n', n);
    boardEl.dataset.m = m;
    boardEl.dataset.n = n;
    boardEl.classList.toggle('has-scores', S.showScores);

    const a = S.showScores ? currentAnalysis() : null;
    const scores = a && Array.isArray(a.resp.scores) ? a.resp.scores : null;
    // The best evaluated move per cell (moves come best first) and all moves per cell.
    const bestAt = new Map();
    const allAt = new Map();
    if (a && Array.isArray(a.resp.moves)) {
      for (const mv of a.resp.moves) {
        const key = mv.row + ',' + mv.col;
        if (!bestAt.has(key)) bestAt.set(key, mv);
        if (!allAt.has(key)) allAt.set(key, []);
        allAt.get(key).push(mv);
      }
    }
    let lo = Infinity;
    let hi = -Infinity;
    if (scores) {
      for (const row of scores) {
        for (const v of row || []) {
          if (typeof v === 'number') {
            lo = Math.min(lo, v);
            hi = Math.max(hi, v);
          }
        }
      }
    }
    const line = new Set((S.state.line || []).map((c) => c.row + ',' + c.col));
    const best = a && a.resp.move ? a.resp.move : null;
    const hintMove = S.hint && S.hint.gen === S.gen ? S.hint.move : null;

    const frag = document.createDocumentFragment();
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < m; c++) {
        const ch = S.board[r][c];
        const key = r + ',' + c;
        const cell = document.createElement('button');
        cell.type = 'button';
        cell.className = 'cell';
        cell.dataset.row = r;
        cell.dataset.col = c;
        const words = [];
        if (ch === 'x' || ch === 'o') {
          cell.classList.add(ch);
          const mk = document.createElement('span');
          mk.className = 'mark';
          mk.textContent = ch;
          cell.append(mk);
          words.push(ch);
        } else if (ch === '#') {
          cell.classList.add('block');
          words.push('block');
        } else {
          cell.classList.add('empty');
          words.push('empty');
        }
        const v = scores && scores[r] ? scores[r][c] : null;
        const mv = bestAt.get(key);
        const oc = outcomeLabel(mv);
        if (typeof v === 'number') {
          const sc = document.createElement('span');
          sc.className = 'score';
          sc.textContent = fmtScore(v);
          cell.append(sc);
          cell.style.setProperty('--heat', oc ? OUTCOME_COLOUR[oc.cls] : heatColour(v, lo, hi));
          cell.classList.add('heat');
          words.push('value ' + v);
        }
        if (oc) {
          const ol = document.createElement('span');
          ol.className = 'outcome ' + oc.cls;
          ol.textContent = oc.short;
          cell.append(ol);
        }
        if (mv && mv.piece && mv.piece !== 'mark') {
          const pc = document.createElement('span');
          pc.className = 'via';
          pc.textContent = mv.piece;
          cell.append(pc);
        }
        const moves = allAt.get(key) || [];
        for (const x of moves) {
          words.push(
            (x.piece || 'mark') +
              ': ' +
              (typeof x.value === 'number' ? fmtScore(x.value) : '–') +
              (x.outcome && x.outcome !== 'unknown' ? ', ' + outcomeWords(x) : '') +
              (x.action ? ', ' + x.action : ''),
          );
        }
        if (S.lastMove && S.lastMove.row === r && S.lastMove.col === c) {
          cell.classList.add('last');
          words.push('last move');
        }
        if (line.has(key)) {
          cell.classList.add('win');
          words.push('winning line');
        }
        if (best && best.row === r && best.col === c) {
          cell.classList.add('best');
          words.push('best move (hover: principal variation)');
        }
        if (hintMove && hintMove.row === r && hintMove.col === c) {
          cell.classList.add('hint');
          words.push('hint');
        }
        const label = 'row ' + r + ', col ' + c + ': ' + words.join('; ');
        cell.title = label;
        cell.setAttribute('aria-label', label);
        frag.append(cell);
      }
    }
    boardEl.replaceChildren(frag);
  }

  // The principal variation drawn as numbers on the board (while hovering the best move).
  function showPv(on) {
    for (const el of document.querySelectorAll('.cell.pv')) {
      el.classList.remove('pv', 'pv-x', 'pv-o');
      delete el.dataset.pv;
    }
    const a = currentAnalysis();
    if (!on || !a || !Array.isArray(a.resp.pv)) return;
    let side = S.toMove;
    a.resp.pv.forEach((mv, i) => {
      const el = document.querySelector('.cell[data-row="' + mv.row + '"][data-col="' + mv.col + '"]');
      if (el) {
        el.classList.add('pv', 'pv-' + side);
        el.dataset.pv = el.dataset.pv ? el.dataset.pv + ',' + (i + 1) : String(i + 1);
      }
      side = other(side);
    });
  }

  function renderPieces() {
    const box = $('pieces');
    const hand = S.game && S.rules && S.rules.pieces ? S.rules.pieces[S.toMove] : null;
    const human = S.game && !S.state.over && !isEngine(S.toMove);
    const any = hand && (hand.block > 0 || hand.remove > 0 || hand.bomb > 0);
    const heldByAnyone =
      S.game &&
      S.rules &&
      S.rules.pieces &&
      ['x', 'o'].some((p) => {
        const h = S.rules.pieces[p] || {};
        return h.block > 0 || h.remove > 0 || h.bomb > 0;
      });
    box.hidden = !heldByAnyone;
    if (!heldByAnyone) return;
    const wrap = $('piece-choices');
    wrap.replaceChildren();
    PIECES.forEach((piece, i) => {
      const count = piece === 'mark' ? null : hand ? hand[piece] || 0 : 0;
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'piece';
      b.dataset.piece = piece;
      b.textContent = piece + (count === null ? '' : ' ×' + count);
      b.title = 'Play a ' + piece + ' (key ' + (i + 1) + ')';
      b.setAttribute('aria-pressed', String(S.piece === piece));
      b.disabled = !human || (count !== null && count <= 0) || (piece !== 'mark' && !any);
      b.addEventListener('click', () => choosePiece(piece));
      wrap.append(b);
    });
    const who = document.createElement('span');
    who.className = 'hands-now';
    const h = (p) => {
      const x = S.rules.pieces[p] || {};
      return p + ': ' + (x.block || 0) + ' block, ' + (x.remove || 0) + ' remove, ' + (x.bomb || 0) + ' bomb';
    };
    who.textContent = 'Held — ' + h('x') + ' · ' + h('o');
    wrap.append(who);
  }

  function choosePiece(piece) {
    if (!S.game || S.state.over || isEngine(S.toMove)) return;
    const hand = S.rules.pieces[S.toMove] || {};
    if (piece !== 'mark' && !(hand[piece] > 0)) {
      showNote(S.toMove + ' holds no ' + piece + '.');
      return;
    }
    S.piece = piece;
    render();
  }

  function statsText(resp) {
    const st = resp.stats || {};
    const parts = [];
    if (st.nodes !== undefined) parts.push(Number(st.nodes).toLocaleString('en') + ' nodes');
    if (st.depth !== undefined && st.depth !== null) parts.push('depth ' + st.depth);
    if (st.elapsed_ms !== undefined) parts.push(Number(st.elapsed_ms).toFixed(1) + ' ms');
    if (st.seed !== undefined) parts.push('seed ' + st.seed);
    if (st.complete !== undefined) parts.push(st.complete ? 'complete' : 'stopped by the budget');
    return parts.join(' · ');
  }

  function evalText(resp) {
    const ev = resp.evaluation || {};
    const parts = [];
    if (ev.outcome && ev.outcome !== 'unknown') parts.push(outcomeWords(ev));
    if (typeof ev.value === 'number') parts.push('value ' + fmtScore(ev.value));
    return parts.join(', ');
  }

  function renderAnalysis() {
    const box = $('analysis');
    box.replaceChildren();
    if (!S.game) return;
    const a = currentAnalysis();
    if (S.analyzing && S.analyzing.gen === S.gen && !a) {
      const p = document.createElement('p');
      p.textContent = 'Analysing with ' + $('a-engine').value + '…';
      box.append(p);
    }
    if (a) {
      const r = a.resp;
      const p = document.createElement('p');
      p.className = 'analysis-main';
      const who = r.to_move || a.side;
      p.textContent =
        (r.engine || a.engine) +
        ' for ' +
        who +
        ': best ' +
        (r.move ? cellName(r.move) : '–') +
        (evalText(r) ? ' — ' + evalText(r) : '') +
        '. ' +
        statsText(r);
      box.append(p);
      if (Array.isArray(r.pv) && r.pv.length > 0) {
        const pv = document.createElement('p');
        pv.className = 'pv-line';
        pv.tabIndex = 0;
        pv.title = 'Hover (or tap) to draw the principal variation on the board';
        let side = S.toMove;
        pv.textContent =
          'Principal variation: ' +
          r.pv
            .map((mv) => {
              const s = side + cellName(mv);
              side = other(side);
              return s;
            })
            .join(' ');
        pv.addEventListener('mouseenter', () => showPv(true));
        pv.addEventListener('mouseleave', () => showPv(false));
        pv.addEventListener('focus', () => showPv(true));
        pv.addEventListener('blur', () => showPv(false));
        box.append(pv);
      }
    }
    if (S.lastEngine) {
      const r = S.lastEngine.resp;
      const p = document.createElement('p');
      p.className = 'analysis-last';
      p.textContent =
        S.lastEngine.side +
        ' (' +
        (r.engine || '?') +
        ') played ' +
        (r.move ? cellName(r.move) : '–') +
        (evalText(r) ? ' — ' + evalText(r) : '') +
        '. ' +
        statsText(r);
      box.append(p);
    }
  }

  function renderButtons() {
    $('btn-scores').setAttribute('aria-pressed', String(S.showScores));
    $('btn-undo').disabled = !S.game || S.history.length === 0;
    $('btn-hint').disabled = !S.game || S.state.over || isEngine(S.toMove);
    const pause = $('btn-pause');
    pause.hidden = !bothEngines() || !S.game || S.state.over;
    pause.textContent = S.paused ? 'Resume' : 'Pause';
  }

  function render() {
    syncPlayerFieldsets();
    renderStatus();
    renderBoard();
    renderPieces();
    renderAnalysis();
    renderButtons();
  }

  // ---------------------------------------------------------------- wiring

  function wire() {
    const board = $('board');
    board.addEventListener('click', (ev) => {
      const cell = ev.target.closest('.cell');
      if (cell) onCellClick(Number(cell.dataset.row), Number(cell.dataset.col));
    });
    board.addEventListener('mouseover', (ev) => {
      const cell = ev.target.closest('.cell');
      showPv(!!cell && (cell.classList.contains('best') || cell.classList.contains('hint')));
    });
    board.addEventListener('mouseleave', () => showPv(false));

    $('btn-hint').addEventListener('click', hint);
    $('btn-scores').addEventListener('click', toggleScores);
    $('btn-undo').addEventListener('click', undo);
    $('btn-new').addEventListener('click', newGame);
    $('btn-pause').addEventListener('click', togglePause);
    $('settings').addEventListener('submit', (ev) => {
      ev.preventDefault();
      newGame();
    });
    $('preset').addEventListener('change', () => {
      applyPreset($('preset').value);
      if ($('preset').value !== 'custom') newGame();
    });
    for (const id of ['rule-m', 'rule-n', 'rule-k', 'rule-overline', 'x-block', 'x-remove', 'x-bomb', 'o-block', 'o-remove', 'o-bomb']) {
      $(id).addEventListener('input', () => {
        $('preset').value = 'custom';
      });
    }
    // Who plays, and the engines' settings, apply at once (the rules wait for a new game).
    for (const id of ['x-who', 'o-who']) {
      $(id).addEventListener('change', () => {
        S.paused = false;
        newPosition();
        advance();
      });
    }
    $('a-engine').addEventListener('change', () => {
      showEngineInfo();
      newPosition();
      advance();
    });

    document.addEventListener('keydown', (ev) => {
      if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
      const t = ev.target;
      if (t && (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA')) return;
      const key = ev.key.toLowerCase();
      if (key === 'h') hint();
      else if (key === 't') toggleScores();
      else if (key === 'u') undo();
      else if (key >= '1' && key <= '4') choosePiece(PIECES[Number(key) - 1]);
      else return;
      ev.preventDefault();
    });
  }

  async function start() {
    wire();
    applyPreset($('preset').value);
    syncPlayerFieldsets();
    await loadEngines();
    await newGame();
  }

  start();
})();
