/*
 * noisy_check.c — checks each game's quiescence generator against its full generator, for the
 * tests (tests/tests_quiescence.py): in positions of random games, the moves generate_noisy
 * gives are exactly the noisy moves (MOVE_NOISY or MOVE_WINS) among all legal moves; when it
 * says they are forced (no standing pat), every legal move, or one winning move alone (gounki:
 * a win needs no other move searched); and a game's may_stand_pat, where it has one, must say
 * the opposite of forced. Quiescence trusts that list; nothing else compares it. Where a game
 * has key_after (the child's key without the move made, for the search's table prefetches),
 * it must give every legal move's child key.
 *
 *   noisy_check VARIANT GAMES SEED [ordered]
 *                                       prints "ok POSITIONS" or the first difference; with
 *                                       "ordered", the noisy moves must also come in the order
 *                                       the full generator lists them
 */
#include "../src/game.h"
#include "random_games.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool same_move(const Move *a, const Move *b)
{
    return a->from == b->from && a->to == b->to && a->kind == b->kind && a->bits == b->bits &&
           memcmp(a->cells, b->cells, sizeof a->cells) == 0;
}

static int find(const Move *list, int count, const Move *m)
{
    int found = 0;
    for (int i = 0; i < count; i++) found += same_move(&list[i], m);
    return found;
}

static Move all[MAX_MOVES], noisy[MAX_MOVES];

int main(int argc, char **argv)
{
    if (argc != 4 && !(argc == 5 && strcmp(argv[4], "ordered") == 0)) {
        fprintf(stderr, "usage: noisy_check VARIANT GAMES SEED [ordered]\n");
        return 2;
    }
    games_init();
    const Variant *v = variant_by_name(argv[1]);
    if (!v) {
        fprintf(stderr, "unknown variant %s\n", argv[1]);
        return 2;
    }
    int games = atoi(argv[2]);
    bool ordered = argc == 5;
    uint64_t state = strtoull(argv[3], NULL, 10);
    long positions = 0;
    for (int game = 0; game < games; game++) {
        Position pos;
        if (!start_position(v, &pos)) return 2;
        for (int ply = 0; ply < 300; ply++) {
            int count = v->generate(v, &pos, all);
            bool forced = false;
            int noisy_count = v->generate_noisy(v, &pos, noisy, &forced);
            positions++;
            int expected = 0;
            for (int i = 0; i < count; i++)
                if (forced || (all[i].flags & (MOVE_NOISY | MOVE_WINS))) expected++;
            bool lone_win = forced && noisy_count == 1 && (noisy[0].flags & MOVE_WINS);
            bool ok = noisy_count == expected || lone_win;
            /* quiescence stands pat before generating where may_stand_pat says it may */
            if (v->may_stand_pat && v->may_stand_pat(v, &pos) == forced) ok = false;
            for (int i = 0; ok && i < noisy_count; i++)
                ok = find(all, count, &noisy[i]) == 1 && find(noisy, noisy_count, &noisy[i]) == 1 &&
                     (forced || (noisy[i].flags & (MOVE_NOISY | MOVE_WINS)));
            /* with "ordered", also in the full generator's order: then quiescence searches the
             * same trees whichever generator lists the moves */
            for (int i = 0, j = 0; ok && ordered && !forced && i < count; i++)
                if (all[i].flags & (MOVE_NOISY | MOVE_WINS)) ok = same_move(&all[i], &noisy[j++]);
            for (int i = 0; ok && v->key_after && i < count; i++) {
                Position child;
                v->make_move(v, &pos, &all[i], &child);
                if (v->key_after(v, &pos, &all[i]) != child.key) {
                    char fen[512];
                    v->format_fen(v, &pos, fen, sizeof fen);
                    printf("differ: %s: key_after of move %d is not its child's key\n", fen, i);
                    return 1;
                }
            }
            if (!ok) {
                char fen[512];
                v->format_fen(v, &pos, fen, sizeof fen);
                printf("differ: %s: %d moves, %d noisy expected, generate_noisy gave %d (forced %d)\n", fen, count,
                       expected, noisy_count, forced);
                return 1;
            }
            if (count == 0) break;
            Position child;
            v->make_move(v, &pos, &all[next_random(&state) % (uint64_t)count], &child);
            pos = child;
        }
    }
    printf("ok %ld\n", positions);
    return 0;
}
