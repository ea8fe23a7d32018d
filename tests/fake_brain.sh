#!/bin/sh
# A fake Gomocup brain for the external-engine tests: it answers START and then, for
# every position (BOARD .. DONE), does what its mode says.
#   talk      MESSAGE lines (depth, eval, best line), then the move 7,7
#   mate      Rapfi's brief lines with a mate (+M7) and a Bestline, then the move 7,7
#   crash     exits without answering
#   crash_once FILE  crashes the first time (creating FILE), talks afterwards
#   hang      never answers (and ignores YXSTOP)
#   garbage   prints a line that is neither a move nor a message
#   illegal   answers 0,0 (the tests put a stone there)
#   silent    never answers START (a hung start-up)
#   die_at_start  exits when asked START (a brain that cannot start)
#   talk_in DIR   talks, after recording its process id as a file DIR/PID
mode="$1"
if [ "$mode" = talk_in ]; then
  : > "$2/$$"
  mode=talk
fi
# A carriage return, cut from the end of each line without a process per line (a fork
# per line made the brain slow to answer on a loaded test machine).
cr=$(printf '\r')
while IFS= read -r line; do
  line=${line%"$cr"}
  case "$line" in
    START*|RECTSTART*)
      [ "$mode" = die_at_start ] && exit 4
      [ "$mode" = silent ] || echo OK ;;
    DONE)
      case "$mode" in
        talk) ;;
        mate)
          echo "MESSAGE Speed 120K | Depth 9-11 | Eval +M7 | Node 1523 | Time 12ms"
          echo "MESSAGE Bestline H8 J10 G6"
          echo "7,7"
          continue ;;
        crash) exit 3 ;;
        crash_once)
          if [ ! -e "$2" ]; then : > "$2"; exit 3; fi ;;
        hang) while IFS= read -r _; do :; done; exit 0 ;;
        garbage) echo "hello, I am a brain"; continue ;;
        illegal) echo "0,0"; continue ;;
      esac
      echo "MESSAGE Speed 1K | Depth 3-5 | Eval 40 | pv 7,7 8,8"
      echo "MESSAGE Speed 1K | Depth 7-9 | Eval 150 | pv 7,7 9,9 6,6"
      echo "7,7" ;;
    END) exit 0 ;;
  esac
done
