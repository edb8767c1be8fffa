/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_ENTRIES_H
#define CHARGESIM_ENTRIES_H
/* An experiment as a list of entries (section, key, value, and where each
 * came from) before it is built: the lines of an experiment file
 * (expfile.h reads them) followed by the --set overrides. Both front ends
 * build an experiment this one way: the command line from a file and its
 * --set options, the web edition from the KEY=VALUE pairs of its link, so
 * the same pairs give the same experiment and the same refusals. */
#include "chargesim/error.h"
#include "chargesim/experiment.h"

/* Overrides one command takes at most (--set, compare's --b): a longer
 * list is refused as "too many overrides". */
#define CS_ENTRIES_MAX_SETS 256

typedef struct cs_entry {
    char *section, *key, *value;
    const char *origin; /* not owned: the file name, or "command line" */
    int line;           /* line in origin, 0 if none */
} cs_entry;

typedef struct cs_entries {
    cs_entry *entry;
    int n, cap;
} cs_entries;

/* Appends a copy of the entry; CS_ENOMEM when out of memory. */
cs_status cs_entries_add(cs_entries *l, const char *section, const char *key, const char *value,
                         const char *origin, int line);

/* Appends one override as --set gives it: "section.key=value", or
 * "key=value" for [params] (the key's trailing spaces dropped); its
 * origin is "command line". CS_EINPUT naming the text when it has no key. */
cs_status cs_entries_add_set(cs_entries *l, const char *set, cs_error *err);

/* Builds e (initialised by the caller, cs_experiment_init) from the
 * entries: every [experiment] entry first (the ruleset decides what the
 * parameters are), then the others in order, a later entry for a key
 * replacing an earlier one; then cs_experiment_finish. *failed (if not
 * NULL) is the index of the entry refused, or -1 when the entries were
 * taken and the experiment as a whole was refused (a value the ruleset's
 * prepare turned down, names the key in the message). */
cs_status cs_entries_apply(const cs_entries *l, cs_experiment *e, int *failed, cs_error *err);

void cs_entries_free(cs_entries *l);

#endif
