/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_SCHED_MPI_H
#define CHARGESIM_SCHED_MPI_H
/* The MPI backend (src/sim/sched/sched_mpi.c, compiled only with `make MPI=1`
 * into bin/chargesim-mpi): starts MPI and sets itself as the backend
 * (backend.h), and ends the job. Nothing outside sched_mpi.c sees mpi.h. */

/* MPI_Init_thread (funneled: collectives only between OpenMP regions) and
 * cs_backend_set; returns this process's rank. */
int cs_sched_mpi_start(int *argc, char ***argv);
/* Ends MPI: the ranks agree that the command is over (or learn that one of
 * them already ended it) and finalize. rc is this rank's exit status; the
 * return value is the status this process exits with: rank 0's own, 0 on the
 * others (rank 0 speaks for the job). */
int cs_sched_mpi_end(int rc);

#endif
