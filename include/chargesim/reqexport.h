/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_REQEXPORT_H
#define CHARGESIM_REQEXPORT_H
/* A request's tables as the text the command line writes (issue 52): the
 * bytes of `-o FILE.csv`, or what `--format md` (or tex) prints, made in
 * memory below both front ends, so the page's Download CSV and Copy
 * Markdown are the command line's own output and no front end writes the
 * joining or the provenance line a second time.
 *
 * The text: each table in the format (tablefmt.h), a blank line between
 * tables in Markdown and LaTeX; under each Markdown or LaTeX table's note,
 * the provenance line (cs_req_export_note). A CSV holds the tables alone:
 * its provenance is the metadata file beside it (csvw.h). */
#include <stddef.h>

#include "chargesim/grow.h"
#include "chargesim/request.h"
#include "chargesim/table.h"

struct cs_run_result;

/* The provenance line: "Made by chargesim VERSION: `COMMAND LINE`", then
 * the input's SHA-256 when there is an input, then the run's ruleset,
 * method, trials, seed, confidence, precision and success outcomes when
 * there is a run (NULL: dice, units), into buf (cap bytes). cmdline is
 * the command as a shell reads it (cmdline.h). */
void cs_req_export_note(const char *cmdline, const char *input, const struct cs_run_result *run,
                        char *buf, size_t cap);

/* Appends the n tables t as format fmt to out, each Markdown or LaTeX
 * table's note followed by line (NULL: none) as the command line writes
 * them: CS_OK or CS_ENOMEM. The tables' notes are changed. */
cs_status cs_req_export_tables(cs_table *t, int n, cs_format fmt, const char *line,
                               cs_text *out);

/* Appends to out the text the command line writes for request r (run)
 * given as cmdline: its tables made again in format fmt from its results
 * (the run is not repeated; cs_req_steps_tables), the provenance line
 * under each Markdown or LaTeX table, its input named as the command
 * line's files name it. CS_OK, or the status with cs_request_error. */
cs_status cs_req_export_text(cs_request *r, cs_format fmt, const char *cmdline, cs_text *out);

#endif
