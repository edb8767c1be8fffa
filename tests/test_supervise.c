/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The supervisor of bin/chargesim-mpi (src/cli/supervise.c): the child's
 * exit status comes through; a child killed by a signal gives status 1,
 * its rank and signal for the one message, and leaves no temporary file; a
 * committed file stays; a signal the supervisor passes on is marked as
 * asked for. Each child here ends with _exit or a signal, never by
 * returning into the test runner. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "chargesim/output.h"
#include "chargesim/supervise.h"
#include "support/helpers.h"

/* Entries of dir, hidden ones included. */
static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    cr_assert(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

/* In the child: an output file opened (a temporary beside it), written,
 * committed or not. */
static void child_writes(const char *path, bool commit)
{
    cs_outfile o;
    cs_error err;
    if (cs_outfile_open(&o, path, &err) != CS_OK)
        _exit(70);
    fputs("partial\n", o.f);
    if (commit && cs_outfile_commit(&o, &err) != CS_OK)
        _exit(71);
}

Test(supervise, the_childs_exit_status_comes_through)
{
    cs_supervision sv;
    if (cs_supervise(&sv))
        _exit(3);
    cr_expect_eq(sv.status, 3);
    cr_expect_eq(sv.signal, 0);
    cr_expect_eq(sv.rank, -1);
    cr_expect_eq(sv.removed, 0);
}

Test(supervise, a_killed_child_gives_1_and_leaves_no_temporary)
{
    const char *dir = th_tmpdir();
    char path[4096];
    snprintf(path, sizeof path, "%s/out.csv", dir);
    cs_supervision sv;
    if (cs_supervise(&sv)) {
        cs_supervise_rank(2);
        child_writes(path, false);
        raise(SIGKILL);
        _exit(72);
    }
    cr_expect_eq(sv.status, 1);
    cr_expect_eq(sv.signal, SIGKILL);
    cr_expect_not(sv.asked);
    cr_expect_eq(sv.rank, 2);
    cr_expect_eq(sv.removed, 1);
    cr_expect_eq(entries(dir), 0, "the temporary is left");
}

Test(supervise, a_committed_file_stays)
{
    const char *dir = th_tmpdir();
    char path[4096];
    snprintf(path, sizeof path, "%s/out.csv", dir);
    cs_supervision sv;
    if (cs_supervise(&sv)) {
        child_writes(path, true);
        raise(SIGKILL);
        _exit(72);
    }
    cr_expect_eq(sv.status, 1);
    cr_expect_eq(sv.removed, 0);
    cr_expect_eq(entries(dir), 1);
    char *text = th_slurp(path, NULL);
    cr_expect_str_eq(text, "partial\n");
    free(text);
}

Test(supervise, a_signal_passed_on_is_asked_for)
{
    const char *dir = th_tmpdir();
    char path[4096];
    snprintf(path, sizeof path, "%s/out.csv", dir);
    cs_supervision sv;
    if (cs_supervise(&sv)) {
        /* As the launcher stops a job: SIGTERM to the supervisor, which
         * passes it on; the output module's handler removes the
         * temporary and dies of the signal. */
        cs_outfile_install_signal_cleanup();
        child_writes(path, false);
        kill(getppid(), SIGTERM);
        for (;;)
            pause();
    }
    cr_expect_eq(sv.status, 1);
    cr_expect_eq(sv.signal, SIGTERM);
    cr_expect(sv.asked);
    cr_expect_eq(entries(dir), 0);
}
