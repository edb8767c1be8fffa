/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tables of text cells; see include/chargesim/table.h. The writers are
 * src/io/write/tablewrite.c. Every call keeps the table's first error (`status`)
 * and does nothing once there is one. */
#include "chargesim/table.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool cs_format_parse(const char *s, cs_format *out)
{
    static const char *const names[] = {"csv", "md", "tex"};
    for (int i = 0; i < 3; i++)
        if (strcmp(s, names[i]) == 0) {
            *out = (cs_format)i;
            return true;
        }
    return false;
}

const char *cs_datatype_name(cs_datatype t)
{
    return t == CS_DT_INTEGER ? "integer" : t == CS_DT_NUMBER ? "number" : "string";
}

/* Records st as the table's error unless it has one already; returns the
 * table's error. */
static cs_status fail(cs_table *t, cs_status st)
{
    if (t->status == CS_OK)
        t->status = st;
    return t->status;
}

cs_status cs_table_init(cs_table *t, int ncols)
{
    memset(t, 0, sizeof *t);
    t->ncols = ncols;
    t->header = calloc((size_t)ncols, sizeof *t->header);
    t->right = calloc((size_t)ncols, sizeof *t->right);
    t->type = calloc((size_t)ncols, sizeof *t->type);
    t->desc = calloc((size_t)ncols, sizeof *t->desc);
    t->label = calloc((size_t)ncols, sizeof *t->label);
    t->swept = calloc((size_t)ncols, sizeof *t->swept);
    t->meta = calloc((size_t)ncols, sizeof *t->meta);
    if (!t->header || !t->right || !t->type || !t->desc || !t->label || !t->swept || !t->meta)
        return fail(t, CS_ENOMEM);
    return CS_OK;
}

cs_status cs_table_status(const cs_table *t)
{
    return t->status;
}

void cs_table_free(cs_table *t)
{
    for (int c = 0; t->header && c < t->ncols; c++)
        free(t->header[c]);
    for (int c = 0; t->desc && c < t->ncols; c++)
        free(t->desc[c]);
    for (int c = 0; t->label && c < t->ncols; c++)
        free(t->label[c]);
    for (long i = 0; t->cell && i < (long)t->nrows * t->ncols; i++)
        free(t->cell[i]);
    free(t->header);
    free(t->desc);
    free(t->label);
    free(t->swept);
    free(t->meta);
    free(t->type);
    free(t->cell);
    free(t->right);
    free(t->title);
    free(t->note);
    memset(t, 0, sizeof *t);
}

static char *vformat(const char *fmt, va_list ap)
{
    va_list copy;
    va_copy(copy, ap);
    int n = vsnprintf(NULL, 0, fmt, copy);
    va_end(copy);
    if (n < 0)
        return NULL;
    char *s = malloc((size_t)n + 1);
    if (s)
        vsnprintf(s, (size_t)n + 1, fmt, ap);
    return s;
}

cs_status cs_table_set_header(cs_table *t, int col, const char *name, bool right)
{
    if (t->status != CS_OK)
        return t->status;
    free(t->header[col]);
    size_t n = strlen(name) + 1;
    t->header[col] = malloc(n);
    if (!t->header[col])
        return fail(t, CS_ENOMEM);
    memcpy(t->header[col], name, n);
    t->right[col] = right;
    return CS_OK;
}

/* Sets *slot (a column's description or label, the title, the note) to a formatted text. */
static cs_status set_text(cs_table *t, char **slot, const char *fmt, va_list ap)
{
    if (t->status != CS_OK)
        return t->status;
    /* Formatted before the old text is freed: it may be an argument. */
    char *s = vformat(fmt, ap);
    if (!s)
        return fail(t, CS_ENOMEM);
    free(*slot);
    *slot = s;
    return CS_OK;
}

cs_status cs_table_describe(cs_table *t, int col, cs_datatype type, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cs_status st = set_text(t, &t->desc[col], fmt, ap);
    va_end(ap);
    if (st == CS_OK)
        t->type[col] = type;
    return st;
}

cs_status cs_table_label(cs_table *t, int col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cs_status st = set_text(t, &t->label[col], fmt, ap);
    va_end(ap);
    return st;
}

void cs_table_column_meta(cs_table *t, int col, cs_colkind kind, const char *unit)
{
    if (t->status == CS_OK)
        t->meta[col] = (cs_colmeta){kind, unit ? unit : ""};
}

const char *cs_colkind_name(cs_colkind kind)
{
    static const char *const names[] = {"", "key", "value", "interval", "count", "text"};
    return names[kind];
}

int cs_table_add_row(cs_table *t)
{
    if (t->status != CS_OK)
        return -1;
    if (t->nrows == t->cap_rows) {
        int cap = t->cap_rows ? 2 * t->cap_rows : 16;
        char **nc = realloc(t->cell, (size_t)cap * (size_t)t->ncols * sizeof *nc);
        if (!nc) {
            fail(t, CS_ENOMEM);
            return -1;
        }
        t->cell = nc;
        t->cap_rows = cap;
    }
    memset(t->cell + (size_t)t->nrows * (size_t)t->ncols, 0, (size_t)t->ncols * sizeof *t->cell);
    return t->nrows++;
}

/* "-0.00" (a tiny negative value, or -0.0, rounded to zero) reads as a
 * sign that is not there: every cell that rounds to zero is written
 * without one (issue 17). */
static void drop_negative_zero(char *s)
{
    if (s[0] != '-')
        return;
    const char *p = s + 1;
    bool digits = false;
    for (; *p == '0' || *p == '.'; p++)
        digits |= *p == '0';
    if (digits && (*p == '\0' || *p == 'e' || *p == 'E' || *p == ' ' || *p == '%'))
        memmove(s, s + 1, strlen(s));
}

cs_status cs_table_set(cs_table *t, int row, int col, const char *fmt, ...)
{
    if (t->status != CS_OK)
        return t->status;
    if (row < 0 || row >= t->nrows) /* cs_table_add_row ran out of memory */
        return fail(t, CS_ENOMEM);
    va_list ap;
    va_start(ap, fmt);
    char *s = vformat(fmt, ap);
    va_end(ap);
    if (!s)
        return fail(t, CS_ENOMEM);
    drop_negative_zero(s);
    char **slot = &t->cell[(size_t)row * (size_t)t->ncols + (size_t)col];
    free(*slot);
    *slot = s;
    return CS_OK;
}

const char *cs_table_cell(const cs_table *t, int row, int col)
{
    const char *s = t->cell[(size_t)row * (size_t)t->ncols + (size_t)col];
    return s ? s : "";
}

cs_status cs_table_set_title(cs_table *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cs_status st = set_text(t, &t->title, fmt, ap);
    va_end(ap);
    return st;
}

cs_status cs_table_set_note(cs_table *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cs_status st = set_text(t, &t->note, fmt, ap);
    va_end(ap);
    return st;
}
