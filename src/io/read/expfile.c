/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Experiment files through libinih; see include/chargesim/expfile.h. */
#include "chargesim/expfile.h"
#include "chargesim/entries.h"
#include "chargesim/inifile.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct reader {
    cs_ini_source src; /* the line inih is on */
    cs_entries list;
    bool oom;
} reader;

static int on_entry(void *user, const char *section, const char *name, const char *value)
{
    reader *r = user;
    if (cs_entries_add(&r->list, section, name, value, NULL, r->src.line) != CS_OK) {
        r->oom = true;
        return 0;
    }
    return 1;
}

/* One entry for sorting: its section, key and position in the file. */
typedef struct keyed {
    const char *section, *key;
    int index;
} keyed;

static int by_key(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    int c = strcmp(x->section, y->section);
    if (c == 0)
        c = strcmp(x->key, y->key);
    return c != 0 ? c : (x->index > y->index) - (x->index < y->index);
}

/* The first key (in file order) given again, named with the line of its
 * first appearance. Sorted, so n keys cost n log n, not n^2 (issue 18:
 * 100,000 keys took 22 s). */
static cs_status check_repeats(const cs_entries *r, const char *path, cs_error *err)
{
    if (r->n < 2)
        return CS_OK;
    keyed *k = malloc((size_t)r->n * sizeof *k);
    if (!k)
        return cs_error_set(err, CS_ENOMEM, "%s: out of memory", path);
    for (int i = 0; i < r->n; i++)
        k[i] = (keyed){r->entry[i].section, r->entry[i].key, i};
    qsort(k, (size_t)r->n, sizeof *k, by_key);
    int first = -1, again = -1, group = 0;
    for (int i = 1; i < r->n; i++) {
        if (strcmp(k[i].section, k[i - 1].section) != 0 || strcmp(k[i].key, k[i - 1].key) != 0) {
            group = i; /* a new key starts its group at its first appearance */
            continue;
        }
        if (again < 0 || k[i].index < again) {
            again = k[i].index;
            first = k[group].index;
        }
    }
    free(k);
    if (again < 0)
        return CS_OK;
    return cs_error_set(err, CS_EINPUT,
                        "%s:%d: [%s] %s given again (first at line %d); give each key once (an "
                        "indented line continues the key above it)",
                        path, r->entry[again].line, r->entry[again].section,
                        r->entry[again].key, r->entry[first].line);
}

cs_status cs_expfile_load(const char *path, const char *const *sets, int n_sets,
                          cs_experiment *e, cs_error *err)
{
    return cs_expfile_load_sets(path, sets, n_sets, e, NULL, err);
}

cs_status cs_expfile_load_sets(const char *path, const char *const *sets, int n_sets,
                               cs_experiment *e, int *failed_set, cs_error *err)
{
    reader r = {0};
    cs_status st = CS_OK;
    /* No override at fault until one is: a file that cannot be read fails
     * before the overrides are looked at, and the caller reads this. */
    if (failed_set)
        *failed_set = -1;
    cs_experiment_init(e, path);
    /* "-": no file, the experiment is given whole by the overrides (what
     * `chargesim rerun` rebuilds from a CSV's metadata). */
    int bad = strcmp(path, "-") == 0 ? 0 : cs_inifile_parse(path, on_entry, &r, &r.src, err);
    if (r.oom) {
        st = cs_error_set(err, CS_ENOMEM, "%s: out of memory", path);
        goto fail;
    }
    if (bad < 0) {
        st = err->status;
        goto fail;
    }
    if (bad > 0) {
        st = cs_error_set(err, CS_EINPUT,
                          "%s:%d: malformed line: expected `[section]`, `key = value` or a "
                          "comment starting with ; or #",
                          path, bad);
        goto fail;
    }
    memcpy(e->sha256, r.src.sha256, sizeof e->sha256);
    /* A key given twice in one file is a mistake the file cannot show (the
     * later one would silently win); --set is the way to override. */
    if ((st = check_repeats(&r.list, path, err)) != CS_OK)
        goto fail;
    for (int i = 0; i < r.list.n; i++)
        r.list.entry[i].origin = path;
    int from_file = r.list.n, failed = -1;
    for (int i = 0; i < n_sets && st == CS_OK; i++)
        if ((st = cs_entries_add_set(&r.list, sets[i], err)) != CS_OK && failed_set)
            *failed_set = i;
    if (st == CS_OK)
        st = cs_entries_apply(&r.list, e, &failed, err);
    if (st != CS_OK && failed_set && failed >= from_file)
        *failed_set = failed - from_file;
    if (st != CS_OK)
        goto fail;
    cs_entries_free(&r.list);
    return CS_OK;
fail:
    cs_entries_free(&r.list);
    cs_experiment_free(e);
    return st;
}
