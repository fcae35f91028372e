# Donjon — build, test and benchmark targets. `make` builds ./donjon; `make test` runs every test.
SHELL := /bin/bash
CC ?= cc
# popcount sits in every hot loop (generation, evaluation): where the building machine's CPU has
# the instruction, use it (the default build then runs on x86-64 CPUs from 2008 on, not older).
# BMI2's pext gathers a draughts pattern region's 8 bits in one instruction, and BMI1 clears a
# lowest bit in one: used where the CPU has them and runs pext in hardware (Intel from 2013, AMD
# from Zen 3, CPU family 25; earlier AMD CPUs take hundreds of cycles a pext, in microcode).
# `make ARCH_FLAGS=` builds for any x86-64, `make native` for this CPU alone
cpu_has = $(shell grep -qw $(1) /proc/cpuinfo 2>/dev/null && echo yes)
FAST_PEXT := $(shell grep -q GenuineIntel /proc/cpuinfo 2>/dev/null && echo yes || \
                     awk '/^cpu family/ { if ($$4 >= 25) print "yes"; exit }' /proc/cpuinfo 2>/dev/null)
ARCH_FLAGS ?= $(if $(call cpu_has,popcnt),-mpopcnt) $(if $(and $(call cpu_has,bmi2),$(FAST_PEXT)),-mbmi -mbmi2)
# -fno-strict-aliasing: game modules view Position.board through their own struct type
CFLAGS_PORTABLE = -std=gnu11 -Wall -Wextra -fno-strict-aliasing -pthread
CFLAGS_BASE = $(CFLAGS_PORTABLE) $(ARCH_FLAGS)
CFLAGS ?= -O3 -DNDEBUG
LDLIBS = -pthread -lm

SOURCES = $(wildcard src/*.c src/games/*.c src/tools/*.c src/egdb/*.c)
HEADERS = $(wildcard src/*.h src/games/*.h src/tools/*.h src/egdb/*.h) $(wildcard src/weights/*.djw)

donjon: $(SOURCES) $(HEADERS)
	$(CC) $(CFLAGS_BASE) $(CFLAGS) $(SOURCES) -o $@ $(LDLIBS)

native:
	$(MAKE) -B donjon ARCH_FLAGS="-march=native $(if $(FAST_PEXT),,-mno-bmi2)"

run: donjon
	./donjon

# for any x86-64: the tests run under it take the code paths of CPUs without popcnt or pext,
# which the default build skips where the building machine has them
build/donjon-asan: $(SOURCES) $(HEADERS)
	@mkdir -p build
	$(CC) $(CFLAGS_PORTABLE) -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all $(SOURCES) -o $@ $(LDLIBS)

build/donjon-tsan: $(SOURCES) $(HEADERS)
	@mkdir -p build
	$(CC) $(CFLAGS_BASE) -O1 -g -fsanitize=thread $(SOURCES) -o $@ $(LDLIBS)

build/donjon-debug: $(SOURCES) $(HEADERS)
	@mkdir -p build
	$(CC) $(CFLAGS_BASE) -O1 -g $(SOURCES) -o $@ $(LDLIBS)

asan: build/donjon-asan
tsan: build/donjon-tsan
sanitize: asan tsan

# the endgame databases' independent solver, for the tests (shares only the move generator)
build/egdb-solver: tests/egdb_solver.c src/games/draughts.c src/games/draughts_eval.c $(HEADERS)
	@mkdir -p build
	$(CC) $(CFLAGS_BASE) -O2 tests/egdb_solver.c src/games/draughts.c src/games/draughts_eval.c -o $@ $(LDLIBS)

# each game's quiescence generator checked against its full generator (every source but main.c)
build/noisy-check: tests/noisy_check.c tests/random_games.h $(SOURCES) $(HEADERS)
	@mkdir -p build
	$(CC) $(CFLAGS_BASE) -O2 tests/noisy_check.c $(filter-out src/main.c,$(SOURCES)) -o $@ $(LDLIBS)

# each game's incremental evaluation checked against its evaluation from scratch
build/accumulate-check: tests/accumulate_check.c tests/random_games.h $(SOURCES) $(HEADERS)
	@mkdir -p build
	$(CC) $(CFLAGS_BASE) -O2 tests/accumulate_check.c $(filter-out src/main.c,$(SOURCES)) -o $@ $(LDLIBS)

# the whole log is kept in build/test.log
test: donjon build/donjon-asan build/donjon-tsan build/donjon-debug build/egdb-solver build/noisy-check \
      build/accumulate-check
	set -o pipefail; python3 tests/run_tests.py --engine ./donjon --asan build/donjon-asan --tsan build/donjon-tsan 2>&1 | tee build/test.log

# fuzzing: FUZZ_SECONDS per target (libFuzzer when clang has it, else a seeded random driver)
FUZZ_SECONDS ?= 60
fuzz:
	tests/fuzz/run.sh --seconds $(FUZZ_SECONDS)

# the short fixed-seed pass CI runs
fuzz-short:
	tests/fuzz/run.sh --runs 2000

perft-full: donjon
	python3 tests/run_tests.py --engine ./donjon --only perft --full

bench: donjon
	./scripts/bench

# draughts endgame databases into egdb/ beside the binary, where the engine looks (resumable:
# finished materials are kept); the default set takes minutes, the full one hours
EGDB_THREADS ?= $(shell nproc 2>/dev/null || echo 2)
egdb: donjon
	./donjon egdb build --variant checkers,russian,brazilian --pieces 5 --out egdb --threads $(EGDB_THREADS)
	./donjon egdb build --variant international --pieces 4 --out egdb --threads $(EGDB_THREADS)

egdb-full: donjon
	./donjon egdb build --variant checkers,russian,brazilian --pieces 6 --out egdb --threads $(EGDB_THREADS)
	./donjon egdb build --variant international --pieces 5 --out egdb --threads $(EGDB_THREADS)

# the browser board, one engine per tab: open the address it prints (PORT=... for another port)
PORT ?= 8080
serve: donjon
	scripts/serve --port $(PORT)

# what the browser tests need (Debian's chromium, chromium-driver, python3-selenium); without
# apt or a network it warns and the browser tests report themselves skipped
setup:
	scripts/setup

clean:
	rm -rf donjon build

.PHONY: native run asan tsan sanitize test fuzz fuzz-short perft-full bench egdb egdb-full serve setup clean
