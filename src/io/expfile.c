/* Experiment files through libinih; see include/chargesim/expfile.h. */
#include "chargesim/expfile.h"
#include "chargesim/inifile.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct entry {
    char *section, *key, *value;
    const char *origin;
    int line;
} entry;

typedef struct reader {
    cs_ini_source src; /* the line inih is on */
    entry *entries;
    int n, cap;
    bool oom;
} reader;

static bool push(reader *r, const char *section, const char *key, const char *value,
                 const char *origin, int line)
{
    if (r->n == r->cap) {
        int cap = r->cap ? 2 * r->cap : 32;
        entry *ne = realloc(r->entries, (size_t)cap * sizeof *ne);
        if (!ne)
            return false;
        r->entries = ne;
        r->cap = cap;
    }
    entry *en = &r->entries[r->n];
    en->section = strdup(section);
    en->key = strdup(key);
    en->value = strdup(value);
    en->origin = origin;
    en->line = line;
    if (!en->section || !en->key || !en->value) {
        free(en->section);
        free(en->key);
        free(en->value);
        return false;
    }
    r->n++;
    return true;
}

static int on_entry(void *user, const char *section, const char *name, const char *value)
{
    reader *r = user;
    if (!push(r, section, name, value, NULL, r->src.line)) {
        r->oom = true;
        return 0;
    }
    return 1;
}

static void free_entries(reader *r)
{
    for (int i = 0; i < r->n; i++) {
        free(r->entries[i].section);
        free(r->entries[i].key);
        free(r->entries[i].value);
    }
    free(r->entries);
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
static cs_status check_repeats(const reader *r, const char *path, cs_error *err)
{
    if (r->n < 2)
        return CS_OK;
    keyed *k = malloc((size_t)r->n * sizeof *k);
    if (!k)
        return cs_error_set(err, CS_ENOMEM, "%s: out of memory", path);
    for (int i = 0; i < r->n; i++)
        k[i] = (keyed){r->entries[i].section, r->entries[i].key, i};
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
                        path, r->entries[again].line, r->entries[again].section,
                        r->entries[again].key, r->entries[first].line);
}

cs_status cs_expfile_load(const char *path, const char *const *sets, int n_sets,
                          cs_experiment *e, cs_error *err)
{
    reader r = {0};
    cs_status st = CS_OK;
    cs_experiment_init(e, path);
    /* "-": no file, the experiment is given whole by the overrides (what
     * `chargesim rerun` rebuilds from a CSV's metadata). */
    int bad = strcmp(path, "-") == 0 ? 0 : cs_ini_parse_file(path, on_entry, &r, &r.src, err);
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
    if ((st = check_repeats(&r, path, err)) != CS_OK)
        goto fail;
    for (int i = 0; i < r.n; i++)
        r.entries[i].origin = path;
    for (int i = 0; i < n_sets; i++) {
        const char *eq = strchr(sets[i], '=');
        if (!eq || eq == sets[i]) {
            st = cs_error_set(err, CS_EINPUT,
                              "--set '%s': expected section.key=value or key=value", sets[i]);
            goto fail;
        }
        char lhs[256];
        size_t n = (size_t)(eq - sets[i]);
        if (n >= sizeof lhs) {
            st = cs_error_set(err, CS_EINPUT, "--set '%s': key too long", sets[i]);
            goto fail;
        }
        memcpy(lhs, sets[i], n);
        lhs[n] = '\0';
        while (n > 0 && lhs[n - 1] == ' ')
            lhs[--n] = '\0';
        char *dot = strchr(lhs, '.');
        const char *section = "params", *key = lhs;
        if (dot) {
            *dot = '\0';
            section = lhs;
            key = dot + 1;
        }
        if (!push(&r, section, key, eq + 1, "command line", 0)) {
            st = cs_error_set(err, CS_ENOMEM, "out of memory");
            goto fail;
        }
    }
    /* [experiment] first: the ruleset decides what the parameters are. */
    for (int pass = 0; pass < 2 && st == CS_OK; pass++)
        for (int i = 0; i < r.n && st == CS_OK; i++) {
            bool is_exp = strcmp(r.entries[i].section, "experiment") == 0;
            if (is_exp != (pass == 0))
                continue;
            st = cs_experiment_set(e, r.entries[i].section, r.entries[i].key,
                                   r.entries[i].value, r.entries[i].origin, r.entries[i].line,
                                   err);
        }
    if (st == CS_OK)
        st = cs_experiment_finish(e, err);
    if (st != CS_OK)
        goto fail;
    free_entries(&r);
    return CS_OK;
fail:
    free_entries(&r);
    cs_experiment_free(e);
    return st;
}
