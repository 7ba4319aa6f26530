#ifndef CFILESPACE_H
#define CFILESPACE_H

/* Reserves disk space for the first `length` bytes of an open file, extending it when
 * shorter. Returns 0 on success, -1 when the system or file system cannot (callers
 * treat the reservation as a hint and go on without it). */
int remindc_reserve_file_space(int fd, long long length);

#endif
