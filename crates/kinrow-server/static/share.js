// "Copy link", "Copy position as JSON" and "Copy as curl": the text goes to the clipboard
// and into a box below the buttons, where it can be read and copied by hand too.

import { requestShape } from './notation.js';
import { analysisEngine, shareLink } from './settings.js';

const $ = (id) => document.getElementById(id);

async function copy(text, what, showMsg) {
  const area = $('share-text');
  area.value = text;
  area.hidden = false;
  area.select();
  let copied = false;
  try {
    await navigator.clipboard.writeText(text);
    copied = true;
  } catch (_) {
    copied = document.execCommand && document.execCommand('copy');
  }
  showMsg('share-msg', copied ? what + ' copied.' : 'Copy ' + what.toLowerCase() + ' from the box below.', 'note');
}

// Wires the three buttons; `position()` is the current position, `inOpening()` true while
// a swap opening's decisions are due (the curl command then asks /v1/opening, since the
// game endpoints refuse the position until the opening is done).
export function wireSharing(position, showMsg, game, inOpening) {
  const body = () => ({ ...requestShape(position()), engine: analysisEngine() });
  const curl = () => {
    const json = JSON.stringify(body()).replace(/'/g, "'\\''");
    const path = inOpening() ? '/v1/opening' : '/v1/suggest';
    return 'curl -s ' + location.origin + path + " -H 'Content-Type: application/json' -d '" + json + "'";
  };
  $('btn-link').addEventListener('click', () => copy(shareLink(position(), game()), 'The link', showMsg));
  $('btn-json').addEventListener('click', () => copy(JSON.stringify(body(), null, 2), 'The position', showMsg));
  $('btn-curl').addEventListener('click', () => copy(curl(), 'The curl command', showMsg));
}
