#ifndef CHARGESIM_TABLE_H
#define CHARGESIM_TABLE_H
/* A table of text cells and its writers: CSV (through libcsv, quoting only
 * where a field needs it), Markdown and LaTeX. Every tabular output of the
 * tool (summaries, pivots, unit reports, dice tables) is built as one of
 * these, so the three formats cannot drift apart. */
#include <stdbool.h>
#include <stdio.h>

#include "chargesim/status.h"

typedef enum cs_format { CS_FORMAT_CSV, CS_FORMAT_MD, CS_FORMAT_TEX } cs_format;

/* Parses "csv", "md", "tex"; false otherwise. */
bool cs_format_parse(const char *s, cs_format *out);

typedef struct cs_table {
    int ncols, nrows;    /* rows exclude the header */
    char **header;       /* ncols names */
    char **cell;         /* nrows * ncols, row-major; NULL = empty */
    bool *right;         /* per column: align right (numbers) in md/tex */
    char *title;         /* optional: a heading (md) or caption (tex) */
    char *note;          /* optional: a line under the table (md, tex) */
    int cap_rows;
} cs_table;

cs_status cs_table_init(cs_table *t, int ncols);
void cs_table_free(cs_table *t);
cs_status cs_table_set_header(cs_table *t, int col, const char *name, bool right);
/* Appends an empty row; returns its index or -1 when out of memory. */
int cs_table_add_row(cs_table *t);
/* Sets a cell to a printf-formatted text. A text that rounds to a signed
 * zero ("-0.00") is stored without its sign. */
cs_status cs_table_set(cs_table *t, int row, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
cs_status cs_table_set_title(cs_table *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
cs_status cs_table_set_note(cs_table *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Writes the table; returns CS_ERUNTIME on a write error. CSV writes the
 * header and rows only (no title or note, so any CSV reader loads it). */
cs_status cs_table_write(const cs_table *t, cs_format fmt, FILE *f);

/* Writes one CSV field (no separator), quoted by libcsv when needed. */
int cs_csv_field(FILE *f, const char *s);

#endif
