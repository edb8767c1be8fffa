/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Input files (src/io/read/infile.c): in one process the readers stream their
 * files from disk; under MPI rank 0 alone looks at the disk and the others
 * parse its bytes and meet its failures (issue 22). The MPI side is played
 * here by a stand-in backend whose `share` hands out rank 0's answers, so
 * every reader (experiment, mapping, units CSV, BattleScribe, metadata) is
 * seen parsing bytes its own disk does not hold. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "chargesim/csvw.h"
#include "chargesim/expfile.h"
#include "chargesim/infile.h"
#include "chargesim/backend.h"
#include "chargesim/sha256.h"
#include "chargesim/unitsrc.h"
#include "support/helpers.h"
#include "support/units_helpers.h"

/* ---- the stand-in for MPI ----------------------------------------------- */

/* Rank 0's answers, handed out in order to a rank other than 0. */
typedef struct canned {
    int err, found;
    const char *data;
    size_t len;
} canned;

static canned queue[8];
static int queued, served;
static bool rank0_ended;

/* On rank 0: what it shared, the last time. */
static int shared_head[2];
static char *shared_data;
static size_t shared_len;

static bool fake_share(int head[2], char **data, size_t *len)
{
    if (rank0_ended)
        return false;
    if (cs_backend_get()->rank == 0) {
        memcpy(shared_head, head, sizeof shared_head);
        free(shared_data);
        shared_data = *len ? malloc(*len) : NULL;
        if (*len)
            memcpy(shared_data, *data, *len);
        shared_len = *len;
        return true;
    }
    cr_assert_lt(served, queued, "more questions than rank 0 answered");
    canned c = queue[served++];
    head[0] = c.err;
    head[1] = c.found;
    *len = c.len;
    *data = NULL;
    if (c.len) {
        *data = malloc(c.len + 1);
        memcpy(*data, c.data, c.len);
        (*data)[c.len] = '\0';
    }
    return true;
}

static cs_backend worker = {.rank = 1, .size = 3, .share = fake_share};
static cs_backend rank0 = {.rank = 0, .size = 3, .share = fake_share};

static void answer(int err, int found, const char *data, size_t len)
{
    cr_assert_lt(queued, 8);
    queue[queued++] = (canned){err, found, data, len};
}

static void answer_text(const char *text)
{
    answer(0, 1, text, strlen(text));
}

/* ---- one process --------------------------------------------------------- */

Test(infile, one_process_reads_its_own_disk)
{
    const char *dir = th_tmpdir();
    char path[4096];
    snprintf(path, sizeof path, "%s/a.txt", dir);
    FILE *w = fopen(path, "w");
    cr_assert(w);
    fputs("abc\n", w);
    fclose(w);

    FILE *f = cs_infile_open(path);
    cr_assert(f);
    char buf[16] = "";
    cr_expect_eq(fread(buf, 1, sizeof buf, f), 4);
    cr_expect_str_eq(buf, "abc\n");
    fclose(f);
    errno = 0;
    cr_expect_null(cs_infile_open("/nonexistent/a.txt"));
    cr_expect_eq(errno, ENOENT);

    cr_expect(cs_infile_is_dir(dir));
    cr_expect_not(cs_infile_is_dir(path));
    cr_expect_not(cs_infile_is_dir("/nonexistent"));
    char *names;
    size_t len;
    cr_assert_eq(cs_infile_list(dir, &names, &len), 0);
    cr_expect_eq(len, sizeof "a.txt");
    cr_expect_str_eq(names, "a.txt");
    free(names);
    cr_expect_eq(cs_infile_list("/nonexistent", &names, &len), ENOENT);
    cr_expect_null(names);
    cr_expect(cs_infile_reader());
}

/* ---- rank 0 ------------------------------------------------------------- */

Test(infile, rank0_reads_the_file_and_shares_it_whole)
{
    const char *path = th_units_data("units.csv");
    size_t n;
    char *disk = th_slurp(path, &n);
    cr_assert(disk);
    cs_backend_set(&rank0);
    cr_expect(cs_infile_reader());
    FILE *f = cs_infile_open(path);
    cr_assert(f);
    cr_expect_eq(shared_head[0], 0);
    cr_expect_eq(shared_head[1], 1);
    cr_assert_eq(shared_len, n);
    cr_expect_eq(memcmp(shared_data, disk, n), 0);
    /* rank 0 parses the bytes it shared, not a second read of the file */
    char *back = malloc(n + 1);
    cr_expect_eq(fread(back, 1, n + 1, f), n);
    cr_expect_eq(memcmp(back, disk, n), 0);
    fclose(f);
    /* a file it cannot open: the errno goes to the others, no bytes */
    cr_expect_null(cs_infile_open("/nonexistent/x.ini"));
    cr_expect_eq(shared_head[0], ENOENT);
    cr_expect_eq(shared_head[1], 0);
    cr_expect_eq(shared_len, 0);
    free(back);
    free(disk);
}

/* ---- the other ranks ------------------------------------------------------ */

Test(infile, a_worker_parses_rank0s_experiment_and_digest)
{
    static const char ini[] = "[experiment]\nruleset = t9a\ntrials = 100\n[params]\ndistance = 5\n";
    answer_text(ini);
    cs_backend_set(&worker);
    cr_expect_not(cs_infile_reader());
    cs_experiment e;
    cs_error err = {0};
    /* a path this process cannot read: the bytes are rank 0's */
    cr_assert_eq(cs_expfile_load("/nonexistent/e.ini", NULL, 0, &e, &err), CS_OK, "%s", err.msg);
    cr_expect_eq(e.trials, 100);
    char hex[65];
    cs_sha256_hex(ini, strlen(ini), hex);
    cr_expect_str_eq(e.sha256, hex);
    cs_experiment_free(&e);
}

Test(infile, a_worker_fails_as_rank0_failed)
{
    cs_backend_set(&worker);
    cs_experiment e;
    cs_error err = {0};
    answer(ENOENT, 0, NULL, 0);
    cr_expect_eq(cs_expfile_load("e.ini", NULL, 0, &e, &err), CS_EINPUT);
    cr_expect_str_eq(err.msg, "e.ini: cannot open: No such file or directory");
    /* opened, then unreadable (a directory): as fopen and getc would say */
    answer(EISDIR, 1, NULL, 0);
    cr_expect_eq(cs_expfile_load("e.ini", NULL, 0, &e, &err), CS_EINPUT);
    cr_expect_str_eq(err.msg, "e.ini: cannot read: Is a directory");
    /* the bytes rank 0 read before an error, then the error */
    answer(EIO, 1, "abc", 3);
    FILE *f = cs_infile_open("x");
    cr_assert(f);
    char buf[8];
    cr_expect_eq(fread(buf, 1, sizeof buf, f), 3);
    cr_expect(ferror(f));
    cr_expect_eq(errno, EIO);
    fclose(f);
    /* rank 0 has ended (a refused output name): this rank fails too */
    rank0_ended = true;
    cr_expect_null(cs_infile_open("x"));
    cr_expect_eq(errno, ECANCELED);
    cr_expect_not(cs_infile_is_dir("."));
}

Test(infile, a_worker_takes_rank0s_directories_and_choices)
{
    cs_backend_set(&worker);
    answer(0, 1, NULL, 0);
    cr_expect(cs_infile_is_dir("/nonexistent"));
    answer(0, 0, NULL, 0);
    cr_expect_not(cs_infile_is_dir("/"));
    static const char names[] = "b.cat\0.hidden.cat\0a.cat\0notes.txt\0";
    answer(0, 1, names, sizeof names - 1);
    static const char *const cat[] = {".cat", NULL};
    char(*files)[CS_UNITS_PATH];
    int n;
    cs_error err;
    cr_assert_eq(cs_units_list_files("/nowhere", cat, &files, &n, &err), CS_OK, "%s", err.msg);
    cr_assert_eq(n, 2);
    cr_expect_str_eq(files[0], "/nowhere/a.cat");
    cr_expect_str_eq(files[1], "/nowhere/b.cat");
    free(files);
    answer(ENOENT, 0, NULL, 0);
    cr_expect_eq(cs_units_list_files("/nowhere", cat, &files, &n, &err), CS_EINPUT);
    cr_expect_str_eq(err.msg, "/nowhere: cannot open the directory: No such file or directory");
    answer_text("/srv/mappings");
    char text[64] = "experiments/mappings";
    cs_infile_share_text(text, sizeof text);
    cr_expect_str_eq(text, "/srv/mappings");
}

Test(infile, a_worker_reads_rank0s_units_csv_and_catalogue)
{
    cs_units_mapping maps[2];
    cs_error err = {0};
    cr_assert_eq(cs_units_mapping_load(th_units_data("mappings/new.ini"), &maps[0], &err), CS_OK);
    cr_assert_eq(cs_units_mapping_load(th_units_data("mappings/old.ini"), &maps[1], &err), CS_OK);
    char *csv = th_slurp(th_units_data("units.csv"), NULL);
    cr_assert(csv);
    cs_units mine = {0}, theirs = {0};
    cr_assert_eq(cs_units_read_csv(th_units_data("units.csv"), maps, 2, NULL, &mine, &err), CS_OK,
                 "%s", err.msg);
    answer_text(csv);
    cs_backend_set(&worker);
    cr_assert_eq(cs_units_read_csv("/nowhere/units.csv", maps, 2, NULL, &theirs, &err), CS_OK,
                 "%s", err.msg);
    cr_expect_eq(theirs.n, 5);
    cr_expect_eq(theirs.n, mine.n);
    for (int i = 0; i < mine.n && i < theirs.n; i++)
        cr_expect_str_eq(theirs.unit[i].name, mine.unit[i].name);
    static const char gst[] = "<?xml version=\"1.0\"?>\n<gameSystem id=\"sys-1\" name=\"S\"/>\n";
    answer_text(gst);
    char id[64];
    cr_assert_eq(cs_units_bs_system("/nowhere/s.gst", id, sizeof id, &err), CS_OK, "%s", err.msg);
    cr_expect_str_eq(id, "sys-1");
    answer(EISDIR, 1, NULL, 0);
    cr_expect_eq(cs_units_bs_system("/nowhere/d.gst", id, sizeof id, &err), CS_EINPUT);
    cr_expect_str_eq(err.msg, "/nowhere/d.gst: cannot read: Is a directory");
    cs_units_free(&mine);
    cs_units_free(&theirs);
    free(csv);
}

Test(infile, a_worker_reads_rank0s_metadata_for_rerun)
{
    /* the message for a missing file, as one process words it */
    char **argv;
    int argc;
    cs_error one = {0}, err = {0};
    cr_expect_eq(cs_csvwread_args("/nonexistent/m.json", &argv, &argc, NULL, &one), CS_EINPUT);
    cs_backend_set(&worker);
    answer(ENOENT, 0, NULL, 0);
    cr_expect_eq(cs_csvwread_args("/nonexistent/m.json", &argv, &argc, NULL, &err), CS_EINPUT);
    cr_expect_str_eq(err.msg, one.msg);
    answer_text("{\"chargesim:table\": \"dice\", "
                "\"chargesim:dice\": {\"expression\": \"2d6\", \"method\": \"exact\"}}");
    cr_assert_eq(cs_csvwread_args("/nowhere/m.json", &argv, &argc, NULL, &err), CS_OK, "%s", err.msg);
    cr_assert_eq(argc, 5);
    cr_expect_str_eq(argv[0], "dice");
    cr_expect_str_eq(argv[1], "2d6");
    cr_expect_str_eq(argv[2], "--exact");
    cs_csvwread_free_args(argv, argc);
}
