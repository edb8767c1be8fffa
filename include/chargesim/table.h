/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_TABLE_H
#define CHARGESIM_TABLE_H
/* A table of text cells: every tabular output of the tool (summaries,
 * pivots, distributions, comparisons, threat maps, dice and unit tables) is
 * built as one of these, and both front ends show it as it is: as CSV,
 * Markdown or LaTeX text (chargesim/tablefmt.h, below the front ends),
 * which the command line writes to its files (tablewrite.h, in io), and
 * the web edition as an HTML table. Cells hold the numbers as the CSV
 * writes them, so the formats cannot drift apart.
 *
 * Each column has a name (the header), an alignment, and, where its
 * producer defines it (chargesim/columns.h), a datatype and a one-line
 * description, which the CSVW metadata (csvw.h) reads off the table, a
 * label (a player's short words for it, which the page and the bindings
 * show; never in the CSV nor its metadata), its kind and unit, and
 * whether it is a swept key, which the page's charts read off it.
 *
 * Errors: every call that allocates returns its status, and the table also
 * keeps the first one (cs_table_status): after a failure the other calls
 * do nothing, so a builder may make all its calls and check once, as
 * ferror does for a stream. The first error wins; statuses are never ORed
 * (CS_EINPUT | CS_ERUNTIME would read as CS_ENOMEM). */
#include <stdbool.h>

#include "chargesim/status.h"

typedef enum cs_format { CS_FORMAT_CSV, CS_FORMAT_MD, CS_FORMAT_TEX } cs_format;

/* Parses "csv", "md", "tex"; false otherwise. */
bool cs_format_parse(const char *s, cs_format *out);

/* A column's datatype in the CSVW schema (CSVW's names: cs_datatype_name). */
typedef enum cs_datatype { CS_DT_STRING, CS_DT_INTEGER, CS_DT_NUMBER } cs_datatype;

/* "string", "integer", "number". */
const char *cs_datatype_name(cs_datatype t);

/* What a column holds, for a reader of the table that is not a person
 * (the page, the bindings): the value a row is about (a swept key, a
 * position), a number the run computes (exact or estimated, as the
 * method was), an end of an interval, a count, a text. */
typedef enum cs_colkind {
    CS_COL_UNSAID, /* not classified (a column no producer described) */
    CS_COL_KEY,
    CS_COL_VALUE,
    CS_COL_INTERVAL,
    CS_COL_COUNT,
    CS_COL_TEXT,
} cs_colkind;

/* A column's kind and unit ("in", "" none): static text, never freed. */
typedef struct cs_colmeta {
    cs_colkind kind;
    const char *unit;
} cs_colmeta;

typedef struct cs_table {
    int ncols, nrows;    /* rows exclude the header */
    char **header;       /* ncols names */
    char **cell;         /* nrows * ncols, row-major; NULL = empty */
    bool *right;         /* per column: align right (numbers) in md/tex */
    cs_datatype *type;   /* per column: its datatype (string unless described) */
    char **desc;         /* per column: one-line description, or NULL: none given */
    char **label;        /* per column: a player's words for it ("chance to charge",
                            "reach 75%"), short, or NULL: none given */
    bool *swept;         /* per column: a swept key, an axis of the rows' points (a chart's
                            x or its curves); set by cs_columns_param */
    cs_colmeta *meta;    /* per column: its kind and unit (zero: not said) */
    char *title;         /* optional: a heading (md) or caption (tex) */
    char *note;          /* optional: a line under the table (md, tex) */
    int cap_rows;
    cs_status status;    /* the first error met, CS_OK if none */
} cs_table;

cs_status cs_table_init(cs_table *t, int ncols);
void cs_table_free(cs_table *t);
/* The first error any call on t met since cs_table_init; CS_OK if none. */
cs_status cs_table_status(const cs_table *t);
cs_status cs_table_set_header(cs_table *t, int col, const char *name, bool right);
/* Gives column col its datatype and description (printf-formatted). */
cs_status cs_table_describe(cs_table *t, int col, cs_datatype type, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Gives column col its label (printf-formatted): a player's words for it. */
cs_status cs_table_label(cs_table *t, int col, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Gives column col its kind and unit (unit static, or NULL: none). */
void cs_table_column_meta(cs_table *t, int col, cs_colkind kind, const char *unit);
/* "key", "value", "interval", "count", "text", or "" (not said). */
const char *cs_colkind_name(cs_colkind kind);
/* Appends an empty row; returns its index or -1 when out of memory. */
int cs_table_add_row(cs_table *t);
/* Sets a cell to a printf-formatted text. A text that rounds to a signed
 * zero ("-0.00") is stored without its sign. */
cs_status cs_table_set(cs_table *t, int row, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The text of a cell ("" when empty). */
const char *cs_table_cell(const cs_table *t, int row, int col);
cs_status cs_table_set_title(cs_table *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
cs_status cs_table_set_note(cs_table *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
