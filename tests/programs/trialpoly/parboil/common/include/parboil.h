/*
 * parboil.h: the benchmark harness library (argument parsing, timer sets).
 * Usable from C and C++.
 */
#ifndef PARBOIL_HEADER
#define PARBOIL_HEADER

#ifdef __cplusplus
extern "C" {
#endif

/* Command line parameters for benchmarks. */
struct pb_Parameters {
  char *outFile;    /* If not NULL, the output file path. */
  char **inpFiles;  /* A NULL-terminated array of input file paths. */
};

/* Read parameters from the command line, removing the ones it recognises
 * (-i a,b,c and -o out) and leaving the others in argv.  Returns NULL on a
 * malformed command line. */
struct pb_Parameters *pb_ReadParameters(int *_argc, char **argv);

/* Free the parameters. */
void pb_FreeParameters(struct pb_Parameters *p);

/* The number of input files. */
int pb_Parameters_CountInputs(struct pb_Parameters *p);

/* A time value, in microseconds. */
typedef unsigned long long pb_Timestamp;

struct pb_Timer {
  enum { pb_Timer_STOPPED, pb_Timer_RUNNING } state;
  pb_Timestamp elapsed;  /* Accumulated time. */
  pb_Timestamp init;     /* Start time of the current interval. */
};

void pb_ResetTimer(struct pb_Timer *timer);
void pb_StartTimer(struct pb_Timer *timer);
void pb_StopTimer(struct pb_Timer *timer);
double pb_GetElapsedTime(struct pb_Timer *timer);

enum pb_TimerID {
  pb_TimerID_NONE = 0,
  pb_TimerID_IO,       /* Time spent in input/output. */
  pb_TimerID_KERNEL,   /* Time spent computing on the device. */
  pb_TimerID_COPY,     /* Time spent synchronously moving data to/from device. */
  pb_TimerID_DRIVER,   /* Time spent in the host interacting with the driver. */
  pb_TimerID_COPY_ASYNC, /* Time spent in asynchronous transfers. */
  pb_TimerID_COMPUTE,  /* Time for all program execution other than above. */
  pb_TimerID_OVERLAP,  /* Time double-counted in asynchronous and host activity. */
  pb_TimerID_LAST      /* Number of timers. */
};

struct pb_TimerSet {
  enum pb_TimerID current;
  struct pb_Timer timers[pb_TimerID_LAST];
};

void pb_InitializeTimerSet(struct pb_TimerSet *timers);
void pb_SwitchToTimer(struct pb_TimerSet *timers, enum pb_TimerID timer);
void pb_PrintTimerSet(struct pb_TimerSet *timers);

#ifdef __cplusplus
}
#endif

#endif /* PARBOIL_HEADER */
