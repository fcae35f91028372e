/*
 * tawol_board.h — what the tawol module's files share: the board and its counts, the cell
 * code, and the evaluation terms the hand-set evaluation and the learned features both use
 * (games/tawol.c has the rules, games/tawol_terms.c the terms and the hand-set evaluation,
 * games/tawol_eval.c the learned features).
 */
#ifndef DONJON_TAWOL_BOARD_H
#define DONJON_TAWOL_BOARD_H
#include "../game.h"

enum { NONE = 0, TOWER = 1, ONE_COLLAR = 2, TWO_COLLAR = 3 };
enum { LOWER_BLACK = 4 };

typedef struct {
    int8_t blocked_by[2];       /* enemy pawns that side s's pawns stand on */
    int8_t pawns[2];            /* all pawns of a side, wherever they are */
    int8_t on_towers[2];        /* a side's pawns standing on enemy towers */
    int8_t towers[2], taken[2]; /* a side's towers, and how many of them are taken */
} TawolCounts;

typedef struct {
    uint8_t cells[64];
    TawolCounts counts;         /* kept up to date by set_cell */
    uint64_t occupied;          /* the cells holding something, likewise */
} TawolBoard;

_Static_assert(sizeof(TawolBoard) <= sizeof(((Position *)0)->board), "board area too small");

#define BOARD(p) ((TawolBoard *)(p)->board)
#define CBOARD(p) ((const TawolBoard *)(p)->board)

static inline int lower_type(uint8_t c) { return c & 3; }
static inline int lower_side(uint8_t c) { return (c & LOWER_BLACK) ? SIDE_BLACK : SIDE_WHITE; }
static inline int upper_type(uint8_t c) { return (c >> 3) & 3; }
static inline int upper_side(uint8_t c) { return lower_side(c) ^ 1; }
static inline uint8_t single_piece(int side, int type) { return (uint8_t)(type | (side == SIDE_BLACK ? LOWER_BLACK : 0)); }
static inline uint8_t with_upper(uint8_t lower, int type) { return (uint8_t)((lower & 7) | type << 3); }
/* A piece that can be attacked: a free pawn (nothing on it) or an untaken tower. */
static inline bool attackable(uint8_t c, int attacker)
{
    return c && !upper_type(c) && lower_side(c) != attacker;
}

typedef struct {
    int taken;          /* enemy towers this side holds */
    int blocking;       /* enemy pawns its pawns stand on */
    int free_pawns;     /* its pawns neither on a tower nor blocked */
    int tower_attacks;  /* untaken enemy towers its pawns could attack next move */
    int free_threats;   /* towers and free pawns its free pawns could attack */
    int closeness;      /* over its free pawns: 8 less the king-move distance to an untaken enemy tower */
    int plain_pawns;    /* its pawns standing on the board itself (neither on a tower nor on a pawn) */
    int plain_one_collar; /* of those, the one-collar pawns */
    int tower_room;     /* over its untaken towers, the empty cells next to them (where each can flee) */
    int towers_trapped; /* its untaken towers with no empty cell next to them */
    int chase_room;     /* the cells the enemy's untaken towers can flee to before this side's free
                           pawns can attack there */
} TawolSideTerms;

/* What a cell holding something is, by its byte (its low 5 bits): one of 7 classes for each
 * side, White's first (class + side * CLASSES_PER_SIDE), the piece under a pawn counting as its
 * upper pawn's: an untaken tower, a lone pawn of one or two collars, a pawn of one or two
 * collars on an enemy tower, or on an enemy pawn. The attack generator and the evaluation's
 * terms read the board as a set of cells per class (tawol.c builds the table). */
enum { OPEN_TOWER, LONE_1, LONE_2, ON_TOWER_1, ON_TOWER_2, ON_PAWN_1, ON_PAWN_2, CLASSES_PER_SIDE };
enum { TAWOL_CELL_CLASSES = 2 * CLASSES_PER_SIDE };
extern uint8_t tawol_cell_class[32];
void tawol_class_sets(const TawolBoard *b, uint64_t sets[TAWOL_CELL_CLASSES]);
/* Both sides' terms (terms[SIDE_WHITE], terms[SIDE_BLACK]) from the board and its class sets
 * (tawol_terms.c; tawol_terms_init builds its tables at start-up). */
void tawol_terms(const TawolBoard *b, const uint64_t sets[TAWOL_CELL_CLASSES], TawolSideTerms terms[2]);
void tawol_terms_init(void);
/* The hand-set evaluation over those terms, from the side to move: the variant's evaluate. */
int tawol_hand_evaluate(const Variant *v, const Position *pos);

extern const FeatureSet tawol_features;
void tawol_eval_init(void);
#endif
