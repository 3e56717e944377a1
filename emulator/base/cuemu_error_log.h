/*
 * cuemu_error_log.h: the driver's error log (cudaLogs* and cuLogs*; the
 * public calls are in <cuemu/cuemu_runtime.h>).
 */
#ifndef CUEMU_ERROR_LOG_H
#define CUEMU_ERROR_LOG_H

/* Logs the message of an error that a program's call met (a launch that
 * failed, a library's fault, a launch refused): it is kept for
 * cudaLogsDumpToMemory and cudaLogsDumpToFile and passed to each
 * callback of cudaLogsRegisterCallback, at once, on the calling thread,
 * at cudaLogLevelError. Thread-safe; not async-signal-safe. */
void cuemu__error_log_add(const char *message);

#endif /* CUEMU_ERROR_LOG_H */
