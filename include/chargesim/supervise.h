/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_SUPERVISE_H
#define CHARGESIM_SUPERVISE_H
/* The supervisor of bin/chargesim-mpi (issue 22: a rank that dies ends the
 * run with exit status 1 and no partial file). A process killed by a signal
 * has no exit status of its own, and mpirun then ends the job with 128 +
 * the signal; SIGKILL also leaves the temporary files of the output module
 * behind, since no handler runs. So the launched process forks before
 * MPI_Init: the child is the rank, the parent only waits. The parent passes
 * SIGTERM, SIGINT and SIGHUP on to the child, learns the child's rank and
 * every temporary name it makes or lets go (cs_outfile_observe) over a
 * socket, and when the child ends, however it ends, removes the
 * temporaries it left and exits with the child's status, or 1 if a signal
 * killed it. The child dies with its parent (PR_SET_PDEATHSIG, SIGTERM so
 * that its own handler removes its temporaries). Open MPI takes the child
 * as the rank (as it would the program under `sh -c 'prog; true'`); when it
 * stops the job it signals the whole process group, child included. The
 * one case left: the supervisor itself killed by SIGKILL, whose status
 * mpirun then reports (137). */
#include <stdbool.h>

typedef struct cs_supervision {
    int status;  /* the status to exit with: the child's, 1 if a signal killed it */
    int signal;  /* the signal that killed the child, 0 if it exited */
    bool asked;  /* a signal was passed on to the child (the job was being stopped) */
    int rank;    /* the rank the child reported (cs_supervise_rank), -1 if none */
    int removed; /* temporary files the child left, removed */
} cs_supervision;

/* Forks. Returns true in the child, which goes on with the program; false
 * in the parent once the child has ended, with *out filled. When the
 * process cannot fork (or make the socket) it returns true unsupervised:
 * the program runs as it would without this. */
bool cs_supervise(cs_supervision *out);

/* In the child: tells the supervisor this process's rank, for its message
 * should the child be killed. Nothing in an unsupervised process. */
void cs_supervise_rank(int rank);

#endif
