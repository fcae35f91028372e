/*
 * fuzz_targets.c — fuzz entry points (libFuzzer's LLVMFuzzerTestOneInput), one per build:
 *   FUZZ_FEN       every game's FEN parser; a position that parses must print, parse back to the
 *                  same FEN and key, and every legal move must print, parse back and be playable;
 *   FUZZ_MOVE      every game's move-text parser on the start and bench positions;
 *   FUZZ_PROTOCOL  the command-line parser and whole protocol sessions (the engine is built with
 *                  DONJON_FUZZING, which keeps searches, perft and allocations small);
 *   FUZZ_HUB       whole sessions of the Hub protocol (`donjon hub`), built as FUZZ_PROTOCOL;
 *   FUZZ_RECORDS   `donjon records` on a game-records file (PDN) made of the input: it either
 *                  writes a shard or fails and leaves none;
 *   FUZZ_DATASET   the data-shard reader on records made of the input behind a good header and
 *                  checksum: what it hands on (every board checked) must be readable by the
 *                  features and the evaluation;
 *   FUZZ_WEIGHTS   the weights-file reader on a variant's built-in file with the input's byte
 *                  patches (and a cut), the checksum made good or not: a file it accepts must give
 *                  the same score by the fast path, the plain feature sum and the accumulator;
 *   FUZZ_DXP       whole DXP sessions (`donjon dxp`, connecting to the target's own socket): the
 *                  input is what the peer sends, at once; the session must end with 0 or 1, and
 *                  every message Donjon sends must be well formed.
 * The first input byte picks the variant (and position) where one is needed.
 */
#include "../../src/dxp.h"
#include "../../src/eval_weights.h"
#include "../../src/game.h"
#include "../../src/hub.h"
#include "../../src/protocol.h"
#include "../../src/tools/dataset.h"
#include "../../src/tools/tools.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef FUZZ_DXP
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/socket.h>
#endif

/* inline: not every target uses it; to the descriptor, as stderr may be silenced for a run */
static inline void require(int condition, const char *what)
{
    if (!condition) {
        dprintf(STDERR_FILENO, "fuzz check failed: %s\n", what);
        abort();
    }
}

static inline int variant_count(void)
{
    int n = 0;
    while (variant_at(n)) n++;
    return n;
}

#if defined(FUZZ_FEN) || defined(FUZZ_MOVE)
static char *as_text(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = 0;
    return text;
}
#endif

#ifdef FUZZ_FEN
static void check_position(const Variant *v, const Position *pos)
{
    char fen[FEN_TEXT_MAX], again[FEN_TEXT_MAX], err[256];
    v->format_fen(v, pos, fen, sizeof fen);
    Position reparsed;
    require(v->parse_fen(v, fen, &reparsed, err, sizeof err), "a printed FEN parses");
    v->format_fen(v, &reparsed, again, sizeof again);
    require(strcmp(fen, again) == 0, "FEN round trip");
    require(reparsed.key == pos->key, "key of the reparsed FEN");
    static Move legal[MAX_MOVES];
    int n = v->generate(v, pos, legal);
    require(n >= 0 && n <= MAX_MOVES, "move count");
    for (int i = 0; i < n && i < 64; i++) {
        char text[MOVE_TEXT_MAX];
        v->format_move(v, pos, &legal[i], text, sizeof text);
        int index = v->parse_move(v, pos, text, legal, n, err, sizeof err);
        require(index >= 0 && move_equal(&legal[index], &legal[i]), "a printed move parses to itself");
        Position child;
        v->make_move(v, pos, &legal[i], &child);
        char board[BOARD_TEXT_MAX];
        v->print_board(v, &child, board, sizeof board);
        v->evaluate(v, &child);
    }
    bool forced;
    v->generate_noisy(v, pos, legal, &forced);
    v->evaluate(v, pos);
}
#endif

#ifdef FUZZ_DATASET
/* What train does with a record: its features, and the scores of the weights. */
static void visit_record(void *ctx, const DatasetRecord *r)
{
    const Variant *v = ctx;
    static Feature features[FEATURES_MAX];
    int phase, scale;
    int n = v->features->extract(v, &r->position, features, &phase, &scale);
    require(n >= 0 && n <= FEATURES_MAX, "feature count");
    const EvalWeights *w = eval_weights_builtin(v);
    if (w) require(learned_evaluate(v, &r->position, w) == learned_evaluate_generic(v, &r->position, w),
                   "fast path = feature sum");
    v->evaluate(v, &r->position);
}
#endif
#ifdef FUZZ_WEIGHTS
static void write_le(unsigned char *p, uint64_t x, int bytes)
{
    for (int i = 0; i < bytes; i++) p[i] = (unsigned char)(x >> (8 * i));
}

/* v's built-in weights as the file eval_weights_write would make of them (size in *size). */
static unsigned char *builtin_file(const Variant *v, const EvalWeights *w, size_t *size)
{
    size_t count = w->count;
    *size = WEIGHTS_HEADER_BYTES + count * 4;
    unsigned char *file = malloc(*size);
    eval_weights_header(v, w->opening, w->ending, file);
    memcpy(file + WEIGHTS_HEADER_BYTES, w->opening, count * 2);
    memcpy(file + WEIGHTS_HEADER_BYTES + count * 2, w->ending, count * 2);
    return file;
}

/* The three ways to the score agree on pos and on its children, the accumulator carried from pos. */
static void check_scores(const Variant *v, const Position *pos, const EvalWeights *w)
{
    require(learned_evaluate(v, pos, w) == learned_evaluate_generic(v, pos, w), "fast path = feature sum");
    if (!learned_incremental(v, w)) return;
    EvalAccumulator acc, child_acc, fresh;
    v->features->accumulate(v, pos, w->prepared, NULL, NULL, &acc);
    require(learned_evaluate_accumulated(v, pos, w, &acc) == learned_evaluate(v, pos, w), "accumulator = fast path");
    static Move legal[MAX_MOVES];
    int n = v->generate(v, pos, legal);
    for (int i = 0; i < n && i < 32; i++) {
        Position child;
        v->make_move(v, pos, &legal[i], &child);
        v->features->accumulate(v, &child, w->prepared, pos, &acc, &child_acc);
        v->features->accumulate(v, &child, w->prepared, NULL, NULL, &fresh);
        require(learned_evaluate_accumulated(v, &child, w, &child_acc) ==
                    learned_evaluate_accumulated(v, &child, w, &fresh),
                "accumulator from the parent = from scratch");
        require(learned_evaluate(v, &child, w) == learned_evaluate_generic(v, &child, w), "fast path = feature sum");
    }
}
#endif

#ifdef FUZZ_DXP
/* The fields of a message Donjon sends (protocol.md, "DXP"): its type's fixed widths, digits
 * where numbers go, printable ASCII, at most 127 bytes. */
static int digits(const char *m, size_t from, size_t count)
{
    for (size_t i = from; i < from + count; i++)
        if (m[i] < '0' || m[i] > '9') return 0;
    return 1;
}

static void check_sent_message(const char *m, size_t length)
{
    require(length >= 1 && length <= 127, "a sent message is 1 to 127 bytes");
    for (size_t i = 0; i < length; i++) require(m[i] >= 32 && m[i] < 127, "a sent message is printable ASCII");
    switch (m[0]) {
    case 'R':
        require(length >= 43 && strncmp(m + 1, "01", 2) == 0 && (m[35] == 'W' || m[35] == 'Z') && digits(m, 36, 6),
                "R fields");
        require((length == 43 && m[42] == 'A') || (length == 94 && m[42] == 'B' && strspn(m + 44, "ewzWZ") == 50),
                "R position");
        break;
    case 'A': require(length == 34 && digits(m, 33, 1), "A fields"); break;
    case 'M':
        require(length >= 11 && digits(m, 1, length - 1), "M digits");
        require(length == 11 + 2 * (size_t)((m[9] - '0') * 10 + m[10] - '0'), "M length = its capture count");
        break;
    case 'E': require(length == 3 && m[1] >= '0' && m[1] <= '3' && (m[2] == '0' || m[2] == '1'), "E fields"); break;
    case 'C': break;
    case 'B': require(length == 5 && digits(m, 1, 3) && (m[4] == 'W' || m[4] == 'Z'), "B fields"); break;
    case 'K': require(length == 2 && digits(m, 1, 1), "K fields"); break;
    default: require(0, "a sent message has a known type");
    }
}

typedef struct {
    char *argv[16];
    int argc, status;
    _Atomic int done;
    FILE *log;                  /* the session's lines and complaints */
} DxpRun;

static void *run_dxp(void *context)
{
    DxpRun *run = context;
    run->status = dxp_main(run->argc, run->argv);
    atomic_store(&run->done, 1);
    return NULL;
}

/* A check of the session: when it fails, what the session said comes first. */
static void require_session(DxpRun *run, int condition, const char *what)
{
    if (condition) return;
    char line[512];
    fflush(run->log);
    rewind(run->log);
    while (fgets(line, sizeof line, run->log)) dprintf(STDERR_FILENO, "session: %s", line);
    require(0, what);
}
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int initialised;
    if (!initialised) {
        games_init();
        initialised = 1;
#if defined(FUZZ_PROTOCOL) || defined(FUZZ_HUB)
        if (!freopen("/dev/null", "w", stdout)) abort();
#endif
    }
    if (size < 1) return 0;
#if defined(FUZZ_FEN)
    const Variant *v = variant_at(data[0] % variant_count());
    char *text = as_text(data + 1, size - 1);
    Position pos;
    char err[256];
    if (v->parse_fen(v, text, &pos, err, sizeof err)) check_position(v, &pos);
    free(text);
#elif defined(FUZZ_MOVE)
    const Variant *v = variant_at(data[0] % variant_count());
    int which = size > 1 ? data[1] % 4 : 0;
    const char *fen = v->start_fen;
    for (int i = 0; i < which && v->bench_fens[i]; i++) fen = v->bench_fens[i];
    Position pos;
    char err[256];
    require(v->parse_fen(v, fen, &pos, err, sizeof err), "bench FEN");
    static Move legal[MAX_MOVES];
    int n = v->generate(v, &pos, legal);
    char *text = as_text(data + (size > 1 ? 2 : 1), size - (size > 1 ? 2 : 1));
    int index = v->parse_move(v, &pos, text, legal, n, err, sizeof err);
    require(index >= -1 && index < n, "parse_move index");
    if (index >= 0) {
        Position child;
        v->make_move(v, &pos, &legal[index], &child);
    }
    free(text);
#elif defined(FUZZ_PROTOCOL)
    FILE *in = fmemopen((void *)data, size, "r");
    if (in) {
        protocol_loop(in);
        fclose(in);
    }
#elif defined(FUZZ_HUB)
    FILE *in = fmemopen((void *)data, size, "r");
    if (in) {
        hub_loop(in);
        fclose(in);
    }
#elif defined(FUZZ_RECORDS)
    /* data[0]: the variant; the rest: the file's text */
    const Variant *v = variant_at(data[0] % variant_count());
    char pdn[64], shard[64];
    snprintf(pdn, sizeof pdn, "/tmp/donjon-fuzz-%d.pdn", (int)getpid());
    snprintf(shard, sizeof shard, "/tmp/donjon-fuzz-%d.bin", (int)getpid());
    FILE *f = fopen(pdn, "wb");
    require(f && fwrite(data + 1, 1, size - 1, f) == size - 1 && fclose(f) == 0, "write the records file");
    char *argv[] = {"donjon", "records", "--variant", (char *)v->name, "--pdn", pdn, "--out", shard,
                    "--nodes", "1", "--hash", "1", NULL};
    /* the tool's one line of summary or error a run, out of the fuzzer's log (the sanitizers
     * write to the descriptor, not through stderr) */
    FILE *log = stderr, *quiet = fopen("/dev/null", "w");
    if (quiet) stderr = quiet;
    int status = records_main(12, argv);
    stderr = log;
    if (quiet) fclose(quiet);
    require(status == 0 || status == 1, "records ends with 0 or 1");
    require((status == 0) == (access(shard, F_OK) == 0), "a shard exactly when records succeeds");
    remove(shard);
    remove(pdn);
#elif defined(FUZZ_DATASET)
    /* data[0]: the variant; the rest: records (whole ones only), behind a good header */
    const Variant *v = variant_at(data[0] % variant_count());
    if (!v->features) return 0;
    size_t record_size = (size_t)dataset_record_size(v), count = (size - 1) / record_size;
    size_t file_size = DATASET_HEADER_BYTES + count * record_size;
    unsigned char *file = malloc(file_size);
    DatasetMeta meta = {0};
    dataset_header(v, &meta, count, fnv1a64(data + 1, count * record_size, FNV1A64_START), file);
    memcpy(file + DATASET_HEADER_BYTES, data + 1, count * record_size);
    char path[64], err[512];
    snprintf(path, sizeof path, "/tmp/donjon-fuzz-%d.bin", (int)getpid());
    FILE *f = fopen(path, "wb");
    require(f && fwrite(file, 1, file_size, f) == file_size && fclose(f) == 0, "write the shard");
    dataset_read(path, v, visit_record, (void *)v, NULL, err, sizeof err);
    remove(path);
    free(file);
#elif defined(FUZZ_WEIGHTS)
    /* data[0]: the variant; data[1]: bit 0 keeps the checksum as patched (else it is made
     * good, so that the weights themselves are read), bit 1 cuts the file at the last patch,
     * bit 2 first fills a range of the weights (from data[2]/256 of the table, data[3]/256 of
     * it long, in both phases) from a generator seeded by the input, a third of them at the
     * 16-bit limits: byte patches alone seldom reach the pairs of weights whose sums the fast
     * tables must refuse, and a range can spare the groups whose refusal would come first;
     * then patches of 4 bytes: a 24-bit offset (modulo the file's size) and the byte to write */
    const Variant *v = variant_at(data[0] % variant_count());
    const EvalWeights *builtin = eval_weights_builtin(v);
    if (!builtin || size < 2) return 0;
    size_t file_size;
    unsigned char *file = builtin_file(v, builtin, &file_size);
    size_t last = file_size;
    if (data[1] & 4) {
        uint64_t state = 0x9e3779b97f4a7c15ull;
        for (size_t at = 1; at < size; at++) state = (state ^ data[at]) * 0x100000001b3ull;
        size_t count = builtin->count, from = count * (size > 2 ? data[2] : 0) / 256;
        size_t to = from + count * (size > 3 ? data[3] + 1 : 256) / 256;
        for (size_t i = from; i < to && i < count; i++)
            for (int phase = 0; phase < 2; phase++) {
                state ^= state << 13, state ^= state >> 7, state ^= state << 17;
                int kind = (int)(state % 3);
                uint16_t value = kind == 0 ? 0x7fff : kind == 1 ? 0x8000 : (uint16_t)(state >> 32);
                write_le(file + WEIGHTS_HEADER_BYTES + (phase * count + i) * 2, value, 2);
            }
    }
    for (size_t at = data[1] & 4 ? 4 : 2; at + 4 <= size; at += 4) {
        last = (data[at] | data[at + 1] << 8 | (size_t)data[at + 2] << 16) % file_size;
        file[last] = data[at + 3];
    }
    if (data[1] & 2) file_size = last;
    if (!(data[1] & 1) && file_size >= WEIGHTS_HEADER_BYTES)
        write_le(file + 88, fnv1a64(file + WEIGHTS_HEADER_BYTES, file_size - WEIGHTS_HEADER_BYTES, FNV1A64_START), 8);
    EvalWeights w;
    char err[512];
    if (eval_weights_parse(v, file, file_size, "fuzz", &w, err, sizeof err)) {
        Position pos;
        require(v->parse_fen(v, v->start_fen, &pos, err, sizeof err), "start FEN");
        check_scores(v, &pos, &w);
        for (int i = 0; v->bench_fens[i]; i++) {
            require(v->parse_fen(v, v->bench_fens[i], &pos, err, sizeof err), "bench FEN");
            check_scores(v, &pos, &w);
        }
        free(w.prepared);
    } else
        require(strncmp(err, "fuzz: ", 6) == 0, "a refusal names the file");
    free(file);
#elif defined(FUZZ_DXP)
    /* data[0]: bits 0-1 the variant (the four draughts games), bit 2 Donjon the initiator, bits
     * 3-4 the games it plays or accepts (1 to 4); the rest: the peer's bytes, sent at once, then
     * the peer's side of the connection is shut */
    static const char *variants[] = {"international", "checkers", "russian", "brazilian"};
    int listener = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t address_length = sizeof address;
    require(listener >= 0 && bind(listener, (struct sockaddr *)&address, sizeof address) == 0 &&
                listen(listener, 1) == 0 &&
                getsockname(listener, (struct sockaddr *)&address, &address_length) == 0,
            "a listening socket");
    char port[16], games[8];
    snprintf(port, sizeof port, "%d", ntohs(address.sin_port));
    snprintf(games, sizeof games, "%d", 1 + (data[0] >> 3 & 3));
    DxpRun run = {.argv = {"--port", port, "--variant", (char *)variants[data[0] & 3], "--depth", "2", "--hash",
                           "1", "--timeout", "5", "--games", games}};
    run.argc = 12;
    if (data[0] & 4) run.argv[run.argc++] = "--initiator";
    /* the session's lines (stdout) and complaints (stderr), out of the fuzzer's log (the
     * sanitizers write to the descriptor, not through stderr), kept for a failed check */
    FILE *out = stdout, *err = stderr;
    run.log = tmpfile();
    require(run.log != NULL, "a file for the session's lines");
    stdout = stderr = run.log;
    pthread_t session;
    require(pthread_create(&session, NULL, run_dxp, &run) == 0, "start the session");
    struct pollfd waiting = {.fd = listener, .events = POLLIN};
    for (int waited_ms = 0; poll(&waiting, 1, 100) != 1; waited_ms += 100)
        require_session(&run, !atomic_load(&run.done) && waited_ms < 60000, "the session connects");
    int peer = accept(listener, NULL, NULL);
    require_session(&run, peer >= 0, "accept the session");
    close(listener);
    for (size_t sent = 1; sent < size;) {
        ssize_t n = send(peer, data + sent, size - sent, MSG_NOSIGNAL);
        if (n <= 0) break; /* the session closed first */
        sent += (size_t)n;
    }
    shutdown(peer, SHUT_WR);
    /* everything the session sends, to its end (it closes the connection) */
    static char received[1 << 16];
    size_t used = 0;
    for (;;) {
        struct pollfd readable = {.fd = peer, .events = POLLIN};
        require_session(&run, poll(&readable, 1, 60000) == 1, "the session ends once the peer is silent");
        ssize_t n = recv(peer, received + used, sizeof received - used, 0);
        if (n <= 0) break;
        used += (size_t)n;
        char *nul;
        while ((nul = memchr(received, 0, used))) {
            size_t length = (size_t)(nul - received);
            check_sent_message(received, length);
            memmove(received, nul + 1, used - length - 1);
            used -= length + 1;
        }
        require(used < sizeof received, "a sent message ends");
    }
    require(used == 0, "the last sent message ends with its NUL");
    close(peer);
    pthread_join(session, NULL);
    require_session(&run, run.status == 0 || run.status == 1, "a session ends with 0 or 1");
    stdout = out, stderr = err;
    fclose(run.log);
#else
#error "define FUZZ_FEN, FUZZ_MOVE, FUZZ_PROTOCOL, FUZZ_HUB, FUZZ_RECORDS, FUZZ_DATASET, FUZZ_WEIGHTS or FUZZ_DXP"
#endif
    return 0;
}
