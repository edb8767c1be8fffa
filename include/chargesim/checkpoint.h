/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_CHECKPOINT_H
#define CHARGESIM_CHECKPOINT_H
/* Checkpoints (issue 34): a long run of `run`, `map` or `compare` keeps its
 * state in a file so that, killed, it goes on where it stopped and ends
 * with the bytes an uninterrupted run writes (the restart files of OpenMC,
 * whose regression test demands the same answer as an uninterrupted run).
 *
 * What makes that exact: a point's tally is plain bytes (estimator.h) to
 * which blocks are merged in block order, so the tallies after the first n
 * blocks of every point, and the round's target, are the whole state of a
 * run; the rest is regrown from the experiment (rqmc's point set from the
 * seed, compare's variant B from its overrides). The scheduler saves its
 * state only between merged blocks (cs_ckpt_save_run); a resumed run merges
 * the remaining blocks onto the saved tallies in the same order.
 *
 * The file, in this byte order (a build reads only its own: the `abi` line
 * below):
 *   "chargesim checkpoint 1\n"          magic and format
 *   "KEY VALUE\n" ...                   the identity: version, command and
 *                                       every value that changes a number
 *                                       (cs_ckpt_identify); lines starting
 *                                       "# " are notes for a reader (the
 *                                       command line), never compared
 *   "\n"
 *   u64 n, n bytes                      the outer layer's state (a map's
 *                                       finished cells; n = 0 for run)
 *   u64 n, n bytes                      the scheduler's (cs_ckpt_save_run)
 *   32 bytes                            SHA-256 of every byte before them
 * It is written whole through the caller's sink (the output module:
 * temporary, fsync, rename), so a reader sees the last checkpoint or the
 * one before. This module is pure: bytes in memory in, bytes out; it opens
 * no file, so the web edition compiles it too. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "chargesim/error.h"

struct cs_experiment;
struct cs_run_opts;

#define CS_CKPT_MAGIC "chargesim checkpoint 1\n"
#define CS_CKPT_DEFAULT_EVERY 60.0 /* seconds between checkpoints */
#define CS_CKPT_MAX_PIECES 24

/* A piece of a checkpoint file as the sink writes it (never empty). */
typedef struct cs_ckpt_piece {
    const void *p;
    size_t n;
} cs_ckpt_piece;

/* Where checkpoints go and what stops a run; the caller's (src/cli/). */
typedef struct cs_ckpt_sink {
    /* Writes one whole checkpoint, the pieces in order, replacing the last
     * one atomically. Called between blocks from the thread that runs the
     * command (under MPI on rank 0 only). A failure is the sink's to
     * report; the run goes on, the last checkpoint written stays. */
    cs_status (*write)(void *user, const cs_ckpt_piece *pieces, int n, cs_error *err);
    /* Non-zero when the run must stop at its next safe point: a code that
     * says why (the signal caught), which the run keeps (cs_ckpt_stopped;
     * under MPI the highest code any rank's sink gave, 1 to 63). Called
     * from the worker threads: it must only read a flag. */
    int (*stop)(void *user);
    void *user;
} cs_ckpt_sink;

/* The scheduler's state of one pass (the run, or the resampling of the
 * metrics an exact run leaves open), as saved and as read back. */
typedef struct cs_ckpt_pass {
    uint64_t target;             /* blocks per point of the round under way */
    uint64_t n_points, tally_size;
    char estimator[16];          /* the estimator's name */
    /* saved from: n_points of each; read back: views into the file (any
     * alignment: read blocks_done with cs_ckpt_u64_at) */
    const void *blocks_done;     /* u64: blocks merged into each point */
    const unsigned char *active; /* 1: the point still runs rounds */
    const unsigned char *tallies; /* n_points * tally_size bytes */
} cs_ckpt_pass;

typedef struct cs_ckpt_run {
    int n_passes;                /* 1 or 2: the pass under way is the last */
    cs_ckpt_pass pass[2];
    uint64_t done;               /* trials done, for the progress bar */
    uint64_t hist_len;           /* u64 bins of every point's histograms (--dist) */
    const void *hist;            /* every rank's and thread's bins summed */
} cs_ckpt_run;

/* One command's checkpointing, opaque: its fields are checkpoint.c's alone
 * (as cmark's parser is cmark's), and the run, the map and the command line
 * ask it through the functions below. Made by cs_ckpt_new, given its
 * identity by cs_ckpt_identify and (to resume) its file by cs_ckpt_load,
 * then given to the run (cs_run_opts). */
typedef struct cs_ckpt cs_ckpt;

/* Monotonic seconds. */
double cs_ckpt_now(void);
/* Empty, with every seconds (> 0) between checkpoints and the sink, the
 * clock started now; NULL when out of memory. */
cs_ckpt *cs_ckpt_new(double every, const cs_ckpt_sink *sink);
void cs_ckpt_free(cs_ckpt *ck);

/* Questions the run asks, and what it tells. */
/* Whether `every` seconds have passed since the last checkpoint (or the
 * start). */
bool cs_ckpt_due(const cs_ckpt *ck);
/* The seconds between checkpoints. */
double cs_ckpt_every(const cs_ckpt *ck);
/* The sink's word now: non-zero (the signal caught) when the run must stop
 * at its next safe point. */
int cs_ckpt_asked(const cs_ckpt *ck);
/* The run stopped at the sink's word `code`, its checkpoint written. */
void cs_ckpt_stop(cs_ckpt *ck, int code);
/* The code a run stopped at (cs_ckpt_stop), 0 when none did: the signal. */
int cs_ckpt_stopped(const cs_ckpt *ck);
/* The last write's status (CS_OK before any). */
cs_status cs_ckpt_last_write(const cs_ckpt *ck);
/* The identity lines (cs_ckpt_identify), len bytes; NULL before. */
const char *cs_ckpt_identity(const cs_ckpt *ck, size_t *len);
/* The outer layer's state in the checkpoint resumed (a map's cells), len
 * bytes, which is then cleared; NULL when there is none. */
const unsigned char *cs_ckpt_take_outer(cs_ckpt *ck, size_t *len);
/* The outer layer's pieces (at most 2) that each checkpoint now holds,
 * which must live until the next call. */
void cs_ckpt_set_outer(cs_ckpt *ck, const cs_ckpt_piece *pieces, int n);

/* The identity of a run of e with opts (opts->pair: compare's B), for
 * `command` ("run", "map", "compare"): the version and build, the ruleset,
 * every parameter's resolved values, trials, seed, the method that runs,
 * replicates, confidence, precision, the trial cap, the success set and
 * --dist; then `extra` ("KEY VALUE\n" lines the caller adds: a map's
 * axes) and `note` (shown, never compared: the command line). The thread
 * count and the output options are not in it: they change no number. */
cs_status cs_ckpt_identify(cs_ckpt *ck, const char *command, const struct cs_experiment *e,
                           const struct cs_run_opts *opts, const char *extra, const char *note,
                           cs_error *err);

/* Checks the bytes of checkpoint file `name` against ck's identity and,
 * when they match, points ck's *_in at the states in them (len bytes at
 * bytes, which must outlive the run). CS_EINPUT with a message naming the
 * file otherwise: not a checkpoint, another format, damaged or truncated
 * (its SHA-256), another version or build, another command (each value
 * that differs, as saved and as asked). */
cs_status cs_ckpt_load(cs_ckpt *ck, const char *name, const unsigned char *bytes, size_t len,
                       cs_error *err);

/* Writes a checkpoint of the run state r through the sink, with the outer
 * layer's pieces. The sink's failure is kept (cs_ckpt_last_write: it said
 * why); CS_ENOMEM only fails the call. */
cs_status cs_ckpt_save_run(cs_ckpt *ck, const cs_ckpt_run *r, cs_error *err);
/* The run state the next cs_sched_run resumes from, parsed from the file loaded
 * (views into it), whose section is then cleared; false when there is none.
 * CS_EINPUT when the bytes are not a run state. */
cs_status cs_ckpt_take_run(cs_ckpt *ck, cs_ckpt_run *r, bool *have, cs_error *err);
/* Value i of an array of u64 at p, whatever its alignment. */
uint64_t cs_ckpt_u64_at(const void *p, uint64_t i);

#endif
