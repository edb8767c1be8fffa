/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_TABLEWRITE_H
#define CHARGESIM_TABLEWRITE_H
/* The writers of a table (chargesim/table.h) for the command line: CSV
 * through libcsv (quoting only where a field needs it), Markdown and LaTeX.
 * The web edition shows the same cells without these (no libcsv there). */
#include <stdio.h>

#include "chargesim/table.h"

/* Writes the table; returns CS_ERUNTIME on a write error. CSV writes the
 * header and rows only (no title or note, so any CSV reader loads it). */
cs_status cs_tablewrite(const cs_table *t, cs_format fmt, FILE *f);

/* Writes one CSV field (no separator), quoted by libcsv when needed. */
int cs_tablewrite_csv_field(FILE *f, const char *s);

#endif
