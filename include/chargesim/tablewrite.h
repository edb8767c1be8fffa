/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_TABLEWRITE_H
#define CHARGESIM_TABLEWRITE_H
/* A table (chargesim/table.h) written to a file of the command line: the
 * text the formatter makes in memory (chargesim/tablefmt.h: CSV,
 * Markdown, LaTeX), which the page and the bindings give too. */
#include <stdio.h>

#include "chargesim/output.h"
#include "chargesim/table.h"

/* Writes the table: CS_OK, CS_ENOMEM, or CS_ERUNTIME on a write error. */
cs_status cs_tablewrite(const cs_table *t, cs_format fmt, FILE *f);

/* Writes the table to the output o: CS_OK, or the status with err set
 * ("out of memory", or the output's write error, cs_outfile_write_error). */
cs_status cs_tablewrite_out(const cs_table *t, cs_format fmt, cs_outfile *o, cs_error *err);

#endif
