#define _GNU_SOURCE
#include "COutputFiles.h"
#include <fcntl.h>

int remindc_reserve_file_space(int fd, long long length) {
#ifdef __linux__
    /* fallocate, not posix_fallocate: where the file system cannot reserve space the
     * latter writes zeros instead, which would cost more than it saves. */
    return fallocate(fd, 0, 0, (off_t)length);
#else
    (void)fd;
    (void)length;
    return -1;
#endif
}
