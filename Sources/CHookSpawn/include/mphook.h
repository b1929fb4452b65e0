/* MorningProof's C shim for starting notification hooks.
 *
 * Foundation's Process hands a child whatever the calling thread had: a signal mask with SIGTERM,
 * SIGINT, SIGHUP and SIGALRM blocked (libdispatch's worker threads), SIGPIPE ignored, descriptors
 * without close-on-exec (the database, sockets), and no way to tie the child's life to ours.
 * posix_spawn can reset the mask and dispositions and set the process group, but not
 * PR_SET_PDEATHSIG, so this forks and sets everything in the child before exec. */
#ifndef MPHOOK_H
#define MPHOOK_H

#include <stddef.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Starts the program at `path` with `argv` and `envp` (NULL-terminated) as a hook: in a process
 * group of its own (its pid), every signal at its default disposition and none blocked, killed
 * with SIGKILL when the calling thread's process dies (Linux), standard input and output (standard
 * error shares it) on two new pipes and no other descriptor open. The calling thread must wait
 * for the child itself: on Linux the death signal follows the thread that forked.
 *
 * Returns the child's pid, with the parent's ends of the pipes, non-blocking and close-on-exec,
 * in `input_fd` (write the hook's input) and `output_fd` (read what it writes). Returns -1 with
 * an errno value in `error_number` when the pipes or the fork fail, or when execve fails in the
 * child (ENOEXEC for a file with no #! line, ENOENT for a missing file or interpreter, EACCES
 * for a file that is not executable); the child is then already reaped. */
pid_t mphook_spawn(const char *path, char *const argv[], char *const envp[], int *input_fd, int *output_fd,
                   int *error_number);

/* Writes up to `count` bytes to a hook's input: like write(2), but a hook that closed its input
 * gives -1 with errno EPIPE, never a SIGPIPE to this process, whatever its disposition. */
ssize_t mphook_write(int fd, const void *bytes, size_t count);

#ifdef __cplusplus
}
#endif

#endif
