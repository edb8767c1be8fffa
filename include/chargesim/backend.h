/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_BACKEND_H
#define CHARGESIM_BACKEND_H
/* The backend (src/sim/sched/backend.c): how the items of a round (point, block)
 * are shared among processes. It is the sim layer's one mutable global, set
 * once at start and read by the scheduler (src/sim/sched/sched.c, for a run
 * and for a job such as the dice sampler's), the input files
 * (src/io/read/infile.c) and rerun.
 * The default build has none (one process computes every item); `make
 * MPI=1` sets the MPI one (src/sim/sched/sched_mpi.c, sched_mpi.h), which gives
 * each MPI rank a contiguous share of every round and gathers every tally
 * (plain bytes) to every rank before the in-order merge, so each rank merges
 * the same bytes in the same order, takes the same --precision decision and
 * reports what one process would (estimator.h, "MPI"). It also carries
 * rank 0's view of the input files to the others (share, used by
 * src/io/read/infile.c), so every rank parses the same bytes. Only this header's
 * types cross the boundary: nothing outside sched_mpi.c sees mpi.h. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct cs_backend {
    int rank, size; /* this process among `size`; rank 0 reads, writes, talks */
    /* Called by every rank as a computation starts (cs_sched_run,
     * cs_sched_job_run): false when another rank has ended instead (rank
     * 0 refused an output, or a rank failed on its own); the caller then
     * returns CS_ERUNTIME. */
    bool (*begin)(void);
    /* buf holds n units of `unit` bytes; this rank filled its share
     * (cs_backend_share); afterwards every rank holds all n. */
    void (*allgather)(void *buf, size_t unit, uint64_t n);
    /* Every rank's `bytes` bytes at `mine`, concatenated in rank order into
     * a new allocation (its size in *total); NULL when out of memory. */
    void *(*gatherv)(const void *mine, size_t bytes, size_t *total);
    /* v[i] := the sum over ranks of v[i] (integers: any order). */
    void (*sum_u64)(uint64_t *v, uint64_t n);
    /* Rank 0's answer to every rank: two small integers (head) and `*len`
     * bytes at *data. Rank 0's are left as they are; on the others head,
     * *len and *data are replaced by rank 0's (*data malloc'ed and
     * NUL-terminated, NULL when *len is 0). Called by every rank at the same
     * point, like begin, and false like it when another rank has ended
     * instead (then nothing is changed). */
    bool (*share)(int head[2], char **data, size_t *len);
    /* A failure only this rank saw (out of memory): a worker ends the whole
     * job at once with exit status 1; rank 0 returns and ends it after its
     * command has removed its temporary files (cs_sched_mpi_end). */
    void (*fail)(const char *what);
} cs_backend;

/* Sets the backend, once, before any computation (NULL: one process). */
void cs_backend_set(const cs_backend *b);
/* The backend set, or NULL. */
const cs_backend *cs_backend_get(void);
/* The backend when it has more than one rank (the computation is then
 * shared), else NULL. */
const cs_backend *cs_backend_multi(void);
/* Items [*lo, *hi) of n are rank's share among size: contiguous, so that one
 * gather puts them back in item order; the first n % size ranks take one
 * more than the others. */
void cs_backend_share_of(uint64_t n, int rank, int size, uint64_t *lo, uint64_t *hi);
/* This process's share (all n without a backend). */
void cs_backend_share(uint64_t n, uint64_t *lo, uint64_t *hi);

#endif
