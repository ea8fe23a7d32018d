#!/usr/bin/env python3
"""Reference scores of every column of random 7x6 Connect Four positions, from BitBully
(PyPI `bitbully`, MIT licence: an independent solver with its own opening book), for
`crates/kinrow-engine/tests/engine/gravity_labels.rs` and `kinrow connect --positions FILE
--columns`.

    python3 -m venv /tmp/bbv && /tmp/bbv/bin/pip install bitbully==0.0.79
    /tmp/bbv/bin/python scripts/connect4-reference.py SEED COUNT MIN_STONES MAX_STONES > FILE

Each line: the moves as 1-based column digits, then the score of each column in the
published benchmarks' unit (the winner's stones left after its winning one, plus one;
positive when the side to move wins by playing there; 0 a draw; `-` a full column).
Games that someone won before the end are drawn again; a draw of 0 stones (the empty
board, which has no move digits) counts but is not written.
"""
import random
import sys

import bitbully as bb

seed, count, lo, hi = map(int, sys.argv[1:5])
rng = random.Random(seed)
agent = bb.BitBully()
n = 0
while n < count:
    stones = rng.randint(lo, hi)
    moves = ""
    board = bb.Board()
    won = False
    for _ in range(stones):
        c = rng.choice([c for c in range(7) if board.is_legal_move(c)])
        board.play(c)
        moves += str(c + 1)
        if board.has_win():
            won = True
            break
    if won or board.is_game_over():
        continue
    n += 1
    if not moves:
        continue
    scores = agent.score_all_moves(board)
    print(moves, " ".join(str(scores[c]) if c in scores else "-" for c in range(7)), flush=True)
