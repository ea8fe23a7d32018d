// How the page names cells and shows values. Columns are letters (A is col 0), rows are
// the API's own 0-based row numbers, so "H7" is { row: 7, col: 7 } in a request, and the
// coordinates drawn around the board read the same way.

// Column letters: A..Z, then AA, AB, ... (boards go up to 64 columns).
export function colName(c) {
  let s = '';
  let x = c;
  do {
    s = String.fromCharCode(65 + (x % 26)) + s;
    x = Math.floor(x / 26) - 1;
  } while (x >= 0);
  return s;
}

export function cellName(cell) {
  return colName(cell.col) + cell.row;
}

// "H7", or "block H7" for a special piece.
export function moveName(mv) {
  const piece = mv.piece && mv.piece !== 'mark' ? mv.piece + ' ' : '';
  return piece + cellName(mv);
}

export const other = (side) => (side === 'x' ? 'o' : 'x');

// A value in [-1, 1] for the side to move as that side's expected score in percent,
// 1..99 unless proven (a proven result is shown as W/D/L instead).
export function percent(value) {
  return Math.min(99, Math.max(1, Math.round((value + 1) * 50)));
}

// The short label of a move drawn in its cell: `W7` (wins in 7 moves of both sides),
// `D` (a proven draw), `L4` (loses in 4), or the expected score in percent. At most 4
// characters, so that it fits a cell of a 15x15 board.
export function shortLabel(mv) {
  if (!mv || typeof mv.value !== 'number') return '';
  const letter = { win: 'W', draw: 'D', loss: 'L' }[mv.outcome];
  if (!letter) return String(percent(mv.value));
  if (letter === 'D' || mv.plies === null || mv.plies === undefined) return letter;
  return letter + (mv.plies > 99 ? '99+' : String(mv.plies));
}

// The same in words, for the details and the screen readers.
export function valueWords(mv, side) {
  if (!mv || typeof mv.value !== 'number') return 'no value';
  const n = mv.plies;
  const inPlies = n === null || n === undefined ? '' : ' in ' + n + (n === 1 ? ' move' : ' moves (both sides)');
  if (mv.outcome === 'win') return side + ' wins' + inPlies + ' (proven)';
  if (mv.outcome === 'loss') return side + ' loses' + inPlies + ' (proven)';
  if (mv.outcome === 'draw') return 'a draw (proven)';
  return side + ' expects ' + percent(mv.value) + '% (value ' + mv.value.toFixed(2) + ', not proven)';
}

// The heat map's colour: the hue says the value, red (-1, a loss for the side to move)
// through yellow (0) to green (1, a win), on an absolute scale so that colours compare
// across positions; the strength says the rank within this position (`rank` 0 the worst
// cell, 1 the best), so that the best moves stand out even when every move wins.
export function heatColour(value, proven, rank) {
  const t = Math.max(0, Math.min(1, (value + 1) / 2));
  const strength = proven ? 1 : 0.25 + 0.75 * rank;
  const sat = Math.round(30 + 45 * strength);
  const light = Math.round(90 - 16 * strength);
  return 'hsl(' + Math.round(t * 120) + ' ' + sat + '% ' + light + '%)';
}

// A position in the API's request shape, from any answer that carries one.
export function requestShape(pos) {
  const body = { rules: pos.rules, board: pos.board };
  if (pos.to_move) body.to_move = pos.to_move;
  return body;
}
