/* threads.c — the search thread pool (see threads.h). */
#include "threads.h"

#include <pthread.h>
#include <stdlib.h>

struct ThreadPool {
    int count;            /* threads started */
    int capacity;         /* threads asked for */
    SearchThread **threads;
    pthread_t *handles;
    pthread_mutex_t mutex;
    pthread_cond_t wake;
    pthread_cond_t done;
    unsigned generation;  /* bumped for every search started */
    int running;          /* threads that have not finished the current search */
    bool quitting;
    SearchShared *job;
};

typedef struct {
    ThreadPool *pool;
    int index;
} WorkerStart;

static void wait_for_helpers(void *opaque)
{
    ThreadPool *pool = opaque;
    pthread_mutex_lock(&pool->mutex);
    while (pool->running > 1) pthread_cond_wait(&pool->done, &pool->mutex);
    pthread_mutex_unlock(&pool->mutex);
}

static void *worker(void *opaque)
{
    WorkerStart start = *(WorkerStart *)opaque;
    free(opaque);
    ThreadPool *pool = start.pool;
    pthread_mutex_lock(&pool->mutex);
    unsigned seen = 0; /* the generation of a new pool; a search may start before this thread runs */
    for (;;) {
        while (pool->generation == seen && !pool->quitting) pthread_cond_wait(&pool->wake, &pool->mutex);
        if (pool->quitting) break;
        seen = pool->generation;
        SearchShared *job = pool->job;
        if (start.index >= job->thread_count) continue; /* not needed by this search */
        pthread_mutex_unlock(&pool->mutex);
        if (start.index == 0)
            search_main(pool->threads[0], job);
        else
            search_helper(pool->threads[start.index], job);
        pthread_mutex_lock(&pool->mutex);
        pool->running--;
        pthread_cond_broadcast(&pool->done);
    }
    pthread_mutex_unlock(&pool->mutex);
    return NULL;
}

ThreadPool *pool_new(int count)
{
    ThreadPool *pool = calloc(1, sizeof *pool);
    if (!pool) return NULL;
    pool->threads = calloc((size_t)count, sizeof *pool->threads);
    pool->handles = calloc((size_t)count, sizeof *pool->handles);
    pthread_mutex_init(&pool->mutex, NULL);
    pthread_cond_init(&pool->wake, NULL);
    pthread_cond_init(&pool->done, NULL);
    pool->capacity = count;
    if (!pool->threads || !pool->handles) {
        pool_free(pool);
        return NULL;
    }
    for (int i = 0; i < count; i++) {
        pool->threads[i] = search_thread_new(i);
        WorkerStart *start = malloc(sizeof *start);
        if (!pool->threads[i] || !start) {
            free(start);
            pool_free(pool);
            return NULL;
        }
        start->pool = pool;
        start->index = i;
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setstacksize(&attr, 8u << 20);
        int failed = pthread_create(&pool->handles[i], &attr, worker, start);
        pthread_attr_destroy(&attr);
        if (failed) {
            free(start);
            pool_free(pool);
            return NULL;
        }
        pool->count = i + 1;
    }
    return pool;
}

void pool_free(ThreadPool *pool)
{
    if (!pool) return;
    pthread_mutex_lock(&pool->mutex);
    pool->quitting = true;
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->mutex);
    for (int i = 0; i < pool->count; i++) pthread_join(pool->handles[i], NULL);
    if (pool->threads)
        for (int i = 0; i < pool->capacity; i++) search_thread_free(pool->threads[i]);
    pthread_mutex_destroy(&pool->mutex);
    pthread_cond_destroy(&pool->wake);
    pthread_cond_destroy(&pool->done);
    free(pool->threads);
    free(pool->handles);
    free(pool);
}

int pool_size(const ThreadPool *pool) { return pool->count; }

SearchThread *pool_thread(ThreadPool *pool, int index) { return pool->threads[index]; }

void pool_start(ThreadPool *pool, SearchShared *shared)
{
    pthread_mutex_lock(&pool->mutex);
    while (pool->running > 0) pthread_cond_wait(&pool->done, &pool->mutex);
    shared->threads = pool->threads;
    /* a weakened search (Skill Level) runs on one thread: its node budget then means the same
     * whatever Threads is, and helpers cannot spend it before the main thread finishes depth 1 */
    shared->thread_count = shared->limits.weakened ? 1 : pool->count;
    /* every count the node limit and the info lines sum starts at zero before any thread runs:
     * a helper that reset its own only when it woke let the main thread read the last search's
     * count, and `go nodes 30000` on 4 threads sometimes stopped before depth 1 */
    for (int i = 0; i < shared->thread_count; i++) search_thread_reset_nodes(pool->threads[i]);
    shared->wait_for_helpers = wait_for_helpers;
    shared->pool = pool;
    pool->job = shared;
    pool->running = shared->thread_count;
    pool->generation++;
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->mutex);
}

void pool_wait_idle(ThreadPool *pool)
{
    pthread_mutex_lock(&pool->mutex);
    while (pool->running > 0) pthread_cond_wait(&pool->done, &pool->mutex);
    pthread_mutex_unlock(&pool->mutex);
}
