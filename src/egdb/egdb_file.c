/* egdb_file.c — the endgame database file format (see egdb_file.h). */
#include "egdb_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char magic[8] = {'D', 'O', 'N', 'J', 'O', 'N', 'D', 'B'};
enum {
    AT_VERSION = 8, AT_KIND = 12, AT_VARIANT = 16, VARIANT_BYTES = 24, AT_MATERIAL = 40,
    AT_BLOCK_POSITIONS = 44, AT_POSITIONS = 48, AT_BLOCKS = 56, AT_DATA_BYTES = 64, AT_CHECKSUM = 72, AT_LONGEST = 80,
};

static void put_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static void put_u64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static uint32_t get_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t get_u64(const uint8_t *p) { return (uint64_t)get_u32(p) | (uint64_t)get_u32(p + 4) << 32; }

/* ------------------------------------------------------------------ checksum */

static inline uint64_t rotate_left(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

static inline uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

uint64_t egdb_checksum(const uint8_t *data, size_t length)
{
    /* four independent lanes of multiply-rotate over 8-byte words: a few GB/s, and any changed
     * byte changes the sum with overwhelming likelihood */
    uint64_t lane[4] = {0x9E3779B97F4A7C15ull, 0xC2B2AE3D27D4EB4Full, 0x165667B19E3779F9ull, 0x27D4EB2F165667C5ull};
    size_t i = 0;
    for (; i + 32 <= length; i += 32)
        for (int k = 0; k < 4; k++) {
            uint64_t word;
            memcpy(&word, data + i + 8 * k, 8);
            lane[k] = rotate_left(lane[k] ^ (word * 0x87C37B91114253D5ull), 31) * 0x4CF5AD432745937Full;
        }
    uint64_t h = length * 0x9E3779B97F4A7C15ull;
    for (int k = 0; k < 4; k++) h = mix64(h ^ lane[k]);
    for (; i < length; i++) h = mix64(h ^ data[i] ^ ((uint64_t)i << 8));
    return h;
}

/* ------------------------------------------------------------------ blocks */

static size_t put_varint(uint8_t *out, uint64_t v)
{
    size_t n = 0;
    while (v >= 0x80) out[n++] = (uint8_t)(v | 0x80), v >>= 7;
    out[n++] = (uint8_t)v;
    return n;
}

static bool get_varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
    uint64_t value = 0;
    for (int shift = 0; shift < 63 && *p < end; shift += 7) {
        uint8_t byte = *(*p)++;
        value |= (uint64_t)(byte & 0x7F) << shift;
        if (!(byte & 0x80)) {
            *v = value;
            return true;
        }
    }
    return false;
}

/* Encodes n values (EGDB_ANY allowed) into out, which holds at least 1 + 5 n bytes. */
static size_t encode_block(EgdbKind kind, const uint16_t *values, int n, uint8_t *out, uint8_t *scratch)
{
    /* a value that does not matter continues the run before it (or starts as the next one) */
    uint16_t filled[EGDB_BLOCK_POSITIONS];
    uint16_t current = 0;
    for (int i = 0; i < n; i++)
        if (values[i] != EGDB_ANY) {
            current = values[i];
            break;
        }
    for (int i = 0; i < n; i++) {
        if (values[i] != EGDB_ANY) current = values[i];
        filled[i] = current;
    }
    size_t runs = 0;
    scratch[runs++] = 1;
    for (int i = 0; i < n;) {
        int j = i;
        while (j < n && filled[j] == filled[i]) j++;
        uint64_t length = (uint64_t)(j - i);
        if (kind == EGDB_KIND_WDL) {
            if (length <= 63)
                scratch[runs++] = (uint8_t)(filled[i] << 6 | length);
            else {
                scratch[runs++] = (uint8_t)(filled[i] << 6);
                runs += put_varint(scratch + runs, length);
            }
        } else {
            scratch[runs++] = (uint8_t)filled[i];
            runs += put_varint(scratch + runs, length);
        }
        i = j;
    }
    size_t raw = 1 + (kind == EGDB_KIND_WDL ? (size_t)(n + 3) / 4 : (size_t)n);
    if (runs < raw) {
        memcpy(out, scratch, runs);
        return runs;
    }
    memset(out, 0, raw);
    out[0] = 0;
    for (int i = 0; i < n; i++) {
        if (kind == EGDB_KIND_WDL)
            out[1 + i / 4] |= (uint8_t)(filled[i] << (2 * (i % 4)));
        else
            out[1 + i] = (uint8_t)filled[i];
    }
    return raw;
}

/* ------------------------------------------------------------------ writing */

bool egdb_writer_start(EgdbWriter *w, EgdbKind kind, uint64_t positions)
{
    memset(w, 0, sizeof *w);
    w->kind = kind;
    w->positions = positions;
    w->blocks = (positions + EGDB_BLOCK_POSITIONS - 1) / EGDB_BLOCK_POSITIONS;
    w->offsets = calloc((size_t)w->blocks + 1, sizeof *w->offsets);
    w->data_capacity = 1 << 16;
    w->data = malloc(w->data_capacity);
    if (!w->offsets || !w->data) {
        egdb_writer_free(w);
        return false;
    }
    return true;
}

static void flush_block(EgdbWriter *w)
{
    if (w->failed || w->pending_count == 0) return;
    size_t worst = 1 + 5 * (size_t)w->pending_count;
    if (w->data_bytes + worst > w->data_capacity) {
        size_t grown = w->data_capacity;
        while (w->data_bytes + worst > grown) grown *= 2;
        uint8_t *bigger = realloc(w->data, grown);
        if (!bigger) {
            w->failed = true;
            return;
        }
        w->data = bigger;
        w->data_capacity = grown;
    }
    static _Thread_local uint8_t scratch[1 + 5 * EGDB_BLOCK_POSITIONS];
    uint64_t block = (w->given - 1) / EGDB_BLOCK_POSITIONS;
    w->offsets[block] = (uint32_t)w->data_bytes;
    w->data_bytes += encode_block(w->kind, w->pending, w->pending_count, w->data + w->data_bytes, scratch);
    if (w->data_bytes > UINT32_MAX) w->failed = true;
    w->offsets[block + 1] = (uint32_t)w->data_bytes;
    w->pending_count = 0;
}

void egdb_writer_put(EgdbWriter *w, uint16_t value)
{
    w->pending[w->pending_count++] = value;
    w->given++;
    if (w->pending_count == EGDB_BLOCK_POSITIONS || w->given == w->positions) flush_block(w);
}

void egdb_writer_free(EgdbWriter *w)
{
    free(w->offsets);
    free(w->data);
    w->offsets = NULL;
    w->data = NULL;
}

bool egdb_writer_finish(EgdbWriter *w, const char *path, const char *variant, EgdbMaterial m, char *err, size_t errlen)
{
    if (w->failed || w->given != w->positions) {
        snprintf(err, errlen, "%s: %s", path, w->failed ? "out of memory or over 4 GB" : "not every value given");
        egdb_writer_free(w);
        return false;
    }
    size_t index_bytes = 4 * ((size_t)w->blocks + 1);
    size_t total = EGDB_HEADER_BYTES + index_bytes + w->data_bytes;
    uint8_t *file = calloc(1, total);
    if (!file) {
        snprintf(err, errlen, "%s: out of memory", path);
        egdb_writer_free(w);
        return false;
    }
    memcpy(file, magic, sizeof magic);
    put_u32(file + AT_VERSION, EGDB_FORMAT_VERSION);
    put_u32(file + AT_KIND, (uint32_t)w->kind);
    snprintf((char *)file + AT_VARIANT, VARIANT_BYTES, "%s", variant);
    file[AT_MATERIAL] = (uint8_t)m.white_men;
    file[AT_MATERIAL + 1] = (uint8_t)m.white_kings;
    file[AT_MATERIAL + 2] = (uint8_t)m.black_men;
    file[AT_MATERIAL + 3] = (uint8_t)m.black_kings;
    put_u32(file + AT_BLOCK_POSITIONS, EGDB_BLOCK_POSITIONS);
    put_u64(file + AT_POSITIONS, w->positions);
    put_u64(file + AT_BLOCKS, w->blocks);
    put_u64(file + AT_DATA_BYTES, w->data_bytes);
    put_u32(file + AT_LONGEST, (uint32_t)w->longest);
    for (uint64_t b = 0; b <= w->blocks; b++) put_u32(file + EGDB_HEADER_BYTES + 4 * b, w->offsets[b]);
    memcpy(file + EGDB_HEADER_BYTES + index_bytes, w->data, w->data_bytes);
    put_u64(file + AT_CHECKSUM, egdb_checksum(file, total));
    egdb_writer_free(w);

    char temporary[4096];
    snprintf(temporary, sizeof temporary, "%s.part", path);
    FILE *f = fopen(temporary, "wb");
    bool ok = f && fwrite(file, 1, total, f) == total;
    if (f && fflush(f) != 0) ok = false;
    if (f && fsync(fileno(f)) != 0) ok = false;
    if (f && fclose(f) != 0) ok = false;
    free(file);
    if (!ok || rename(temporary, path) != 0) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        remove(temporary);
        return false;
    }
    return true;
}

/* ------------------------------------------------------------------ reading */

bool egdb_table_read(EgdbTableFile *t, const char *path, EgdbKind kind, const char *variant, EgdbMaterial m,
                     uint64_t positions, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return false;
    }
    uint8_t *file = NULL;
    size_t size = 0;
    const char *problem = NULL;
    if (fseek(f, 0, SEEK_END) == 0) {
        long end = ftell(f);
        if (end >= 0 && fseek(f, 0, SEEK_SET) == 0) size = (size_t)end;
    }
    if (size < EGDB_HEADER_BYTES)
        problem = "too short for a header (a partial file?)";
    else if (!(file = malloc(size)))
        problem = "out of memory";
    else if (fread(file, 1, size, f) != size)
        problem = "cannot read it";
    fclose(f);
    char expected_variant[VARIANT_BYTES] = {0};
    snprintf(expected_variant, sizeof expected_variant, "%s", variant);
    uint64_t blocks = 0, data_bytes = 0;
    size_t index_bytes = 0;
    if (!problem) {
        blocks = get_u64(file + AT_BLOCKS);
        data_bytes = get_u64(file + AT_DATA_BYTES);
        index_bytes = blocks < (1ull << 40) ? 4 * ((size_t)blocks + 1) : 0;
        if (memcmp(file, magic, sizeof magic) != 0)
            problem = "not a Donjon endgame database file";
        else if (get_u32(file + AT_VERSION) != EGDB_FORMAT_VERSION)
            problem = "made by another version of the format (build it again)";
        else if (get_u32(file + AT_KIND) != (uint32_t)kind)
            problem = "holds another kind of table";
        else if (memcmp(file + AT_VARIANT, expected_variant, VARIANT_BYTES) != 0)
            problem = "is for another variant";
        else if (file[AT_MATERIAL] != m.white_men || file[AT_MATERIAL + 1] != m.white_kings ||
                 file[AT_MATERIAL + 2] != m.black_men || file[AT_MATERIAL + 3] != m.black_kings)
            problem = "is for another material";
        else if (get_u32(file + AT_BLOCK_POSITIONS) != EGDB_BLOCK_POSITIONS || get_u64(file + AT_POSITIONS) != positions ||
                 blocks != (positions + EGDB_BLOCK_POSITIONS - 1) / EGDB_BLOCK_POSITIONS)
            problem = "has the wrong number of positions";
        else if (!index_bytes || size != EGDB_HEADER_BYTES + index_bytes + data_bytes)
            problem = "has the wrong length (a partial file?)";
        else {
            uint64_t stored = get_u64(file + AT_CHECKSUM);
            put_u64(file + AT_CHECKSUM, 0);
            if (egdb_checksum(file, size) != stored) problem = "is damaged (its checksum does not match)";
            put_u64(file + AT_CHECKSUM, stored);
        }
    }
    if (!problem) {
        /* offsets must rise inside the data: a lookup then never leaves its block */
        const uint8_t *offsets = file + EGDB_HEADER_BYTES;
        for (uint64_t b = 0; b < blocks && !problem; b++)
            if (get_u32(offsets + 4 * b) > get_u32(offsets + 4 * (b + 1))) problem = "has a bad block index";
        if (!problem && get_u32(offsets + 4 * blocks) != data_bytes) problem = "has a bad block index";
    }
    if (problem) {
        snprintf(err, errlen, "%s %s", path, problem);
        free(file);
        return false;
    }
    t->kind = kind;
    t->material = m;
    t->positions = positions;
    t->blocks = blocks;
    t->file = file;
    t->file_bytes = size;
    t->offsets = file + EGDB_HEADER_BYTES;
    t->data = file + EGDB_HEADER_BYTES + index_bytes;
    t->data_bytes = data_bytes;
    t->longest = (int)get_u32(file + AT_LONGEST);
    return true;
}

void egdb_table_free(EgdbTableFile *t)
{
    free(t->file);
    memset(t, 0, sizeof *t);
}

/* The next run of a block coded in runs: false when the block ends or is malformed. */
static bool next_run(const uint8_t **p, const uint8_t *end, bool wdl, int *value, uint64_t *length)
{
    if (*p >= end) return false;
    if (wdl) {
        uint8_t token = *(*p)++;
        *value = token >> 6;
        *length = token & 63;
        return *length || get_varint(p, end, length);
    }
    *value = *(*p)++;
    return get_varint(p, end, length);
}

int egdb_table_get(const EgdbTableFile *t, uint64_t index)
{
    if (index >= t->positions) return EGDB_UNKNOWN;
    uint64_t block = index / EGDB_BLOCK_POSITIONS, at = index % EGDB_BLOCK_POSITIONS;
    const uint8_t *p = t->data + get_u32(t->offsets + 4 * block), *end = t->data + get_u32(t->offsets + 4 * (block + 1));
    if (p >= end) return EGDB_UNKNOWN;
    uint8_t mode = *p++;
    bool wdl = t->kind == EGDB_KIND_WDL;
    if (mode == 0) {
        if (wdl) return p + at / 4 < end ? (p[at / 4] >> (2 * (at % 4))) & 3 : EGDB_UNKNOWN;
        return p + at < end ? p[at] : EGDB_UNKNOWN;
    }
    uint64_t covered = 0, length;
    int value;
    while (next_run(&p, end, wdl, &value, &length)) {
        covered += length;
        if (at < covered) return value;
    }
    return EGDB_UNKNOWN;
}

bool egdb_table_unpack(const EgdbTableFile *t, uint8_t *out)
{
    bool wdl = t->kind == EGDB_KIND_WDL;
    if (wdl) memset(out, 0, (size_t)(t->positions + 3) / 4);
    uint64_t index = 0;
    for (uint64_t block = 0; block < t->blocks; block++) {
        const uint8_t *p = t->data + get_u32(t->offsets + 4 * block), *end = t->data + get_u32(t->offsets + 4 * (block + 1));
        uint64_t n = t->positions - index < EGDB_BLOCK_POSITIONS ? t->positions - index : EGDB_BLOCK_POSITIONS;
        if (p >= end) return false;
        uint8_t mode = *p++;
        for (uint64_t i = 0; i < n;) {
            int value;
            uint64_t length = 1;
            if (mode == 0) {
                if (wdl) {
                    if (p + i / 4 >= end) return false;
                    value = (p[i / 4] >> (2 * (i % 4))) & 3;
                } else {
                    if (p + i >= end) return false;
                    value = p[i];
                }
            } else if (!next_run(&p, end, wdl, &value, &length) || length > n - i)
                return false;
            for (uint64_t k = 0; k < length; k++, i++, index++) {
                if (wdl)
                    out[index / 4] |= (uint8_t)(value << (2 * (index % 4)));
                else
                    out[index] = (uint8_t)value;
            }
        }
    }
    return true;
}
