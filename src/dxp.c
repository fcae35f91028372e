/*
 * dxp.c — DXP (DamExchange protocol): Donjon plays draughts games against another program over
 * TCP (`donjon dxp …`). It owns the socket, the DXP message formats, each game's record and both
 * clocks, and translates moves to the engine facade. One thread runs the session as an event
 * loop over the socket and a wake-up pipe; the search thread's bestmove callback only stores the
 * move (under a lock) and writes a byte to that pipe.
 *
 * A message is ASCII text ended by a NUL byte; its first letter is its type, and its fields have
 * fixed widths (protocol.md, "DXP"). Every defect of the peer (a malformed or overlong message,
 * an illegal move, silence, a closed connection) is said on stderr and ends the game properly.
 */
#include "dxp.h"

#include "draughts_text.h"
#include "engine.h"
#include "games/draughts.h"
#include "version.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define DXP_DEFAULT_PORT 27531
#define DXP_NAME_WIDTH 32
#define DXP_MESSAGE_MAX 1024        /* a longer message (no NUL within) is malformed */
#define DXP_CHAT_MAX 127            /* the longest message Donjon sends: DXP's traditional limit */
#define DXP_MOVE_OVERHEAD_MS 50     /* kept back from every move for the network */
#define DXP_UNTIMED_MOVE_MS 1000    /* a request of 0 minutes: think this long per move */
#define CONNECT_RETRY_MS 10000      /* a connecting side retries this long while nobody listens */
#define END_ANSWER_WAIT_MS 10000    /* how long a game end waits for the peer's own game end */
#define CLOSE_DRAIN_MS 1000         /* reading what is left before closing, so nothing is cut */

typedef struct {
    const char *host;
    int port;
    bool listen, initiator;
    int minutes, period_moves;  /* the time control: minutes for period_moves moves (0 = the game) */
    int games;                  /* initiator: games to play; follower: most games to accept (0 = any) */
    const char *pdn_path;
    const Variant *variant;
    int depth;
    uint64_t nodes;
    int threads, hash_mb;
    int timeout_s;              /* silence tolerated beyond the peer's clock; 0 = forever */
} DxpOptions;

typedef enum { EVENT_MESSAGE, EVENT_OVERLONG, EVENT_SEARCH_DONE, EVENT_TIMEOUT, EVENT_CLOSED } EventKind;

typedef struct {
    DxpOptions opt;
    Engine *engine;
    int fd;
    bool broken;                       /* a send failed: the peer is gone */
    char inbox[DXP_MESSAGE_MAX * 2];   /* received bytes not yet split into messages */
    size_t inbox_used;
    bool discarding;                   /* inside an overlong message: drop bytes up to its NUL */
    char pending[DXP_MESSAGE_MAX + 1]; /* a message read ahead, handled next */
    bool has_pending;
    int wake[2];                       /* the search thread writes here when its move is ready */
    pthread_mutex_t lock;              /* guards the three result fields below */
    bool result_ready, result_found;
    Move result;
    SearchLimits limits;
    char our_name[DXP_NAME_WIDTH + 16];
    char peer_name[DXP_NAME_WIDTH + 1];
    int games_done, wins, draws, losses, unfinished;
    bool peer_wants_stop;
} Dxp;

typedef struct {
    int number;
    int our_side;
    char start_fen[FEN_TEXT_MAX];
    int first_side;
    Move *moves;
    int count, capacity;
    int minutes, period_moves;
    int64_t clock_ms[2];
    int moves_made[2];
    int64_t turn_started_ms;
    bool searching;
    bool over;
    const char *result;        /* "1-0", "0-1", "1/2-1/2" or "*" */
    char termination[200];
} DxpGame;

typedef enum { GAME_DONE, SESSION_LOST } GameEnd;

/* ------------------------------------------------------------ output */

static void say(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vfprintf(stdout, format, args);
    va_end(args);
    fputc('\n', stdout);
    fflush(stdout);
}

static void complain(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    fputs("dxp: ", stderr);
    vfprintf(stderr, format, args);
    va_end(args);
    fputc('\n', stderr);
    fflush(stderr);
}

/* Peer text made safe to print: printable ASCII, bounded, quotes replaced. */
static const char *printable(const char *text, char *out, size_t len)
{
    size_t i = 0;
    for (; text[i] && i + 4 < len && i < 80; i++) {
        unsigned char c = (unsigned char)text[i];
        out[i] = c == '"' ? '\'' : (c >= 32 && c < 127) ? (char)c : '?';
    }
    if (text[i] && i + 4 < len) out[i++] = '.', out[i++] = '.', out[i++] = '.';
    out[i] = 0;
    return out;
}

static const char *side_name(int side) { return side == SIDE_WHITE ? "white" : "black"; }

/* ------------------------------------------------------------ options */

static void usage(void)
{
    fprintf(stderr,
            "usage: donjon dxp [--listen] [--initiator] [--host HOST] [--port PORT] [--time MINUTES]\n"
            "                  [--moves N] [--games N] [--pdn FILE] [--variant NAME] [--depth N] [--nodes N]\n"
            "                  [--threads N] [--hash MB] [--timeout SECONDS]\n"
            "  --listen     wait for the other program to connect (else connect to it)\n"
            "  --initiator  propose the games (else accept the other program's proposals)\n"
            "  defaults: --host 127.0.0.1 --port %d --time 5 --moves 75, --games 1 for an initiator\n"
            "  (a follower accepts any number), --variant international, --timeout 300\n",
            DXP_DEFAULT_PORT);
}

static bool option_number(const char *name, const char *text, long long low, long long high, long long *out)
{
    char *end;
    errno = 0;
    long long value = text ? strtoll(text, &end, 10) : 0;
    if (!text || !*text || *end || errno == ERANGE || value < low || value > high) {
        complain("%s needs an integer from %lld to %lld", name, low, high);
        return false;
    }
    *out = value;
    return true;
}

static bool parse_options(int argc, char **argv, DxpOptions *o)
{
    *o = (DxpOptions){.host = "127.0.0.1", .port = DXP_DEFAULT_PORT, .minutes = 5, .period_moves = 75,
                      .games = -1, .variant = &variant_international, .threads = 1, .hash_mb = 16,
                      .timeout_s = 300};
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        long long n;
        if (strcmp(a, "--listen") == 0)
            o->listen = true;
        else if (strcmp(a, "--initiator") == 0)
            o->initiator = true;
        else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage();
            return false;
        } else if (!value) {
            complain("unknown option or missing value: %s", a);
            usage();
            return false;
        } else {
            i++;
            if (strcmp(a, "--host") == 0)
                o->host = value;
            else if (strcmp(a, "--pdn") == 0)
                o->pdn_path = value;
            else if (strcmp(a, "--variant") == 0) {
                o->variant = variant_by_name(value);
                if (!o->variant || !draughts_is_variant(o->variant)) {
                    complain("--variant: '%s' is not a draughts variant (checkers, russian, brazilian, "
                             "international)", value);
                    return false;
                }
            } else if (strcmp(a, "--port") == 0) {
                if (!option_number(a, value, 0, 65535, &n)) return false;
                o->port = (int)n;
            } else if (strcmp(a, "--time") == 0) {
                if (!option_number(a, value, 0, 999, &n)) return false;
                o->minutes = (int)n;
            } else if (strcmp(a, "--moves") == 0) {
                if (!option_number(a, value, 0, 999, &n)) return false;
                o->period_moves = (int)n;
            } else if (strcmp(a, "--games") == 0) {
                if (!option_number(a, value, 1, 100000, &n)) return false;
                o->games = (int)n;
            } else if (strcmp(a, "--depth") == 0) {
                if (!option_number(a, value, 1, MAX_PLY - 1, &n)) return false;
                o->depth = (int)n;
            } else if (strcmp(a, "--nodes") == 0) {
                if (!option_number(a, value, 1, INT64_MAX, &n)) return false;
                o->nodes = (uint64_t)n;
            } else if (strcmp(a, "--threads") == 0) {
                if (!option_number(a, value, 1, THREADS_MAX, &n)) return false;
                o->threads = (int)n;
            } else if (strcmp(a, "--hash") == 0) {
                if (!option_number(a, value, 1, HASH_MAX_MB, &n)) return false;
                o->hash_mb = (int)n;
            } else if (strcmp(a, "--timeout") == 0) {
                if (!option_number(a, value, 0, 1000000, &n)) return false;
                o->timeout_s = (int)n;
            } else {
                complain("unknown option: %s", a);
                usage();
                return false;
            }
        }
    }
    if (o->games < 0) o->games = o->initiator ? 1 : 0;
    return true;
}

/* ------------------------------------------------------------ connection */

static int64_t deadline_after(int64_t from_ms, int64_t wait_ms, int timeout_s)
{
    return timeout_s > 0 ? from_ms + wait_ms + (int64_t)timeout_s * 1000 : -1;
}

static int listen_and_accept(Dxp *d)
{
    char port[16];
    snprintf(port, sizeof port, "%d", d->opt.port);
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE};
    struct addrinfo *found;
    int status = getaddrinfo(d->opt.host, port, &hints, &found);
    if (status) {
        complain("cannot listen on %s: %s", d->opt.host, gai_strerror(status));
        return -1;
    }
    int listener = -1;
    for (struct addrinfo *a = found; a && listener < 0; a = a->ai_next) {
        listener = socket(a->ai_family, a->ai_socktype, a->ai_protocol);
        if (listener < 0) continue;
        int yes = 1;
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
        if (bind(listener, a->ai_addr, a->ai_addrlen) < 0 || listen(listener, 1) < 0) {
            complain("cannot listen on %s port %d: %s", d->opt.host, d->opt.port, strerror(errno));
            close(listener);
            listener = -1;
        }
    }
    freeaddrinfo(found);
    if (listener < 0) return -1;
    struct sockaddr_storage bound;
    socklen_t bound_length = sizeof bound;
    int actual_port = d->opt.port;
    if (getsockname(listener, (struct sockaddr *)&bound, &bound_length) == 0)
        actual_port = ntohs(bound.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&bound)->sin6_port
                                                        : ((struct sockaddr_in *)&bound)->sin_port);
    d->opt.port = actual_port; /* what the records name: the port the OS chose for port 0 */
    say("listening on %s port %d", d->opt.host, actual_port);
    struct pollfd waiting = {.fd = listener, .events = POLLIN};
    int wait_ms = d->opt.timeout_s > 0 ? d->opt.timeout_s * 1000 : -1;
    int ready;
    while ((ready = poll(&waiting, 1, wait_ms)) < 0 && errno == EINTR)
        ;
    int fd = ready > 0 ? accept(listener, NULL, NULL) : -1;
    if (ready == 0) complain("nobody connected within %d s", d->opt.timeout_s);
    if (ready > 0 && fd < 0) complain("accept failed: %s", strerror(errno));
    close(listener);
    return fd;
}

static int connect_to_peer(Dxp *d)
{
    char port[16];
    snprintf(port, sizeof port, "%d", d->opt.port);
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM};
    struct addrinfo *found;
    int status = getaddrinfo(d->opt.host, port, &hints, &found);
    if (status) {
        complain("cannot find %s: %s", d->opt.host, gai_strerror(status));
        return -1;
    }
    int64_t give_up = now_ms() + CONNECT_RETRY_MS;
    int fd = -1, last_error = 0;
    while (fd < 0) {
        for (struct addrinfo *a = found; a && fd < 0; a = a->ai_next) {
            fd = socket(a->ai_family, a->ai_socktype, a->ai_protocol);
            if (fd < 0) continue;
            if (connect(fd, a->ai_addr, a->ai_addrlen) < 0) {
                last_error = errno;
                close(fd);
                fd = -1;
            }
        }
        /* the other program may still be starting: try again for a while */
        if (fd < 0 && now_ms() < give_up) {
            struct timespec pause = {0, 200 * 1000000};
            nanosleep(&pause, NULL);
        } else
            break;
    }
    freeaddrinfo(found);
    if (fd < 0) complain("cannot connect to %s port %d: %s", d->opt.host, d->opt.port, strerror(last_error));
    return fd;
}

/* Sends one message and its NUL. A failure marks the link broken; the next event says so. */
static void send_message(Dxp *d, const char *text)
{
    if (d->broken) return;
    size_t length = strlen(text) + 1, sent = 0;
    while (sent < length) {
        ssize_t n = send(d->fd, text + sent, length - sent, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            complain("cannot send to the peer: %s", n < 0 ? strerror(errno) : "connection closed");
            d->broken = true;
            return;
        }
        sent += (size_t)n;
    }
}

/* Closes the connection without cutting what was sent: our side first, then the rest is read. */
static void close_link(Dxp *d)
{
    shutdown(d->fd, SHUT_WR);
    int64_t until = now_ms() + CLOSE_DRAIN_MS;
    char scratch[512];
    for (;;) {
        int64_t left = until - now_ms();
        struct pollfd p = {.fd = d->fd, .events = POLLIN};
        if (left <= 0 || poll(&p, 1, (int)left) <= 0) break;
        if (recv(d->fd, scratch, sizeof scratch, 0) <= 0) break;
    }
    close(d->fd);
    d->fd = -1;
}

static void drain_wake_pipe(Dxp *d)
{
    char scratch[64];
    while (read(d->wake[0], scratch, sizeof scratch) > 0)
        ;
}

/* Takes the first complete message out of the inbox; EVENT_OVERLONG for a message too long. */
static bool take_message(Dxp *d, char *out, EventKind *kind)
{
    for (;;) {
        char *nul = memchr(d->inbox, 0, d->inbox_used);
        if (d->discarding) {
            if (!nul) {
                d->inbox_used = 0;
                return false;
            }
            d->discarding = false;
            size_t drop = (size_t)(nul - d->inbox) + 1;
            memmove(d->inbox, nul + 1, d->inbox_used - drop);
            d->inbox_used -= drop;
            continue;
        }
        if (nul && (size_t)(nul - d->inbox) <= DXP_MESSAGE_MAX) {
            size_t length = (size_t)(nul - d->inbox);
            memcpy(out, d->inbox, length + 1);
            memmove(d->inbox, nul + 1, d->inbox_used - length - 1);
            d->inbox_used -= length + 1;
            *kind = EVENT_MESSAGE;
            return true;
        }
        if (nul || d->inbox_used > DXP_MESSAGE_MAX) {
            d->discarding = true;
            *kind = EVENT_OVERLONG;
            return true;
        }
        return false;
    }
}

/* The next thing that happens: a message (in out, at most DXP_MESSAGE_MAX + 1 bytes), the
 * search's move, the deadline (-1 = none), or the end of the connection. */
static EventKind next_event(Dxp *d, int64_t deadline_ms, char *out)
{
    if (d->has_pending) {
        d->has_pending = false;
        memcpy(out, d->pending, sizeof d->pending);
        return EVENT_MESSAGE;
    }
    for (;;) {
        EventKind kind;
        if (take_message(d, out, &kind)) return kind;
        if (d->broken) return EVENT_CLOSED;
        struct pollfd watched[2] = {{.fd = d->fd, .events = POLLIN}, {.fd = d->wake[0], .events = POLLIN}};
        int wait_ms = -1;
        if (deadline_ms >= 0) {
            int64_t left = deadline_ms - now_ms();
            if (left <= 0) return EVENT_TIMEOUT;
            wait_ms = left > 1000000000 ? 1000000000 : (int)left;
        }
        int ready = poll(watched, 2, wait_ms);
        if (ready < 0 && errno == EINTR) continue;
        if (ready < 0) {
            complain("poll failed: %s", strerror(errno));
            return EVENT_CLOSED;
        }
        if (ready == 0) continue; /* the deadline check above decides */
        if (watched[1].revents) {
            drain_wake_pipe(d);
            return EVENT_SEARCH_DONE;
        }
        ssize_t n = recv(d->fd, d->inbox + d->inbox_used, sizeof d->inbox - d->inbox_used, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            if (n < 0) complain("connection error: %s", strerror(errno));
            d->broken = true;
            return EVENT_CLOSED;
        }
        d->inbox_used += (size_t)n;
    }
}

/* ------------------------------------------------------------ message fields */

static bool all_digits(const char *text, size_t length)
{
    for (size_t i = 0; i < length; i++)
        if (text[i] < '0' || text[i] > '9') return false;
    return true;
}

static int digits_value(const char *text, size_t length)
{
    int value = 0;
    for (size_t i = 0; i < length; i++) value = value * 10 + (text[i] - '0');
    return value;
}

/* A fixed-width name field without its padding, made printable. */
static void name_field(const char *field, char *out, size_t len)
{
    char raw[DXP_NAME_WIDTH + 1];
    memcpy(raw, field, DXP_NAME_WIDTH);
    raw[DXP_NAME_WIDTH] = 0;
    for (int i = DXP_NAME_WIDTH - 1; i >= 0 && (raw[i] == ' ' || raw[i] == 0); i--) raw[i] = 0;
    printable(raw[0] ? raw : "unnamed", out, len);
}

typedef struct {
    int from, to, captured_count;
    int captured[100];
    int seconds;
} MoveMessage;

static bool parse_move_message(const char *m, MoveMessage *out)
{
    size_t length = strlen(m);
    if (length < 11 || !all_digits(m + 1, 10)) return false;
    out->seconds = digits_value(m + 1, 4);
    out->from = digits_value(m + 5, 2);
    out->to = digits_value(m + 7, 2);
    out->captured_count = digits_value(m + 9, 2);
    if (length != 11 + 2 * (size_t)out->captured_count || !all_digits(m + 11, length - 11)) return false;
    for (int i = 0; i < out->captured_count; i++) out->captured[i] = digits_value(m + 11 + 2 * i, 2);
    return true;
}

/* ------------------------------------------------------------ the search */

static void on_bestmove(void *context, const Position *root, const Move *best, const Move *ponder)
{
    (void)root;
    (void)ponder;
    Dxp *d = context;
    pthread_mutex_lock(&d->lock);
    d->result_ready = true;
    d->result_found = best != NULL;
    if (best) d->result = *best;
    pthread_mutex_unlock(&d->lock);
    char wake = 1;
    if (write(d->wake[1], &wake, 1) < 0) {
        /* the pipe is non-blocking and holds a byte already: the loop wakes anyway */
    }
}

static void cancel_search(Dxp *d, DxpGame *g)
{
    if (!g->searching) return;
    engine_stop(d->engine);
    engine_wait(d->engine);
    pthread_mutex_lock(&d->lock);
    d->result_ready = false;
    pthread_mutex_unlock(&d->lock);
    drain_wake_pipe(d);
    g->searching = false;
}

static void start_search(Dxp *d, DxpGame *g)
{
    SearchLimits *l = &d->limits;
    memset(l, 0, sizeof *l);
    l->movetime = -1;
    l->clock[0] = l->clock[1] = -1;
    l->depth = d->opt.depth;
    l->nodes = d->opt.nodes;
    l->multipv = 1;
    int side = g->our_side;
    if (g->minutes > 0) {
        int64_t spent = now_ms() - g->turn_started_ms;
        l->clock[side] = g->clock_ms[side] - spent > 0 ? g->clock_ms[side] - spent : 0;
        l->moves_to_go = g->period_moves ? g->period_moves - g->moves_made[side] % g->period_moves : 0;
    } else if (!l->depth && !l->nodes)
        l->movetime = DXP_UNTIMED_MOVE_MS;
    pthread_mutex_lock(&d->lock);
    d->result_ready = false;
    pthread_mutex_unlock(&d->lock);
    g->searching = true;
    engine_go(d->engine, l, DXP_MOVE_OVERHEAD_MS);
}

/* ------------------------------------------------------------ the game record */

static int side_to_move(const DxpGame *g) { return g->first_side ^ (g->count & 1); }

static bool append_move(DxpGame *g, const Move *m)
{
    if (g->count == g->capacity) {
        int capacity = g->capacity ? g->capacity * 2 : 128;
        Move *grown = realloc(g->moves, sizeof *grown * (size_t)capacity);
        if (!grown) return false;
        g->moves = grown;
        g->capacity = capacity;
    }
    g->moves[g->count++] = *m;
    return true;
}

/* Charges the time since the turn began to the side that just moved, with the next period's
 * time when it completes one, and starts the other side's turn. */
static void charge_clock(DxpGame *g, int side)
{
    int64_t now = now_ms();
    g->clock_ms[side] -= now - g->turn_started_ms;
    g->moves_made[side]++;
    if (g->minutes > 0 && g->period_moves > 0 && g->moves_made[side] % g->period_moves == 0)
        g->clock_ms[side] += (int64_t)g->minutes * 60000;
    g->turn_started_ms = now;
}

static bool our_stop_code_is_stop(const Dxp *d, const DxpGame *g)
{
    if (d->peer_wants_stop) return true;
    return d->opt.games > 0 && g->number >= d->opt.games;
}

static void send_game_end(Dxp *d, char reason, bool stop)
{
    char message[8];
    snprintf(message, sizeof message, "E%c%c", reason, stop ? '1' : '0');
    send_message(d, message);
}

/* The game is over: its result and why (the record), nothing sent. */
static void conclude(DxpGame *g, const char *result, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(g->termination, sizeof g->termination, format, args);
    va_end(args);
    g->result = result;
    g->over = true;
}

static const char *result_for_winner(int winner) { return winner == SIDE_WHITE ? "1-0" : "0-1"; }

static void write_pdn(Dxp *d, const DxpGame *g)
{
    if (!d->opt.pdn_path) return;
    FILE *f = fopen(d->opt.pdn_path, "a");
    if (!f) {
        complain("cannot write %s: %s", d->opt.pdn_path, strerror(errno));
        return;
    }
    const Variant *v = d->opt.variant;
    static const struct {
        const char *variant;
        int game_type;
    } game_types[] = {{"international", 20}, {"checkers", 21}, {"russian", 25}, {"brazilian", 26}};
    int game_type = 20;
    for (size_t i = 0; i < sizeof game_types / sizeof game_types[0]; i++)
        if (strcmp(game_types[i].variant, v->name) == 0) game_type = game_types[i].game_type;
    char date[16];
    time_t now = time(NULL);
    struct tm local;
    localtime_r(&now, &local);
    strftime(date, sizeof date, "%Y.%m.%d", &local);
    const char *white = g->our_side == SIDE_WHITE ? d->our_name : d->peer_name;
    const char *black = g->our_side == SIDE_WHITE ? d->peer_name : d->our_name;
    fprintf(f, "[Event \"DXP\"]\n[Site \"%s port %d\"]\n[Date \"%s\"]\n[Round \"%d\"]\n", d->opt.host, d->opt.port,
            date, g->number);
    fprintf(f, "[White \"%s\"]\n[Black \"%s\"]\n[Result \"%s\"]\n[GameType \"%d\"]\n", white, black, g->result,
            game_type);
    char start[FEN_TEXT_MAX] = "";
    Position pos;
    char err[256];
    if (v->parse_fen(v, v->start_fen, &pos, err, sizeof err)) v->format_fen(v, &pos, start, sizeof start);
    if (strcmp(start, g->start_fen) != 0) fprintf(f, "[SetUp \"1\"]\n[FEN \"%s\"]\n", g->start_fen);
    fprintf(f, "[Termination \"%s\"]\n\n", g->termination);
    char(*texts)[MOVE_TEXT_MAX] = g->count ? malloc(sizeof *texts * (size_t)g->count) : NULL;
    if (g->count && !texts) {
        complain("out of memory writing the record of game %d", g->number);
        fclose(f);
        return;
    }
    game_move_texts(v, g->start_fen, g->moves, g->count, texts);
    size_t column = 0;
    for (int i = 0; i <= g->count; i++) {
        char word[MOVE_TEXT_MAX + 16];
        int ply = i + (g->first_side == SIDE_BLACK);
        if (i == g->count)
            snprintf(word, sizeof word, "%s", g->result);
        else if (ply % 2 == 0)
            snprintf(word, sizeof word, "%d. %s", ply / 2 + 1, texts[i]);
        else if (i == 0)
            snprintf(word, sizeof word, "%d... %s", ply / 2 + 1, texts[i]);
        else
            snprintf(word, sizeof word, "%s", texts[i]);
        size_t length = strlen(word);
        if (column && column + 1 + length > 79) {
            fputc('\n', f);
            column = 0;
        }
        fprintf(f, "%s%s", column ? " " : "", word);
        column += length + (column ? 1 : 0);
    }
    fputs("\n\n", f);
    free(texts);
    if (fclose(f) != 0) complain("cannot write %s: %s", d->opt.pdn_path, strerror(errno));
}

/* ------------------------------------------------------------ playing a game */

/* Puts the game into the engine and ends it when the rules do; false on an internal refusal. */
static bool sync_engine(Dxp *d, DxpGame *g)
{
    char err[512];
    if (!engine_set_game(d->engine, g->start_fen, g->moves, g->count, err, sizeof err)) {
        complain("game %d: the engine refused the game: %s", g->number, err);
        return false;
    }
    char result[128];
    engine_result(d->engine, result, sizeof result);
    if (strcmp(result, "none") == 0) return true;
    const char *reason = strchr(result, ' ') ? strchr(result, ' ') + 1 : "";
    if (strncmp(result, "draw", 4) == 0)
        conclude(g, "1/2-1/2", "draw: %s", reason);
    else {
        int winner = strncmp(result, "white", 5) == 0 ? SIDE_WHITE : SIDE_BLACK;
        conclude(g, result_for_winner(winner), "%s wins: %s", side_name(winner), reason);
    }
    return true;
}

/* Our E for a game the rules ended: 3 when we won, 1 when we lost, 2 for a draw. */
static char our_reason(const DxpGame *g)
{
    if (strcmp(g->result, "1/2-1/2") == 0) return '2';
    if (strcmp(g->result, "*") == 0) return '0';
    int winner = strcmp(g->result, "1-0") == 0 ? SIDE_WHITE : SIDE_BLACK;
    return winner == g->our_side ? '3' : '1';
}

/* After our E: the peer answers with its own; an R (a new game at once) also closes the game. */
static GameEnd await_end_answer(Dxp *d, DxpGame *g)
{
    char message[DXP_MESSAGE_MAX + 2], safe[128];
    int64_t deadline = now_ms() + END_ANSWER_WAIT_MS;
    for (;;) {
        EventKind kind = next_event(d, deadline, message);
        if (kind == EVENT_CLOSED) return GAME_DONE; /* the game is over anyway; the session ends next */
        if (kind == EVENT_TIMEOUT) {
            complain("game %d: the peer did not answer the game end", g->number);
            return GAME_DONE;
        }
        if (kind != EVENT_MESSAGE) continue;
        switch (message[0]) {
        case 'E':
            if (strlen(message) >= 3 && message[2] == '1') d->peer_wants_stop = true;
            return GAME_DONE;
        case 'R':
            memcpy(d->pending, message, sizeof d->pending);
            d->has_pending = true;
            return GAME_DONE;
        case 'C':
            say("chat from %s: %s", d->peer_name, printable(message + 1, safe, sizeof safe));
            break;
        case 'B':
            send_message(d, "K1"); /* the game is over: nothing to take back */
            break;
        default:
            complain("game %d: after the game end, ignored '%s'", g->number, printable(message, safe, sizeof safe));
        }
    }
}

/* Ends the game for a defect of the peer: a chat saying why, then E with reason 0 (unknown). */
static GameEnd abort_game(Dxp *d, DxpGame *g, bool wait_answer, const char *format, ...)
{
    char why[300];
    va_list args;
    va_start(args, format);
    vsnprintf(why, sizeof why, format, args);
    va_end(args);
    cancel_search(d, g);
    complain("game %d: %s; game ended", g->number, why);
    conclude(g, "*", "%s", why);
    char chat[512];
    snprintf(chat, sizeof chat, "C%s: %s; game ended", d->our_name, why);
    chat[DXP_CHAT_MAX] = 0; /* some peers cut longer messages */
    send_message(d, chat);
    send_game_end(d, '0', !wait_answer || our_stop_code_is_stop(d, g));
    /* a silent peer will not answer: the session ends here */
    return wait_answer ? await_end_answer(d, g) : SESSION_LOST;
}

static void play_our_move(Dxp *d, DxpGame *g)
{
    pthread_mutex_lock(&d->lock);
    bool ready = d->result_ready, found = d->result_found;
    Move move = d->result;
    d->result_ready = false;
    pthread_mutex_unlock(&d->lock);
    if (!ready) return; /* a wake-up left from a cancelled search */
    g->searching = false;
    if (!found) {
        conclude(g, "*", "no move found");
        return;
    }
    int64_t spent = now_ms() - g->turn_started_ms;
    DraughtsMoveSquares squares;
    draughts_move_squares(d->opt.variant, &move, &squares);
    char message[16 + 2 * 32];
    int used = snprintf(message, sizeof message, "M%04d%02d%02d%02d", (int)(spent / 1000 > 9999 ? 9999 : spent / 1000),
                        squares.from, squares.to, squares.captured_count);
    for (int i = 0; i < squares.captured_count; i++)
        used += snprintf(message + used, sizeof message - (size_t)used, "%02d", squares.captured[i]);
    send_message(d, message);
    if (!append_move(g, &move)) {
        conclude(g, "*", "out of memory");
        return;
    }
    charge_clock(g, g->our_side);
}

/* The peer's M: false when it is malformed, out of turn or illegal (why says which). */
static bool take_peer_move(Dxp *d, DxpGame *g, const char *message, char *why, size_t len)
{
    char safe[128];
    MoveMessage m;
    if (side_to_move(g) == g->our_side) {
        snprintf(why, len, "move '%s' sent out of turn", printable(message, safe, sizeof safe));
        return false;
    }
    if (!parse_move_message(message, &m)) {
        snprintf(why, len, "malformed move message '%s'", printable(message, safe, sizeof safe));
        return false;
    }
    const Variant *v = d->opt.variant;
    const Position *pos = engine_position(d->engine);
    static Move legal[MAX_MOVES]; /* session thread only */
    int n = v->generate(v, pos, legal);
    int index = find_move_by_squares(v, legal, n, m.from, m.to, m.captured, m.captured_count);
    if (index < 0) {
        snprintf(why, len, "illegal move '%s' (from %d, to %d, %d captured)", printable(message, safe, sizeof safe),
                 m.from, m.to, m.captured_count);
        return false;
    }
    if (!append_move(g, &legal[index])) {
        snprintf(why, len, "out of memory");
        return false;
    }
    charge_clock(g, g->our_side ^ 1);
    return true;
}

/* B: take the game back to move number N with the given colour to move, if that point exists. */
static void take_back(Dxp *d, DxpGame *g, const char *message)
{
    if (strlen(message) != 5 || !all_digits(message + 1, 3) || (message[4] != 'W' && message[4] != 'Z')) {
        char safe[128];
        complain("game %d: malformed back request '%s' refused", g->number, printable(message, safe, sizeof safe));
        send_message(d, "K1");
        return;
    }
    int number = digits_value(message + 1, 3);
    int colour = message[4] == 'W' ? SIDE_WHITE : SIDE_BLACK;
    int ply = 2 * (number - 1) + (colour == SIDE_BLACK) - (g->first_side == SIDE_BLACK);
    if (number < 1 || ply < 0 || ply > g->count) {
        complain("game %d: back request to move %d (%s to move) refused: no such point", g->number, number,
                 side_name(colour));
        send_message(d, "K1");
        return;
    }
    cancel_search(d, g);
    g->count = ply;
    g->moves_made[g->first_side] = (ply + 1) / 2;
    g->moves_made[g->first_side ^ 1] = ply / 2;
    g->turn_started_ms = now_ms();
    send_message(d, "K0");
    say("game %d: taken back to move %d, %s to move", g->number, number, side_name(colour));
}

/* Plays one accepted game to its end; the record is written whatever happens. */
static GameEnd play_game(Dxp *d, DxpGame *g)
{
    char message[DXP_MESSAGE_MAX + 2], safe[128], why[300];
    g->turn_started_ms = now_ms();
    for (int s = 0; s < 2; s++) g->clock_ms[s] = (int64_t)g->minutes * 60000;
    char control[64];
    if (g->minutes == 0)
        snprintf(control, sizeof control, "no clock");
    else if (g->period_moves == 0)
        snprintf(control, sizeof control, "%d min for the game", g->minutes);
    else
        snprintf(control, sizeof control, "%d min for %d moves", g->minutes, g->period_moves);
    say("game %d: %s plays %s against %s; %s", g->number, d->our_name, side_name(g->our_side), d->peer_name, control);
    GameEnd end = GAME_DONE;
    bool ended = false;
    while (!ended) {
        if (!g->searching && !sync_engine(d, g)) {
            end = abort_game(d, g, true, "internal error");
            break;
        }
        if (g->over) {
            send_game_end(d, our_reason(g), our_stop_code_is_stop(d, g));
            end = await_end_answer(d, g);
            break;
        }
        bool our_turn = side_to_move(g) == g->our_side;
        if (our_turn && !g->searching) start_search(d, g);
        int64_t peer_clock = g->minutes > 0 ? g->clock_ms[g->our_side ^ 1] : 0;
        int64_t deadline = our_turn ? -1 : deadline_after(g->turn_started_ms, peer_clock > 0 ? peer_clock : 0,
                                                            d->opt.timeout_s);
        EventKind kind = next_event(d, deadline, message);
        switch (kind) {
        case EVENT_SEARCH_DONE:
            if (g->searching) play_our_move(d, g);
            break;
        case EVENT_TIMEOUT:
            end = abort_game(d, g, false, "the peer sent nothing for %d s beyond its clock", d->opt.timeout_s);
            ended = true;
            break;
        case EVENT_CLOSED:
            cancel_search(d, g);
            complain("game %d: the peer closed the connection during the game", g->number);
            conclude(g, "*", "the peer closed the connection");
            end = SESSION_LOST;
            ended = true;
            break;
        case EVENT_OVERLONG:
            end = abort_game(d, g, true, "a message longer than %d bytes", DXP_MESSAGE_MAX);
            ended = true;
            break;
        case EVENT_MESSAGE:
            switch (message[0]) {
            case 'M':
                if (!take_peer_move(d, g, message, why, sizeof why)) {
                    end = abort_game(d, g, true, "%s", why);
                    ended = true;
                }
                break;
            case 'E': {
                cancel_search(d, g);
                bool well_formed = strlen(message) == 3 && message[1] >= '0' && message[1] <= '3' &&
                                   (message[2] == '0' || message[2] == '1');
                if (!well_formed) complain("game %d: malformed game end '%s' read as 'unknown result'", g->number,
                                           printable(message, safe, sizeof safe));
                char reason = well_formed ? message[1] : '0';
                if (well_formed && message[2] == '1') d->peer_wants_stop = true;
                /* the peer's reason is from its side: 1 = it loses, 3 = it wins */
                int peer = g->our_side ^ 1;
                if (reason == '1')
                    conclude(g, result_for_winner(g->our_side), "%s ends the game: it loses", d->peer_name);
                else if (reason == '3')
                    conclude(g, result_for_winner(peer), "%s ends the game: it wins", d->peer_name);
                else if (reason == '2')
                    conclude(g, "1/2-1/2", "%s ends the game: draw", d->peer_name);
                else
                    conclude(g, "*", "%s ends the game: result unknown", d->peer_name);
                send_game_end(d, our_reason(g), our_stop_code_is_stop(d, g));
                ended = true;
                break;
            }
            case 'C':
                say("chat from %s: %s", d->peer_name, printable(message + 1, safe, sizeof safe));
                break;
            case 'B':
                take_back(d, g, message);
                break;
            case 'K':
                break; /* we never ask to take back */
            case 'R':
                if (!d->opt.initiator) {
                    /* the peer has moved on to a new game: this one is abandoned, the request
                     * waits for the session loop */
                    cancel_search(d, g);
                    complain("game %d: the peer requested a new game during this one", g->number);
                    conclude(g, "*", "%s requested a new game", d->peer_name);
                    memcpy(d->pending, message, sizeof d->pending);
                    d->has_pending = true;
                    ended = true;
                    break;
                }
                complain("game %d: ignored a game request from the follower", g->number);
                break;
            default:
                complain("game %d: ignored unexpected message '%s'", g->number, printable(message, safe, sizeof safe));
            }
            break;
        }
    }
    cancel_search(d, g);
    if (g->minutes > 0)
        say("game %d ended: %s (%s); clocks left: white %.1f s, black %.1f s", g->number, g->result, g->termination,
            g->clock_ms[SIDE_WHITE] / 1000.0, g->clock_ms[SIDE_BLACK] / 1000.0);
    else
        say("game %d ended: %s (%s)", g->number, g->result, g->termination);
    write_pdn(d, g);
    if (strcmp(g->result, "*") == 0)
        d->unfinished++;
    else if (strcmp(g->result, "1/2-1/2") == 0)
        d->draws++;
    else if (strcmp(g->result, result_for_winner(g->our_side)) == 0)
        d->wins++;
    else
        d->losses++;
    d->games_done++;
    return end;
}

static bool start_game(Dxp *d, DxpGame *g, int number, int our_side, const char *fen, int minutes, int period)
{
    memset(g, 0, sizeof *g);
    g->number = number;
    g->our_side = our_side;
    g->minutes = minutes;
    g->period_moves = period;
    const Variant *v = d->opt.variant;
    char err[256];
    Position pos;
    if (!v->parse_fen(v, fen ? fen : v->start_fen, &pos, err, sizeof err)) return false;
    v->format_fen(v, &pos, g->start_fen, sizeof g->start_fen);
    g->first_side = pos.side;
    g->result = "*";
    return true;
}

/* ------------------------------------------------------------ the two roles */

static int run_initiator(Dxp *d)
{
    char message[DXP_MESSAGE_MAX + 2], safe[128];
    for (int number = 1; number <= d->opt.games && !d->peer_wants_stop; number++) {
        /* colours alternate: Donjon plays White in odd games */
        int our_side = number % 2 == 1 ? SIDE_WHITE : SIDE_BLACK;
        char request[128];
        snprintf(request, sizeof request, "R01%-32.32s%c%03d%03dA", d->our_name, our_side == SIDE_WHITE ? 'Z' : 'W',
                 d->opt.minutes, d->opt.period_moves);
        send_message(d, request);
        bool accepted = false;
        int64_t deadline = deadline_after(now_ms(), 0, d->opt.timeout_s);
        while (!accepted) {
            EventKind kind = next_event(d, deadline, message);
            if (kind == EVENT_CLOSED) {
                complain("the peer closed the connection before accepting game %d", number);
                return 1;
            }
            if (kind == EVENT_TIMEOUT) {
                complain("the peer did not answer the request for game %d", number);
                return 1;
            }
            if (kind != EVENT_MESSAGE) continue;
            if (message[0] == 'A') {
                if (strlen(message) != 2 + DXP_NAME_WIDTH) {
                    complain("malformed game accept '%s'", printable(message, safe, sizeof safe));
                    return 1;
                }
                name_field(message + 1, d->peer_name, sizeof d->peer_name);
                if (message[1 + DXP_NAME_WIDTH] != '0') {
                    complain("%s refused game %d (code %c)", d->peer_name, number, message[1 + DXP_NAME_WIDTH]);
                    return 1;
                }
                accepted = true;
            } else if (message[0] == 'C')
                say("chat from %s: %s", d->peer_name, printable(message + 1, safe, sizeof safe));
            else if (message[0] != 'E') /* a late answer to the previous game's end is harmless */
                complain("waiting for the game accept, ignored '%s'", printable(message, safe, sizeof safe));
        }
        DxpGame game;
        if (!start_game(d, &game, number, our_side, NULL, d->opt.minutes, d->opt.period_moves)) return 1;
        GameEnd end = play_game(d, &game);
        free(game.moves);
        if (end == SESSION_LOST) return 1;
    }
    return 0;
}

/* An R: its fields checked; false (with why) when it must be refused. */
static bool read_request(Dxp *d, const char *message, int *our_side, char *fen, size_t fen_len, int *minutes,
                         int *period, char *why, size_t why_len)
{
    size_t length = strlen(message);
    const Variant *v = d->opt.variant;
    int squares = draughts_square_count(v);
    if (length < 43 || !all_digits(message + 1, 2) || !all_digits(message + 36, 6) ||
        (message[35] != 'W' && message[35] != 'Z') || (message[42] != 'A' && message[42] != 'B') ||
        (message[42] == 'A' && length != 43) || (message[42] == 'B' && length != 44 + (size_t)squares)) {
        char safe[128];
        snprintf(why, why_len, "malformed game request '%s'", printable(message, safe, sizeof safe));
        return false;
    }
    name_field(message + 3, d->peer_name, sizeof d->peer_name);
    if (digits_value(message + 1, 2) != 1) {
        snprintf(why, why_len, "unsupported DXP version %.2s", message + 1);
        return false;
    }
    *our_side = message[35] == 'W' ? SIDE_WHITE : SIDE_BLACK;
    *minutes = digits_value(message + 36, 3);
    *period = digits_value(message + 39, 3);
    fen[0] = 0;
    if (message[42] == 'B') {
        char err[256];
        if (!board_letters_to_fen(v, &DXP_LETTERS, message[43], message + 44, (size_t)squares, fen, fen_len, err,
                                  sizeof err)) {
            snprintf(why, why_len, "bad start position: %s", err);
            return false;
        }
    }
    return true;
}

static void send_accept(Dxp *d, char code)
{
    char accept[64];
    snprintf(accept, sizeof accept, "A%-32.32s%c", d->our_name, code);
    send_message(d, accept);
}

static int run_follower(Dxp *d)
{
    char message[DXP_MESSAGE_MAX + 2], safe[128], why[300];
    int accepted = 0;
    for (;;) {
        EventKind kind = next_event(d, deadline_after(now_ms(), 0, d->opt.timeout_s), message);
        if (kind == EVENT_CLOSED) return 0; /* between games: the peer is done */
        if (kind == EVENT_TIMEOUT) {
            complain("no game request for %d s", d->opt.timeout_s);
            return 1;
        }
        if (kind == EVENT_OVERLONG) {
            complain("ignored a message longer than %d bytes", DXP_MESSAGE_MAX);
            continue;
        }
        if (kind != EVENT_MESSAGE) continue;
        if (message[0] == 'C') {
            say("chat from %s: %s", d->peer_name, printable(message + 1, safe, sizeof safe));
            continue;
        }
        if (message[0] == 'E') continue; /* a late answer to the previous game's end */
        if (message[0] != 'R') {
            complain("waiting for a game request, ignored '%s'", printable(message, safe, sizeof safe));
            continue;
        }
        int our_side, minutes, period;
        char fen[FEN_TEXT_MAX];
        if (!read_request(d, message, &our_side, fen, sizeof fen, &minutes, &period, why, sizeof why)) {
            complain("%s; refused", why);
            send_accept(d, '1');
            continue;
        }
        if (d->peer_wants_stop || (d->opt.games > 0 && accepted >= d->opt.games)) {
            complain("game request refused: %d games played as agreed", accepted);
            send_accept(d, '1');
            continue;
        }
        send_accept(d, '0');
        accepted++;
        DxpGame game;
        if (!start_game(d, &game, accepted, our_side, fen[0] ? fen : NULL, minutes, period)) return 1;
        GameEnd end = play_game(d, &game);
        free(game.moves);
        if (end == SESSION_LOST) return 1;
        if (d->peer_wants_stop || (d->opt.games > 0 && accepted >= d->opt.games)) return 0;
    }
}

int dxp_main(int argc, char **argv)
{
    Dxp *d = calloc(1, sizeof *d);
    if (!d) {
        complain("out of memory");
        return 1;
    }
    if (!parse_options(argc, argv, &d->opt)) {
        free(d);
        return 2;
    }
    snprintf(d->our_name, sizeof d->our_name, "Donjon %s", DONJON_VERSION);
    snprintf(d->peer_name, sizeof d->peer_name, "the peer");
    d->fd = -1;
    pthread_mutex_init(&d->lock, NULL);
    int status = 1;
    char err[256];
    if (pipe(d->wake) < 0) {
        complain("cannot create a pipe: %s", strerror(errno));
        goto done_memory;
    }
    fcntl(d->wake[0], F_SETFL, O_NONBLOCK);
    fcntl(d->wake[1], F_SETFL, O_NONBLOCK);
    SearchCallbacks callbacks = {.context = d, .info = NULL, .bestmove = on_bestmove};
    d->engine = engine_new(&callbacks);
    if (!d->engine) {
        complain("cannot start the engine (out of memory)");
        goto done_pipe;
    }
    engine_set_variant(d->engine, d->opt.variant);
    if (!engine_set_threads(d->engine, d->opt.threads, err, sizeof err) ||
        !engine_set_hash(d->engine, (size_t)d->opt.hash_mb, err, sizeof err)) {
        complain("%s", err);
        goto done_engine;
    }
    d->fd = d->opt.listen ? listen_and_accept(d) : connect_to_peer(d);
    if (d->fd < 0) goto done_engine;
    int yes = 1;
    setsockopt(d->fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
    say("connected as %s", d->opt.initiator ? "initiator" : "follower");
    status = d->opt.initiator ? run_initiator(d) : run_follower(d);
    say("%d games: %d won, %d drawn, %d lost, %d unfinished", d->games_done, d->wins, d->draws, d->losses,
        d->unfinished);
    close_link(d);
done_engine:
    engine_free(d->engine);
done_pipe:
    close(d->wake[0]);
    close(d->wake[1]);
done_memory:
    pthread_mutex_destroy(&d->lock);
    free(d);
    return status;
}
