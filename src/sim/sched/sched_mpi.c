/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The MPI backend of the scheduler (include/chargesim/sched_mpi.h), compiled
 * only by `make MPI=1` into bin/chargesim-mpi. Every rank runs the same
 * command on the same arguments; the scheduler gives each rank a contiguous
 * share of every round's items and this file gathers the tallies (plain
 * bytes) back to every rank, so each merges the same bytes in block order
 * and stops --precision rounds on the same merged tallies (estimator.h,
 * "MPI"); rank 0's input bytes go to the others the same way (mpi_share).
 * Collectives are called only between OpenMP regions, from the
 * thread that initialised MPI (MPI_THREAD_FUNNELED). */
#include "chargesim/sched_mpi.h"

#include "chargesim/backend.h"

#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static bool mpi_begin(void);
static void mpi_allgather(void *buf, size_t unit, uint64_t n);
static void *mpi_gatherv(const void *mine, size_t bytes, size_t *total);
static void mpi_sum_u64(uint64_t *v, uint64_t n);
static bool mpi_share(int head[2], char **data, size_t *len);
static void mpi_fail(const char *what);

static cs_backend mpi_backend = {0,           1,           mpi_begin, mpi_allgather,
                                       mpi_gatherv, mpi_sum_u64, mpi_share, mpi_fail};

/* Where this rank stands in the agreement that ends the job. */
static struct {
    bool ended;  /* it took part in its last agreement (begin saw an end) */
    bool broken; /* rank 0 saw a failure of its own: cs_sched_mpi_end aborts */
} mpi_state;

/* The one agreement between ranks, the same collective wherever a rank
 * stands: 0 from a rank about to compute, 1 + its exit status from a rank
 * whose command is over. A result above 0 tells a rank about to compute
 * that another has ended, so no rank waits in a gather for one that will
 * never come (a bad input: rank 0 gives up before its run). */
static int agree(int code)
{
    int r = code;
    MPI_Allreduce(&code, &r, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return r;
}

static bool mpi_begin(void)
{
    if (mpi_state.ended)
        return false;
    if (agree(0) == 0)
        return true;
    mpi_state.ended = true;
    return false;
}

/* A failure of this rank's own (memory): a worker ends the job now (Open
 * MPI then stops every rank: rank 0's signal cleanup removes its temporary
 * files); rank 0 first lets its command remove them and report. */
static void mpi_fail(const char *what)
{
    if (mpi_backend.rank != 0) {
        fprintf(stderr, "chargesim: MPI rank %d: %s\n", mpi_backend.rank, what);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    mpi_state.broken = true;
}

static void *alloc_or_abort(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "chargesim: MPI rank %d: out of memory\n", mpi_backend.rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return p;
}

/* Rank r's share of the n units sits at units [lo, hi) of buf on rank r:
 * gathered in place, each in its own place, so item order is kept. */
static void mpi_allgather(void *buf, size_t unit, uint64_t n)
{
    int size = mpi_backend.size;
    if (n > INT_MAX || unit > INT_MAX) { /* never: a round is cut into chunks */
        fprintf(stderr, "chargesim: MPI rank %d: a round too large to gather\n",
                mpi_backend.rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    int *counts = alloc_or_abort((size_t)size * sizeof *counts);
    int *displs = alloc_or_abort((size_t)size * sizeof *displs);
    for (int r = 0; r < size; r++) {
        uint64_t lo, hi;
        cs_backend_share_of(n, r, size, &lo, &hi);
        counts[r] = (int)(hi - lo);
        displs[r] = (int)lo;
    }
    MPI_Datatype t;
    MPI_Type_contiguous((int)unit, MPI_BYTE, &t);
    MPI_Type_commit(&t);
    MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, counts, displs, t, MPI_COMM_WORLD);
    MPI_Type_free(&t);
    free(counts);
    free(displs);
}

static void *mpi_gatherv(const void *mine, size_t bytes, size_t *total)
{
    int size = mpi_backend.size;
    unsigned long long b = bytes, sum = 0;
    unsigned long long *sizes = alloc_or_abort((size_t)size * sizeof *sizes);
    MPI_Allgather(&b, 1, MPI_UNSIGNED_LONG_LONG, sizes, 1, MPI_UNSIGNED_LONG_LONG,
                  MPI_COMM_WORLD);
    for (int r = 0; r < size; r++)
        sum += sizes[r];
    /* Every rank sees the same sizes, so every rank gives up together. */
    if (sum > INT_MAX) {
        free(sizes);
        return NULL;
    }
    int *counts = alloc_or_abort((size_t)size * sizeof *counts);
    int *displs = alloc_or_abort((size_t)size * sizeof *displs);
    for (int r = 0, at = 0; r < size; r++) {
        counts[r] = (int)sizes[r];
        displs[r] = at;
        at += counts[r];
    }
    char *out = alloc_or_abort((size_t)sum);
    MPI_Allgatherv(mine, (int)bytes, MPI_BYTE, out, counts, displs, MPI_BYTE, MPI_COMM_WORLD);
    free(sizes);
    free(counts);
    free(displs);
    *total = (size_t)sum;
    return out;
}

static void mpi_sum_u64(uint64_t *v, uint64_t n)
{
    for (uint64_t at = 0; at < n;) {
        uint64_t c = n - at < INT_MAX ? n - at : INT_MAX;
        MPI_Allreduce(MPI_IN_PLACE, v + at, (int)c, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
        at += c;
    }
}

/* Rank 0 alone looks at the disk (src/io/read/infile.c): its answer goes to
 * every rank, the bytes in pieces of at most INT_MAX. It starts with the
 * agreement of begin, so a rank that waits here for an input while rank 0
 * has already ended (a refused output name) learns it and ends too. */
static bool mpi_share(int head[2], char **data, size_t *len)
{
    if (!mpi_begin())
        return false;
    long long h[3] = {head[0], head[1], (long long)*len};
    MPI_Bcast(h, 3, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    if (mpi_backend.rank != 0) {
        head[0] = (int)h[0];
        head[1] = (int)h[1];
        *len = (size_t)h[2];
        *data = NULL;
        if (*len > 0) {
            *data = alloc_or_abort(*len + 1);
            (*data)[*len] = '\0';
        }
    }
    for (size_t at = 0; at < *len;) {
        size_t c = *len - at < INT_MAX ? *len - at : INT_MAX;
        MPI_Bcast(*data + at, (int)c, MPI_BYTE, 0, MPI_COMM_WORLD);
        at += c;
    }
    return true;
}

int cs_sched_mpi_start(int *argc, char ***argv)
{
    int provided = 0;
    if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
        fputs("chargesim: MPI_Init_thread failed\n", stderr);
        exit(1);
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &mpi_backend.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &mpi_backend.size);
    if (provided < MPI_THREAD_FUNNELED) {
        if (mpi_backend.rank == 0)
            fputs("chargesim: this MPI library cannot be used with threads "
                  "(MPI_THREAD_FUNNELED)\n",
                  stderr);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    cs_backend_set(&mpi_backend);
    return mpi_backend.rank;
}

int cs_sched_mpi_end(int rc)
{
    if (mpi_state.broken)
        MPI_Abort(MPI_COMM_WORLD, rc ? rc : 1);
    if (!mpi_state.ended)
        agree(1 + (rc & 0xff));
    MPI_Finalize();
    return mpi_backend.rank == 0 ? rc : 0;
}
