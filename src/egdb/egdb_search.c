/* egdb_search.c — the endgame databases in play: search scores, root moves, counters (see egdb_search.h). */
#include "egdb_search.h"

#include "../bitops.h"
#include "../games/draughts_board.h"
#include "egdb_file.h"

#include <stdio.h>

#define NO_LIMIT 100000

/* 3 kings (and nothing else) against a lone king: the position the three-kings counter watches. */
static bool three_kings_against_one(const DraughtsBoard *b)
{
    for (int s = 0; s < 2; s++) {
        uint64_t strong = b->pieces[s], weak = b->pieces[s ^ 1];
        if (popcount64(weak) == 1 && (weak & b->kings) && !(strong & ~b->kings) && popcount64(strong) == 3) return true;
    }
    return false;
}

int egdb_counter_room(const Variant *v, const Position *pos)
{
    const DraughtsRules *r = RULES(v);
    int room = NO_LIMIT;
    if (r->quiet_limit_plies) room = r->quiet_limit_plies - pos->reversible_plies;
    if (r->three_kings_limit_plies && three_kings_against_one(CBOARD(pos))) {
        int left = r->three_kings_limit_plies - pos->counter;
        if (left < room) room = left;
    }
    return room;
}

/* Whether the win or loss of pos converts before the counters draw it (true when unknown). */
static bool fits_counters(const EgdbSet *s, const Position *pos)
{
    if (!egdb_has_dtz(s)) return true;
    int room = egdb_counter_room(egdb_variant(s), pos);
    /* a lost position's distance is at most one more than the longest won one of its material */
    if (egdb_longest_dtz(s, pos) + 1 < room) return true;
    int dtz = egdb_probe_dtz(s, pos);
    return dtz < 0 || dtz < room;
}

/* What brings the winner nearer the end: fewer enemy pieces, then kings, then advanced men. */
static int progress(const Variant *v, const Position *pos, int winner)
{
    const DraughtsRules *r = RULES(v);
    const DraughtsBoard *b = CBOARD(pos);
    uint64_t own = b->pieces[winner], men = own & ~b->kings;
    int score = 150 * (8 - popcount64(b->pieces[winner ^ 1])) + 50 * popcount64(own & b->kings);
    while (men) {
        int bit = pop_lowest(&men);
        score += 5 * (winner == SIDE_WHITE ? r->row_from_bottom[bit] : r->size - 1 - r->row_from_bottom[bit]);
    }
    return score;
}

bool egdb_search_score(const EgdbSet *s, const Position *pos, int *score)
{
    int value = egdb_probe_wdl(s, pos);
    if (value == EGDB_UNKNOWN) return false;
    if (value == EGDB_DRAW || !fits_counters(s, pos)) {
        *score = 0;
        return true;
    }
    int winner = value == EGDB_WIN ? pos->side : pos->side ^ 1;
    int magnitude = EGDB_SCORE_WIN + progress(egdb_variant(s), pos, winner);
    *score = value == EGDB_WIN ? magnitude : -magnitude;
    return true;
}

/* The value of a child for its side to move (no piece or no move: lost). */
static int child_value(const EgdbSet *s, const Position *child)
{
    const Variant *v = egdb_variant(s);
    if (!CBOARD(child)->pieces[child->side]) return EGDB_LOSS;
    Move list[MAX_MOVES];
    if (v->generate(v, child, list) == 0) return EGDB_LOSS;
    return egdb_probe_wdl(s, child);
}

/* The dtz of a child (0 when the game is over). */
static int child_dtz(const EgdbSet *s, const Position *child)
{
    if (!CBOARD(child)->pieces[child->side]) return 0;
    int dtz = egdb_probe_dtz(s, child);
    return dtz < 0 ? 0 : dtz;
}

int egdb_root_moves(const EgdbSet *s, const Position *root, Move *kept, EgdbRootInfo *info)
{
    const Variant *v = egdb_variant(s);
    int value = egdb_probe_wdl(s, root);
    if (value == EGDB_UNKNOWN) return 0;
    Move list[MAX_MOVES];
    int n = v->generate(v, root, list);
    if (!n) return 0;
    bool dtz = egdb_has_dtz(s);
    if (info) {
        info->value = value;
        info->dtz = value != EGDB_DRAW ? egdb_probe_dtz(s, root) : -1;
        info->room = egdb_counter_room(v, root);
    }
    const DraughtsBoard *b = CBOARD(root);
    int best = NO_LIMIT * 4, count = 0;
    for (int i = 0; i < n; i++) {
        Position child;
        v->make_move(v, root, &list[i], &child);
        int child_value_now = child_value(s, &child);
        if (child_value_now == EGDB_UNKNOWN) return 0;
        int key;
        if (value == EGDB_WIN) {
            /* moves that keep the win: convert when that fits the counters, else the smallest dtz */
            if (child_value_now != EGDB_LOSS) continue;
            bool converts = list[i].bits || !(b->kings & BIT(list[i].from));
            int d = dtz ? child_dtz(s, &child) : 0;
            if (!dtz)
                key = 0;
            else if (converts)
                key = d < egdb_counter_room(v, &child) ? 0 : 2 * NO_LIMIT + d;
            else
                key = 1 + d;
        } else if (value == EGDB_DRAW) {
            if (child_value_now != EGDB_DRAW) continue;
            key = 0;
        } else {
            /* every move loses: resist longest, best past what the counters allow */
            int d = dtz ? child_dtz(s, &child) : 0;
            key = d >= egdb_counter_room(v, &child) ? -NO_LIMIT - d : -d;
        }
        if (key < best) best = key, count = 0;
        if (key == best) kept[count++] = list[i];
    }
    return count;
}

bool egdb_describe(const EgdbSet *s, const Position *pos, char *out, size_t len)
{
    static const char *const names[] = {"loss", "draw", "win"};
    int value = egdb_probe_wdl(s, pos);
    if (value == EGDB_UNKNOWN) return false;
    int dtz = value != EGDB_DRAW ? egdb_probe_dtz(s, pos) : -1;
    if (dtz < 0) {
        snprintf(out, len, "%s", names[value]);
        return true;
    }
    int room = egdb_counter_room(egdb_variant(s), pos);
    if (dtz < room)
        snprintf(out, len, "%s dtz %d", names[value], dtz);
    else
        snprintf(out, len, "%s dtz %d counters %d (the move counters draw it with best play)", names[value], dtz, room);
    return true;
}
