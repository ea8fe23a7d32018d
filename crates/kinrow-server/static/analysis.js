// The analysis engine's view of the current position, for the values on the board, the
// hint and the evaluation bar: the live stream of POST /v1/analyse when the server has
// it (`info` events while the search deepens, then the /v1/suggest answer as `result`),
// else one POST /v1/suggest. `S` is the page's state (app.js).

import { api, ApiError, stream } from './api.js';
import { requestShape } from './notation.js';
import { renderLive } from './panels.js';
import { settingError } from './messages.js';
import * as settings from './settings.js';

const $ = (id) => document.getElementById(id);

// x's point of view of a value for `side`.
export const forX = (side, v) => (typeof v === 'number' ? (side === 'x' ? v : -v) : null);

export function analysisOf(S) {
  return S.analysis && S.analysis.gen === S.gen ? S.analysis.resp : null;
}

// Asks the analysis engine about the current position: the live stream when the server
// has it, else one /v1/suggest.
export function analyseNow(S, render) {
  const gen = S.gen;
  if (analysisOf(S)) return Promise.resolve(analysisOf(S));
  if (S.controller) return S.controller.promise;
  const controller = new AbortController();
  const body = { ...requestShape(S.pos), engine: settings.analysisEngine() };
  const done = (resp) => {
    if (gen !== S.gen) return resp;
    S.analysis = { gen, resp };
    if (resp.evaluation) S.values[S.cursor] = forX(S.pos.to_move, resp.evaluation.value);
    S.controller = null;
    render();
    return resp;
  };
  const viaSuggest = () => api('POST', '/v1/suggest', body, controller.signal).then(done);
  let result = null;
  let infos = 0;
  let failed = null;
  // `info` events while the search deepens; the `result` (the /v1/suggest answer) also
  // fills the panel, so that a search finished before its first report still shows.
  const viaStream = () =>
    stream('/v1/analyse', body, (name, data) => {
      if (gen !== S.gen) return;
      if (name === 'info') {
        infos += 1;
        S.live = { gen, info: data, infos, done: false };
      } else if (name === 'result') {
        result = data;
        S.live = { gen, info: finalInfo(data), infos, done: true };
      } else if (name === 'error') {
        const err = (data && data.error) || {};
        failed = new ApiError(500, err.code || 'internal', err.message || 'the search failed', err.field);
        return;
      } else return;
      showLiveNow(S);
    }, controller.signal).then(() => {
      if (failed) throw failed;
      if (!result) throw new ApiError(200, 'bad_response', '/v1/analyse ended without a result');
      return done(result);
    });
  const first = S.caps.analyse
    ? viaStream().catch((e) => {
      if (!(e instanceof ApiError) || (e.status !== 404 && e.status !== 405)) throw e;
      S.caps.analyse = false;
      $('live').hidden = true;
      return viaSuggest();
    })
    : viaSuggest();
  controller.promise = first.catch((e) => {
    if (gen === S.gen && !(e && e.name === 'AbortError')) {
      S.controller = null;
      settingError(e, 'a-msg');
      render();
    }
    throw e;
  });
  S.controller = controller;
  return controller.promise;
}

// The /v1/suggest answer in the shape of an `info` event (its search's final numbers).
function finalInfo(resp) {
  const st = resp.stats || {};
  const ev = resp.evaluation || {};
  return { depth: st.depth, nodes: st.nodes, elapsed_ms: st.elapsed_ms, move: resp.move, value: ev.value, outcome: ev.outcome, plies: ev.plies, pv: resp.pv, path: st.path };
}

export function showLiveNow(S) {
  const live = S.live;
  const box = $('live');
  box.hidden = false;
  box.dataset.infos = String(live.infos);
  box.dataset.done = String(live.done);
  renderLive(live.info, S.pos.to_move, live.done);
}

