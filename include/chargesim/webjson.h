/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_WEBJSON_H
#define CHARGESIM_WEBJSON_H
/* The web edition's answers as JSON, built with jansson (src/web/): an
 * allocation that fails sets *oom, and the answer, incomplete, is then
 * dropped for "out of memory" by its caller. */
#include <stdbool.h>

struct json_t;
struct cs_table;
struct cs_request;
/* Member key of object o set to v (v taken, NULL: an allocation failed). */
void cs_webjson_set(struct json_t *o, const char *key, struct json_t *v, bool *oom);
/* v appended to array a (v taken). */
void cs_webjson_add(struct json_t *a, struct json_t *v, bool *oom);
/* "header" (the column titles), "rows" (every cell as text) and "swept"
 * (the titles of its swept keys, in order: a chart's axes) of o from table
 * t: what the page shows cell for cell. */
void cs_webjson_table(struct json_t *o, const struct cs_table *t, bool *oom);
/* "columns" of o: what each column of r's first table holds (name, label,
 * description, unit, kind: request.h, cs_request_column_at), for the
 * page's headers, charts and column chooser; never guessed from a name. */
void cs_webjson_columns(struct json_t *o, struct cs_request *r, bool *oom);
/* The export of request r (run) of command cmd, shown as the command line
 * `command`, on
 * o (issue 52): "csv", the bytes `command -o FILE.csv` writes; "markdown",
 * what `command --format md` prints (null for a command without --format:
 * map); "version", chargesim's; "seed", the
 * seed as text where the numbers were sampled, else null. Made by the
 * request layer (reqexport.h), never here. */
struct cs_request;
void cs_webjson_export(struct json_t *o, struct cs_request *r, const char *cmd,
                       const char *command, bool *oom);
/* o as compact JSON text (malloc'ed; numbers that read back the same
 * double), or NULL with *oom set (also when it was set already). */
char *cs_webjson_dump(struct json_t *o, bool *oom);

#endif
