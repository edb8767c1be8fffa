/* SPDX-License-Identifier: GPL-3.0-or-later */
/* --checkpoint on the command line when the file will not go (src/cli/ckptfile.c,
 * issue 34): a checkpoint that cannot be removed once the run is done, and
 * a run stopped by SIGTERM when no checkpoint could be written. Root makes
 * a file that no one may replace or remove by mounting it over itself (a
 * bind mount: rename and unlink then fail with EBUSY), in a private mount
 * namespace (unshare -m) that ends with the command, so the machine's
 * mounts never change. The checkpoint the command goes on from is one
 * stopped at its start (th_stopped_checkpoint). */
#define _DEFAULT_SOURCE
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "chargesim/cli.h"
#include "support/helpers.h"

/* The words of args (split at spaces) into argv, held in buf. */
static int split(const char *args, char *buf, size_t cap, char **argv)
{
    snprintf(buf, cap, "%s", args);
    int argc = 0;
    for (char *t = strtok(buf, " "); t && argc < 63; t = strtok(NULL, " "))
        argv[argc++] = t;
    argv[argc] = NULL;
    return argc;
}

/* dir/ck, the checkpoint `run ARGS` leaves stopped at its start; its bytes. */
static char *stopped_run(const char *dir, const char *args, size_t *len)
{
    char buf[2048], *argv[64], ck[600];
    th_stopped_checkpoint(cs_cli_run, split(args, buf, sizeof buf, argv), argv);
    snprintf(ck, sizeof ck, "%s/ck", dir);
    char *bytes = th_slurp(ck, len);
    cr_assert(bytes, "%s: no checkpoint", ck);
    return bytes;
}

/* The shell command that runs `$CS_BIN run ARGS` with dir/ck mounted over
 * itself, standard error (the mount's too) to dir/err. */
static void mounted(char *cmd, size_t cap, const char *dir, const char *args)
{
    snprintf(cmd, cap,
             "exec unshare -m sh -c 'mount --bind %s/ck %s/ck && exec \"$CS_BIN\" run %s' "
             "2>%s/err",
             dir, dir, args, dir);
}

static void same_bytes(const char *path, const char *want, size_t want_len, const char *what)
{
    size_t len;
    char *got = th_slurp(path, &len);
    cr_expect(got && len == want_len && memcmp(got, want, len) == 0, "%s: %s changed", what,
              path);
    free(got);
}

static char *listing(const char *dir)
{
    char ls[700], *names = NULL;
    size_t cap = 0;
    snprintf(ls, sizeof ls, "ls -A %s", dir);
    FILE *p = popen(ls, "r");
    cr_assert(p);
    cr_assert(getdelim(&names, &cap, '\0', p) > 0);
    pclose(p);
    return names;
}

/* The run goes on from the checkpoint and ends as an uninterrupted run;
 * removing its checkpoint then fails: a warning that names the file and
 * why, exit status 0 (the results are written), the file kept as it was. */
Test(resume, a_checkpoint_that_cannot_be_removed_stays_with_a_warning)
{
    if (!th_can_unshare())
        cr_skip_test(TH_SKIP_NO_NAMESPACE ": the file no one may remove is made "
                     "only in a private mount namespace");
    const char *dir = th_tmpdir();
    char e[600], args[2048], cmd[4096], path[700];
    snprintf(e, sizeof e, "%s/e.ini", dir);
    FILE *f = fopen(e, "w");
    cr_assert(f);
    fputs("[experiment]\nruleset = generic\ntrials = 20000\nmethod = mc\n[params]\nmove = 4..6\n"
          "distance = 6..10\n",
          f);
    cr_assert_eq(fclose(f), 0);
    snprintf(args, sizeof args, "%s --threads 1 --quiet -o %s/out.csv --checkpoint %s/ck", e, dir,
             dir);
    size_t len;
    char *ck = stopped_run(dir, args, &len);
    snprintf(cmd, sizeof cmd, "run %s --threads 1 --quiet -o %s/ref.csv", e, dir);
    cr_assert_eq(th_cli(cmd, NULL, NULL), 0);
    mounted(cmd, sizeof cmd, dir, args);
    int status = system(cmd);
    snprintf(path, sizeof path, "%s/err", dir);
    char *err = th_slurp(path, NULL);
    cr_assert(err, "%s", cmd);
    if (strstr(err, "mount:") && !strstr(err, "chargesim"))
        cr_skip_test(TH_SKIP_NO_NAMESPACE ": mount --bind refused: %s", err);
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %d: %s", status, err);
    char want[1400];
    snprintf(want, sizeof want, "chargesim run: note: going on from the checkpoint %s/ck\n", dir);
    cr_expect(strstr(err, want), "%s", err);
    snprintf(want, sizeof want,
             "chargesim run: warning: the run is done but its checkpoint stays: %s/ck: cannot "
             "remove it: Device or resource busy\n",
             dir);
    cr_expect(strstr(err, want), "%s", err);
    size_t ref_len;
    snprintf(path, sizeof path, "%s/ref.csv", dir);
    char *ref = th_slurp(path, &ref_len);
    cr_assert(ref);
    snprintf(path, sizeof path, "%s/out.csv", dir);
    same_bytes(path, ref, ref_len, "the run that went on: its table");
    snprintf(path, sizeof path, "%s/ck", dir);
    same_bytes(path, ck, len, "the checkpoint that stays");
    char *names = listing(dir);
    cr_expect_str_eq(names, "ck\ne.ini\nerr\nout.csv\nout.csv-metadata.json\nref.csv\n"
                            "ref.csv-metadata.json\n");
    free(names);
    free(ref);
    free(err);
    free(ck);
}

/* Whether the file at path holds `text`. */
static bool holds(const char *path, const char *text)
{
    char *s = th_slurp(path, NULL);
    bool yes = s && strstr(s, text);
    free(s);
    return yes;
}

/* SIGTERM when no checkpoint could be written (each write refused, with a
 * warning): the run stops at its next safe point, says that the file holds
 * only the last checkpoint written, if any, and how to go on, and ends by
 * the signal, leaving the file as it was and no other. */
Test(resume, stopped_when_no_checkpoint_could_be_written_says_so, .timeout = 300)
{
    if (!th_can_unshare())
        cr_skip_test(TH_SKIP_NO_NAMESPACE ": the file no one may replace is made "
                     "only in a private mount namespace");
    const char *dir = th_tmpdir();
    char args[2048], cmd[4096], errpath[700];
    /* Long enough never to end before the signal. */
    snprintf(args, sizeof args,
             "%s/experiments/t9a-random-approach.ini --method mc --trials 100000000 --threads 1 "
             "--quiet -o %s/out.csv --checkpoint %s/ck --checkpoint-every 0.05",
             th_root(), dir, dir);
    size_t len;
    char *ck = stopped_run(dir, args, &len);
    mounted(cmd, sizeof cmd, dir, args);
    snprintf(errpath, sizeof errpath, "%s/err", dir);
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    /* The signal once a write has been refused: the run is under way. */
    char refused[1400];
    snprintf(refused, sizeof refused,
             "chargesim run: warning: the checkpoint was not written: %s/ck: cannot rename into "
             "place: Device or resource busy; the run goes on (%s/ck holds the last one "
             "written, if any)\n",
             dir, dir);
    double limit = th_time_limit(60.0), t0 = th_now();
    int status;
    while (!holds(errpath, refused) && th_now() - t0 < limit && waitpid(pid, &status, WNOHANG) == 0)
        nanosleep(&(struct timespec){0, 20000000}, NULL);
    bool seen = holds(errpath, refused);
    char *err = th_slurp(errpath, NULL);
    if (!seen) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        if (err && strstr(err, "mount:") && !strstr(err, "chargesim"))
            cr_skip_test(TH_SKIP_NO_NAMESPACE ": mount --bind refused: %s", err);
        cr_assert(false, "no refused write within %.0f s: %s", limit, err ? err : "");
    }
    free(err);
    cr_assert_eq(kill(pid, SIGTERM), 0);
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    err = th_slurp(errpath, NULL);
    cr_assert(err);
    cr_expect(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM, "status %d: %s", status, err);
    char want[1400];
    snprintf(want, sizeof want,
             "chargesim run: stopped by SIGTERM; the checkpoint could not be written (above): "
             "%s/ck holds the last one written, if any; the same command goes on from it:\n"
             "  chargesim run %s/experiments/t9a-random-approach.ini --method mc ",
             dir, th_root());
    cr_expect(strstr(err, want), "%s", err);
    char path[700];
    snprintf(path, sizeof path, "%s/ck", dir);
    same_bytes(path, ck, len, "the checkpoint no write could replace");
    char *names = listing(dir);
    cr_expect_str_eq(names, "ck\nerr\n");
    free(names);
    free(err);
    free(ck);
}
