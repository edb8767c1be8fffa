/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_CLI_H
#define CHARGESIM_CLI_H
/* The commands of bin/chargesim, one file each under src/cli/. Each takes
 * the arguments after its name and returns the process exit status: 0 done,
 * 2 bad input or usage, 1 runtime failure. Only this layer prints. Each is
 * a mapping around a request (request.h) or, for units, rules and draw,
 * its own steps: argv through the command's option table
 * (src/cli/args.c), the output files and checkpoints (src/cli/ckptfile.c),
 * the helpers they share (src/cli/common.c). */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "chargesim/checkpoint.h"
#include "chargesim/csvw.h"
#include "chargesim/entries.h"
#include "chargesim/error.h"
#include "chargesim/output.h"
#include "chargesim/report.h"
#include "chargesim/sched.h"

/* The commands: cs_cli_NAME is `chargesim NAME`, in src/cli/cmd_NAME.c
 * (cmd_run.c, cmd_compare.c, cmd_dice.c, cmd_rules.c, cmd_units.c,
 * cmd_draw.c, cmd_rerun.c, cmd_map.c). */
int cs_cli_run(int argc, char **argv);
/* `run` and `dice` as rerun calls them (cmd_run.c, cmd_dice.c): on rerun's
 * request req (request.h), whose keys the metadata set; argv, the recorded
 * command with -o, gives only the files and the new metadata's words. A
 * run's table keeps the provenance `remade` recorded (csvwread.h). */
struct cs_request;
int cs_cli_run_recorded(struct cs_request *req, int argc, char **argv,
                        const cs_csvw_remade *remade);
int cs_cli_dice_recorded(struct cs_request *req, int argc, char **argv);
int cs_cli_compare(int argc, char **argv);
int cs_cli_dice(int argc, char **argv);
int cs_cli_rules(int argc, char **argv);
int cs_cli_units(int argc, char **argv);
int cs_cli_draw(int argc, char **argv);
int cs_cli_rerun(int argc, char **argv);
int cs_cli_map(int argc, char **argv);

/* Shared helpers of the commands (src/cli/common.c). */

struct cs_opt;
struct cs_request;
/* Reads argv through command cmd's option table (options.h) with
 * getopt_long, in order: each(user, opt, value) for every option (value
 * NULL for a flag) and each(user, NULL, word) for every operand; an
 * operand may start with '-' where operand(word) says so (NULL: never).
 * --help prints the usage and returns -1; an unknown option or a missing
 * value is refused here. 0, -1, or the exit status (each's, if not 0). */
int cs_cli_args(const char *cmd, int argc, char **argv, bool (*operand)(const char *w),
                int (*each)(void *user, const struct cs_opt *o, const char *value), void *user);
/* As cs_cli_args, through table t (options.h) instead of its command's. */
struct cs_opt_table;
int cs_cli_args_table(const struct cs_opt_table *t, int argc, char **argv,
                      bool (*operand)(const char *w),
                      int (*each)(void *user, const struct cs_opt *o, const char *value),
                      void *user);
/* Command cmd's --help text (options.h) on `to`. */
void cs_cli_usage(const char *cmd, FILE *to);
/* Sets request key `key` to v: 0, or the exit status after the message. */
int cs_cli_request_set(const char *cmd, struct cs_request *r, const char *key, const char *v);
/* Sets the request key option o stands for to v (--threads capped at the
 * processors, with a note): 0, or the exit status after the message. */
int cs_cli_set(const char *cmd, struct cs_request *r, const struct cs_opt *o, const char *v);
/* Prints "chargesim CMD: MESSAGE" to stderr and returns the exit status of `st`. */
int cs_cli_fail(const char *cmd, cs_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int cs_cli_fail_err(const char *cmd, const cs_error *err);
/* After the outputs: the request's precision warning, if any (some of a
 * --precision run's points or cells stopped at the trial cap before
 * reaching the precision), on stderr; the run stands. */
void cs_cli_precision_warning(const char *cmd, const struct cs_request *r);
/* --threads T: 1 to 1024, capped at the processors available with a note
 * on stderr. 0, or the exit status after printing the error. */
int cs_cli_threads(const char *cmd, const char *v, int *threads);
/* Whether two output names are one file, so that one output would replace
 * the other once both are written: the same text, the same existing file,
 * or, before either exists, the same name in the same directory. */
bool cs_cli_same_file(const char *a, const char *b);
/* Writes the n tables t into o as the request layer joins them
 * (reqexport.h), with meta's provenance line (meta may be NULL) under each
 * md and tex table's note: CS_OK, or the status with err set. */
cs_status cs_cli_write_export(cs_outfile *o, cs_table *t, int n, cs_format fmt,
                              const cs_csvw_source *meta, cs_error *err);
/* Writes tables to `path` (NULL or "-": stdout) through the output module.
 * No rows at all: exit status 2 with a message, nothing written. With
 * `meta` (may be NULL) a CSV written to a regular file gets its CSVW
 * metadata beside it, committed with it; md and tex tables get the
 * provenance line under the note. */
int cs_cli_write_tables_meta(const char *cmd, const char *path, cs_table *t, int n,
                             cs_format fmt, const cs_csvw_source *meta);

/* --checkpoint FILE [--checkpoint-every SECONDS] of run, map and compare
 * (src/cli/ckptfile.c; checkpoint.h): around the request, the file read to
 * resume and checked against the command, written through the output
 * module while the run goes on, SIGINT and SIGTERM answered with a last
 * checkpoint, the file removed once the outputs are written. Under MPI
 * rank 0 alone looks at the disk (it reads the file for every rank and
 * alone writes it). */
typedef struct cs_cli_ckpt {
    const char *path;       /* --checkpoint FILE; NULL: none */
    const char *every_text; /* --checkpoint-every as given; NULL: the default */
    cs_ckpt *ck;            /* made by cs_cli_ckpt_start; NULL before */
    unsigned char *bytes;   /* the file read to resume: the run's state points into it */
    const char *cmd;
    int argc;               /* the command line, for the word on how to resume */
    char **argv;
} cs_cli_ckpt;
/* Takes --checkpoint and --checkpoint-every (option o, value v): sets
 * *matched; 0, or the exit status after the message. */
int cs_cli_ckpt_option(cs_cli_ckpt *c, const struct cs_opt *o, const char *v, bool *matched);
/* After cs_request_check, before the outputs are opened: with --checkpoint,
 * checks FILE (a regular file, no input nor output of the run, one this
 * process may write), gives the checkpoint the request's identity, reads
 * FILE if it exists and checks that this command wrote it (cs_ckpt_load),
 * and attaches it to the request's run. 0, or the exit status after the
 * message (nothing written). */
int cs_cli_ckpt_start(cs_cli_ckpt *c, struct cs_request *r, const char *const *inputs,
                      int n_inputs, const char *const *outputs, int n_outputs);
/* After the outputs are committed (rc 0): the checkpoint removed. Returns
 * rc. */
int cs_cli_ckpt_finish(cs_cli_ckpt *c, int rc);
void cs_cli_ckpt_free(cs_cli_ckpt *c);

/* What run, map and compare do around the request, written once
 * (src/cli/ckptfile.c): the progress bar, the checkpoint armed, the
 * request run, the bar finished; a stop by signal (its word, exit status
 * 128 + the signal) or a failure (its message). 0 when the run succeeded:
 * the caller then writes its outputs; else the exit status, and the caller
 * drops its temporaries. */
int cs_cli_request_run(const char *cmd, struct cs_request *r, bool quiet, cs_cli_ckpt *c);

/* A progress bar with ETA on stderr, shown only when stderr is a terminal
 * and the run has lasted over a second. */
typedef struct cs_progress {
    bool enabled;
    double start, last;
    bool shown;
} cs_progress;
void cs_cli_progress_init(cs_progress *p, bool quiet);
void cs_cli_progress_update(void *user, uint64_t done, uint64_t total);
void cs_cli_progress_finish(cs_progress *p);

#endif
