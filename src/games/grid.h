/*
 * grid.h — the 8×8 chess-coordinate helpers shared by the 8×8 games other than draughts: cells
 * index = file + 8 · row (a1 = 0), the eight straight directions, how far a cell is from
 * the edge in each, and `from-to` / `fromxto` move text.
 */
#ifndef DONJON_GRID_H
#define DONJON_GRID_H
#include "../game.h"

extern const int grid_file_steps[8];
extern const int grid_row_steps[8];
extern int8_t grid_room[8][64]; /* steps from a cell in a direction before the edge */

void grid_init(void);

/* Cell sets as bitboards (bit = cell): the cells off file h and off file a, the masks that keep
 * a one-file shift east (<< 1) or west (>> 1) from wrapping to the next row. */
#define GRID_NOT_FILE_A 0xFEFEFEFEFEFEFEFEull
#define GRID_NOT_FILE_H 0x7F7F7F7F7F7F7F7Full
static inline int grid_step(int direction) { return grid_file_steps[direction] + 8 * grid_row_steps[direction]; }
/* A set of cells moved one step in a direction (the order of grid_file_steps: E, NE, N, NW, W,
 * SW, S, SE), the cells that would leave the board dropped. */
static inline uint64_t grid_shift(uint64_t s, int direction)
{
    switch (direction) {
    case 0: return (s << 1) & GRID_NOT_FILE_A;
    case 1: return (s << 9) & GRID_NOT_FILE_A;
    case 2: return s << 8;
    case 3: return (s << 7) & GRID_NOT_FILE_H;
    case 4: return (s >> 1) & GRID_NOT_FILE_H;
    case 5: return (s >> 9) & GRID_NOT_FILE_H;
    case 6: return s >> 8;
    default: return (s >> 7) & GRID_NOT_FILE_A;
    }
}

/* `a1`-style text of a cell (3 bytes with the terminator); -1 for malformed text. */
void grid_cell_name(int cell, char *out);
int grid_parse_cell(const char *text);

/* Move text `from-to`, or `fromxto` when capture; parse accepts either separator and matches
 * the (from, to) of a legal move. */
void grid_format_from_to(const Move *m, bool capture, char *out, size_t len);
int grid_parse_from_to(const char *text, const Move *legal, int count, char *err, size_t errlen);

/* A game's text for one cell (at most 15 characters); false for an empty cell. */
typedef bool (*GridCellText)(const void *board, int cell, char *text);
/* The board part of an 8x8 FEN: rows 8..1 separated by '/', digits for empty runs. */
size_t grid_format_fen_rows(const void *board, GridCellText cell_text, char *out, size_t len);
/* A diagram: rank numbers on the left, file letters below, each cell in `width` columns. */
size_t grid_print_rows(const void *board, GridCellText cell_text, int width, char *out, size_t len);
#endif
