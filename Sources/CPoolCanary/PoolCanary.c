// The pool canary: a thread of its own that watches the threads of Swift's cooperative pool and
// reports one that sits in a blocking system call (poll, read, waitpid, a sleep...) for longer
// than a limit, with its stack. Started when the program loads, only when LOCEMU_POOL_CANARY is
// set (to a file to append reports to, or to "stderr"); tools/test.sh sets it for every suite.
//
// Which threads are the pool's: every 100 ms the canary queues a tiny job on each of Dispatch's
// global queues, and each job records the thread it ran on. On Linux Swift's tasks run on those
// same threads (a task of default priority runs where DispatchQueue.global() work runs), so a
// thread that has run such a job is a thread of the pool. A thread of the pool that waits for
// work waits on a futex; one that sits in poll, read, connect, waitpid or nanosleep is running a
// job that blocks. LOCEMU_POOL_CANARY_SECONDS sets the limit (default 10 s: far above any step
// that blocks by mistake for milliseconds, far below a test's hang guard).
//
// A report: "pool canary: thread TID of the cooperative pool blocked in SYSCALL for N s", then
// candidate frames of that thread's stack as "  #i 0xOFFSET FILE" (read in place, below);
// tools/pool-canary-report.sh turns them into function names.
#define _GNU_SOURCE
#include "CPoolCanary.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

// libdispatch, declared here rather than through its header (not on a C target's include path);
// every Swift program on Linux links it.
extern void *dispatch_get_global_queue(long identifier, unsigned long flags);
extern void dispatch_async_f(void *queue, void *context, void (*work)(void *));

enum { MAX_THREADS = 1024, MAX_FRAMES = 64 };

static atomic_int running;
static atomic_int reports;
static const char *destination;
static double limit_seconds = 10;

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static pid_t pool_threads[MAX_THREADS];
static int pool_count;

// What the canary last saw of each pool thread (its own: only the canary's thread reads and
// writes these): which thread, the blocking call, since when, whether reported.
static pid_t seen_thread[MAX_THREADS];
static long seen_call[MAX_THREADS];
static double seen_since[MAX_THREADS];
static int seen_reported[MAX_THREADS];

int locemu_pool_canary_is_running(void) { return atomic_load(&running); }
int locemu_pool_canary_reports(void) { return atomic_load(&reports); }

static pid_t current_tid(void) { return (pid_t)syscall(SYS_gettid); }

static double now_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void note_pool_thread(void *context) {
  (void)context;
  pid_t tid = current_tid();
  pthread_mutex_lock(&pool_lock);
  int known = 0;
  for (int i = 0; i < pool_count; i++) {
    if (pool_threads[i] == tid) {
      known = 1;
      break;
    }
  }
  if (!known) {  // in the first free slot (a thread that ended leaves one)
    int slot = -1;
    for (int i = 0; i < pool_count && slot < 0; i++) {
      if (pool_threads[i] == 0) slot = i;
    }
    if (slot < 0 && pool_count < MAX_THREADS) slot = pool_count++;
    if (slot >= 0) pool_threads[slot] = tid;
  }
  pthread_mutex_unlock(&pool_lock);
}

// The system calls in which a thread of the pool is running a job that blocks. Not futex: an idle
// thread of the pool waits for work on one.
static const char *blocking_call_name(long call) {
  switch (call) {
#if defined(__x86_64__)
  case SYS_read: return "read";
  case SYS_readv: return "readv";
  case SYS_pread64: return "pread64";
  case SYS_poll: return "poll";
  case SYS_select: return "select";
  case SYS_pause: return "pause";
  case SYS_epoll_wait: return "epoll_wait";
#endif
  case SYS_ppoll: return "ppoll";
  case SYS_pselect6: return "pselect6";
  case SYS_epoll_pwait: return "epoll_pwait";
  case SYS_nanosleep: return "nanosleep";
  case SYS_clock_nanosleep: return "clock_nanosleep";
  case SYS_connect: return "connect";
  case SYS_accept: return "accept";
  case SYS_accept4: return "accept4";
  case SYS_recvfrom: return "recvfrom";
  case SYS_recvmsg: return "recvmsg";
  case SYS_wait4: return "wait4 (waitpid)";
  case SYS_waitid: return "waitid";
#if defined(__aarch64__)
  case SYS_read: return "read";
  case SYS_readv: return "readv";
  case SYS_pread64: return "pread64";
#endif
  default: return NULL;
  }
}

// The system call `tid` is in (its number), -1 when it runs or is in none, -2 when it is gone.
static long current_call(pid_t tid) {
  char path[64], text[256];
  snprintf(path, sizeof path, "/proc/self/task/%d/syscall", (int)tid);
  FILE *file = fopen(path, "r");
  if (!file) return -2;
  long call = -1;
  if (fgets(text, sizeof text, file) && text[0] >= '0' && text[0] <= '9') call = strtol(text, NULL, 10);
  fclose(file);
  return call;
}

// The stack of a blocked thread, read in place: /proc gives its stack pointer, and every word
// from there to the end of its stack that points into a loaded image's code is a candidate return
// address (innermost first). A signal to the thread cannot do it: Dispatch's threads block
// signals. Stale words make some candidates false; the test's own functions are among the true.
// Not instrumented: the blocked thread wrote those words, and nothing orders this read after.
__attribute__((no_sanitize("thread"))) static size_t candidate_frames(unsigned long sp, void **frames, size_t capacity) {
  FILE *maps = fopen("/proc/self/maps", "r");
  if (!maps) return 0;
  enum { MAX_RANGES = 4096 };
  static unsigned long code_start[MAX_RANGES], code_end[MAX_RANGES];
  size_t ranges = 0;
  unsigned long stack_end = 0;
  char line[4096];
  while (fgets(line, sizeof line, maps)) {
    unsigned long start, end;
    char permissions[8];
    if (sscanf(line, "%lx-%lx %7s", &start, &end, permissions) != 3) continue;
    if (sp >= start && sp < end) stack_end = end;
    if (permissions[2] == 'x' && ranges < MAX_RANGES) {
      code_start[ranges] = start;
      code_end[ranges++] = end;
    }
  }
  fclose(maps);
  if (!stack_end) return 0;
  if (stack_end - sp > (1ul << 20)) stack_end = sp + (1ul << 20);
  size_t found = 0;
  for (const volatile unsigned long *word = (const unsigned long *)sp; (unsigned long)(word + 1) <= stack_end; word++) {
    unsigned long value = *word;
    for (size_t r = 0; r < ranges; r++) {
      if (value >= code_start[r] && value < code_end[r]) {
        if (found == 0 || frames[found - 1] != (void *)value) frames[found++] = (void *)value;
        break;
      }
    }
    if (found == capacity) break;
  }
  return found;
}

// The stack pointer of `tid` while it is in a system call (0 when it is not).
static unsigned long stack_pointer(pid_t tid) {
  char path[64], text[512];
  snprintf(path, sizeof path, "/proc/self/task/%d/syscall", (int)tid);
  FILE *file = fopen(path, "r");
  if (!file) return 0;
  unsigned long values[9] = {0};
  int read = 0;
  if (fgets(text, sizeof text, file)) {
    char *cursor = text;
    for (read = 0; read < 9; read++) {
      char *next;
      values[read] = strtoul(cursor, &next, read == 0 ? 10 : 16);
      if (next == cursor) break;
      cursor = next;
    }
  }
  fclose(file);
  return read == 9 ? values[7] : 0;
}

static void report(pid_t tid, const char *call, double seconds) {
  void *frames[MAX_FRAMES];
  unsigned long sp = stack_pointer(tid);
  size_t depth = sp ? candidate_frames(sp, frames, MAX_FRAMES) : 0;
  FILE *out = strcmp(destination, "stderr") == 0 ? stderr : fopen(destination, "a");
  if (!out) out = stderr;
  fprintf(out, "pool canary: thread %d of the cooperative pool (process %d) blocked in %s for %.0f s\n", (int)tid,
          (int)getpid(), call, seconds);
  for (size_t i = 0; i < depth; i++) {
    Dl_info info;
    if (dladdr(frames[i], &info) && info.dli_fname) {
      fprintf(out, "  #%zu 0x%lx %s\n", i, (unsigned long)((char *)frames[i] - (char *)info.dli_fbase), info.dli_fname);
    }
  }
  if (depth == 0) fprintf(out, "  (its stack could not be read)\n");
  fprintf(out, "pool canary: end of report\n");
  fflush(out);
  if (out != stderr) fclose(out);
  atomic_fetch_add(&reports, 1);
}

static void look(void) {
  double now = now_seconds();
  static pid_t threads[MAX_THREADS];
  pthread_mutex_lock(&pool_lock);
  int count = pool_count;
  memcpy(threads, pool_threads, sizeof(pid_t) * (size_t)count);
  pthread_mutex_unlock(&pool_lock);
  for (int i = 0; i < count; i++) {
    pid_t tid = threads[i];
    if (tid == 0) continue;
    if (seen_thread[i] != tid) {
      seen_thread[i] = tid;
      seen_call[i] = -1;
      seen_reported[i] = 0;
    }
    long call = current_call(tid);
    if (call == -2) {  // gone: a new thread may reuse the number
      pthread_mutex_lock(&pool_lock);
      if (pool_threads[i] == tid) pool_threads[i] = 0;
      pthread_mutex_unlock(&pool_lock);
      continue;
    }
    const char *name = blocking_call_name(call);
    if (!name) {
      seen_call[i] = -1;
      seen_reported[i] = 0;
      continue;
    }
    if (seen_call[i] != call) {
      seen_call[i] = call;
      seen_since[i] = now;
      seen_reported[i] = 0;
    } else if (!seen_reported[i] && now - seen_since[i] >= limit_seconds) {
      seen_reported[i] = 1;
      report(tid, name, now - seen_since[i]);
    }
  }
}

static void *watch(void *context) {
  (void)context;
  // Dispatch's global queues by quality of service: user-interactive, user-initiated, default,
  // utility, background (Swift's task priorities map onto them).
  static const long qualities[] = {0x21, 0x19, 0x15, 0x11, 0x09};
  for (;;) {
    for (size_t q = 0; q < sizeof qualities / sizeof qualities[0]; q++) {
      void *queue = dispatch_get_global_queue(qualities[q], 0);
      if (queue) dispatch_async_f(queue, NULL, note_pool_thread);
    }
    look();
    usleep(100000);
  }
  return NULL;
}

__attribute__((constructor)) static void start_pool_canary(void) {
  const char *setting = getenv("LOCEMU_POOL_CANARY");
  if (!setting || !*setting || strcmp(setting, "0") == 0) return;
  destination = strcmp(setting, "1") == 0 ? "stderr" : setting;
  const char *seconds = getenv("LOCEMU_POOL_CANARY_SECONDS");
  if (seconds && atof(seconds) > 0) limit_seconds = atof(seconds);
  pthread_t thread;
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
  if (pthread_create(&thread, &attributes, watch, NULL) == 0) atomic_store(&running, 1);
  pthread_attr_destroy(&attributes);
}
