// The pool canary: a thread of its own that watches the threads of Swift's cooperative pool and
// reports one that sits in a blocking system call (poll, read, waitpid, a sleep...) for longer
// than a limit, with its stack. Started when the program loads, only when LOCEMU_POOL_CANARY is
// set (to a file to append reports to, or to "stderr"); scripts/test.sh sets it for every suite.
//
// Which threads are the pool's: on Linux Swift's tasks run on Dispatch's worker threads (a task
// of default priority runs where DispatchQueue.global() work runs), so a thread of the pool is a
// thread that Dispatch started. Every 250 ms the canary reads what system call each thread of the
// process is in; a thread that has sat in one blocking call (poll, read, connect, waitpid,
// nanosleep...: not futex, on which an idle worker waits for work) for the limit has its stack
// read, and is reported when its outermost frames are Dispatch's, a worker's. Threads of the
// program's own (Foundation's Thread, SwiftNIO's event loops, libgps sessions) block as they
// please. LOCEMU_POOL_CANARY_SECONDS sets the limit (default 10 s: far above any step that blocks
// by mistake for milliseconds, far below a test's hang guard).
//
// A report: "pool canary: thread TID of the cooperative pool blocked in SYSCALL for N s", then
// candidate frames of that thread's stack as "  #i 0xOFFSET FILE" (read in place, below);
// scripts/pool-canary-report.sh turns them into function names.
#define _GNU_SOURCE
#include "CPoolCanary.h"

#include <dirent.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

enum { MAX_THREADS = 1024, MAX_FRAMES = 2048, REPORTED_FRAMES = 80 };

static atomic_int running;
static atomic_int reports;
static const char *destination;
static double limit_seconds = 10;

// What the canary last saw of each thread (only the canary's thread reads and writes these):
// which thread, the blocking call, since when, whether that wait was looked at.
static pid_t seen_thread[MAX_THREADS];
static long seen_call[MAX_THREADS];
static double seen_since[MAX_THREADS];
static int seen_looked[MAX_THREADS];
static int seen_count;

int locemu_pool_canary_is_running(void) { return atomic_load(&running); }
int locemu_pool_canary_reports(void) { return atomic_load(&reports); }

static pid_t current_tid(void) { return (pid_t)syscall(SYS_gettid); }

static double now_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
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

// Whether `frames` (innermost first) are a Dispatch worker's running someone's work: the
// outermost frame below libc's thread start is in libdispatch (a Foundation Thread's is in
// Foundation, an event loop's in the program), and some frame is neither Dispatch's nor libc's
// (Dispatch's own thread for timers and events waits in epoll with nothing else on its stack).
static int is_dispatch_worker_running_work(void **frames, size_t depth) {
  int outermost_is_dispatch = -1, runs_work = 0;
  for (size_t i = depth; i-- > 0;) {
    Dl_info info;
    if (!dladdr(frames[i], &info) || !info.dli_fname) continue;
    int in_libc = strstr(info.dli_fname, "/libc.so") || strstr(info.dli_fname, "/libc-");
    int in_dispatch = strstr(info.dli_fname, "libdispatch") != NULL;
    if (in_libc) continue;
    if (outermost_is_dispatch < 0) outermost_is_dispatch = in_dispatch;
    if (!in_dispatch) runs_work = 1;
  }
  return outermost_is_dispatch == 1 && runs_work;
}

static void report(pid_t tid, const char *call, double seconds, void **frames, size_t depth) {
  FILE *out = strcmp(destination, "stderr") == 0 ? stderr : fopen(destination, "a");
  if (!out) out = stderr;
  fprintf(out, "pool canary: thread %d of the cooperative pool (process %d) blocked in %s for %.0f s\n", (int)tid,
          (int)getpid(), call, seconds);
  for (size_t i = 0; i < depth && i < REPORTED_FRAMES; i++) {
    Dl_info info;
    if (dladdr(frames[i], &info) && info.dli_fname) {
      fprintf(out, "  #%zu 0x%lx %s\n", i, (unsigned long)((char *)frames[i] - (char *)info.dli_fbase), info.dli_fname);
    }
  }
  fprintf(out, "pool canary: end of report\n");
  fflush(out);
  if (out != stderr) fclose(out);
  atomic_fetch_add(&reports, 1);
}

// The slot of `tid` in what the canary saw, a new one when it has none (a thread that ended
// leaves its slot to the next).
static int slot_of(pid_t tid, const int *alive) {
  int free_slot = -1;
  for (int i = 0; i < seen_count; i++) {
    if (seen_thread[i] == tid) return i;
    if (free_slot < 0 && !alive[i]) free_slot = i;
  }
  if (free_slot < 0) {
    if (seen_count == MAX_THREADS) return -1;
    free_slot = seen_count++;
  }
  seen_thread[free_slot] = tid;
  seen_call[free_slot] = -1;
  seen_looked[free_slot] = 0;
  return free_slot;
}

static void look(void) {
  static int alive[MAX_THREADS];
  static pid_t current[MAX_THREADS];
  double now = now_seconds();
  pid_t process = getpid();
  int count = 0;
  DIR *tasks = opendir("/proc/self/task");
  if (!tasks) return;
  struct dirent *entry;
  while ((entry = readdir(tasks)) && count < MAX_THREADS) {
    pid_t tid = (pid_t)atoi(entry->d_name);
    if (tid > 0 && tid != process) current[count++] = tid;
  }
  closedir(tasks);
  memset(alive, 0, sizeof alive);
  for (int i = 0; i < seen_count; i++) {
    for (int j = 0; j < count; j++) {
      if (current[j] == seen_thread[i]) alive[i] = 1;
    }
  }
  for (int j = 0; j < count; j++) {
    pid_t tid = current[j];
    int i = slot_of(tid, alive);
    if (i < 0) continue;
    alive[i] = 1;
    long call = current_call(tid);
    const char *name = call >= 0 ? blocking_call_name(call) : NULL;
    if (!name) {
      seen_call[i] = -1;
      seen_looked[i] = 0;
      continue;
    }
    if (seen_call[i] != call) {
      seen_call[i] = call;
      seen_since[i] = now;
      seen_looked[i] = 0;
    } else if (!seen_looked[i] && now - seen_since[i] >= limit_seconds) {
      seen_looked[i] = 1;
      static void *frames[MAX_FRAMES];
      unsigned long sp = stack_pointer(tid);
      size_t depth = sp ? candidate_frames(sp, frames, MAX_FRAMES) : 0;
      if (is_dispatch_worker_running_work(frames, depth)) report(tid, name, now - seen_since[i], frames, depth);
    }
  }
}

static void *watch(void *context) {
  (void)context;
  for (;;) {
    look();
    usleep(250000);
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
