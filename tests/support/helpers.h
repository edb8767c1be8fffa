/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_TEST_HELPERS_H
#define CHARGESIM_TEST_HELPERS_H
/* Shared by the tests: experiments from inline INI text, runs to strings,
 * the command-line binary and shell scripts run with their output
 * captured, files written, the clock. A helper that a second test file
 * needs lives here, with the th_ prefix, never copied (tests/README.md). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "chargesim/experiment.h"
#include "chargesim/ruleset.h"
#include "chargesim/sched.h"

/* Writes `ini` to a temporary file and loads it with the overrides. */
cs_status th_load(const char *ini, const char *const *sets, int n_sets, cs_experiment *e,
                  cs_error *err);
/* Runs e with `threads` and returns the summary CSV (and --dist CSV when
 * dist != NULL) as malloc'd strings. */
char *th_run_csv(const cs_experiment *e, int threads, char **dist);
/* Runs e and returns the result (caller frees with cs_sched_result_free). */
cs_status th_run(const cs_experiment *e, int threads, cs_run_result *r);
/* Runs "$CS_BIN ARGS" through the shell; stdout and stderr captured into
 * malloc'd strings (either pointer may be NULL). Returns the exit status. */
int th_cli(const char *args, char **out, char **err);
/* A parameter's numeric value from its text, as an experiment file reads
 * it: a number, true/false (1/0), or a choice's index (a test failure when
 * the choice does not exist). */
double th_param_value(const cs_param_def *d, const char *text);
/* p holds every parameter's default; DICE, TEXT and POLYGON values point at it. */
void th_defaults(const cs_ruleset *rs, cs_params *p);

/* The whole file at path as a malloc'd, NUL-terminated string (its length
 * in *len when len is not NULL); NULL when it cannot be read. */
char *th_slurp(const char *path, size_t *len);
/* The repository root ($CS_ROOT, or "."). */
const char *th_root(void);
/* A fresh temporary directory for one test, removed with its contents
 * when the test's process exits. */
const char *th_tmpdir(void);
/* Whether this process may make a private mount namespace (unshare -m):
 * device targets are tested only there, never on the machine's devices. */
bool th_can_unshare(void);
/* The one reason a test gives for a skip where th_can_unshare is false, so
 * the run's summary counts those skips under one line (scripts/test-summary.py). */
#define TH_SKIP_NO_NAMESPACE "a private mount namespace is not permitted here"
/* Why a test that needs root is skipped for another user: one wording, one
 * summary line. */
#define TH_SKIP_NOT_ROOT "needs root"
/* Into buf: a shell command that runs the shell text cmd (no single quote
 * in it, nor in dir) with its standard output on a full device of its own:
 * a character device 1,7 made with mknod in a tmpfs over dir/dev, in a
 * private mount namespace that ends with it (th_can_unshare first). The
 * machine's /dev/full is never opened. */
void th_full_cmd(char *buf, size_t cap, const char *dir, const char *cmd);
/* A wall-clock bound of `seconds` for a test that guards against a blow-up
 * (seconds against hours), times $CS_TEST_TIME_SCALE when set: the
 * instrumented builds (make coverage, asan, ubsan) run several times slower
 * and set it. Criterion's own `.timeout` of every test is scaled by the same
 * factor before the first test starts (tests/support/helpers.c). */
double th_time_limit(double seconds);
/* A picture made by make(format, &len) in two child processes, as two runs
 * of the program would make it (cairo numbers its SVG surfaces per
 * process), for each of SVG, PNG and PDF (formats 0, 1, 2 of canvas.h):
 * each starts with its format's magic bytes and the two are identical. */
void th_check_renders_identical(char *(*make)(int format, size_t *len));
/* Ends a test's child process with `code` as _exit does (no exit handler
 * of the test runner's, nor th_tmpdir's cleanup, runs in it); under `make
 * coverage` (CS_COVERAGE) its counters are written first, so that what the
 * child ran counts as reached. A child that changed its user must be root
 * again first: the counters' files are root's. */
_Noreturn void th_child_exit(int code);
/* Leaves in the file its --checkpoint names the checkpoint that the command
 * cmd (cs_cli_run, cs_cli_map or cs_cli_compare) writes on argv when SIGTERM
 * came as it started: run in a child process with the signal already noted
 * (as a signal while it runs is), it writes its checkpoint at its first safe
 * point and returns 128 + SIGTERM; anything else fails the test. Unlike a
 * signal sent after a delay, this always stops at the same point. Call it
 * before the test's process has run OpenMP: a child forked after that may
 * wait for threads it does not have. */
void th_stopped_checkpoint(int (*cmd)(int, char **), int argc, char **argv);
/* Loads ini with the overrides and runs it on 1, 2 and 7 threads: the
 * summary CSVs and the --dist CSVs must be the same bytes (a test failure
 * otherwise), and the summary must hold `must_hold` when it is not NULL. */
void th_expect_same_bytes(const char *ini, const char *const *sets, int n_sets,
                          const char *must_hold);
/* Writes text to dir/name (a test failure if it cannot) and returns that
 * path, in a static buffer of eight that the calls take in turn. */
const char *th_write_file(const char *dir, const char *name, const char *text);
/* Runs the shell text `script` with sh in dir, with $B the binary, $R the
 * repository and $D dir exported and stdin from /dev/null. Its standard
 * output and error go into malloc'd strings in *out and *err, which are
 * freed first (NULL or a string of an earlier call); either pointer may be
 * NULL, and that stream is dropped. Nothing is written into dir but what
 * the script writes. Returns the exit status (128 if the shell did not exit). */
int th_sh(const char *dir, const char *script, char **out, char **err);
/* Seconds on the monotonic clock, for a test that bounds a wall-clock time. */
double th_now(void);
/* 5 binomial standard errors around an exact p. */
double th_5sigma(double p, uint64_t n);

#endif
