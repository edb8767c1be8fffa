/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The request API's library calls (issue 53): its version, a table's cells
 * and text, a cancel flag, an option's key, the last error's words; see
 * include/chargesim/reqapi.h. Each reads the request through request.h's
 * calls or its handle (reqsteps.h); none runs a step. */
#include "chargesim/reqapi.h"

#include <stdlib.h>
#include <string.h>

#include "chargesim/error.h"
#include "chargesim/options.h"
#include "chargesim/reqsteps.h"
#include "chargesim/request.h"
#include "chargesim/tablefmt.h"

int cs_request_api_version(void)
{
    return CHARGESIM_API_VERSION_MAJOR * 1000 + CHARGESIM_API_VERSION_MINOR;
}

const char *cs_request_library_version(void)
{
    return CS_VERSION;
}

/* Table i, or NULL past the last. */
static const cs_table *table_at(cs_request *r, int i)
{
    return r && i >= 0 && i < cs_request_tables(r) ? cs_request_table(r, i) : NULL;
}

int cs_request_table_rows(cs_request *r, int i)
{
    const cs_table *t = table_at(r, i);
    return t ? t->nrows : 0;
}

int cs_request_table_cols(cs_request *r, int i)
{
    const cs_table *t = table_at(r, i);
    return t ? t->ncols : 0;
}

const char *cs_request_table_cell(cs_request *r, int i, int row, int col)
{
    const cs_table *t = table_at(r, i);
    if (!t || row < 0 || row >= t->nrows || col < 0 || col >= t->ncols)
        return "";
    return cs_table_cell(t, row, col);
}

const char *cs_request_table_title(cs_request *r, int i)
{
    const cs_table *t = table_at(r, i);
    return t && t->title ? t->title : "";
}

const char *cs_request_table_note(cs_request *r, int i)
{
    const cs_table *t = table_at(r, i);
    return t && t->note ? t->note : "";
}

long cs_request_table_text(cs_request *r, int i, const char *format, char *buf, size_t cap)
{
    const cs_table *t = table_at(r, i);
    cs_format fmt;
    if (!t || !format || !cs_format_parse(format, &fmt))
        return -1;
    cs_text out = {0};
    cs_status st = cs_tablefmt(t, fmt, &out);
    long n = st == CS_OK && !out.oom ? (long)out.len : -1;
    if (n >= 0 && buf && cap > 0) {
        size_t k = out.len < cap ? out.len : cap - 1;
        if (k)
            memcpy(buf, out.s, k);
        buf[k] = '\0';
    }
    free(out.s);
    return n;
}

/* The cancel callback of cs_request_cancel_on: the flag, read atomically. */
static int flag_set(void *user)
{
    return __atomic_load_n((const int *)user, __ATOMIC_RELAXED) != 0;
}

void cs_request_cancel_on(cs_request *r, const int *flag)
{
    if (flag)
        cs_request_on_cancel(r, flag_set, (void *)(size_t)flag);
    else
        cs_request_on_cancel(r, NULL, NULL);
}

const char *cs_request_key_of(const cs_request *r, const char *name)
{
    if (!r || !name || !r->opts_table)
        return NULL;
    char dashed[64];
    if (name[0] != '-') {
        if (strlen(name) + 3 > sizeof dashed)
            return NULL;
        dashed[0] = dashed[1] = '-';
        strcpy(dashed + 2, name);
        for (char *c = dashed + 2; *c; c++)
            if (*c == '_')
                *c = '-';
        name = dashed;
    }
    const cs_opt *o = cs_opt_find(r->opts_table, name);
    return o ? o->key : NULL;
}

const char *cs_request_message(const cs_request *r)
{
    const cs_error *e = r ? cs_request_error(r) : NULL;
    return e ? e->msg : "";
}

const char *cs_request_message_key(const cs_request *r)
{
    const cs_error *e = r ? cs_request_error(r) : NULL;
    return e ? e->key : "";
}
