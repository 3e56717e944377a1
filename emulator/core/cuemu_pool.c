/*
 * cuemu_pool.c: the persistent worker OS threads (see cuemu_pool.h).
 *
 * Pool threads are started on the first launch that needs them and live as
 * long as the process. Launches that use the pool are serialised; each one
 * wakes the threads it needs, and the launching thread works too.
 */
#include "core/cuemu_pool.h"

#include <stdlib.h>

static pthread_key_t caller_key;
static pthread_once_t caller_once = PTHREAD_ONCE_INIT;

static void caller_destroy(void *w) { cuemu__worker_destroy(w); }
static void caller_key_create(void) {
  pthread_key_create(&caller_key, caller_destroy);
}

cuemu_worker *cuemu__caller_worker(void) {
  pthread_once(&caller_once, caller_key_create);
  cuemu_worker *w = pthread_getspecific(caller_key);
  if (!w) {
    w = cuemu__worker_create();
    if (w)
      pthread_setspecific(caller_key, w);
  }
  return w;
}

static struct {
  pthread_mutex_t launch_lock; /* one pool launch at a time */
  pthread_mutex_t lock;
  pthread_cond_t wake, done;
  unsigned count;              /* threads started */
  cuemu_worker **workers;
  unsigned long long generation;
  cuemu_launch *launch;
  unsigned wanted, running;
} pool = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
          PTHREAD_COND_INITIALIZER, PTHREAD_COND_INITIALIZER,
          0, NULL, 0, NULL, 0, 0};

typedef struct pool_slot {
  unsigned index;
} pool_slot;

static void *pool_main(void *arg) {
  unsigned index = ((pool_slot *)arg)->index;
  free(arg);
  /* libcuemu's own threads are named so (cuemu__stream_host_threads()). */
  pthread_setname_np(pthread_self(), "cuemu-worker");
  unsigned long long seen = 0;
  pthread_mutex_lock(&pool.lock);
  for (;;) {
    while (pool.generation == seen || index >= pool.wanted) {
      seen = pool.generation;
      pthread_cond_wait(&pool.wake, &pool.lock);
    }
    seen = pool.generation;
    cuemu_launch *launch = pool.launch;
    pthread_mutex_unlock(&pool.lock);
    cuemu__worker_run(pool.workers[index], launch);
    pthread_mutex_lock(&pool.lock);
    if (--pool.running == 0)
      pthread_cond_signal(&pool.done);
  }
  return NULL;
}

/* In the child of a fork() only the forking thread exists: forget the pool
 * threads (their memory is left behind) so that the child's first parallel
 * launch starts new ones instead of waiting for threads that are gone. */
static void forget_pool_after_fork(void) {
  pthread_mutex_init(&pool.launch_lock, NULL);
  pthread_mutex_init(&pool.lock, NULL);
  pthread_cond_init(&pool.wake, NULL);
  pthread_cond_init(&pool.done, NULL);
  pool.count = 0;
  pool.workers = NULL;
  pool.launch = NULL;
  pool.wanted = pool.running = 0;
}

static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;
static void register_atfork(void) {
  pthread_atfork(NULL, NULL, forget_pool_after_fork);
}

/* Starts pool threads until there are `n`; returns how many there are. */
static unsigned grow(unsigned n) {
  if (n <= pool.count)
    return pool.count;
  cuemu_worker **workers = realloc(pool.workers, n * sizeof *workers);
  if (!workers)
    return pool.count;
  pool.workers = workers;
  while (pool.count < n) {
    cuemu_worker *w = cuemu__worker_create();
    pool_slot *slot = malloc(sizeof *slot);
    pthread_t thread;
    pthread_attr_t attr;
    if (!w || !slot) {
      cuemu__worker_destroy(w);
      free(slot);
      break;
    }
    slot->index = pool.count;
    pool.workers[pool.count] = w;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    int rc = pthread_create(&thread, &attr, pool_main, slot);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
      cuemu__worker_destroy(w);
      free(slot);
      break;
    }
    pool.count++;
  }
  return pool.count;
}

/* Workers that own_threads() used and kept, with their stacks, for the
 * next cooperative launch: a solver that launches a cooperative kernel per
 * iteration made and unmapped every thread's stack at each launch (two
 * system calls each; 8 of 9 s of a multi-device CG sample were system
 * time). At most SPARE_WORKERS_MOST workers holding at most
 * SPARE_STACKS_MOST stacks are kept, far below the mappings the process
 * may have (a worker beyond that is destroyed as before). */
#define SPARE_WORKERS_MOST 64u
#define SPARE_STACKS_MOST 4096u

static struct {
  pthread_mutex_t lock;
  cuemu_worker *v[SPARE_WORKERS_MOST];
  unsigned count;
  size_t stacks;
} spare = {PTHREAD_MUTEX_INITIALIZER, {NULL}, 0, 0};

/* A kept worker, or a new one (NULL when there is no memory). */
static cuemu_worker *spare_take(void) {
  cuemu_worker *w = NULL;
  pthread_mutex_lock(&spare.lock);
  if (spare.count > 0) {
    w = spare.v[--spare.count];
    spare.stacks -= w->pool.count;
  }
  pthread_mutex_unlock(&spare.lock);
  return w ? w : cuemu__worker_create();
}

/* Keeps `w` for a later launch, or destroys it when enough are kept. */
static void spare_give(cuemu_worker *w) {
  pthread_mutex_lock(&spare.lock);
  if (spare.count < SPARE_WORKERS_MOST &&
      spare.stacks + w->pool.count <= SPARE_STACKS_MOST) {
    w->launch = NULL;
    spare.v[spare.count++] = w;
    spare.stacks += w->pool.count;
    w = NULL;
  }
  pthread_mutex_unlock(&spare.lock);
  cuemu__worker_destroy(w);
}

/* A helper thread of a launch that runs beside the pool's (see
 * own_threads()). */
static void *own_main(void *arg) {
  cuemu_worker *w = arg;
  pthread_setname_np(pthread_self(), "cuemu-worker");
  cuemu__worker_run(w, w->launch);
  return NULL;
}

/* Runs `launch` on `helpers` threads of its own and the calling thread.
 * Returns -1, having run nothing, when there is no memory for their
 * workers (the caller then uses the pool). */
static int own_threads(cuemu_launch *launch, unsigned helpers,
                       cuemu_worker *self) {
  cuemu_worker **workers = calloc(helpers, sizeof *workers);
  pthread_t *threads = calloc(helpers, sizeof *threads);
  unsigned made = 0, started = 0;
  while (workers && threads && made < helpers &&
         (workers[made] = spare_take()) != NULL)
    made++;
  if (made == helpers) {
    for (; started < helpers; started++) {
      workers[started]->launch = launch;
      if (pthread_create(&threads[started], NULL, own_main,
                         workers[started]) != 0)
        break;
    }
    if (started == helpers) {
      cuemu__worker_run(self, launch);
    } else {
      /* The blocks of a cooperative grid must all be resident. */
      atomic_store(&launch->stop, 1);
      cuemu__launch_error(launch, CUEMU_OUT_OF_MEMORY,
                          "no threads for the blocks of a cooperative "
                          "launch");
    }
  }
  for (unsigned i = 0; i < started; i++)
    pthread_join(threads[i], NULL);
  for (unsigned i = 0; i < made; i++)
    spare_give(workers[i]);
  free(workers);
  free(threads);
  return made == helpers ? 0 : -1;
}

/* Takes the pool for `launch`. While another launch holds it (launches on
 * several devices or streams run one after the other here), `launch` is
 * marked queued: its blocks have not started because they cannot, so the
 * watchdog neither reports it as hung (CUEMU_TIMEOUT) nor gives it workers
 * of its own as if its blocks spun (cuemu_watchdog.c). */
static void wait_for_pool(cuemu_launch *launch) {
  if (pthread_mutex_trylock(&pool.launch_lock) == 0)
    return;
  atomic_store(&launch->queued, 1);
  pthread_mutex_lock(&pool.launch_lock);
  atomic_store(&launch->queued, 0);
}

void cuemu__pool_run(cuemu_launch *launch, unsigned helpers) {
  cuemu_worker *self = cuemu__caller_worker();
  if (!self) {
    cuemu__launch_error(launch, CUEMU_OUT_OF_MEMORY,
                        "no memory for the launching thread's worker");
    return;
  }
  if (helpers == 0) {
    cuemu__worker_run(self, launch);
    return;
  }
  pthread_once(&atfork_once, register_atfork);
  /* A cooperative grid is resident all at once, and may wait for another
   * grid that runs at the same time (the multi-GPU samples' barrier across
   * devices, through host memory): when another launch holds the pool, it
   * gets threads of its own rather than waiting for that launch to end. */
  if (launch->cooperative && pthread_mutex_trylock(&pool.launch_lock) != 0) {
    if (own_threads(launch, helpers, self) == 0)
      return;
    wait_for_pool(launch);
  } else if (!launch->cooperative) {
    wait_for_pool(launch);
  }
  pthread_mutex_lock(&pool.lock);
  helpers = grow(helpers) < helpers ? pool.count : helpers;
  pool.launch = launch;
  pool.wanted = helpers;
  pool.running = helpers;
  pool.generation++;
  pthread_cond_broadcast(&pool.wake);
  pthread_mutex_unlock(&pool.lock);

  cuemu__worker_run(self, launch);

  pthread_mutex_lock(&pool.lock);
  while (pool.running > 0)
    pthread_cond_wait(&pool.done, &pool.lock);
  pool.launch = NULL;
  pool.wanted = 0;
  pthread_mutex_unlock(&pool.lock);
  pthread_mutex_unlock(&pool.launch_lock);
}
