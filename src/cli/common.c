/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Helpers shared by the commands; see include/chargesim/cli.h. */
#define _DEFAULT_SOURCE
#include "chargesim/cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "chargesim/options.h"
#include "chargesim/output.h"
#include "chargesim/parse.h"
#include "chargesim/reqexport.h"
#include "chargesim/request.h"
#include "chargesim/sched.h"
#include "chargesim/tablewrite.h"

/* The directory part of `path` ("." when it has none) into buf. */
static void dir_of(const char *path, char *buf, size_t cap)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(buf, cap, ".");
    else if (slash == path)
        snprintf(buf, cap, "/");
    else
        snprintf(buf, cap, "%.*s", (int)(slash - path), path);
}

bool cs_cli_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (strcmp(a, b) == 0)
        return true;
    bool ea = stat(a, &sa) == 0, eb = stat(b, &sb) == 0;
    if (ea || eb)
        return ea && eb && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    /* Neither exists yet: ./x.svg and x.svg are still one file. */
    const char *na = strrchr(a, '/'), *nb = strrchr(b, '/');
    if (strcmp(na ? na + 1 : a, nb ? nb + 1 : b) != 0)
        return false;
    char da[4096], db[4096];
    dir_of(a, da, sizeof da);
    dir_of(b, db, sizeof db);
    return stat(da, &sa) == 0 && stat(db, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

int cs_cli_fail(const char *cmd, cs_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "chargesim %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return cs_status_exit_code(st);
}

int cs_cli_fail_err(const char *cmd, const cs_error *err)
{
    return cs_cli_fail(cmd, err->status, "%s", err->msg);
}

void cs_cli_precision_warning(const char *cmd, const cs_request *r)
{
    const char *w = cs_request_warning(r);
    if (w)
        fprintf(stderr, "chargesim %s: %s\n", cmd, w);
}

int cs_cli_request_set(const char *cmd, cs_request *r, const char *key, const char *v)
{
    return cs_request_set(r, key, v) != CS_OK ? cs_cli_fail_err(cmd, cs_request_error(r)) : 0;
}

int cs_cli_set(const char *cmd, cs_request *r, const cs_opt *o, const char *v)
{
    char capped[32];
    if (strcmp(o->key, "threads") == 0) {
        int t;
        int rc = cs_cli_threads(cmd, v, &t);
        if (rc)
            return rc;
        snprintf(capped, sizeof capped, "%d", t);
        v = capped;
    }
    return cs_cli_request_set(cmd, r, o->key, v);
}

/* Parses option `opt`'s value v (chargesim/parse.h) into *out within
 * [lo, hi]: 0, or the exit status after printing why it was refused. */
static int cli_uint(const char *cmd, const char *opt, const char *v, uint64_t lo, uint64_t hi,
                    uint64_t *out)
{
    cs_error err;
    if (cs_parse_u64_option(opt, v, lo, hi, out, &err) != CS_OK)
        return cs_cli_fail_err(cmd, &err);
    return 0;
}

int cs_cli_threads(const char *cmd, const char *v, int *threads)
{
    uint64_t t;
    int rc = cli_uint(cmd, "--threads", v, 1, 1024, &t);
    if (rc)
        return rc;
    /* More threads than processors only add switching: capped, said once. */
    int cores = cs_sched_cores();
    if (cores > 0 && t > (uint64_t)cores) {
        fprintf(stderr, "chargesim %s: note: --threads %llu capped at the %d processors available\n",
                cmd, (unsigned long long)t, cores);
        t = (uint64_t)cores;
    }
    *threads = (int)t;
    return 0;
}

cs_status cs_cli_write_export(cs_outfile *o, cs_table *t, int n, cs_format fmt,
                              const cs_csvw_source *meta, cs_error *err)
{
    char line[8192];
    if (meta)
        cs_csvw_note(meta, line, sizeof line);
    cs_text s = {0};
    cs_status st = cs_req_export_tables(t, n, fmt, meta ? line : NULL, &s);
    if (st != CS_OK)
        st = cs_error_set(err, st, "out of memory");
    else if (s.len && fwrite(s.s, 1, s.len, o->f) != s.len)
        st = cs_outfile_write_error(o, err);
    free(s.s);
    return st;
}

int cs_cli_write_tables_meta(const char *cmd, const char *path, cs_table *t, int n,
                             cs_format fmt, const cs_csvw_source *meta)
{
    cs_outfile o, m = {0};
    cs_error err;
    char *mpath = NULL;
    int rows = 0;
    for (int i = 0; i < n; i++)
        rows += t[i].nrows;
    if (rows == 0)
        return cs_cli_fail(cmd, CS_EINPUT, "no rows to write; nothing written");
    if (cs_outfile_open(&o, path, &err) != CS_OK)
        return cs_cli_fail_err(cmd, &err);
    cs_status st = CS_OK;
    if (meta && fmt == CS_FORMAT_CSV && cs_outfile_is_regular(&o)) {
        st = (mpath = cs_csvw_path(path)) ? cs_outfile_open(&m, mpath, &err)
                                          : cs_error_set(&err, CS_ENOMEM, "out of memory");
        if (st == CS_OK)
            st = cs_csvw_write(m.f, meta, &t[0], &err);
    }
    if (st == CS_OK)
        st = cs_cli_write_export(&o, t, n, fmt, meta, &err);
    free(mpath);
    cs_outfile *const both[] = {&o, &m};
    if (st == CS_OK)
        st = cs_outfile_commit_all(both, 2, &err);
    if (st != CS_OK) {
        cs_outfile_abort(&o);
        cs_outfile_abort(&m);
        return cs_cli_fail_err(cmd, &err);
    }
    return 0;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void cs_cli_progress_init(cs_progress *p, bool quiet)
{
    p->enabled = !quiet && isatty(STDERR_FILENO);
    p->start = now();
    p->last = 0.0;
    p->shown = false;
}

void cs_cli_progress_update(void *user, uint64_t done, uint64_t total)
{
    cs_progress *p = user;
    if (!p || !p->enabled || total == 0)
        return;
    double t = now(), el = t - p->start;
    if (el < 1.0 || t - p->last < 0.1)
        return;
    p->last = t;
    p->shown = true;
    double f = (double)done / (double)total;
    if (f > 1.0)
        f = 1.0;
    int bar = (int)(f * 30.0);
    double eta = f > 0.0 ? el * (1.0 - f) / f : 0.0;
    fprintf(stderr, "\r[%.*s%*s] %3d%%  ETA %.0fs ", bar, "##############################",
            30 - bar, "", (int)(100.0 * f), eta);
    fflush(stderr);
}

void cs_cli_progress_finish(cs_progress *p)
{
    if (p->shown)
        fprintf(stderr, "\r%60s\r", "");
}
