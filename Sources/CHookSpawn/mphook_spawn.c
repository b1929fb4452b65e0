/* Starting a hook: fork, reset the child's signals, group, parent-death signal and descriptors,
 * then exec. Between fork and exec the child calls only async-signal-safe functions and never
 * allocates: the parent prepared everything. */
#define _GNU_SOURCE
#include "mphook.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

/* The descriptor the child reports a failed exec on (close-on-exec: a successful exec closes it). */
#define MPHOOK_STATUS_FD 3
/* Where the child first moves its pipe ends, above the numbers it is about to fill. */
#define MPHOOK_SCRATCH_FD 10

/* Every signal back to SIG_DFL, including the ones glibc reserves for itself (32 and 33), which
 * its sigaction refuses: the kernel call takes them. */
static void mphook_default_signals(void) {
#if defined(__linux__) && defined(SYS_rt_sigaction)
    /* The kernel's struct sigaction: handler, flags, restorer, mask; all zero is SIG_DFL. */
    unsigned long action[4] = {0, 0, 0, 0};
    for (int signal_number = 1; signal_number < 65; signal_number++) {
        if (signal_number == SIGKILL || signal_number == SIGSTOP) continue;
        syscall(SYS_rt_sigaction, signal_number, action, NULL, (size_t)8);
    }
#else
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = SIG_DFL;
    for (int signal_number = 1; signal_number < NSIG; signal_number++) {
        if (signal_number == SIGKILL || signal_number == SIGSTOP) continue;
        sigaction(signal_number, &action, NULL);
    }
#endif
}

/* Closes every descriptor from `lowest` up; `limit` (from the parent) bounds the slow path. */
static void mphook_close_from(int lowest, int limit) {
#if defined(__linux__) && defined(SYS_close_range)
    if (syscall(SYS_close_range, (unsigned)lowest, ~0U, 0U) == 0) return;
#endif
    for (int fd = lowest; fd < limit; fd++) close(fd);
}

static void mphook_fail(int error_number) {
    int value = error_number;
    ssize_t ignored = write(MPHOOK_STATUS_FD, &value, sizeof value);
    (void)ignored;
    _exit(127);
}

static void mphook_child(const char *path, char *const argv[], char *const envp[], int input, int output, int status,
                         pid_t parent, int limit) {
    mphook_default_signals();
    setpgid(0, 0);
#ifdef __linux__
    /* Dies with us, even of kill -9; the check closes the race with a parent that died before it. */
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent) _exit(127);
#else
    (void)parent;
#endif
    /* Moved up first, so that no dup2 below overwrites an end that is still to be copied. */
    int moved_input = fcntl(input, F_DUPFD_CLOEXEC, MPHOOK_SCRATCH_FD);
    int moved_output = fcntl(output, F_DUPFD_CLOEXEC, MPHOOK_SCRATCH_FD);
    int moved_status = fcntl(status, F_DUPFD_CLOEXEC, MPHOOK_SCRATCH_FD);
    if (moved_input < 0 || moved_output < 0 || moved_status < 0) _exit(127);
    if (dup2(moved_status, MPHOOK_STATUS_FD) < 0 || fcntl(MPHOOK_STATUS_FD, F_SETFD, FD_CLOEXEC) < 0) _exit(127);
    if (dup2(moved_input, 0) < 0 || dup2(moved_output, 1) < 0 || dup2(moved_output, 2) < 0) {
        mphook_fail(errno);
    }
    mphook_close_from(MPHOOK_STATUS_FD + 1, limit);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    execve(path, argv, envp);
    mphook_fail(errno);
}

/* A pipe whose two ends are close-on-exec. */
static int mphook_pipe(int pair[2]) {
#ifdef __linux__
    return pipe2(pair, O_CLOEXEC);
#else
    if (pipe(pair) != 0) return -1;
    fcntl(pair[0], F_SETFD, FD_CLOEXEC);
    fcntl(pair[1], F_SETFD, FD_CLOEXEC);
    return 0;
#endif
}

static void mphook_close_pair(int pair[2]) {
    if (pair[0] >= 0) close(pair[0]);
    if (pair[1] >= 0) close(pair[1]);
}

pid_t mphook_spawn(const char *path, char *const argv[], char *const envp[], int *input_fd, int *output_fd,
                   int *error_number) {
    int input[2] = {-1, -1}, output[2] = {-1, -1}, status[2] = {-1, -1};
    *error_number = 0;
    if (mphook_pipe(input) != 0 || mphook_pipe(output) != 0 || mphook_pipe(status) != 0) {
        *error_number = errno;
        mphook_close_pair(input);
        mphook_close_pair(output);
        mphook_close_pair(status);
        return -1;
    }
    struct rlimit files;
    int limit = getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < 65536 ? (int)files.rlim_cur : 65536;
    pid_t parent = getpid();
    /* No signal handler of ours may run in the child before it resets them. */
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &previous);
    pid_t child = fork();
    if (child == 0) mphook_child(path, argv, envp, input[0], output[1], status[1], parent, limit);
    int fork_error = errno;
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    close(input[0]);
    close(output[1]);
    close(status[1]);
    if (child < 0) {
        *error_number = fork_error;
        close(input[1]);
        close(output[0]);
        close(status[0]);
        return -1;
    }
    setpgid(child, child); /* both sides set it, so that it holds before either goes on */
    int exec_error = 0;
    ssize_t got;
    do {
        got = read(status[0], &exec_error, sizeof exec_error);
    } while (got < 0 && errno == EINTR);
    close(status[0]);
    if (got == (ssize_t)sizeof exec_error) {
        int ignored;
        while (waitpid(child, &ignored, 0) < 0 && errno == EINTR) {}
        close(input[1]);
        close(output[0]);
        *error_number = exec_error;
        return -1;
    }
    fcntl(input[1], F_SETFL, fcntl(input[1], F_GETFL) | O_NONBLOCK);
    fcntl(output[0], F_SETFL, fcntl(output[0], F_GETFL) | O_NONBLOCK);
    *input_fd = input[1];
    *output_fd = output[0];
    return child;
}

ssize_t mphook_write(int fd, const void *bytes, size_t count) {
    /* SIGPIPE is sent to the writing thread: block it here, and take a pending one back off. */
    sigset_t pipe_signal, previous;
    sigemptyset(&pipe_signal);
    sigaddset(&pipe_signal, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_signal, &previous);
    int was_pending = 0;
    sigset_t pending;
    if (sigpending(&pending) == 0) was_pending = sigismember(&pending, SIGPIPE);
    ssize_t written;
    do {
        written = write(fd, bytes, count);
    } while (written < 0 && errno == EINTR);
    int write_error = errno;
    if (written < 0 && write_error == EPIPE && !was_pending) {
        struct timespec now = {0, 0};
        while (sigtimedwait(&pipe_signal, NULL, &now) < 0 && errno == EINTR) {}
    }
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    errno = write_error;
    return written;
}
