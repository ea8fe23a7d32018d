#!/usr/bin/env bash
# docs/strength.md's arena table: `auto` against every other engine on 3x3x3, 7x7x4, 9x9x5 and
# 15x15x5 at 100 ms per move, GAMES games per pair (colours alternate; pairs of games
# share a seeded random opening). Prints a Markdown table of auto's score and W-D-L.
#   bash scripts/arena-table.sh                 # GAMES=10 SEED=1 THREADS=2 TIME_MS=100
# Time-limited games are not bit-reproducible: the same seed gives the same openings,
# but the engines' depth depends on the machine's speed.
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES=${GAMES:-10}
SEED=${SEED:-1}
THREADS=${THREADS:-2}
TIME_MS=${TIME_MS:-100}
BOARDS=${BOARDS:-"3,3,3 7,7,4 9,9,5 15,15,5"}
OPPONENTS=${OPPONENTS:-"perfect minimax mcts threat priority greedy"}
cargo build --release --quiet --bin kinrow
BIN=target/release/kinrow
OUT=target/arena
mkdir -p "$OUT"

header="| auto vs |"
rule="| --- |"
for b in $BOARDS; do header="$header ${b//,/x} |"; rule="$rule --- |"; done
echo "$header"
echo "$rule"
for e in $OPPONENTS; do
  row="| $e |"
  for b in $BOARDS; do
    res=$("$BIN" arena --engines "auto,$e" --rules "$b" --games "$GAMES" --time-ms "$TIME_MS" \
      --seed "$SEED" --threads "$THREADS" --out "$OUT/auto_${e}_${b//,/x}.jsonl")
    # "auto: W wins, D draws, L losses; score S%"
    line=$(echo "$res" | grep -m1 '^auto:')
    w=$(echo "$line" | sed -n 's/.* \([0-9]*\) wins.*/\1/p')
    d=$(echo "$line" | sed -n 's/.* \([0-9]*\) draws.*/\1/p')
    l=$(echo "$line" | sed -n 's/.* \([0-9]*\) losses.*/\1/p')
    s=$(echo "$line" | sed -n 's/.*score \([0-9.]*%\).*/\1/p')
    row="$row $s ($w-$d-$l) |"
  done
  echo "$row"
done
