/* dataset.c — training data shards (see dataset.h). */
#include "dataset.h"

#include "../eval_weights.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct DatasetWriter {
    FILE *file;
    char path[512];
    int record_size;
    uint64_t count, checksum;
    DatasetMeta meta;
    const Variant *variant;
    bool failed;
};

int dataset_record_size(const Variant *v) { return DATASET_RECORD_HEAD + v->board_bytes; }

static void put_u16(unsigned char *p, uint32_t x) { p[0] = (unsigned char)x, p[1] = (unsigned char)(x >> 8); }
static void put_u32(unsigned char *p, uint32_t x) { put_u16(p, x), put_u16(p + 2, x >> 16); }
static void put_u64(unsigned char *p, uint64_t x) { put_u32(p, (uint32_t)x), put_u32(p + 4, (uint32_t)(x >> 32)); }
static uint32_t get_u16(const unsigned char *p) { return p[0] | (uint32_t)p[1] << 8; }
static uint32_t get_u32(const unsigned char *p) { return get_u16(p) | get_u16(p + 2) << 16; }
static uint64_t get_u64(const unsigned char *p) { return get_u32(p) | (uint64_t)get_u32(p + 4) << 32; }

void dataset_header(const Variant *v, const DatasetMeta *meta, uint64_t count, uint64_t checksum,
                    unsigned char h[DATASET_HEADER_BYTES])
{
    memset(h, 0, DATASET_HEADER_BYTES);
    memcpy(h, DATASET_MAGIC, 8);
    put_u32(h + 8, DATASET_VERSION);
    put_u32(h + 12, (uint32_t)dataset_record_size(v));
    memcpy(h + 16, v->name, strnlen(v->name, 23)); /* the rest of the 24 bytes stay 0 */
    put_u64(h + 40, count);
    put_u64(h + 48, meta->seed);
    put_u64(h + 56, meta->first_game);
    put_u64(h + 64, meta->games);
    put_u32(h + 72, meta->nodes);
    put_u32(h + 76, meta->depth);
    put_u64(h + 80, checksum);
    put_u32(h + 88, meta->weak_nodes);
    put_u32(h + 92, (meta->weak_hand_set ? 1u : 0u) | (meta->weak_weights ? 2u : 0u) | (meta->records ? 4u : 0u));
    put_u64(h + 96, meta->weak_weights);
}

static void encode_header(const DatasetWriter *w, unsigned char *h)
{
    dataset_header(w->variant, &w->meta, w->count, w->checksum, h);
}

DatasetWriter *dataset_create(const char *path, const Variant *v, const DatasetMeta *meta, char *err, size_t errlen)
{
    DatasetWriter *w = calloc(1, sizeof *w);
    if (!w) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    snprintf(w->path, sizeof w->path, "%s", path);
    w->variant = v;
    w->record_size = dataset_record_size(v);
    w->meta = *meta;
    w->checksum = FNV1A64_START;
    w->file = fopen(path, "wb");
    unsigned char header[DATASET_HEADER_BYTES];
    encode_header(w, header); /* written again, complete, by dataset_close */
    if (!w->file || fwrite(header, 1, sizeof header, w->file) != sizeof header) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        if (w->file) fclose(w->file);
        free(w);
        return NULL;
    }
    return w;
}

bool dataset_append(DatasetWriter *w, const DatasetRecord *r)
{
    unsigned char bytes[DATASET_RECORD_HEAD + sizeof r->position.board];
    const Position *p = &r->position;
    put_u32(bytes, r->game);
    put_u16(bytes + 4, r->ply);
    put_u16(bytes + 6, (uint16_t)r->score);
    bytes[8] = r->result;
    bytes[9] = p->side;
    bytes[10] = p->extra_turns;
    bytes[11] = p->rule_flags;
    put_u16(bytes + 12, p->reversible_plies);
    put_u16(bytes + 14, p->counter);
    memcpy(bytes + DATASET_RECORD_HEAD, p->board, (size_t)(w->record_size - DATASET_RECORD_HEAD));
    w->checksum = fnv1a64(bytes, (size_t)w->record_size, w->checksum);
    if (fwrite(bytes, 1, (size_t)w->record_size, w->file) != (size_t)w->record_size) w->failed = true;
    w->count++;
    return !w->failed;
}

uint64_t dataset_written(const DatasetWriter *w) { return w->count; }

void dataset_set_games(DatasetWriter *w, uint64_t games) { w->meta.games = games; }

bool dataset_close(DatasetWriter *w, char *err, size_t errlen)
{
    unsigned char header[DATASET_HEADER_BYTES];
    encode_header(w, header);
    bool ok = !w->failed && fseek(w->file, 0, SEEK_SET) == 0 && fwrite(header, 1, sizeof header, w->file) == sizeof header;
    if (fclose(w->file) != 0) ok = false;
    if (!ok) snprintf(err, errlen, "%s: cannot write: %s", w->path, strerror(errno));
    free(w);
    return ok;
}

/* Opens a shard and reads its header into h, checking the mark; NULL with err otherwise. */
static FILE *open_shard(const char *path, const char *mode, unsigned char *h, char *err, size_t errlen)
{
    FILE *f = fopen(path, mode);
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return NULL;
    }
    size_t got = fread(h, 1, DATASET_HEADER_BYTES, f);
    if (got < DATASET_HEADER_BYTES || memcmp(h, DATASET_MAGIC, 8) != 0) {
        snprintf(err, errlen, "%s: not a Donjon data shard (%s at offset 0)", path,
                 got < DATASET_HEADER_BYTES ? "shorter than the 128-byte header" : "no DJDATA01 mark");
        fclose(f);
        return NULL;
    }
    return f;
}

/* A record's result and side to move are in range (a torn or damaged one's may not be). */
static bool record_plausible(const unsigned char *b) { return b[8] <= 2 && b[9] <= 1; }

bool dataset_read(const char *path, const Variant *v, void (*visit)(void *ctx, const DatasetRecord *r), void *ctx,
                  DatasetMeta *meta, char *err, size_t errlen)
{
    unsigned char h[DATASET_HEADER_BYTES];
    FILE *f = open_shard(path, "rb", h, err, errlen);
    if (!f) return false;
    char variant[25] = {0};
    memcpy(variant, h + 16, 24);
    uint32_t version = get_u32(h + 8), record_size = get_u32(h + 12);
    uint64_t count = get_u64(h + 40), checksum = get_u64(h + 80);
    bool ok = false;
    if (version != DATASET_VERSION)
        snprintf(err, errlen, "%s: version %u at offset 8, this engine reads version %d", path, version, DATASET_VERSION);
    else if (strcmp(variant, v->name) != 0)
        snprintf(err, errlen, "%s: data of variant '%s' (offset 16), not %s", path, variant, v->name);
    else if (record_size != (uint32_t)dataset_record_size(v))
        snprintf(err, errlen, "%s: records of %u bytes (offset 12), %s records have %d", path, record_size, v->name,
                 dataset_record_size(v));
    else
        ok = true;
    if (!ok) {
        fclose(f);
        return false;
    }
    if (meta) {
        meta->seed = get_u64(h + 48);
        meta->first_game = get_u64(h + 56);
        meta->games = get_u64(h + 64);
        meta->nodes = get_u32(h + 72);
        meta->depth = get_u32(h + 76);
        meta->weak_nodes = get_u32(h + 88);
        meta->weak_hand_set = (get_u32(h + 92) & 1) != 0;
        meta->records = (get_u32(h + 92) & 4) != 0;
        meta->weak_weights = get_u64(h + 96);
    }
    /* two passes: the checksum over the whole file first, so that nothing of a damaged shard
     * reaches the caller */
    unsigned char *block = malloc((size_t)record_size * 4096);
    if (!block) {
        snprintf(err, errlen, "%s: out of memory", path);
        fclose(f);
        return false;
    }
    for (int pass = 0; pass < 2 && ok; pass++) {
        fseek(f, DATASET_HEADER_BYTES, SEEK_SET);
        uint64_t hash = FNV1A64_START, seen = 0;
        for (;;) {
            size_t n = fread(block, record_size, 4096, f);
            for (size_t i = 0; i < n && pass == 1; i++) {
                const unsigned char *b = block + i * record_size;
                DatasetRecord r;
                memset(&r, 0, sizeof r);
                r.game = get_u32(b);
                r.ply = (uint16_t)get_u16(b + 4);
                r.score = (int16_t)get_u16(b + 6);
                r.result = b[8];
                r.position.side = b[9];
                r.position.extra_turns = b[10];
                r.position.rule_flags = b[11];
                r.position.reversible_plies = (uint16_t)get_u16(b + 12);
                r.position.counter = (uint16_t)get_u16(b + 14);
                memcpy(r.position.board, b + DATASET_RECORD_HEAD, record_size - DATASET_RECORD_HEAD);
                if (!record_plausible(b)) {
                    snprintf(err, errlen, "%s: bad record %" PRIu64 " at offset %" PRIu64 " (result %d, side %d)", path,
                             seen + i, (uint64_t)DATASET_HEADER_BYTES + (seen + i) * record_size, r.result,
                             r.position.side);
                    ok = false;
                    break;
                }
                /* the checksum says the bytes are the writer's, not that the writer was sound */
                if (v->board_valid && !v->board_valid(v, &r.position)) {
                    snprintf(err, errlen, "%s: bad record %" PRIu64 " at offset %" PRIu64 " (not a %s board)", path,
                             seen + i, (uint64_t)DATASET_HEADER_BYTES + (seen + i) * record_size, v->name);
                    ok = false;
                    break;
                }
                visit(ctx, &r);
            }
            if (!ok) break;
            if (pass == 0) hash = fnv1a64(block, n * record_size, hash);
            seen += n;
            if (n < 4096) break;
        }
        if (!ok) break;
        long end = ftell(f);
        uint64_t expected = DATASET_HEADER_BYTES + count * record_size;
        if (pass == 0 && (seen != count || (uint64_t)end != expected)) {
            snprintf(err, errlen, "%s: %s: %" PRIu64 " records where the header (offset 40) says %" PRIu64
                     "; the file ends at offset %ld, expected %" PRIu64, path,
                     (uint64_t)end < expected ? "truncated" : "trailing bytes", seen, count, end, expected);
            ok = false;
        } else if (pass == 0 && hash != checksum) {
            snprintf(err, errlen, "%s: damaged: the checksum (offset 80) does not match the records at offsets 128-%ld",
                     path, end);
            ok = false;
        }
    }
    free(block);
    fclose(f);
    return ok;
}

bool dataset_salvage(const char *path, uint64_t *kept, char *err, size_t errlen)
{
    unsigned char h[DATASET_HEADER_BYTES];
    FILE *f = open_shard(path, "r+b", h, err, errlen);
    if (!f) return false;
    uint32_t record_size = get_u32(h + 12);
    if (get_u32(h + 8) != DATASET_VERSION || record_size <= DATASET_RECORD_HEAD ||
        record_size > DATASET_RECORD_HEAD + sizeof(((Position *)0)->board)) {
        snprintf(err, errlen, "%s: not a Donjon data shard of version %d (offset 8)", path, DATASET_VERSION);
        fclose(f);
        return false;
    }
    unsigned char *record = malloc(record_size);
    if (!record) {
        snprintf(err, errlen, "%s: out of memory", path);
        fclose(f);
        return false;
    }
    uint64_t count = 0, hash = FNV1A64_START, first_game = get_u64(h + 56), last_game = first_game;
    /* a record is kept when it is whole and plausible: a killed writer leaves at most a torn
     * last one, whose bytes are whatever the buffer held */
    while (fread(record, 1, record_size, f) == record_size && record_plausible(record) &&
           get_u32(record) >= first_game) {
        hash = fnv1a64(record, record_size, hash);
        if (get_u32(record) > last_game) last_game = get_u32(record);
        count++;
    }
    free(record);
    put_u64(h + 40, count);
    if (count) put_u64(h + 64, last_game - first_game + 1);
    put_u64(h + 80, hash);
    bool ok = fflush(f) == 0 && fseek(f, 0, SEEK_SET) == 0 && fwrite(h, 1, sizeof h, f) == sizeof h &&
              fflush(f) == 0 && ftruncate(fileno(f), (off_t)(DATASET_HEADER_BYTES + count * record_size)) == 0;
    if (fclose(f) != 0) ok = false;
    if (!ok) snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
    *kept = count;
    return ok;
}
