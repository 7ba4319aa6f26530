#ifndef COUTPUTFILES_H
#define COUTPUTFILES_H

/* Reserves disk space for the first `length` bytes of an open file, extending it when
 * shorter. Returns 0 on success, -1 when the system or file system cannot (callers
 * treat the reservation as a hint and go on without it). */
int remindc_reserve_file_space(int fd, long long length);

/* Creates `path` for writing with `mode` (before the umask), only if nothing stands there:
 * O_EXCL, and a symbolic link at `path` is never followed. The path is remembered, so that
 * SIGINT, SIGTERM or SIGHUP remove it before the process ends. Returns the descriptor, or
 * -1 with errno set. */
int remindc_create_temporary(const char *path, unsigned int mode);

/* Remembers another path to remove on those signals (a backup link). Returns 0, or -1
 * when too many are remembered already. */
int remindc_remember_temporary(const char *path);

/* Forgets a path: it was renamed into place or removed. */
void remindc_forget_temporary(const char *path);

#endif
