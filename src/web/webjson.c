/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The page's answers built with jansson; see include/chargesim/webjson.h. */
#include "chargesim/webjson.h"

#include <jansson.h>
#include <stdlib.h>

#include "chargesim/request.h"
#include "chargesim/table.h"

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
