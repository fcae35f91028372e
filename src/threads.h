/*
 * threads.h — the pool of search threads. Threads sleep on a condition variable
 * between searches; a search wakes them all, thread 0 runs search_main and the others
 * search_helper (Lazy SMP). stop and ponderhit only flip atomics in SearchShared.
 */
#ifndef DONJON_THREADS_H
#define DONJON_THREADS_H
#include "search.h"

typedef struct ThreadPool ThreadPool;

ThreadPool *pool_new(int count);   /* NULL when threads or memory cannot be had */
void pool_free(ThreadPool *pool);  /* the pool must be idle */
int pool_size(const ThreadPool *pool);
SearchThread *pool_thread(ThreadPool *pool, int index);
/* Starts a search; the pool must be idle (pool_wait_idle). */
void pool_start(ThreadPool *pool, SearchShared *shared);
void pool_wait_idle(ThreadPool *pool);
#endif
