/* grid.c — 8×8 geometry, from-to move text, FEN rows and diagrams (see grid.h). */
#include "grid.h"

#include <stdio.h>
#include <string.h>

const int grid_file_steps[8] = {1, 1, 0, -1, -1, -1, 0, 1};
const int grid_row_steps[8] = {0, 1, 1, 1, 0, -1, -1, -1};
int8_t grid_room[8][64];

void grid_init(void)
{
    for (int d = 0; d < 8; d++)
        for (int c = 0; c < 64; c++) {
            int f = c & 7, r = c >> 3, n = 0;
            while (f + grid_file_steps[d] * (n + 1) >= 0 && f + grid_file_steps[d] * (n + 1) < 8 &&
                   r + grid_row_steps[d] * (n + 1) >= 0 && r + grid_row_steps[d] * (n + 1) < 8)
                n++;
            grid_room[d][c] = (int8_t)n;
        }
}

void grid_cell_name(int cell, char *out)
{
    out[0] = (char)('a' + (cell & 7));
    out[1] = (char)('1' + (cell >> 3));
    out[2] = 0;
}

int grid_parse_cell(const char *t)
{
    if (t[0] < 'a' || t[0] > 'h' || t[1] < '1' || t[1] > '8') return -1;
    return (t[0] - 'a') + 8 * (t[1] - '1');
}

void grid_format_from_to(const Move *m, bool capture, char *out, size_t len)
{
    char from[3], to[3];
    grid_cell_name(m->from, from);
    grid_cell_name(m->to, to);
    snprintf(out, len, "%s%c%s", from, capture ? 'x' : '-', to);
}

int grid_parse_from_to(const char *text, const Move *legal, int count, char *err, size_t errlen)
{
    if (strlen(text) != 5 || (text[2] != '-' && text[2] != 'x')) {
        snprintf(err, errlen, "bad move '%.40s' (expected from-to or fromxto)", text);
        return -1;
    }
    int from = grid_parse_cell(text), to = grid_parse_cell(text + 3);
    if (from < 0 || to < 0) {
        snprintf(err, errlen, "bad cell in move '%s'", text);
        return -1;
    }
    for (int i = 0; i < count; i++)
        if (legal[i].from == from && legal[i].to == to) return i;
    snprintf(err, errlen, "illegal move '%s'", text);
    return -1;
}

size_t grid_format_fen_rows(const void *board, GridCellText cell_text, char *out, size_t len)
{
    size_t used = 0;
    for (int row = 7; row >= 0 && used < len; row--) {
        int empty = 0;
        for (int file = 0; file < 8 && used < len; file++) {
            char text[16];
            if (!cell_text(board, file + 8 * row, text)) {
                empty++;
                continue;
            }
            if (empty) used += (size_t)snprintf(out + used, len - used, "%d", empty), empty = 0;
            if (used < len) used += (size_t)snprintf(out + used, len - used, "%s", text);
        }
        if (empty && used < len) used += (size_t)snprintf(out + used, len - used, "%d", empty);
        if (row && used < len) used += (size_t)snprintf(out + used, len - used, "/");
    }
    return used < len ? used : len;
}

size_t grid_print_rows(const void *board, GridCellText cell_text, int width, char *out, size_t len)
{
    size_t used = 0;
    for (int row = 7; row >= 0 && used < len; row--) {
        used += (size_t)snprintf(out + used, len - used, " %d ", row + 1);
        for (int file = 0; file < 8 && used < len; file++) {
            char text[16] = ".";
            cell_text(board, file + 8 * row, text);
            used += (size_t)snprintf(out + used, len - used, " %-*s", width, text);
        }
        if (used < len) used += (size_t)snprintf(out + used, len - used, "\n");
    }
    if (used < len) used += (size_t)snprintf(out + used, len - used, "   ");
    for (int file = 0; file < 8 && used < len; file++)
        used += (size_t)snprintf(out + used, len - used, " %-*c", width, 'a' + file);
    if (used < len) used += (size_t)snprintf(out + used, len - used, "\n");
    return used < len ? used : len;
}
