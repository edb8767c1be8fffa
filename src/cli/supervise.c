/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The supervisor of bin/chargesim-mpi; see include/chargesim/supervise.h. */
#define _GNU_SOURCE /* SOCK_CLOEXEC, MSG_NOSIGNAL, MSG_DONTWAIT */
#include "chargesim/supervise.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "chargesim/grow.h"
#include "chargesim/output.h"

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

/* A record on the socket: a kind byte, then text (no NUL): 'r' the rank,
 * '+' a temporary made, '-' one let go. SOCK_SEQPACKET keeps each record
 * whole. */
#define RECORD (PATH_MAX + 1)

/* In the child: its end of the socket; -1 elsewhere. */
static int to_parent = -1;
/* In the parent, for the signal handler: the child, and whether a signal
 * was passed on to it. */
static volatile sig_atomic_t child_pid;
static volatile sig_atomic_t passed_on;

static void tell(char kind, const char *text)
{
    char rec[RECORD];
    size_t n = strlen(text);
    if (to_parent < 0 || n + 1 > sizeof rec)
        return;
    rec[0] = kind;
    memcpy(rec + 1, text, n);
    /* A parent gone means this process is being killed (PDEATHSIG):
     * no SIGPIPE, nothing to do. */
    while (send(to_parent, rec, n + 1, MSG_NOSIGNAL) < 0 && errno == EINTR)
        ;
}

static void on_temporary(const char *name, bool live)
{
    tell(live ? '+' : '-', name);
}

void cs_supervise_rank(int rank)
{
    char text[16];
    snprintf(text, sizeof text, "%d", rank);
    tell('r', text);
}

static void pass_on(int sig)
{
    passed_on = 1;
    if (child_pid > 0)
        kill((pid_t)child_pid, sig);
}

/* The temporaries the child holds now, in the parent. */
typedef struct names {
    char **name;
    int n, cap;
} names;

static void names_add(names *l, const char *s)
{
    char **more = cs_grow(l->name, l->n, &l->cap, sizeof *more, 8);
    if (!more)
        return; /* not removed later: what would happen unsupervised */
    l->name = more;
    if ((l->name[l->n] = strdup(s)) != NULL)
        l->n++;
}

static void names_drop(names *l, const char *s)
{
    for (int i = 0; i < l->n; i++)
        if (strcmp(l->name[i], s) == 0) {
            free(l->name[i]);
            l->name[i] = l->name[--l->n];
            return;
        }
}

/* One record, waiting for it or not; false at the end of the stream (the
 * child is gone) or when none is waiting. */
static bool receive(int fd, int flags, names *live, cs_supervision *out)
{
    char rec[RECORD + 1];
    ssize_t n = recv(fd, rec, RECORD, flags);
    if (n < 0)
        return errno == EINTR;
    if (n == 0)
        return false;
    rec[n] = '\0';
    if (rec[0] == 'r')
        out->rank = atoi(rec + 1);
    else if (rec[0] == '+')
        names_add(live, rec + 1);
    else if (rec[0] == '-')
        names_drop(live, rec + 1);
    return true;
}

/* Reads the child's records until it ends; its wait status. The poll has
 * a timeout in case a process the child forked holds the socket open after
 * the child is gone. */
static int watch(int fd, pid_t pid, names *live, cs_supervision *out)
{
    int status = 0;
    bool open = true;
    for (;;) {
        struct pollfd p = {fd, POLLIN, 0};
        if (open && poll(&p, 1, 1000) > 0)
            open = receive(fd, 0, live, out);
        pid_t w = waitpid(pid, &status, open ? WNOHANG : 0);
        if (w == pid)
            break;
        if (w < 0 && errno != EINTR) {
            status = 1 << 8; /* lost (never: it is our child): exit status 1 */
            break;
        }
    }
    while (receive(fd, MSG_DONTWAIT, live, out))
        ;
    return status;
}

static bool supervise_child(int fd, pid_t pid, cs_supervision *out)
{
    names live = {0};
    int status = watch(fd, pid, &live, out);
    close(fd);
    /* Whatever the child left half-written is removed, however it ended:
     * a temporary still registered was never committed. */
    for (int i = 0; i < live.n; i++) {
        if (unlink(live.name[i]) == 0)
            out->removed++;
        free(live.name[i]);
    }
    free(live.name);
    if (WIFSIGNALED(status)) {
        out->signal = WTERMSIG(status);
        out->status = 1;
    } else {
        out->status = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
    }
    out->asked = passed_on != 0;
    return false;
}

bool cs_supervise(cs_supervision *out)
{
    static const int sigs[] = {SIGTERM, SIGINT, SIGHUP};
    *out = (cs_supervision){.rank = -1};
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0)
        return true;
    /* Held back until the parent can pass them on, and restored in the
     * child: a signal never falls between the two. */
    sigset_t block, old;
    sigemptyset(&block);
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        sigaddset(&block, sigs[i]);
    sigprocmask(SIG_BLOCK, &block, &old);
    pid_t parent = getpid(), pid = fork();
    if (pid <= 0) {
        close(sv[0]);
        if (pid == 0) {
            /* SIGTERM rather than SIGKILL: the output module's handler then
             * removes this process's temporaries before it dies, even when
             * the supervisor itself was killed by SIGKILL. */
            prctl(PR_SET_PDEATHSIG, SIGTERM);
            if (getppid() != parent) /* the parent died before prctl */
                _exit(1);
            to_parent = sv[1];
            cs_outfile_observe(on_temporary);
        } else {
            close(sv[1]);
        }
        sigprocmask(SIG_SETMASK, &old, NULL);
        return true;
    }
    close(sv[1]);
    child_pid = pid;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = pass_on;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        sigaction(sigs[i], &sa, NULL);
    /* The one line main may print must not kill the supervisor instead. */
    signal(SIGPIPE, SIG_IGN);
    sigprocmask(SIG_SETMASK, &old, NULL);
    return supervise_child(sv[0], pid, out);
}
