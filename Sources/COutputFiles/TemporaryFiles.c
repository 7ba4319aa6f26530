#define _GNU_SOURCE
#include "COutputFiles.h"
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

/* Temporary files are the only thing an interrupted remindc could leave behind, and they
 * are preallocated (megabytes each). A signal handler may only call async-signal-safe
 * functions, so the paths live in a fixed table that the handler reads and the writers
 * change with those signals blocked. */
enum { REMINDC_MAX_TEMPORARIES = 32, REMINDC_MAX_PATH = 4096 };

static char remindc_temporaries[REMINDC_MAX_TEMPORARIES][REMINDC_MAX_PATH];
static volatile sig_atomic_t remindc_in_use[REMINDC_MAX_TEMPORARIES];
static pthread_once_t remindc_handlers_once = PTHREAD_ONCE_INIT;
static const int remindc_cleanup_signals[] = {SIGINT, SIGTERM, SIGHUP};

static void remindc_remove_temporaries(int signal_number) {
    for (int i = 0; i < REMINDC_MAX_TEMPORARIES; i++) {
        if (remindc_in_use[i]) {
            unlink(remindc_temporaries[i]);
        }
    }
    /* End the way the signal would have ended the process. */
    signal(signal_number, SIG_DFL);
    raise(signal_number);
}

static void remindc_install_handlers(void) {
    for (size_t i = 0; i < sizeof remindc_cleanup_signals / sizeof remindc_cleanup_signals[0]; i++) {
        /* A signal the parent ignores (nohup's SIGHUP) stays ignored. */
        struct sigaction current;
        if (sigaction(remindc_cleanup_signals[i], NULL, &current) == 0 && current.sa_handler == SIG_IGN) {
            continue;
        }
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = remindc_remove_temporaries;
        sigfillset(&action.sa_mask);
        sigaction(remindc_cleanup_signals[i], &action, NULL);
    }
}

static void remindc_block_signals(sigset_t *previous) {
    sigset_t blocked;
    sigemptyset(&blocked);
    for (size_t i = 0; i < sizeof remindc_cleanup_signals / sizeof remindc_cleanup_signals[0]; i++) {
        sigaddset(&blocked, remindc_cleanup_signals[i]);
    }
    pthread_sigmask(SIG_BLOCK, &blocked, previous);
}

static pthread_mutex_t remindc_table_lock = PTHREAD_MUTEX_INITIALIZER;

int remindc_remember_temporary(const char *path) {
    if (strlen(path) >= REMINDC_MAX_PATH) {
        errno = ENAMETOOLONG;
        return -1;
    }
    pthread_once(&remindc_handlers_once, remindc_install_handlers);
    sigset_t previous;
    remindc_block_signals(&previous);
    pthread_mutex_lock(&remindc_table_lock);
    int result = -1;
    for (int i = 0; i < REMINDC_MAX_TEMPORARIES; i++) {
        if (!remindc_in_use[i]) {
            strcpy(remindc_temporaries[i], path);
            remindc_in_use[i] = 1;
            result = 0;
            break;
        }
    }
    pthread_mutex_unlock(&remindc_table_lock);
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    if (result != 0) {
        errno = EMFILE;
    }
    return result;
}

void remindc_forget_temporary(const char *path) {
    sigset_t previous;
    remindc_block_signals(&previous);
    pthread_mutex_lock(&remindc_table_lock);
    for (int i = 0; i < REMINDC_MAX_TEMPORARIES; i++) {
        if (remindc_in_use[i] && strcmp(remindc_temporaries[i], path) == 0) {
            remindc_in_use[i] = 0;
        }
    }
    pthread_mutex_unlock(&remindc_table_lock);
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
}

int remindc_create_temporary(const char *path, unsigned int mode) {
    /* Signals wait until the file is both created and remembered: none can fall between. */
    pthread_once(&remindc_handlers_once, remindc_install_handlers);
    sigset_t previous;
    remindc_block_signals(&previous);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, (mode_t)mode);
    if (fd >= 0 && remindc_remember_temporary(path) != 0) {
        int saved = errno;
        close(fd);
        unlink(path);
        fd = -1;
        errno = saved;
    }
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    return fd;
}
