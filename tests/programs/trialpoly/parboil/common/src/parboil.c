/*
 * parboil.c: argument parsing and timer sets of the benchmark harness.
 * Written in C99; compiled by the C compiler.
 */
#include <parboil.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/time.h>
#ifdef PARBOIL_CUDA
#include <cuda_runtime.h>

/* With CUDA, the kernel timer's intervals are also measured on the device,
 * by events recorded on the default stream. */
static cudaEvent_t kernel_start, kernel_stop;
static float kernel_device_ms;
static int kernel_events;

static void kernel_interval(int starting)
{
  if (!kernel_events) {
    if (cudaEventCreate(&kernel_start) != cudaSuccess ||
        cudaEventCreateWithFlags(&kernel_stop, cudaEventBlockingSync) != cudaSuccess)
      return;
    kernel_events = 1;
  }
  if (starting) {
    cudaEventRecord(kernel_start, 0);
  } else {
    float ms = 0;
    cudaEventRecord(kernel_stop, 0);
    cudaEventSynchronize(kernel_stop);
    if (cudaEventElapsedTime(&ms, kernel_start, kernel_stop) == cudaSuccess)
      kernel_device_ms += ms;
  }
}
#endif

/* Copy a string with malloc. */
static char *pb_strdup(const char *s)
{
  size_t n = strlen(s) + 1;
  char *p = (char *)malloc(n);
  memcpy(p, s, n);
  return p;
}

/* Split a comma-separated list into a NULL-terminated array of strings. */
static char **read_string_array(char *in)
{
  char **ret;
  int i;
  int count;
  char *substring;
  char *substring_end;

  /* Count the commas. */
  count = 1;
  for (i = 0; in[i]; i++)
    if (in[i] == ',') count++;

  ret = (char **)malloc((count + 1) * sizeof(char *));
  substring = in;
  for (i = 0; i < count; i++) {
    int len;
    substring_end = strchr(substring, ',');
    if (substring_end == NULL) len = strlen(substring);
    else len = substring_end - substring;
    ret[i] = (char *)malloc(len + 1);
    memcpy(ret[i], substring, len);
    ret[i][len] = 0;
    substring = substring_end + 1;
  }
  ret[i] = NULL;
  return ret;
}

static void free_string_array(char **string_array)
{
  char **p;
  if (!string_array) return;
  for (p = string_array; *p; p++) free(*p);
  free(string_array);
}

struct pb_Parameters *pb_ReadParameters(int *_argc, char **argv)
{
  char *err_message;
  int argc = *_argc;
  int i, out = 1;
  struct pb_Parameters *ret =
    (struct pb_Parameters *)malloc(sizeof(struct pb_Parameters));

  ret->outFile = NULL;
  ret->inpFiles = (char **)malloc(sizeof(char *));
  ret->inpFiles[0] = NULL;

  for (i = 1; i < argc; i++) {
    char *arg = argv[i];
    if (arg[0] == '-' && arg[1] == 'o' && arg[2] == 0) {
      if (++i >= argc) { err_message = "Expecting file name after '-o'\n"; goto error; }
      free(ret->outFile);
      ret->outFile = pb_strdup(argv[i]);
    } else if (arg[0] == '-' && arg[1] == 'i' && arg[2] == 0) {
      if (++i >= argc) { err_message = "Expecting file name after '-i'\n"; goto error; }
      free_string_array(ret->inpFiles);
      ret->inpFiles = read_string_array(argv[i]);
    } else if (strcmp(arg, "--") == 0) {
      /* Everything after "--" is the program's own. */
      for (i++; i < argc; i++) argv[out++] = argv[i];
      break;
    } else {
      argv[out++] = arg;
    }
  }
  argv[out] = NULL;
  *_argc = out;
  return ret;

error:
  fputs(err_message, stderr);
  pb_FreeParameters(ret);
  return NULL;
}

void pb_FreeParameters(struct pb_Parameters *p)
{
  free(p->outFile);
  free_string_array(p->inpFiles);
  free(p);
}

int pb_Parameters_CountInputs(struct pb_Parameters *p)
{
  int n;
  for (n = 0; p->inpFiles[n]; n++);
  return n;
}

static pb_Timestamp get_time(void)
{
  struct timespec tv;
  clock_gettime(CLOCK_MONOTONIC, &tv);
  return (pb_Timestamp)tv.tv_sec * 1000000ULL + tv.tv_nsec / 1000;
}

void pb_ResetTimer(struct pb_Timer *timer)
{
  timer->state = pb_Timer_STOPPED;
  timer->elapsed = 0;
}

void pb_StartTimer(struct pb_Timer *timer)
{
  if (timer->state != pb_Timer_STOPPED) {
    fputs("Ignoring attempt to start a running timer\n", stderr);
    return;
  }
  timer->state = pb_Timer_RUNNING;
  timer->init = get_time();
}

void pb_StopTimer(struct pb_Timer *timer)
{
  if (timer->state != pb_Timer_RUNNING) {
    fputs("Ignoring attempt to stop a stopped timer\n", stderr);
    return;
  }
  timer->state = pb_Timer_STOPPED;
  timer->elapsed += get_time() - timer->init;
}

double pb_GetElapsedTime(struct pb_Timer *timer)
{
  if (timer->state != pb_Timer_STOPPED)
    fputs("Elapsed time from a running timer is inaccurate\n", stderr);
  return timer->elapsed / 1e6;
}

void pb_InitializeTimerSet(struct pb_TimerSet *timers)
{
  int n;
  timers->current = pb_TimerID_NONE;
  for (n = 0; n < pb_TimerID_LAST; n++)
    pb_ResetTimer(&timers->timers[n]);
}

void pb_SwitchToTimer(struct pb_TimerSet *timers, enum pb_TimerID timer)
{
  if (timers->current != pb_TimerID_NONE)
    pb_StopTimer(&timers->timers[timers->current]);
#ifdef PARBOIL_CUDA
  if (timers->current == pb_TimerID_KERNEL && timer != pb_TimerID_KERNEL)
    kernel_interval(0);
  if (timer == pb_TimerID_KERNEL && timers->current != pb_TimerID_KERNEL)
    kernel_interval(1);
#endif
  timers->current = timer;
  if (timer != pb_TimerID_NONE)
    pb_StartTimer(&timers->timers[timer]);
}

void pb_PrintTimerSet(struct pb_TimerSet *timers)
{
  static const char *categories[] = {
    "IO", "Kernel", "Copy", "Driver", "Copy Async", "Compute", "Overlap"
  };
  struct pb_Timer *t = timers->timers;
  double total = 0;
  int i;
  for (i = pb_TimerID_IO; i < pb_TimerID_LAST; i++) {
    double s = pb_GetElapsedTime(&t[i]);
    if (s != 0)
      fprintf(stderr, "%-12s: %f\n", categories[i - 1], s);
    total += s;
  }
  fprintf(stderr, "Timer Wall Time: %f\n", total);
#ifdef PARBOIL_CUDA
  if (kernel_events) {
    fprintf(stderr, "Kernel (device events): %f\n", kernel_device_ms / 1e3);
    if (kernel_device_ms < 0) fprintf(stderr, "negative kernel time\n");
  }
#endif
}
