#ifndef CHARGESIM_SCHED_MPI_H
#define CHARGESIM_SCHED_MPI_H
/* The scheduler's backend: how the items of a round (point, block) are
 * shared among processes. The default build has none (one process computes
 * every item); `make MPI=1` builds src/sim/sched_mpi.c, whose backend gives
 * each MPI rank a contiguous share of every round and gathers every tally
 * (plain bytes) to every rank before the in-order merge, so each rank merges
 * the same bytes in the same order, takes the same --precision decision and
 * reports what one process would (estimator.h, "MPI"). It also carries
 * rank 0's view of the input files to the others (share, used by
 * src/io/infile.c), so every rank parses the same bytes. Only this header's
 * types cross the boundary: nothing outside sched_mpi.c sees mpi.h. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct cs_sched_backend {
    int rank, size; /* this process among `size`; rank 0 reads, writes, talks */
    /* Called by every rank as a computation starts (cs_sim_run,
     * cs_sim_dice_counts): false when another rank has ended instead (rank
     * 0 refused an output, or a rank failed on its own); the caller then
     * returns CS_ERUNTIME. */
    bool (*begin)(void);
    /* buf holds n units of `unit` bytes; this rank filled its share
     * (cs_sched_share); afterwards every rank holds all n. */
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
} cs_sched_backend;

/* Sets the backend, once, before any computation (NULL: one process). */
void cs_sched_set_backend(const cs_sched_backend *b);
/* The backend set, or NULL. */
const cs_sched_backend *cs_sched_get_backend(void);
/* Items [*lo, *hi) of n are rank's share among size: contiguous, so that one
 * gather puts them back in item order; the first n % size ranks take one
 * more than the others. */
void cs_sched_share_of(uint64_t n, int rank, int size, uint64_t *lo, uint64_t *hi);
/* This process's share (all n without a backend). */
void cs_sched_share(uint64_t n, uint64_t *lo, uint64_t *hi);

/* The MPI backend (src/sim/sched_mpi.c, compiled only with `make MPI=1`). */

/* MPI_Init_thread (funneled: collectives only between OpenMP regions) and
 * cs_sched_set_backend; returns this process's rank. */
int cs_sched_mpi_start(int *argc, char ***argv);
/* Ends MPI: the ranks agree that the command is over (or learn that one of
 * them already ended it) and finalize. rc is this rank's exit status; the
 * return value is the status this process exits with: rank 0's own, 0 on the
 * others (rank 0 speaks for the job). */
int cs_sched_mpi_end(int rc);

#endif
