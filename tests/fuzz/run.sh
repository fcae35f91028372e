#!/usr/bin/env bash
# Builds and runs the fuzz targets (fen, move, protocol, hub, records, dataset, weights, dxp) over
# their corpora in tests/fuzz/corpus.
#   tests/fuzz/run.sh --seconds 60      each target for 60 s (libFuzzer), or 200000 random runs
#   tests/fuzz/run.sh --runs 2000       a short fixed-seed pass (what CI runs)
# With clang's libFuzzer the targets are coverage-guided; without it a seeded random driver
# mutates the corpus. Both builds use AddressSanitizer and UndefinedBehaviorSanitizer.
set -euo pipefail
cd "$(dirname "$0")/../.."
mode=${1:---runs}
amount=${2:-2000}
sources=$(ls src/*.c src/games/*.c src/tools/*.c src/egdb/*.c | grep -v '^src/main.c$')
flags="-std=gnu11 -O1 -g -fno-strict-aliasing -pthread -DDONJON_FUZZING -fsanitize=address,undefined -fno-sanitize-recover=all"
mkdir -p build
if echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long s) { return 0; }' |
    clang -x c -fsanitize=fuzzer - -o /dev/null 2>/dev/null; then
    driver=libfuzzer
else
    driver=random
fi
# The engine's sources do not depend on the target (only fuzz_targets.c reads FUZZ_<TARGET>):
# they are compiled once, a file per core at a time, and every target links the same objects.
objects=build/fuzz-objects
rm -rf "$objects"
mkdir -p "$objects"
if [ $driver = libfuzzer ]; then
    export FUZZ_CC=clang FUZZ_SOURCE_FLAGS="$flags -fsanitize=fuzzer-no-link"
else
    export FUZZ_CC=cc FUZZ_SOURCE_FLAGS="$flags"
fi
export FUZZ_OBJECTS=$objects
printf '%s\n' $sources |
    xargs -P "$(nproc)" -I{} sh -c '$FUZZ_CC $FUZZ_SOURCE_FLAGS -c "$1" -o "$FUZZ_OBJECTS/$(echo "$1" | tr / _).o"' sh {}
export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1
for target in fen move protocol hub records dataset weights dxp; do
    upper=$(echo "$target" | tr a-z A-Z)
    binary=build/fuzz-$target
    if [ $driver = libfuzzer ]; then
        clang $flags -fsanitize=fuzzer -DFUZZ_$upper tests/fuzz/fuzz_targets.c "$objects"/*.o -o $binary -lm
        work=build/fuzz-corpus-$target
        mkdir -p "$work"
        if [ "$mode" = --seconds ]; then
            limit="-max_total_time=$amount"
        else
            limit="-runs=$amount -seed=1"
        fi
        $binary $limit -max_len=4096 -timeout=20 -print_final_stats=1 "$work" tests/fuzz/corpus/$target 2>&1 |
            grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb|Done|==|SUMMARY)|ERROR|runtime error" || true
        status=${PIPESTATUS[0]}
    else
        cc $flags -DFUZZ_$upper tests/fuzz/fuzz_targets.c tests/fuzz/random_driver.c "$objects"/*.o -o $binary -lm
        runs=$amount
        [ "$mode" = --seconds ] && runs=$((amount * 3000))
        $binary tests/fuzz/corpus/$target "$runs" 1
        status=$?
    fi
    [ "$status" = 0 ] || { echo "fuzz target $target failed ($driver)"; exit 1; }
    echo "fuzz target $target: ok ($driver)"
done
