/*
 * game.h — the one interface every game module implements.
 *
 * The search, perft, bench and protocol code know games only through a Variant table.
 * A Variant describes one playable rule set (a family module such as draughts serves
 * several variants through its `rules` pointer).
 *
 * Positions are plain values (copy-make): make_move writes the child into a new
 * Position, so no unmake is needed and a search stack is an array of Positions.
 * Each module keeps its own board inside Position.board (an opaque, aligned byte area).
 *
 * A Move is a 16-byte value whose meaning belongs to its module; two moves are the same
 * move exactly when their bytes are equal (generators zero every unused byte).
 *
 * Conventions shared by all eight games (RULES.md "common conventions"):
 *  - generate() returns 0 exactly when the game is over by the rules of the board
 *    (no legal move, or the game was already won); game_end() then says who won;
 *  - history draws (repetition, move counters) are not part of generate(): the search
 *    and the `result` command apply them through counter_draw() and the key history.
 */
#ifndef DONJON_GAME_H
#define DONJON_GAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define MAX_MOVES 1024      /* upper bound of legal moves in any position of any game */
#define MAX_PLY 128         /* deepest search ply */
#define MOVE_TEXT_MAX 160   /* longest move text, a long draughts route included */
#define FEN_TEXT_MAX 1024
#define BOARD_TEXT_MAX 4096
#define CELL_LIMIT 128      /* cell indices (from/to) are below this; sizes history tables */

enum { SIDE_WHITE = 0, SIDE_BLACK = 1 };

/* Move.flags bits common to every game */
enum {
    MOVE_NOISY = 1,      /* a capture (or other forcing move): searched in quiescence, no history */
    MOVE_PROMOTES = 2,   /* the moving piece changes kind (a man crowned) */
    MOVE_WINS = 4,       /* the move ends the game with a win for the mover (gounki exit) */
};

typedef struct Move {
    uint64_t bits;        /* module-defined: e.g. the set of captured squares */
    uint8_t from, to;     /* module-defined cell indices (< CELL_LIMIT) */
    uint8_t kind;         /* module-defined move kind */
    uint8_t flags;        /* MOVE_* bits */
    uint8_t cells[4];     /* module-defined extra cells (deployments) */
} Move;

typedef struct Position {
    uint64_t key;               /* Zobrist key, side to move included */
    uint16_t reversible_plies;  /* plies since the last irreversible move: the repetition window */
    uint16_t counter;           /* module-defined second counter (e.g. 3 kings vs 1 king) */
    uint8_t side;               /* SIDE_WHITE or SIDE_BLACK */
    uint8_t extra_turns;        /* moves in a row the side to move still has after this one */
    uint8_t rule_flags;         /* module-defined rule switches (gounki handicap) */
    uint8_t unused;
    /* The module's own board, cast to its struct: the build uses -fno-strict-aliasing
     * because GCC's type-based alias analysis does not see through that cast. */
    uint64_t board[14];
} Position;

typedef struct Variant Variant;

/* One active feature of a position for a learned evaluation: its weight index and value. */
typedef struct {
    int32_t index;
    int32_t value;
} Feature;

#define FEATURES_MAX 512    /* active features of one position, at most */
#define PHASE_MAX 256       /* phase: 0 = opening .. PHASE_MAX = ending */
#define SCALE_MAX 256       /* scale: PHASE-like factor of the whole score (drawish material) */

/* What an incremental evaluation keeps for one position of a line (FeatureSet.accumulate):
 * both phases' sums, sets of cells the module defines (e.g. the cells of each class), and a
 * byte a cell it defines likewise (e.g. a cell's window state), with room past the last cell. */
typedef struct EvalAccumulator {
    int32_t sum[2];
    uint64_t cells[16];
    uint8_t states[80];
} EvalAccumulator;

/*
 * A game's learned-evaluation features (see eval_weights.h for the model): a linear sum over
 * active features of two weights each, one for the opening and one for the ending, blended by
 * the position's phase and multiplied by its scale. Features are seen from the side to move.
 */
typedef struct FeatureSet {
    const char *name;       /* signature: a weights file is for exactly this feature set */
    int count;              /* weights per phase */
    /* Fills out (at most FEATURES_MAX) and returns how many; *phase in 0..PHASE_MAX,
     * *scale in 0..SCALE_MAX. */
    int (*extract)(const Variant *v, const Position *pos, Feature *out, int *phase, int *scale);
    /* The starting point of training, what the hand-set evaluation knows: weights in score
     * units (100 = one man), zero where nothing is known. */
    void (*initial)(const Variant *v, float *opening, float *ending);
    /* A short name for the feature at this index (reports), written into out. */
    void (*describe)(const Variant *v, int index, char *out, size_t len);
    /* Optional fast path: prepare() turns weights (opening[], ending[]) into the module's own
     * tables (NULL when it cannot: the generic sum is used), evaluate() gives exactly the
     * score the generic sum over extract() would. */
    void *(*prepare)(const Variant *v, const int16_t *opening, const int16_t *ending);
    int (*evaluate)(const Variant *v, const Position *pos, const void *prepared);
    /* Optional incremental form of the fast path, for the search: accumulate() fills acc with
     * what the module keeps along a line of play (the part of the sum each cell's content
     * decides alone, and the like): from the position alone when parent is NULL, else from the
     * parent position's accumulator by the cells the move changed. evaluate_accumulated()
     * then gives exactly evaluate()'s score. Both need prepare() to have given tables. */
    void (*accumulate)(const Variant *v, const Position *pos, const void *prepared, const Position *parent,
                       const EvalAccumulator *parent_acc, EvalAccumulator *acc);
    int (*evaluate_accumulated)(const Variant *v, const Position *pos, const void *prepared,
                                const EvalAccumulator *acc);
} FeatureSet;

struct Variant {
    const char *name;
    int cols, rows;
    const char *start_fen;
    const void *rules;     /* module-private parameters of this variant */

    /* FEN text <-> Position. parse_fen fills err and returns false on any defect. */
    bool (*parse_fen)(const Variant *v, const char *text, Position *out, char *err, size_t errlen);
    void (*format_fen)(const Variant *v, const Position *pos, char *out, size_t len);

    /* All legal moves; 0 means the game is over (see game_end). */
    int (*generate)(const Variant *v, const Position *pos, Move *list);
    /* The moves quiescence searches. *forced is set when they are all the legal moves
     * (the position must not be evaluated statically, e.g. a compulsory capture). */
    int (*generate_noisy)(const Variant *v, const Position *pos, Move *list, bool *forced);
    /* Optional: whether generate_noisy would leave *forced unset, told without generating;
     * given, quiescence takes the static evaluation first and generates only when it does not
     * already cut (most quiescence nodes of a game whose noisy moves are rarely forced). */
    bool (*may_stand_pat)(const Variant *v, const Position *pos);
    /* Optional: number of legal moves, faster than generate (perft bulk counting). */
    int (*count_moves)(const Variant *v, const Position *pos);

    void (*make_move)(const Variant *v, const Position *pos, const Move *m, Position *out);
    /* Optional: the key make_move would give the child, without making the move (the search
     * starts loading the children's table entries early). */
    uint64_t (*key_after)(const Variant *v, const Position *pos, const Move *m);

    /* The hand-set static evaluation in centipawn-like units (100 = one man) from the side to
     * move; the learned one (eval_weights.h) replaces it where weights exist. */
    int (*evaluate)(const Variant *v, const Position *pos);
    /* Optional: the learned evaluation's features, and the bytes of Position.board the module
     * uses (training data stores them). */
    const FeatureSet *features;
    int board_bytes;
    /* With features: whether board bytes read from a data file are a board the module could
     * have made (valid cell codes, the fields kept alongside them consistent, the FEN reader's
     * limits), so that no other function meets a board it cannot read. */
    bool (*board_valid)(const Variant *v, const Position *pos);

    /* Optional (NULL for games without counters): a draw by a move counter (reason text), or NULL. */
    const char *(*counter_draw)(const Variant *v, const Position *pos);
    /* When generate() returned 0: the winner (SIDE_WHITE or SIDE_BLACK) and the reason. */
    const char *(*game_end)(const Variant *v, const Position *pos, int *winner);

    /* Move text. format_move may generate moves itself (only the protocol calls it). */
    void (*format_move)(const Variant *v, const Position *pos, const Move *m, char *out, size_t len);
    /* Index into legal[] of the move the text names, or -1 with err filled. */
    int (*parse_move)(const Variant *v, const Position *pos, const char *text,
                      const Move *legal, int count, char *err, size_t errlen);

    /* A readable diagram for the `d` command. */
    void (*print_board)(const Variant *v, const Position *pos, char *out, size_t len);

    /* Optional rule option of this variant (e.g. gounki's Handicap): its protocol name, its
     * values (NULL-terminated, the first is the default), and how a value changes a position
     * set up from the start (from_start) or from a FEN. */
    const char *option_name;
    const char *const *option_values;
    void (*apply_option)(const Variant *v, Position *pos, int value, bool from_start);

    /* Bench positions (FENs), NULL-terminated; the start position is always benched too. */
    const char *const *bench_fens;
    int bench_depth;       /* `bench` searches this variant to this depth unless told otherwise */
    int aspiration_delta;  /* first aspiration half-window, in score units */
    /* Shallow verification (search.c): the margin per ply of depth by which a reduced search
     * must clear beta to cut a node, in score units; 0 (off) where it showed no gain in games
     * or has not been measured yet. */
    int verify_margin;
    /* Late-move reductions (search.c): 0 keeps the step rule (one ply, two for late moves at
     * depth 6 and more); otherwise a reduction of ln(depth)·ln(moves searched) divided by this
     * number in tenths, for games with many quiet moves a node. */
    int lmr_log_divisor_tenths;
    /* With the step rule: reduce from the second quiet move at non-PV nodes of depth 2 and
     * more (by two plies from the fifth move), and at PV nodes by one ply from the third move
     * and depth 3 (where the step rule reduces none before the eighth move and depth 6), as a
     * game whose nodes have few moves needs to reduce early to reduce at all; false keeps the
     * step rule. On for international only: the 8x8 draughts variants have not been measured
     * with it. */
    bool lmr_step_early;
    /* Internal iterative reduction (search.c): a node of at least this depth that the table
     * gives no move is searched one ply shallower, as its move order is a guess and a deeper
     * iteration will meet it again with a table move; 0 (off) where it has not been measured. */
    int iir_depth_min;
};

/* Registry (games.c) */
const Variant *variant_by_name(const char *name);
const Variant *variant_at(int index); /* NULL past the end */
const Variant *default_variant(void);
int variant_index(const Variant *v);
#define VARIANT_LIMIT 16
void games_init(void);

_Static_assert(sizeof(Move) == 16, "a Move is two words: move_equal compares them");

/* Every field equal: the eight bytes after bits (from .. cells) compared as one word. */
static inline bool move_equal(const Move *a, const Move *b)
{
    uint64_t rest_a, rest_b;
    memcpy(&rest_a, &a->from, sizeof rest_a);
    memcpy(&rest_b, &b->from, sizeof rest_b);
    return rest_a == rest_b && a->bits == b->bits;
}

/* A 16-bit tag of a move, stored in the transposition table; 0 means "no move". */
static inline uint16_t move_tag(const Move *m)
{
    uint64_t h = m->bits * 0x9E3779B97F4A7C15ull;
    h ^= ((uint64_t)m->from << 8 | m->to | (uint64_t)m->kind << 16 | (uint64_t)m->flags << 24 |
          (uint64_t)m->cells[0] << 32 | (uint64_t)m->cells[1] << 40 | (uint64_t)m->cells[2] << 48 |
          (uint64_t)m->cells[3] << 56) * 0xC2B2AE3D27D4EB4Full;
    h ^= h >> 29;
    h *= 0x165667B19E3779F9ull;
    uint16_t tag = (uint16_t)(h >> 48);
    return tag ? tag : 1;
}

#endif
