// The special pieces (block, remove, bomb) a side holds: one button per piece for the
// side to move, pressed for the piece chosen, disabled when it has none left or when it is
// not a person's turn. Hidden when neither side holds any.

export const PIECES = ['mark', 'block', 'remove', 'bomb'];

const $ = (id) => document.getElementById(id);

// `pos`: the position as the server answered it; `chosen`: the piece a click plays;
// `human`: a person is to move; `choose(piece)`: called when a piece button is pressed.
export function renderPieceChoices(pos, chosen, human, choose) {
  const held = (side) => {
    const h = (pos.rules.pieces && pos.rules.pieces[side]) || {};
    return (h.block || 0) + (h.remove || 0) + (h.bomb || 0);
  };
  const box = $('pieces');
  box.hidden = held('x') + held('o') === 0;
  if (box.hidden) return;
  const hand = pos.rules.pieces[pos.to_move] || {};
  const buttons = PIECES.map((piece, i) => {
    const count = piece === 'mark' ? null : hand[piece] || 0;
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'piece';
    b.dataset.piece = piece;
    b.textContent = piece + (count === null ? '' : ' ×' + count);
    b.title = 'Play a ' + piece + ' (key ' + (i + 1) + ')';
    b.setAttribute('aria-pressed', String(chosen === piece));
    b.disabled = !human || (count !== null && count <= 0);
    b.addEventListener('click', () => choose(piece));
    return b;
  });
  const h = (side) => {
    const x = pos.rules.pieces[side] || {};
    return side + ' holds ' + (x.block || 0) + ' block, ' + (x.remove || 0) + ' remove, ' + (x.bomb || 0) + ' bomb';
  };
  const note = document.createElement('span');
  note.className = 'hint-text';
  note.textContent = h('x') + ' · ' + h('o');
  $('piece-choices').replaceChildren(...buttons, note);
}
