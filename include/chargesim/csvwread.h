/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_CSVWREAD_H
#define CHARGESIM_CSVWREAD_H
/* A CSV's CSVW metadata read back (csvw.h writes it): the command that
 * makes the CSV again from the recorded values alone, for `chargesim
 * rerun` and the request "rerun" (request.h). One of io's readers: it
 * writes no file.
 *
 * cs_csvwread_args sets jansson's allocator for the whole process
 * (json_set_alloc_funcs: malloc and free, watched for a failure that
 * jansson would not report); call it from one thread at a time. */
#include <stdbool.h>

#include "chargesim/error.h"
#include "chargesim/experiment.h"

/* What `chargesim rerun` keeps of the table it makes again
 * (cs_csvwread_args): the metadata it read and the SHA-256 of its bytes,
 * the command the table was first made with, the experiment file it was
 * first made from (NULL: none) with that file's SHA-256, and each
 * parameter's recorded origin ("FILE:LINE", "command line" or "default").
 * The new table's metadata records them (cs_csvw_source.remade), so a
 * rerun keeps the original provenance and says it was made again. */
typedef struct cs_csvw_remade {
    char *meta_path;
    char meta_sha256[65];
    char *command_line;
    char *input;
    char input_sha256[65];
    int n;
    char *key[CS_MAX_PARAMS], *origin[CS_MAX_PARAMS];
} cs_csvw_remade;

/* Reads a metadata file and rebuilds the command that makes its CSV again,
 * from the recorded values alone: (*argv)[0] is the command ("run" or
 * "dice"), then its arguments, without -o; for a --dist CSV the last
 * argument is "--dist", its file to follow. Free with cs_csvwread_free_args.
 * remade (may be NULL) gets the original provenance of a run's table
 * (zeroed for a dice table); free it with cs_csvwread_remade_free. An error
 * names meta_path (with the line for a JSON error) as where it was found:
 * err->detail is where the rest starts. */
cs_status cs_csvwread_args(const char *meta_path, char ***argv, int *argc,
                             cs_csvw_remade *remade, cs_error *err);
void cs_csvwread_free_args(char **argv, int argc);
/* remade (may be NULL) as cs_csvwread_args filled it: NULL when the table
 * is a dice table (no experiment). Frees what it holds. */
void cs_csvwread_remade_free(cs_csvw_remade *r);
/* Gives e the provenance r recorded: each parameter its first origin, the
 * input's SHA-256. */
cs_status cs_csvwread_remade_apply(const cs_csvw_remade *r, cs_experiment *e, cs_error *err);

/* The watch on jansson's allocations, which the writer (csvw.c) shares:
 * from now on, a failed allocation is remembered; and whether one failed
 * since. */
void cs_csvwread_json_watch(void);
bool cs_csvwread_json_failed(void);

#endif
