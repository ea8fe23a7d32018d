// Talking to the kinrow HTTP API: JSON requests, the Server-Sent Events stream of
// POST /v1/analyse (read with fetch and a stream reader, since EventSource cannot POST),
// and the error shape every route answers with.

export class ApiError extends Error {
  constructor(status, code, message, field, retryAfter) {
    super(message);
    this.status = status;
    this.code = code;
    this.field = field || null;
    this.retryAfter = retryAfter || null;
  }

  // True when the server does not offer the route or the feature (an older server):
  // the page then hides the feature instead of showing an error.
  get unsupported() {
    return this.status === 404 || this.status === 405 || this.status === 400;
  }
}

async function send(method, path, body, signal) {
  try {
    return await fetch(path, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (e) {
    if (e && e.name === 'AbortError') throw e;
    throw new ApiError(0, 'network', String(e && e.message ? e.message : e));
  }
}

// A 503 (every search slot busy, or a search that completed nothing in time on a loaded
// server) is asked again after its Retry-After, at most twice and at most 3 s each, while
// the page still wants the answer: every request is a pure function of its body, so
// asking again changes nothing else. The third 503 is the caller's, with its message.
async function sendAgainWhenBusy(method, path, body, signal) {
  for (let tries = 0; ; tries += 1) {
    const res = await send(method, path, body, signal);
    if (res.status !== 503 || tries >= 2) return res;
    const seconds = Math.min(3, Math.max(0.2, Number(res.headers.get('retry-after')) || 1));
    await new Promise((resolve, reject) => {
      const timer = setTimeout(resolve, seconds * 1000);
      if (signal) {
        signal.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(new DOMException('the request was aborted', 'AbortError'));
        }, { once: true });
      }
    });
  }
}

async function failure(res) {
  const text = await res.text();
  let err = {};
  try {
    err = (JSON.parse(text) || {}).error || {};
  } catch (_) {
    err = {};
  }
  return new ApiError(
    res.status,
    err.code || 'http_' + res.status,
    err.message || text.slice(0, 300) || res.statusText || 'no message',
    err.field,
    res.headers.get('retry-after'),
  );
}

// One JSON request; resolves to the parsed answer, rejects with an ApiError.
export async function api(method, path, body, signal) {
  const res = await sendAgainWhenBusy(method, path, body, signal);
  if (!res.ok) throw await failure(res);
  const text = await res.text();
  try {
    return JSON.parse(text);
  } catch (_) {
    throw new ApiError(res.status, 'bad_response', 'the answer to ' + path + ' is not JSON');
  }
}

// POST with a text/event-stream answer: calls onEvent(name, data) for every event as it
// arrives and resolves when the stream ends. Aborting `signal` disconnects, which stops
// the server's search.
export async function stream(path, body, onEvent, signal) {
  const res = await sendAgainWhenBusy('POST', path, body, signal);
  if (!res.ok) throw await failure(res);
  const type = res.headers.get('content-type') || '';
  if (!type.startsWith('text/event-stream') || !res.body) {
    throw new ApiError(404, 'not_a_stream', path + ' did not answer with an event stream');
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value.replace(/\r\n?/g, '\n');
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      dispatch(buffer.slice(0, end), onEvent);
      buffer = buffer.slice(end + 2);
    }
  }
  if (buffer.trim()) dispatch(buffer, onEvent);
}

// One event block: `event: NAME` and `data: ...` lines (several data lines join with \n).
function dispatch(block, onEvent) {
  let name = 'message';
  const data = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') name = value;
    else if (field === 'data') data.push(value);
  }
  if (data.length === 0) return;
  let parsed;
  try {
    parsed = JSON.parse(data.join('\n'));
  } catch (_) {
    return;
  }
  onEvent(name, parsed);
}

const PLAIN = {
  invalid_json: 'the request was not valid JSON',
  invalid_request: 'the request has the wrong shape',
  invalid_board: 'the board is not valid',
  invalid_rules: 'these rules are not possible',
  inconsistent_turn: 'the side to move does not fit the board',
  game_over: 'the game is already over',
  illegal_move: 'that move is not allowed',
  forbidden_move: 'that move is forbidden for x',
  unknown_engine: 'there is no such engine',
  invalid_limits: 'the engine settings are out of range',
  network: 'the server cannot be reached',
  bad_response: 'the server answered with something unexpected',
};

// A sentence for the person: what went wrong, the server's own words, and the code.
export function describeError(err) {
  if (!(err instanceof ApiError)) return { head: 'Something went wrong', text: String(err), tag: '' };
  let head = PLAIN[err.code] || 'the server refused the request';
  if (err.status === 503) {
    head = 'the server is busy' + (err.retryAfter ? '; try again in ' + err.retryAfter + ' s' : '');
  } else if (err.status === 413) {
    head = 'the request is too large for the server';
  }
  const text = err.message + (err.field ? ' (field ' + err.field + ')' : '');
  const tag = err.status ? 'HTTP ' + err.status + ', ' + err.code : err.code;
  return { head: head.charAt(0).toUpperCase() + head.slice(1), text, tag };
}
