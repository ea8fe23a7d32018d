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
// `D` (a proven draw), `L4` (loses in 4), or the expected score in percent, with `≤`
// before a value that is only an upper bound (`≥` a lower one). At most 4 characters,
// so that it fits a cell of a 15x15 board.
export function shortLabel(mv) {
  if (!mv || typeof mv.value !== 'number') return '';
  const letter = { win: 'W', draw: 'D', loss: 'L' }[mv.outcome];
  if (!letter) return ({ upper: '≤', lower: '≥' }[mv.bound] || '') + String(percent(mv.value));
  if (letter === 'D' || mv.plies === null || mv.plies === undefined) return letter;
  // `plies_bound: "upper"`: the outcome is proven, the distance only bounded (W≤23).
  const within = mv.plies_bound === 'upper' ? '≤' : '';
  return letter + within + (mv.plies > 99 ? '99+' : String(mv.plies));
}

// " in 7 moves (both sides)", or " within at most 7 moves (both sides)" where the budget
// ran out before the distance was pinned (`plies_bound: "upper"`); "" without plies.
function pliesWords(mv) {
  const n = mv.plies;
  if (n === null || n === undefined) return '';
  const unit = n === 1 ? ' move' : ' moves (both sides)';
  return (mv.plies_bound === 'upper' ? ' within at most ' : ' in ') + n + unit;
}

// The same in words, for the details and the screen readers.
export function valueWords(mv, side) {
  if (!mv || typeof mv.value !== 'number') return 'no value';
  const inPlies = pliesWords(mv);
  if (mv.outcome === 'win') return side + ' wins' + inPlies + ' (proven)';
  if (mv.outcome === 'loss') return side + ' loses' + inPlies + ' (proven)';
  if (mv.outcome === 'draw') return 'a draw (proven)';
  const bound = { upper: 'at most ', lower: 'at least ' }[mv.bound] || '';
  return side + ' expects ' + bound + percent(mv.value) + '% (value ' + bound + mv.value.toFixed(2) + ', not proven)';
}

const plies = (d) => d + (d === 1 ? ' ply' : ' plies');

// How well a move's value is known, for the heat map: 'none' (no value), 'proven', 'bound'
// (`bound` upper or lower: a null window's bound, not the value), 'shallow' (searched to
// less than half the depth of the answer's search, `mainDepth`: a quick estimate, most
// often the one-ply pass over every cell) or 'exact'.
export function valueKind(mv, mainDepth) {
  if (!mv || typeof mv.value !== 'number') return 'none';
  if (mv.outcome === 'win' || mv.outcome === 'draw' || mv.outcome === 'loss') return 'proven';
  if (mv.bound === 'upper' || mv.bound === 'lower') return 'bound';
  if (typeof mv.depth === 'number' && typeof mainDepth === 'number' && 2 * mv.depth < mainDepth) return 'shallow';
  return 'exact';
}

// A cell's value explained in a sentence for `side` (to move): what the number is, how
// deep it was searched, and whether it is a proof, a value, a bound or a quick estimate.
export function cellWords(mv, side, mainDepth) {
  const kind = valueKind(mv, mainDepth);
  if (kind === 'none') return 'no value: the engine gave this cell none';
  const inPlies = pliesWords(mv);
  if (kind === 'proven') {
    if (mv.outcome === 'win') return 'proven win' + inPlies + ': ' + side + ' wins here whatever the reply';
    if (mv.outcome === 'loss') return 'proven loss' + inPlies + ': ' + side + ' loses here against best play';
    return 'proven draw: neither side can win after this move';
  }
  const d = typeof mv.depth === 'number' ? mv.depth : null;
  const pct = percent(mv.value) + '%';
  const val = mv.value.toFixed(2);
  if (kind === 'bound' && mv.bound === 'upper') {
    return side + ' gets at most ' + pct + ' here (value at most ' + val + '): a bound'
      + (d ? ' at depth ' + d : '') + ', the main search did not prefer this move (a null-window search refuted it, or a'
      + ' shallower estimate read higher and is shown at the best move\'s value), so only this bound is known, not the value itself';
  }
  if (kind === 'bound') {
    return side + ' gets at least ' + pct + ' here (value at least ' + val + '): a null-window search'
      + (d ? ' at depth ' + d : '') + ' found it at least this good, not its value itself';
  }
  const deep = d ? ', searched ' + plies(d) + ' deep' : '';
  if (kind === 'shallow') {
    return side + ' expects ' + pct + ' here (value ' + val + ')' + deep + ': a quick estimate, the best moves were searched '
      + plies(mainDepth) + ' deep';
  }
  return side + ' expects ' + pct + ' here (value ' + val + ')' + deep;
}

// The heat map's colour: the hue says the value, red (-1, a loss for the side to move)
// through yellow (0) to green (1, a win), on an absolute scale so that colours compare
// across positions. The scale is quiet (pale, greyish) so that the board stays readable;
// the top candidates (`top`) and the proofs are drawn strong, and a quick estimate
// (`kind` 'shallow') paler still.
export function heatColour(value, kind, top) {
  const t = Math.max(0, Math.min(1, (value + 1) / 2));
  const hue = Math.round(t * 120);
  if (top || kind === 'proven') return 'hsl(' + hue + ' 70% 68%)';
  if (kind === 'shallow') return 'hsl(' + hue + ' 28% 93%)';
  return 'hsl(' + hue + ' 40% 85%)';
}

// A position in the API's request shape, from any answer that carries one. Under gravity
// the answer's move sequence goes back too, so that the next answer's `after.moves`
// continues the order the game was played in.
export function requestShape(pos) {
  const body = { rules: pos.rules, board: pos.board };
  if (pos.to_move) body.to_move = pos.to_move;
  if (pos.rules && pos.rules.gravity === true && typeof pos.moves === 'string') body.moves = pos.moves;
  return body;
}
