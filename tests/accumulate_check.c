/*
 * accumulate_check.c — checks each game's incremental evaluation (FeatureSet.accumulate) for the
 * tests (tests/tests_learning.py): along random games, the accumulator carried from move to move
 * equals the one made from the position alone, and the score it gives equals the fast path's
 * and the plain feature sum's, with the built-in weights. The search trusts the carried one.
 *
 *   accumulate_check VARIANT GAMES SEED
 *                  prints "ok POSITIONS", "none" (the game has no incremental form), or the
 *                  first difference
 */
#include "../src/eval_weights.h"
#include "../src/game.h"
#include "random_games.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static Move moves[MAX_MOVES];

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: accumulate_check VARIANT GAMES SEED\n");
        return 2;
    }
    games_init();
    eval_weights_init();
    const Variant *v = variant_by_name(argv[1]);
    if (!v) {
        fprintf(stderr, "unknown variant %s\n", argv[1]);
        return 2;
    }
    const EvalWeights *w = eval_weights_builtin(v);
    if (!learned_incremental(v, w)) {
        printf("none\n");
        return 0;
    }
    int games = atoi(argv[2]);
    uint64_t state = strtoull(argv[3], NULL, 10);
    long positions = 0;
    for (int game = 0; game < games; game++) {
        Position pos;
        if (!start_position(v, &pos)) return 2;
        EvalAccumulator carried;
        v->features->accumulate(v, &pos, w->prepared, NULL, NULL, &carried);
        for (int ply = 0; ply < 300; ply++) {
            EvalAccumulator fresh;
            v->features->accumulate(v, &pos, w->prepared, NULL, NULL, &fresh);
            int incremental = learned_evaluate_accumulated(v, &pos, w, &carried);
            int fast = learned_evaluate(v, &pos, w), generic = learned_evaluate_generic(v, &pos, w);
            positions++;
            if (memcmp(&fresh, &carried, sizeof fresh) != 0 || incremental != fast || fast != generic) {
                char fen[512];
                v->format_fen(v, &pos, fen, sizeof fen);
                printf("differ: %s (game %d ply %d): sums %d %d carried, %d %d fresh; scores %d carried, %d fast, "
                       "%d feature sum\n",
                       fen, game, ply, carried.sum[0], carried.sum[1], fresh.sum[0], fresh.sum[1], incremental, fast,
                       generic);
                return 1;
            }
            int count = v->generate(v, &pos, moves);
            if (count == 0) break;
            Position child;
            v->make_move(v, &pos, &moves[next_random(&state) % (uint64_t)count], &child);
            EvalAccumulator next;
            v->features->accumulate(v, &child, w->prepared, &pos, &carried, &next);
            carried = next;
            pos = child;
        }
    }
    printf("ok %ld\n", positions);
    return 0;
}
