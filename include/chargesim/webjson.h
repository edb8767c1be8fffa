/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_WEBJSON_H
#define CHARGESIM_WEBJSON_H
/* JSON text for the web edition (src/web/): what the C side hands to
 * JavaScript, which reads it with JSON.parse. It writes only, into one
 * growing buffer (the page links no jansson for this), commas placed by the writer. Strings are
 * escaped as RFC 8259 requires (quote, backslash, control characters);
 * a number that is not finite is written null. An allocation that fails
 * marks the buffer (text.oom) and later calls do nothing. */
#include <stdbool.h>
#include <stddef.h>

#include "chargesim/grow.h"

typedef struct cs_webjson {
    cs_text text; /* the text so far; text.oom: an allocation failed, it is incomplete */
    bool comma;   /* a value was written: the next key or element needs a comma */
} cs_webjson;

void cs_webjson_open(cs_webjson *j, char bracket); /* '{' or '[' */
void cs_webjson_close(cs_webjson *j, char bracket); /* '}' or ']' */
void cs_webjson_key(cs_webjson *j, const char *key);
void cs_webjson_string(cs_webjson *j, const char *s); /* NULL: null */
void cs_webjson_number(cs_webjson *j, double x);
void cs_webjson_bool(cs_webjson *j, bool b);
/* A member: the key, then the string (NULL: null), the number or the bool. */
void cs_webjson_kstring(cs_webjson *j, const char *key, const char *s);
void cs_webjson_knumber(cs_webjson *j, const char *key, double x);
void cs_webjson_kbool(cs_webjson *j, const char *key, bool b);
/* Frees the text and starts again. */
void cs_webjson_clear(cs_webjson *j);

struct cs_table;
/* A table's "header" (its column titles), "rows" (every cell as text) and
 * "swept" (the titles of its swept keys, in order: a chart's axes), keys of
 * the object being written: what the page shows cell for cell. */
void cs_webjson_table(cs_webjson *j, const struct cs_table *t);

#endif
