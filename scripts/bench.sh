#!/usr/bin/env bash
# Benchmarks of the engine core (figures only; nothing here asserts a time):
#   1. international perft(11) from the start, one thread (1,665,861,398 leaves);
#   2. search speed from the international start, one thread, 10 s;
#   3. Threads 2 against Threads 1 on the same fixed-depth search: time to depth and nodes/s.
#   4. `bench` (every variant, fixed depth): the node-count signature and nodes/s.
# Usage: scripts/bench.sh [engine binary]   (default ./donjon; `make` first)
set -euo pipefail
engine=${1:-./donjon}
[ -x "$engine" ] || { echo "no engine at $engine: run make first" >&2; exit 1; }

ms() { date +%s%N | cut -c1-13; }
seconds() { printf "%d.%03d" $(( ($2 - $1) / 1000 )) $(( ($2 - $1) % 1000 )); }
field() { tr ' ' '\n' | grep -A1 -x "$1" | tail -1; }

echo "== international perft(11), one thread"
start=$(ms)
nodes=$(printf 'setoption name UCI_Variant value international\ngo perft 11\nquit\n' | "$engine" | grep '^Nodes searched' | awk '{print $3}')
end=$(ms)
echo "perft(11) = $nodes (expected 1665861398) in $(seconds "$start" "$end") s"

echo "== search from the international start, one thread, 10 s"
info=$( (printf 'setoption name UCI_Variant value international\nsetoption name Hash value 256\ngo movetime 10000\n'; sleep 11; echo quit) | "$engine" | grep '^info depth' | tail -1)
echo "$info" | cut -c1-120
echo "nodes/s: $(echo "$info" | field nps)   depth: $(echo "$info" | field depth)"

depth=${THREAD_BENCH_DEPTH:-16}
echo "== Threads 1 vs 2, international start, go depth $depth"
for threads in 1 2; do
    start=$(ms)
    info=$(printf 'setoption name UCI_Variant value international\nsetoption name Hash value 256\nsetoption name Threads value %d\ngo depth %d\nquit\n' "$threads" "$depth" | "$engine" | grep '^info depth' | tail -1)
    end=$(ms)
    echo "Threads $threads: $(seconds "$start" "$end") s to depth $depth, nodes/s $(echo "$info" | field nps)"
done

echo "== bench (every variant, default depth, one thread)"
printf 'bench\nquit\n' | "$engine" | grep -E '^(Nodes|Total)'
