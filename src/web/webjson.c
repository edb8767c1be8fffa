/* SPDX-License-Identifier: GPL-3.0-or-later */
/* JSON text for the web edition; see include/chargesim/webjson.h. */
#include "chargesim/webjson.h"

#include "chargesim/table.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void put(cs_webjson *j, const char *s, size_t len)
{
    cs_text_put(&j->text, s, len);
}

/* A comma before a key or an element that follows a value. */
static void separate(cs_webjson *j)
{
    if (j->comma)
        put(j, ",", 1);
    j->comma = false;
}

static void quoted(cs_webjson *j, const char *s)
{
    put(j, "\"", 1);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        char esc[8];
        if (*p == '"' || *p == '\\') {
            esc[0] = '\\';
            esc[1] = (char)*p;
            put(j, esc, 2);
        } else if (*p < 0x20) {
            snprintf(esc, sizeof esc, "\\u%04x", *p);
            put(j, esc, 6);
        } else {
            put(j, (const char *)p, 1);
        }
    }
    put(j, "\"", 1);
}

void cs_webjson_open(cs_webjson *j, char bracket)
{
    separate(j);
    put(j, &bracket, 1);
}

void cs_webjson_close(cs_webjson *j, char bracket)
{
    put(j, &bracket, 1);
    j->comma = true;
}

void cs_webjson_key(cs_webjson *j, const char *key)
{
    separate(j);
    quoted(j, key);
    put(j, ":", 1);
}

void cs_webjson_string(cs_webjson *j, const char *s)
{
    separate(j);
    if (s)
        quoted(j, s);
    else
        put(j, "null", 4);
    j->comma = true;
}

void cs_webjson_number(cs_webjson *j, double x)
{
    char buf[40];
    separate(j);
    /* %.17g reads back as the same double. */
    int n = isfinite(x) ? snprintf(buf, sizeof buf, "%.17g", x) : snprintf(buf, sizeof buf, "null");
    put(j, buf, (size_t)n);
    j->comma = true;
}

void cs_webjson_bool(cs_webjson *j, bool b)
{
    separate(j);
    put(j, b ? "true" : "false", b ? 4 : 5);
    j->comma = true;
}

void cs_webjson_kstring(cs_webjson *j, const char *key, const char *s)
{
    cs_webjson_key(j, key);
    cs_webjson_string(j, s);
}

void cs_webjson_knumber(cs_webjson *j, const char *key, double x)
{
    cs_webjson_key(j, key);
    cs_webjson_number(j, x);
}

void cs_webjson_kbool(cs_webjson *j, const char *key, bool b)
{
    cs_webjson_key(j, key);
    cs_webjson_bool(j, b);
}

void cs_webjson_clear(cs_webjson *j)
{
    free(j->text.s);
    memset(j, 0, sizeof *j);
}

void cs_webjson_table(cs_webjson *j, const struct cs_table *t)
{
    cs_webjson_key(j, "header");
    cs_webjson_open(j, '[');
    for (int c = 0; c < t->ncols; c++)
        cs_webjson_string(j, t->header[c]);
    cs_webjson_close(j, ']');
    cs_webjson_key(j, "rows");
    cs_webjson_open(j, '[');
    for (int r = 0; r < t->nrows; r++) {
        cs_webjson_open(j, '[');
        for (int c = 0; c < t->ncols; c++)
            cs_webjson_string(j, cs_table_cell(t, r, c));
        cs_webjson_close(j, ']');
    }
    cs_webjson_close(j, ']');
    cs_webjson_key(j, "swept");
    cs_webjson_open(j, '[');
    for (int c = 0; c < t->ncols; c++)
        if (t->swept[c])
            cs_webjson_string(j, t->header[c]);
    cs_webjson_close(j, ']');
}
