/*
 * egdb_index.h — how the endgame databases number positions: material signatures, the dense
 * number of a position inside its material's table, and the colour mirror.
 *
 * A table holds the positions of one material (white men, white kings, black men, black kings)
 * with White to move; a position with Black to move is looked up as its colour mirror (board
 * turned half a turn, colours swapped), which has White to move.
 *
 * Number = men configuration · king placements + king placement, where:
 *  - white men are a combination of the squares off White's crowning row, black men one of the
 *    squares off Black's crowning row that no white man holds (counted per white combination,
 *    so no number is wasted on overlapping men);
 *  - white kings are a combination of the squares no man holds, black kings of what is left.
 * Combinations are ranked in colex order over "compressed" coordinates (a square's number less
 * the excluded squares below it), so every number names exactly one position. Men moves only go
 * forward, which is why men come first: a builder solves one men configuration at a time.
 */
#ifndef DONJON_EGDB_INDEX_H
#define DONJON_EGDB_INDEX_H
#include "../games/draughts_board.h"

#include <stdbool.h>
#include <stdint.h>

#define EGDB_PIECES_MAX 8   /* the most pieces a table may hold (file names, arrays) */

typedef struct {
    int white_men, white_kings, black_men, black_kings;
} EgdbMaterial;

typedef struct EgdbIndex {
    const DraughtsRules *rules;
    EgdbMaterial material;
    int free_squares;              /* squares no man holds (where kings go) */
    uint64_t white_men_combos;     /* rank range of the white men */
    uint64_t *black_men_offset;    /* [white rank] first men configuration of that white rank; [last+1] = total */
    uint64_t men_configs;
    uint64_t white_king_combos, black_king_combos;
    uint64_t king_configs;         /* white_king_combos · black_king_combos */
    uint64_t size;                 /* men_configs · king_configs */
} EgdbIndex;

void egdb_index_tables_init(void);      /* binomials; idempotent, call before anything else */
uint64_t egdb_binomial(int n, int k);

static inline int egdb_material_pieces(EgdbMaterial m)
{
    return m.white_men + m.white_kings + m.black_men + m.black_kings;
}
static inline EgdbMaterial egdb_material_mirror(EgdbMaterial m)
{
    EgdbMaterial out = {m.black_men, m.black_kings, m.white_men, m.white_kings};
    return out;
}
static inline bool egdb_material_equal(EgdbMaterial a, EgdbMaterial b)
{
    return a.white_men == b.white_men && a.white_kings == b.white_kings && a.black_men == b.black_men &&
           a.black_kings == b.black_kings;
}
EgdbMaterial egdb_material_of(const DraughtsBoard *b);
/* A dense code of a material of at most EGDB_PIECES_MAX pieces: for arrays indexed by material. */
#define EGDB_MATERIAL_CODES ((EGDB_PIECES_MAX + 1) * (EGDB_PIECES_MAX + 1) * (EGDB_PIECES_MAX + 1) * (EGDB_PIECES_MAX + 1))
static inline int egdb_material_code(EgdbMaterial m)
{
    return ((m.white_men * (EGDB_PIECES_MAX + 1) + m.white_kings) * (EGDB_PIECES_MAX + 1) + m.black_men) *
               (EGDB_PIECES_MAX + 1) + m.black_kings;
}
/* "2K1M-0K3M": white kings and men, then black's (file names, messages). */
void egdb_material_name(EgdbMaterial m, char *out, size_t len);
bool egdb_material_parse(const char *text, EgdbMaterial *out);
/* Whether any position of this material fits on the board (men off their crowning rows). */
bool egdb_material_fits(const DraughtsRules *r, EgdbMaterial m);

/* false when out of memory */
bool egdb_index_init(EgdbIndex *ix, const DraughtsRules *r, EgdbMaterial m);
void egdb_index_free(EgdbIndex *ix);

/* The number of board b (its material must be ix's; the side to move is not part of it). */
uint64_t egdb_index_of(const EgdbIndex *ix, const DraughtsBoard *b);
uint64_t egdb_men_index(const EgdbIndex *ix, uint64_t white_men, uint64_t black_men);
uint64_t egdb_king_index(const EgdbIndex *ix, uint64_t men, uint64_t white_kings, uint64_t black_kings);
/* The inverses. */
void egdb_men_of(const EgdbIndex *ix, uint64_t men_index, uint64_t *white_men, uint64_t *black_men);
void egdb_kings_of(const EgdbIndex *ix, uint64_t men, uint64_t king_index, uint64_t *white_kings, uint64_t *black_kings);
void egdb_board_of(const EgdbIndex *ix, uint64_t index, DraughtsBoard *out);

/* The same numbers of king placements, faster for one men configuration at a time (builders):
 * a frame lists the free squares once. */
typedef struct {
    int free_count;
    int8_t free_bit[64];   /* the free squares' bits, rising */
    int8_t coord[64];      /* a free bit's place among them */
} EgdbKingFrame;
void egdb_king_frame(uint64_t board_mask, uint64_t men, EgdbKingFrame *f);
uint64_t egdb_frame_king_index(const EgdbIndex *ix, const EgdbKingFrame *f, uint64_t white_kings, uint64_t black_kings);
void egdb_frame_kings_of(const EgdbIndex *ix, const EgdbKingFrame *f, uint64_t king_index, uint64_t *white_kings,
                         uint64_t *black_kings);

/* King placements of one frame in number order, one step at a time (cheaper than from numbers). */
typedef struct {
    const EgdbIndex *ix;
    const EgdbKingFrame *frame;
    int white[EGDB_PIECES_MAX], black[EGDB_PIECES_MAX];
} EgdbKingWalk;
void egdb_king_walk_start(EgdbKingWalk *w, const EgdbIndex *ix, const EgdbKingFrame *f, uint64_t king_index);
void egdb_king_walk_next(EgdbKingWalk *w);
void egdb_king_walk_kings(const EgdbKingWalk *w, uint64_t *white_kings, uint64_t *black_kings);

/* The colour mirror: the board turned half a turn with the colours swapped. */
void egdb_mirror(const DraughtsRules *r, const DraughtsBoard *in, DraughtsBoard *out);

/* How far the men have gone (rows from their own home row, summed over both colours): every
 * men move raises it by one, so a builder solves men configurations from the highest down. */
int egdb_men_advancement(const DraughtsRules *r, uint64_t white_men, uint64_t black_men);
#endif
