/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_CLI_H
#define CHARGESIM_CLI_H
/* The commands of bin/chargesim, one file each under src/cli/. Each takes
 * the arguments after its name and returns the process exit status: 0 done,
 * 2 bad input or usage, 1 runtime failure. Only this layer prints. */
#include <stdbool.h>
#include <stdint.h>

#include "chargesim/checkpoint.h"
#include "chargesim/csvw.h"
#include "chargesim/entries.h"
#include "chargesim/error.h"
#include "chargesim/report.h"
#include "chargesim/sched.h"

/* The commands: cs_cli_NAME is `chargesim NAME`, in src/cli/cmd_NAME.c
 * (cmd_run.c, cmd_compare.c, cmd_dice.c, cmd_rules.c, cmd_units.c,
 * cmd_draw.c, cmd_rerun.c, cmd_map.c). */
int cs_cli_run(int argc, char **argv);
/* `run` as rerun calls it (cmd_run.c): the table's metadata keeps the
 * provenance `remade` recorded (csvw.h); NULL: as cs_cli_run. */
int cs_cli_run_remade(int argc, char **argv, const cs_csvw_remade *remade);
int cs_cli_compare(int argc, char **argv);
int cs_cli_dice(int argc, char **argv);
int cs_cli_rules(int argc, char **argv);
int cs_cli_units(int argc, char **argv);
int cs_cli_draw(int argc, char **argv);
int cs_cli_rerun(int argc, char **argv);
int cs_cli_map(int argc, char **argv);

/* Shared helpers of the commands (src/cli/common.c). */

/* Matches argv[*i] against option `name` ("--trials"), with its value either
 * as the next argument or after '='. Returns true on a match and sets *value
 * (NULL if missing: the caller reports it); advances *i past a separate value. */
bool cs_cli_opt(int argc, char **argv, int *i, const char *name, const char **value);
/* Prints "chargesim CMD: MESSAGE" to stderr and returns the exit status of `st`. */
int cs_cli_fail(const char *cmd, cs_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int cs_cli_fail_err(const char *cmd, const cs_error *err);
/* An unknown option `arg` of command cmd: the message, with the nearest of
 * the options `usage` (the command's --help text) lists as a suggestion
 * ("did you mean --trials?"); returns exit status 2. */
int cs_cli_unknown_option(const char *cmd, const char *arg, const char *usage);
/* Warns that some of a --precision run's `what` ("points", "cells") stopped
 * at the trial cap before reaching the precision (stderr; the run stands). */
void cs_cli_precision_warning(const char *cmd, const char *what, uint64_t max_trials);
/* A command's overrides for the experiment file, in the order given: each
 * --set K=V, and the experiment's own keys given as options, kept as the
 * texts "experiment.KEY=VALUE" the list owns, so one parser reads both. */
#define CS_CLI_MAX_SETS CS_ENTRIES_MAX_SETS
typedef struct cs_cli_sets {
    const char *set[CS_CLI_MAX_SETS];
    char *owned[CS_CLI_MAX_SETS];
    int n, n_owned;
} cs_cli_sets;
/* What an option of cs_cli_sets_option may be. */
typedef enum cs_cli_sets_kind {
    CS_CLI_SETS_ONLY,      /* `opt` K=V alone */
    CS_CLI_SETS_EXP,       /* also --trials, --seed, --method, --confidence, --precision */
    CS_CLI_SETS_EXP_REPL,  /* those and --replicates (rqmc) */
} cs_cli_sets_kind;
/* Matches argv[*i] against `opt` ("--set"; compare's "--b") and, as `kind`
 * allows, the experiment's keys; on a match sets *matched and appends the
 * override to s. 0, or the exit status after the message (no value, too
 * many overrides). */
int cs_cli_sets_option(const char *cmd, cs_cli_sets *s, const char *opt, cs_cli_sets_kind kind,
                       int argc, char **argv, int *i, bool *matched);
void cs_cli_sets_free(cs_cli_sets *s);
/* Parses option `opt`'s value v (chargesim/parse.h) into *out within
 * [lo, hi]: 0, or the exit status after printing why it was refused. */
int cs_cli_uint(const char *cmd, const char *opt, const char *v, uint64_t lo, uint64_t hi,
                uint64_t *out);
/* --threads T: 1 to 1024, capped at the processors available with a note
 * on stderr. 0, or the exit status after printing the error. */
int cs_cli_threads(const char *cmd, const char *v, int *threads);
/* Whether two output names are one file, so that one output would replace
 * the other once both are written: the same text, the same existing file,
 * or, before either exists, the same name in the same directory. */
bool cs_cli_same_file(const char *a, const char *b);
/* Writes tables to `path` (NULL or "-": stdout) through the output module.
 * No rows at all: exit status 2 with a message, nothing written. With
 * `meta` (may be NULL) a CSV written to a regular file gets its CSVW
 * metadata beside it, committed with it; md and tex tables get the
 * provenance line under the note. */
int cs_cli_write_tables_meta(const char *cmd, const char *path, cs_table *t, int n,
                             cs_format fmt, const cs_csvw_source *meta);

/* --checkpoint FILE [--checkpoint-every SECONDS] of run, map and compare
 * (src/cli/resume.c; checkpoint.h): the file read to resume and checked
 * against the command, written through the output module while the run
 * goes on, SIGINT and SIGTERM answered with a last checkpoint, the file
 * removed once the outputs are written. Under MPI rank 0 alone looks at
 * the disk (it reads the file for every rank and alone writes it). */
typedef struct cs_cli_ckpt {
    const char *path;       /* --checkpoint FILE; NULL: none */
    const char *every_text; /* --checkpoint-every as given; NULL: the default */
    cs_ckpt *ck;            /* made by cs_cli_ckpt_start; NULL before */
    unsigned char *bytes;   /* the file read to resume: the run's state points into it */
    const char *cmd;
    int argc;               /* the command line, for the word on how to resume */
    char **argv;
} cs_cli_ckpt;
/* Matches --checkpoint and --checkpoint-every: 0, or the exit status after
 * the message. */
int cs_cli_ckpt_option(const char *cmd, cs_cli_ckpt *c, int argc, char **argv, int *i,
                       bool *matched);
/* Before the outputs are opened: builds the run (cs_sched_plan: opts->est,
 * with or without --checkpoint); then, with --checkpoint, checks FILE (a regular file, no input
 * nor output of the run, one this process may write), reads it if it
 * exists and checks that it was written by this command (cs_ckpt_load),
 * and sets opts->checkpoint. `extra` adds "KEY VALUE\n" lines to the
 * identity (map: its axes); opts->pair is compare's B. 0, or the exit
 * status after the message (nothing written). */
int cs_cli_ckpt_start(cs_cli_ckpt *c, const cs_experiment *e, cs_run_opts *opts,
                      const char *extra, const char *const *inputs, int n_inputs,
                      const char *const *outputs, int n_outputs);
/* Around the run: SIGINT and SIGTERM deferred to its safe points. */
void cs_cli_ckpt_arm(cs_cli_ckpt *c);
/* After the run: 0 to go on, or, when a signal stopped it (its checkpoint
 * written), the exit status 128 + the signal after the word on how to
 * resume; the caller then removes its temporaries and returns it. */
int cs_cli_ckpt_stopped(cs_cli_ckpt *c);
/* After the outputs are committed (rc 0): the checkpoint removed. Returns
 * rc. */
int cs_cli_ckpt_finish(cs_cli_ckpt *c, int rc);
void cs_cli_ckpt_free(cs_cli_ckpt *c);

/* What run, map and compare do around the engine, written once
 * (src/cli/resume.c, cs_cli_engine_run; issue 43): the progress bar, the
 * checkpoint armed, the engine called, the bar finished, a stop by signal
 * (its word, exit status 128 + the signal), else on success the outputs
 * written and the precision warning, on failure the temporaries dropped
 * and the message. */
typedef struct cs_cli_engine {
    const char *cmd;   /* "run", "map", "compare" */
    const char *what;  /* what --precision may leave short: "points", "cells" */
    bool quiet;        /* no progress bar */
    cs_cli_ckpt *ckpt;
    void *user;
    /* The engine call, with opts->progress set. */
    cs_status (*engine)(void *user, cs_run_opts *opts, cs_error *err);
    /* After the engine succeeded: the outputs written; 0, or the exit
     * status after the message. */
    int (*write)(void *user);
    /* After the engine failed or was stopped: the outputs' temporaries
     * removed (NULL: none open yet). */
    void (*abort)(void *user);
    /* After the outputs: whether every point met --precision, and the cap
     * it ran under. */
    bool (*precision_met)(void *user, uint64_t *max_trials);
} cs_cli_engine;
/* Runs g; returns the command's exit status (0 when all went well). */
int cs_cli_engine_run(const cs_cli_engine *g, const cs_experiment *e, cs_run_opts *opts);

/* A progress bar with ETA on stderr, shown only when stderr is a terminal
 * and the run has lasted over a second. */
typedef struct cs_progress {
    bool enabled;
    double start, last;
    bool shown;
} cs_progress;
void cs_progress_init(cs_progress *p, bool quiet);
void cs_progress_update(void *user, uint64_t done, uint64_t total);
void cs_progress_finish(cs_progress *p);

#endif
