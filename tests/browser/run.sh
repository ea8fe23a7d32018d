#!/usr/bin/env bash
# The demo page's browser test: Debian's chromium driven by playwright-core against a
# real kinrow release server on a free loopback port. Installs what is missing
# (chromium from Debian's packages, playwright-core from npm; never a downloaded
# browser), saves screenshots to target/screenshots/ (the CI artefacts; docs/demo.png is
# 02-gomoku-midgame.png from a run).
#
#   bash tests/browser/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
DIR=$ROOT/tests/browser
SHOTS=$ROOT/target/screenshots
mkdir -p "$SHOTS"

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

if [ ! -x /usr/bin/chromium ]; then
  echo "browser test: installing Debian's chromium"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
if [ ! -f "$DIR/node_modules/playwright-core/package.json" ]; then
  echo "browser test: installing playwright-core (npm ci)"
  (cd "$DIR" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error)
fi

# KINROW_BIN: a kinrow binary already built (CI passes the one `cargo test` built);
# otherwise a release build.
if [ -n "${KINROW_BIN:-}" ]; then
  BIN=$KINROW_BIN
else
  echo "browser test: cargo build --release"
  cargo build --release --bin kinrow
  BIN=$ROOT/target/release/kinrow
fi

PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
BASE_URL=http://127.0.0.1:$PORT
# `brain`: kinrow's own Gomocup engine served as an external engine (docs/external.md).
# The page plays Connect Four at full quality: the book is read at start, and the test
# waits for /readyz (docs/deployment.md, "Ready and healthy").
KINROW_ADDR=127.0.0.1:$PORT KINROW_BOOKS=at-start KINROW_EXTERNAL_ENGINES="brain=$BIN pbrain" \
  "$BIN" >"$SHOTS/server.log" 2>&1 &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true' EXIT

for _ in $(seq 1 600); do
  if curl -fsS "$BASE_URL/readyz" >/dev/null 2>&1; then break; fi
  if ! kill -0 "$SERVER" 2>/dev/null; then
    echo "browser test: the server exited; its log:" >&2
    cat "$SHOTS/server.log" >&2
    exit 1
  fi
  sleep 0.2
done
curl -fsS "$BASE_URL/readyz" >/dev/null || { echo "browser test: $BASE_URL/readyz never said ready" >&2; exit 1; }

echo "browser test: server pid $SERVER on $BASE_URL"

# README's JavaScript turn loop runs as shown: its block saved as turn.mjs (as README
# says), pointed at this server, must print the engine's reply.
awk '/^## A turn loop in JavaScript/{f=1} f&&/^```js/{g=1;next} g&&/^```/{exit} g' README.md \
  | sed "s#http://127.0.0.1:8080#$BASE_URL#" >"$SHOTS/turn.mjs"
TURN=$(timeout 60 node "$SHOTS/turn.mjs")
if ! grep -q "reply: { row:" <<<"$TURN"; then
  echo "browser test: README's turn.mjs did not print a reply: $TURN" >&2
  exit 1
fi
echo "browser test: README's turn.mjs runs as shown"
BASE_URL=$BASE_URL SCREENSHOTS=$SHOTS timeout 300 node "$DIR/page.test.js"
echo "browser test: screenshots in $SHOTS"
