/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_EXPFILE_H
#define CHARGESIM_EXPFILE_H
/* Reading experiment files (INI, through libinih) and --set overrides. */
#include "chargesim/experiment.h"

/* Loads `path` into e (initialised here), applies the overrides
 * ("section.key=value", or "key=value" for [params]) in order, and
 * finishes it; e->sha256 is the digest of the bytes read. Errors name the
 * file and line, or --set. On failure e is freed. The path "-" reads no
 * file: the overrides give the whole experiment. */
cs_status cs_expfile_load(const char *path, const char *const *sets, int n_sets,
                          cs_experiment *e, cs_error *err);

/* As cs_expfile_load; *failed_set is then the override refused (an index
 * of sets), or -1 when none is (the file, or the experiment as a whole,
 * whose message names the key: err->key). */
cs_status cs_expfile_load_sets(const char *path, const char *const *sets, int n_sets,
                               cs_experiment *e, int *failed_set, cs_error *err);

#endif
