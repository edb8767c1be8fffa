/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_TABLEFMT_H
#define CHARGESIM_TABLEFMT_H
/* A table (chargesim/table.h) as CSV, Markdown or LaTeX text, in memory
 * (issue 51): below both front ends, so the command line's files
 * (tablewrite.h writes this text), the page and the bindings give the same
 * bytes. CSV quotes only where a field needs it (through libcsv) and holds
 * the header and rows only (no title or note, so any CSV reader loads it);
 * Markdown and LaTeX carry the title and the note. */
#include "chargesim/grow.h"
#include "chargesim/table.h"

/* Appends t as format fmt to out: CS_OK, or CS_ENOMEM (out->oom set; what
 * was appended is then incomplete). */
cs_status cs_tablefmt(const cs_table *t, cs_format fmt, cs_text *out);

#endif
