/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The output module (include/chargesim/output.h): every kind of target,
 * through the binary as a user meets it, each test showing the inputs
 * untouched and no temporary file left beside the output. Device targets
 * are tested only inside a private mount namespace (a tmpfs over /dev),
 * never on the machine's own /dev. */
#define _DEFAULT_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "chargesim/output.h"
#include "support/helpers.h"

static char *text;

static void release(void)
{
    free(text);
    text = NULL;
    text = NULL;
}

TestSuite(output, .fini = release);

/* A copy of the default experiment as the run's input, and its bytes. */
#define INPUT "cp \"$R/experiments/default.ini\" \"$D/e.ini\"; "
#define INPUT_UNTOUCHED "cmp -s \"$R/experiments/default.ini\" \"$D/e.ini\" && echo input-ok; "
#define LIST "echo files: $(ls -A \"$D\"); "

Test(output, regular_file_replaced_with_its_mode_and_no_temporary)
{
    const char *d = th_tmpdir();
    th_sh(d, INPUT "printf old >\"$D/out.csv\"; chmod 640 \"$D/out.csv\"; "
                   "$B run \"$D/e.ini\" --set move=5 --set distance=8,9 -o \"$D/out.csv\" "
                   "--quiet; echo rc=$?; stat -c %a \"$D/out.csv\"; head -c 9 \"$D/out.csv\"; "
                   "echo; " INPUT_UNTOUCHED LIST, &text, NULL);
    cr_expect(strstr(text, "rc=0\n640\ndistance,\ninput-ok\n"), "%s", text);
    cr_expect(strstr(text, "files: e.ini out.csv out.csv-metadata.json\n"), "%s", text);
}

Test(output, new_file_gets_the_umask_default)
{
    const char *d = th_tmpdir();
    th_sh(d, "umask 027; $B dice 2d6 -o \"$D/new.csv\"; echo rc=$?; "
             "stat -c %a \"$D/new.csv\"; " LIST, &text, NULL);
    cr_expect(strstr(text, "rc=0\n640\nfiles: new.csv new.csv-metadata.json\n"), "%s", text);
}

Test(output, symlink_is_followed_and_stays_a_link)
{
    const char *d = th_tmpdir();
    th_sh(d, INPUT "mkdir \"$D/t\"; printf old >\"$D/t/real.csv\"; "
                   "ln -s t/real.csv \"$D/link.csv\"; $B run \"$D/e.ini\" --set move=5 "
                   "--set distance=8,9 -o \"$D/link.csv\"; echo rc=$?; "
                   "test -L \"$D/link.csv\" && echo link; head -c 9 \"$D/t/real.csv\"; echo; "
                   INPUT_UNTOUCHED LIST "echo in-t: $(ls -A \"$D/t\")", &text, NULL);
    cr_expect(strstr(text, "rc=0\nlink\ndistance,\ninput-ok\n"), "%s", text);
    /* The metadata sits beside the name the user gave. */
    cr_expect(strstr(text, "files: e.ini link.csv link.csv-metadata.json t\nin-t: real.csv\n"),
              "%s", text);
}

Test(output, fifo_with_a_reader_is_written_through)
{
    const char *d = th_tmpdir();
    th_sh(d, INPUT "mkfifo \"$D/fifo\"; cat \"$D/fifo\" >\"$D/got\" & "
                   "$B run \"$D/e.ini\" --set move=5 --set distance=8,9 -o \"$D/fifo\"; "
                   "echo rc=$?; wait; test -p \"$D/fifo\" && echo fifo; head -c 9 \"$D/got\"; "
                   "echo; " INPUT_UNTOUCHED LIST, &text, NULL);
    /* No metadata beside a FIFO: it is not a file one keeps. */
    cr_expect(strstr(text, "rc=0\nfifo\ndistance,\ninput-ok\nfiles: e.ini fifo got\n"), "%s",
              text);
}

Test(output, devices_are_written_through_in_a_private_namespace)
{
    if (!th_can_unshare())
        cr_skip(TH_SKIP_NO_NAMESPACE ": device targets are tested only in a "
                "private mount namespace, never on the machine's /dev");
    const char *d = th_tmpdir();
    /* A tmpfs over /dev in a namespace of our own: its null device and
     * stdout link are ours to write to, whatever the user. */
    th_sh(d, INPUT "unshare -m sh -c 'mount -t tmpfs tmpfs /dev && "
                   "mknod -m 666 /dev/null c 1 3 && ln -s /proc/self/fd/1 /dev/stdout && "
                   "$B run \"$D/e.ini\" --set move=5 -o /dev/null; echo rc=$?; "
                   "test -c /dev/null && echo null-device; echo first >\"$D/cap\"; "
                   "$B run \"$D/e.ini\" --set move=5 --set distance=8,9 -o /dev/stdout "
                   ">>\"$D/cap\"; echo rc=$?; test -L /dev/stdout && echo stdout-link; "
                   "echo dev: $(ls -A /dev)'; head -c 15 \"$D/cap\"; echo; "
                   INPUT_UNTOUCHED LIST, &text, NULL);
    cr_expect(strstr(text, "rc=0\nnull-device\nrc=0\nstdout-link\ndev: null stdout\n"), "%s",
              text);
    /* Appended at the descriptor's offset: the old line stays. */
    cr_expect(strstr(text, "first\ndistance,\ninput-ok\nfiles: cap e.ini\n"), "%s", text);
}

Test(output, read_only_directory_fails_with_status_1_and_leaves_the_old_file)
{
    const char *d = th_tmpdir();
    const char *setup =
        getuid() == 0
            /* Root ignores permissions: a read-only mount refuses it. */
            ? "mkdir \"$D/ro\"; unshare -m sh -c 'mount -t tmpfs tmpfs \"$D/ro\" && "
              "printf old >\"$D/ro/out.csv\" && mount -o remount,ro \"$D/ro\" && "
              "$B run \"$D/e.ini\" -o \"$D/ro/out.csv\" 2>\"$D/err\"; echo rc=$?; "
              "cat \"$D/ro/out.csv\"; echo; echo ro: $(ls -A \"$D/ro\")'; "
            : "mkdir \"$D/ro\"; printf old >\"$D/ro/out.csv\"; chmod 555 \"$D/ro\"; "
              "$B run \"$D/e.ini\" -o \"$D/ro/out.csv\" 2>\"$D/err\"; echo rc=$?; "
              "cat \"$D/ro/out.csv\"; echo; echo ro: $(ls -A \"$D/ro\"); ";
    if (getuid() == 0 && !th_can_unshare())
        cr_skip(TH_SKIP_NO_NAMESPACE ": as root, no directory refuses writing outside one");
    char script[2048];
    snprintf(script, sizeof script, "%s%s%s%s", INPUT, setup, INPUT_UNTOUCHED,
             "echo err: $(wc -l <\"$D/err\") $(cat \"$D/err\")");
    th_sh(d, script, &text, NULL);
    cr_expect(strstr(text, "rc=1\nold\nro: out.csv\ninput-ok\n"), "%s", text);
    cr_expect(strstr(text, "err: 1 chargesim run: ") && strstr(text, "out.csv: cannot write"),
              "one clear message: %s", text);
}

Test(output, a_full_disk_exits_1_and_leaves_the_old_file)
{
    /* RLIMIT_FSIZE (ulimit -f, in 512-byte blocks) makes a write past 4 KiB
     * fail with EFBIG, as a full disk fails with ENOSPC; SIGXFSZ is ignored
     * so the write returns the error instead of killing the process. The
     * full WHFB table is some 30 KiB. */
    const char *d = th_tmpdir();
    th_sh(d, INPUT "printf old >\"$D/out.csv\"; "
                   "(trap '' XFSZ; ulimit -f 8; exec $B run \"$D/e.ini\" -o \"$D/out.csv\" "
                   "--quiet 2>\"$D/err\"); echo rc=$?; cat \"$D/out.csv\"; echo; "
                   "echo err: $(wc -l <\"$D/err\") $(cat \"$D/err\"); rm \"$D/err\"; "
                   INPUT_UNTOUCHED LIST, &text, NULL);
    cr_expect(strstr(text, "rc=1\nold\nerr: 1 chargesim run: "), "%s", text);
    cr_expect(strstr(text, "File too large; the old file, if any, is untouched"), "%s", text);
    cr_expect(strstr(text, "input-ok\nfiles: e.ini out.csv\n"), "%s", text);
}

Test(output, an_input_as_output_is_refused_before_the_run)
{
    const char *d = th_tmpdir();
    th_sh(d, INPUT "ln -s e.ini \"$D/elink\"; "
                   "$B run \"$D/e.ini\" -o \"$D/e.ini\" 2>&1; echo rc=$?; "
                   "$B run \"$D/e.ini\" --dist \"$D/elink\" 2>&1 >/dev/null; echo rc=$?; "
                   "$B draw \"$D/e.ini\" -o \"$D/e.ini\" 2>&1; echo rc=$?; "
                   "$B run \"$D/e.ini\" -o '' 2>&1; echo rc=$?; " INPUT_UNTOUCHED LIST,
         &text, NULL);
    cr_expect(strstr(text, "e.ini: that is an input of this run (") &&
                  strstr(text, "refusing to overwrite it\nrc=2\n"),
              "%s", text);
    cr_expect(strstr(text, "--dist ") && strstr(text, "elink: that is an input"), "%s", text);
    cr_expect(strstr(text, "an empty output file name\nrc=2\ninput-ok\nfiles: e.ini elink\n"),
              "%s", text);
}

Test(output, a_name_too_long_for_its_temporary_is_a_clear_error)
{
    const char *d = th_tmpdir();
    th_sh(d, "n=$(printf '%0250d' 0); $B dice 2d6 -o \"$D/$n\" 2>&1 | "
             "grep -c 'the name is too long to write it safely'; " LIST, &text, NULL);
    cr_expect_str_eq(text, "1\nfiles:\n");
}

Test(output, interrupted_run_with_two_outputs_leaves_nothing)
{
    const char *d = th_tmpdir();
    th_sh(d, "{ $B run \"$R/experiments/t9a-random-approach.ini\" --trials 50000000 "
             "-o \"$D/a.csv\" --dist \"$D/d.csv\" & pid=$!; sleep 1; "
             "kill -TERM $pid; wait $pid; echo rc=$?; } 2>/dev/null; " LIST, &text, NULL);
    cr_expect_str_eq(text, "rc=143\nfiles:\n");
}

Test(output, both_outputs_or_neither)
{
    /* --dist in a missing directory: refused before the run, and -o is not
     * written either. */
    const char *d = th_tmpdir();
    th_sh(d, "$B run \"$R/experiments/default.ini\" -o \"$D/a.csv\" --dist \"$D/no/d.csv\" "
             "2>/dev/null; echo rc=$?; " LIST, &text, NULL);
    cr_expect_str_eq(text, "rc=2\nfiles:\n");
}

static void put(const char *path, const char *s)
{
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fputs(s, f);
    fclose(f);
}

Test(output, a_failed_rename_in_a_group_restores_the_files_renamed_before)
{
    const char *d = th_tmpdir();
    char a[512], b[512], x[600];
    snprintf(a, sizeof a, "%s/a.csv", d);
    snprintf(b, sizeof b, "%s/b.csv", d);
    put(a, "old a");
    put(b, "old b");
    cs_outfile oa, ob;
    cs_error err;
    cr_assert_eq(cs_outfile_open(&oa, a, &err), CS_OK, "%s", err.msg);
    cr_assert_eq(cs_outfile_open(&ob, b, &err), CS_OK, "%s", err.msg);
    fputs("new a", oa.f);
    fputs("new b", ob.f);
    /* b becomes a non-empty directory meanwhile: its rename must fail. */
    unlink(b);
    cr_assert_eq(mkdir(b, 0700), 0);
    snprintf(x, sizeof x, "%s/x", b);
    put(x, "");
    cs_outfile *const both[] = {&oa, &ob};
    cr_expect_eq(cs_outfile_commit_all(both, 2, &err), CS_ERUNTIME);
    cr_expect(strstr(err.msg, "b.csv: cannot rename into place") &&
                  strstr(err.msg, "a.csv restored"),
              "%s", err.msg);
    text = th_slurp(a, NULL);
    cr_expect_str_eq(text, "old a");
    free(text);
    text = NULL;
    th_sh(d, LIST, &text, NULL);
    cr_expect_str_eq(text, "files: a.csv b.csv\n", "no temporary or backup left");
}

Test(output, a_group_commit_replaces_every_file)
{
    const char *d = th_tmpdir();
    char a[512], b[512];
    snprintf(a, sizeof a, "%s/a.csv", d);
    snprintf(b, sizeof b, "%s/b.csv", d);
    put(a, "old a");
    cs_outfile oa, ob, none = {0};
    cs_error err;
    cr_assert_eq(cs_outfile_open(&oa, a, &err), CS_OK, "%s", err.msg);
    cr_assert_eq(cs_outfile_open(&ob, b, &err), CS_OK, "%s", err.msg);
    cr_expect(cs_outfile_is_regular(&oa) && cs_outfile_is_regular(&ob));
    fputs("new a", oa.f);
    fputs("new b", ob.f);
    cs_outfile *const all[] = {&oa, NULL, &none, &ob};
    cr_expect_eq(cs_outfile_commit_all(all, 4, &err), CS_OK, "%s", err.msg);
    text = th_slurp(a, NULL);
    cr_expect_str_eq(text, "new a");
    free(text);
    text = NULL;
    text = th_slurp(b, NULL);
    cr_expect_str_eq(text, "new b");
    free(text);
    text = NULL;
    th_sh(d, LIST, &text, NULL);
    cr_expect_str_eq(text, "files: a.csv b.csv\n");
}

Test(output, a_table_without_rows_exits_2_and_writes_nothing)
{
    const char *d = th_tmpdir();
    th_sh(d, "printf 'name,ruleset,move\\n' >\"$D/u.csv\"; printf old >\"$D/o.csv\"; "
             "$B units \"$D/u.csv\" -o \"$D/o.csv\" 2>&1 | tail -1; echo rc=$?; "
             "cat \"$D/o.csv\"; echo; " LIST, &text, NULL);
    cr_expect(strstr(text, "no rows to write; nothing written\n"), "%s", text);
    cr_expect(strstr(text, "old\nfiles: o.csv u.csv\n"), "%s", text);
}

/* A target that is neither a file nor a directory is written through, and
 * one that cannot be opened (a Unix socket: ENXIO) is an error naming it,
 * with nothing created in its place. */
#include <sys/socket.h>
#include <sys/un.h>

Test(output, a_socket_cannot_be_opened_and_stays)
{
    const char *dir = th_tmpdir();
    cr_assert(dir);
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    int n = snprintf(a.sun_path, sizeof a.sun_path, "%s/sock", dir);
    cr_assert(n > 0 && (size_t)n < sizeof a.sun_path);
    int s = socket(AF_UNIX, SOCK_STREAM, 0);
    cr_assert(s >= 0);
    cr_assert_eq(bind(s, (const struct sockaddr *)&a, sizeof a), 0);
    cs_outfile o;
    cs_error err;
    cr_assert_neq(cs_outfile_open(&o, a.sun_path, &err), CS_OK);
    cr_expect(strstr(err.msg, "/sock: cannot write: No such device or address"), "%s", err.msg);
    struct stat sb;
    cr_expect(stat(a.sun_path, &sb) == 0 && S_ISSOCK(sb.st_mode));
    close(s);
}
