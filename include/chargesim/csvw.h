/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_CSVW_H
#define CHARGESIM_CSVW_H
/* Provenance beside every CSV (issue 17 point 2): FILE.csv-metadata.json
 * following W3C CSV on the Web (CSVW, "Metadata Vocabulary for Tabular
 * Data"): @context, url, a tableSchema describing every column (name,
 * titles, datatype, dc:description) and how the table was made: chargesim
 * version, the command line, the input file's SHA-256, every parameter as
 * resolved (swept, fixed, drawn; from the file, --set or the default), seed,
 * trials, method, confidence, precision and success outcomes. Written with
 * jansson. No dates and no paths beyond those the user typed, so the same
 * command gives the same bytes.
 *
 * The recorded values are enough to run the table again without the
 * experiment file: io's reader csvwread.h rebuilds the command (`chargesim
 * rerun FILE.csv-metadata.json`).
 *
 * cs_csvw_write sets jansson's allocator for the whole
 * process (json_set_alloc_funcs: malloc and free, watched for a failure that
 * jansson would not report); call them from one thread at a time. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "chargesim/csvwread.h"
#include "chargesim/error.h"
#include "chargesim/sched.h"
#include "chargesim/table.h"

typedef enum cs_csvw_kind {
    CS_CSVW_SUMMARY, /* `run` without --pivot: one row per sweep point */
    CS_CSVW_PIVOT,   /* `run --pivot ROW:COL[:COLUMN]` as CSV */
    CS_CSVW_DIST,    /* `run --dist FILE` */
    CS_CSVW_DICE,    /* `dice` */
    CS_CSVW_COMPARE, /* `compare`: one row per sweep point, A, B and their difference */
    CS_CSVW_MAP,     /* `map`: one row per cell of the threat map */
    CS_CSVW_UNITS,   /* `units`: one row per unit */
} cs_csvw_kind;

/* A file a table was read from, with the SHA-256 (hex) of its bytes. */
typedef struct cs_csvw_file {
    const char *path;
    const char *sha256;
} cs_csvw_file;

typedef struct cs_csvw_source {
    cs_csvw_kind kind;
    const char *command;        /* "run", "dice", "compare", "map" */
    int argc;                   /* the arguments after the command, as given */
    char *const *argv;
    const char *csv_path;       /* the CSV as named on the command line */
    const char *input;          /* the file the table was made from, or NULL; its SHA-256
                                   is run->exp->sha256, taken as it was read */
    const cs_run_result *run;   /* run, compare, map: the experiment (A's for compare) and
                                   the method that ran */
    const char *pivot;          /* run: ROW:COL[:COLUMN], or NULL */
    const char *dice_expr;      /* dice: the expression */
    uint64_t dice_trials;       /* dice: 0 = exact */
    uint64_t dice_seed;
    double dice_confidence;
    const cs_csvw_file *files;    /* units: every file read (sources, then mappings), or NULL */
    int n_files;
    const char *about;            /* units: each ruleset with its edition or preset, and the
                                     mapping used ("chargesim:units"), or NULL */
    const cs_csvw_remade *remade; /* run by rerun: the original provenance, or NULL */
} cs_csvw_source;

/* The metadata's name beside csv_path: csv_path + "-metadata.json"
 * (malloc'd; NULL when out of memory). */
char *cs_csvw_path(const char *csv_path);

/* Writes the metadata of table t: its columns as t defines them (name,
 * datatype, description: chargesim/columns.h), and src's provenance. */
cs_status cs_csvw_write(FILE *f, const cs_csvw_source *src, const cs_table *t, cs_error *err);

/* The same essentials in one line, for the note under md and tex tables:
 * version, command line, input SHA-256, seed, trials, method, confidence,
 * precision and success outcomes. */
void cs_csvw_note(const cs_csvw_source *src, char *buf, size_t cap);

#endif
