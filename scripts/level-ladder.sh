#!/usr/bin/env bash
# docs/strength.md's level ladder: ENGINE at level L against level L-2 (L = 10..3) and
# `greedy` against level 1, and levels 7 and 1 against the scripted player (`script`, at
# the API's default 1000 ms budget), GAMES games each (colours alternate; pairs share a seeded
# opening), on each board of BOARDS. Every side gets NODES nodes a move (level L < 10 cuts
# that by 4 per level), so the games replay bit for bit whatever the machine's load;
# the 2 s time limit is only a cap. Prints one Markdown table row per board.
#   bash scripts/level-ladder.sh      # ENGINE=auto GAMES=40 NODES=40000 SEED=1 THREADS=1
set -euo pipefail
cd "$(dirname "$0")/.."
ENGINE=${ENGINE:-auto}
GAMES=${GAMES:-40}
NODES=${NODES:-40000}
SEED=${SEED:-1}
THREADS=${THREADS:-1}
BOARDS=${BOARDS:-"7,7,4 9,9,5 15,15,5"}
cargo build --release --quiet --bin kinrow
BIN=target/release/kinrow

score() { # A's score and W-D-L from an arena summary
  sed -nE 's/.*: ([0-9]+) wins, ([0-9]+) draws, ([0-9]+) losses; score ([0-9.]+%).*/\4 (\1-\2-\3)/p'
}

header="| board |"
rule="| --- |"
for a in 10 9 8 7 6 5 4 3; do header="$header $a v $((a - 2)) |"; rule="$rule ---: |"; done
echo "$header greedy v 1 | 7 v script | 1 v script |"
echo "$rule ---: | ---: | ---: |"
for b in $BOARDS; do
  row="| ${b//,/x} |"
  for a in 10 9 8 7 6 5 4 3; do
    spec="$ENGINE:level=$a:nodes=$NODES,$ENGINE:level=$((a - 2)):nodes=$NODES"
    res=$("$BIN" arena --engines "$spec" --rules "$b" --games "$GAMES" --time-ms 2000 \
      --seed "$SEED" --threads "$THREADS" | score)
    row="$row $res |"
  done
  res=$("$BIN" arena --engines "greedy,$ENGINE:level=1:nodes=$NODES" --rules "$b" \
    --games "$GAMES" --time-ms 2000 --seed "$SEED" --threads "$THREADS" | score)
  row="$row $res |"
  for l in 7 1; do
    res=$("$BIN" arena --engines "$ENGINE:level=$l,script" --rules "$b" --games "$GAMES" \
      --time-ms 1000 --seed "$SEED" --threads "$THREADS" | score)
    row="$row $res |"
  done
  echo "$row"
done
