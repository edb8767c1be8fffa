/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The page's answers built with jansson; see include/chargesim/webjson.h. */
#include "chargesim/webjson.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/options.h"
#include "chargesim/reqexport.h"
#include "chargesim/request.h"
#include "chargesim/table.h"

#ifndef CS_VERSION
#define CS_VERSION "unknown"
#endif

/* A text as it is (the command line's bytes, whatever they hold). */
static json_t *str(const char *s)
{
    return json_string_nocheck(s);
}

void cs_webjson_set(json_t *o, const char *key, json_t *v, bool *oom)
{
    if (json_object_set_new(o, key, v) != 0)
        *oom = true;
}

void cs_webjson_add(json_t *a, json_t *v, bool *oom)
{
    if (json_array_append_new(a, v) != 0)
        *oom = true;
}

void cs_webjson_table(json_t *o, const cs_table *t, bool *oom)
{
    json_t *head = json_array(), *rows = json_array();
    for (int c = 0; c < t->ncols; c++)
        cs_webjson_add(head, str(t->header[c]), oom);
    for (int r = 0; r < t->nrows; r++) {
        json_t *row = json_array();
        for (int c = 0; c < t->ncols; c++)
            cs_webjson_add(row, str(cs_table_cell(t, r, c)), oom);
        cs_webjson_add(rows, row, oom);
    }
    cs_webjson_set(o, "header", head, oom);
    cs_webjson_set(o, "rows", rows, oom);
    /* The swept keys, in order: a chart's axes, never guessed by the page
     * from where a column stands. */
    json_t *swept = json_array();
    for (int c = 0; c < t->ncols; c++)
        if (t->swept[c])
            cs_webjson_add(swept, str(t->header[c]), oom);
    cs_webjson_set(o, "swept", swept, oom);
}

void cs_webjson_columns(json_t *o, cs_request *r, bool *oom)
{
    json_t *cols = json_array();
    cs_request_column c;
    for (int k = 0; cs_request_column_at(r, 0, k, &c); k++)
        cs_webjson_add(cols, json_pack("{s:s, s:s, s:s, s:s, s:s}", "name", c.name, "label",
                                       c.label, "description", c.description, "unit", c.unit,
                                       "kind", c.kind),
                       oom);
    cs_webjson_set(o, "columns", cols, oom);
}

/* Key of o set to r's tables in format fmt as the command line `cmdline`
 * writes them; null when that failed (the page then offers no export). */
static void export_text(json_t *o, const char *key, cs_request *r, cs_format fmt,
                        const char *cmdline, bool *oom)
{
    cs_text t = {0};
    cs_status st = cs_req_export_text(r, fmt, cmdline, &t);
    if (st == CS_ENOMEM)
        *oom = true;
    cs_webjson_set(o, key, st == CS_OK && t.s ? json_stringn_nocheck(t.s, t.len) : json_null(),
                   oom);
    free(t.s);
}

void cs_webjson_export(json_t *o, cs_request *r, const char *cmd, const char *command, bool *oom)
{
    export_text(o, "csv", r, CS_FORMAT_CSV, command, oom);
    /* A command without --format (map) prints no Markdown: null. */
    size_t n = strlen(command) + sizeof " --format md";
    char *md = malloc(n);
    if (!cs_opt_by_key(cs_opt_table_of(cmd), "format")) {
        cs_webjson_set(o, "markdown", json_null(), oom);
    } else if (md) {
        snprintf(md, n, "%s --format md", command);
        export_text(o, "markdown", r, CS_FORMAT_MD, md, oom);
    } else {
        *oom = true;
    }
    free(md);
    cs_webjson_set(o, "version", json_string(CS_VERSION), oom);
    uint64_t seed = 0;
    bool sampled = cs_request_seed(r, &seed);
    char text[32];
    snprintf(text, sizeof text, "%llu", (unsigned long long)seed);
    cs_webjson_set(o, "seed", sampled ? json_string(text) : json_null(), oom);
}

char *cs_webjson_dump(json_t *o, bool *oom)
{
    /* Into a buffer of our own (json_dumpb allocates nothing), sized by a
     * first pass. */
    const size_t flags = JSON_PRESERVE_ORDER | JSON_COMPACT | JSON_REAL_PRECISION(17);
    size_t n = *oom || !o ? 0 : json_dumpb(o, NULL, 0, flags);
    char *s = n ? malloc(n + 1) : NULL;
    if (!s || json_dumpb(o, s, n, flags) != n) {
        free(s);
        *oom = true;
        return NULL;
    }
    s[n] = '\0';
    return s;
}
