// The page's messages: each shows next to the control it is about, in words for the
// player, with the error's code folded away in a details line for whoever reports it.

import { ApiError, describeError } from './api.js';

const $ = (id) => document.getElementById(id);

// Shows a message in the box next to the control it is about, and scrolls it into view.
export function showMsg(id, what, kind) {
  const box = $(id);
  box.classList.remove('error', 'note');
  box.classList.add(kind || 'error');
  box.replaceChildren();
  if (what instanceof Error) {
    const d = describeError(what);
    const strong = document.createElement('strong');
    strong.textContent = d.head + '.';
    // The words for the player; the code for whoever reports it, folded away.
    const details = document.createElement('details');
    details.className = 'error-code';
    const summary = document.createElement('summary');
    summary.textContent = 'Details';
    const code = document.createElement('code');
    code.textContent = d.tag;
    details.append(summary, code);
    box.append(strong, ' ', d.text, details);
  } else {
    box.textContent = what;
  }
  box.hidden = false;
  box.scrollIntoView({ block: 'nearest' });
}

export function clearMsgs() {
  for (const el of document.querySelectorAll('.msg')) el.hidden = true;
  for (const el of document.querySelectorAll('[aria-invalid]')) el.removeAttribute('aria-invalid');
}

// A refused setting: mark the field the server named and explain next to it.
export function settingError(err, fallbackId) {
  const field = err instanceof ApiError ? err.field || '' : '';
  const input = field ? document.querySelector('[name="' + field + '"]') : null;
  if (input) input.setAttribute('aria-invalid', 'true');
  let id = fallbackId;
  if (/^(rules|board|to_move)/.test(field)) id = 'rules-msg';
  showMsg(id, err);
  // Name the field as the form does ("Columns"), not only as the API does ("rules.m").
  const label = input && input.closest('label');
  const words = label ? label.textContent.trim() : '';
  if (words) $(id).prepend(words + ': ');
}

// The engine's refusal of a game whose rules are fine (an external engine plays five in
// a row only): said as the engine's, next to its player, with no rules field marked.
export function engineError(err, id, name) {
  showMsg(id, err);
  const head = $(id).querySelector('strong');
  if (head) head.textContent = 'The engine ' + name + ' cannot play this game (the rules are fine): choose another engine.';
}
