/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A request's tables as the command line writes them, in memory; see
 * include/chargesim/reqexport.h. */
#include "chargesim/reqexport.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/experiment.h"
#include "chargesim/reqsteps.h"
#include "chargesim/tablefmt.h"

#ifndef CS_VERSION
#define CS_VERSION "unknown"
#endif

void cs_req_export_note(const char *cmdline, const char *input, const cs_run_result *run,
                        char *buf, size_t cap)
{
    /* A code span; one holding a backquote is fenced by two (CommonMark). */
    bool tick = strchr(cmdline, '`') != NULL;
    int n = snprintf(buf, cap, "Made by chargesim %s: %s%s%s", CS_VERSION, tick ? "`` " : "`",
                     cmdline, tick ? " ``" : "`");
    /* The digest was taken as the experiment file was read (so it names
     * the bytes the table came from, read once: under MPI, rank 0's). */
    if (input && n >= 0 && (size_t)n < cap)
        n += snprintf(buf + n, cap - (size_t)n, "; %s SHA-256 %s", input,
                      run ? run->exp->sha256 : "");
    if (run && n >= 0 && (size_t)n < cap) {
        const cs_experiment *e = run->exp;
        char succ[256] = "";
        for (int o = 0; o < e->rs->n_outcomes; o++)
            if (e->rs->success_mask & (1u << o)) {
                size_t used = strlen(succ);
                snprintf(succ + used, sizeof succ - used, "%s%s", used ? ", " : "",
                         e->rs->outcomes[o]);
            }
        char prec[32] = "off";
        if (e->precision > 0.0)
            snprintf(prec, sizeof prec, "%g", e->precision);
        snprintf(buf + n, cap - (size_t)n,
                 "; ruleset %s, method %s, trials %llu, seed %llu, confidence %g, precision %s, "
                 "success: %s.",
                 e->rs->name, cs_method_name(run->method), (unsigned long long)e->trials,
                 (unsigned long long)e->seed, e->confidence, prec, succ);
    } else if (n >= 0 && (size_t)n < cap) {
        snprintf(buf + n, cap - (size_t)n, ".");
    }
}

cs_status cs_req_export_tables(cs_table *t, int n, cs_format fmt, const char *line,
                               cs_text *out)
{
    cs_status st = CS_OK;
    for (int i = 0; st == CS_OK && line && fmt != CS_FORMAT_CSV && i < n; i++)
        st = cs_table_set_note(&t[i], "%s%s%s", t[i].note ? t[i].note : "",
                               t[i].note ? " " : "", line);
    for (int i = 0; st == CS_OK && i < n; i++) {
        if (i && fmt != CS_FORMAT_CSV)
            cs_text_put(out, "\n", 1);
        st = cs_tablefmt(&t[i], fmt, out);
    }
    return st == CS_OK && out->oom ? CS_ENOMEM : st;
}

/* The input the command line's files name: run's experiment file (none
 * for "-", stdin), compare's and map's operand as typed, none for dice
 * and units (cmd_run.c, cmd_compare.c, cmd_map.c). */
static const char *input_of(const cs_request *r)
{
    const char *in = cs_req_slot(r, CS_REQ_INPUT);
    if (strcmp(r->cmd, "run") == 0)
        return in && strcmp(in, "-") != 0 ? in : NULL;
    return strcmp(r->cmd, "compare") == 0 || strcmp(r->cmd, "map") == 0 ? in : NULL;
}

cs_status cs_req_export_text(cs_request *r, cs_format fmt, const char *cmdline, cs_text *out)
{
    /* The request's own tables are already CSV's (no note is added to a
     * CSV): written as they are, nothing run or drawn again. */
    if (fmt == CS_FORMAT_CSV && r->fmt == CS_FORMAT_CSV && r->n_tables > 0) {
        cs_status st = cs_req_export_tables(r->tables, r->n_tables, fmt, NULL, out);
        return st == CS_OK ? st : cs_error_set(&r->err, st, "out of memory");
    }
    cs_table *t;
    int n;
    cs_status st = cs_req_steps_tables(r, fmt, &t, &n);
    bool has_run = strcmp(r->cmd, "run") == 0 || strcmp(r->cmd, "map") == 0 ||
                       strcmp(r->cmd, "compare") == 0;
    char line[8192];
    cs_req_export_note(cmdline, input_of(r), has_run ? cs_request_run_result(r) : NULL, line,
                       sizeof line);
    if (st == CS_OK && (st = cs_req_export_tables(t, n, fmt, line, out)) != CS_OK)
        cs_error_set(&r->err, st, "out of memory");
    for (int i = 0; i < n; i++)
        cs_table_free(&t[i]);
    free(t);
    return st;
}
