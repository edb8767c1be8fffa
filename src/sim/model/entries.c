/* SPDX-License-Identifier: GPL-3.0-or-later */
/* An experiment's entries and how they are applied; see include/chargesim/entries.h. */
#include "chargesim/entries.h"

#include <stdlib.h>
#include <string.h>

#include "chargesim/grow.h"

cs_status cs_entries_add(cs_entries *l, const char *section, const char *key, const char *value,
                         const char *origin, int line)
{
    cs_entry *ne = cs_grow(l->entry, l->n, &l->cap, sizeof *ne, 32);
    if (!ne)
        return CS_ENOMEM;
    l->entry = ne;
    cs_entry *en = &l->entry[l->n];
    en->section = strdup(section);
    en->key = strdup(key);
    en->value = strdup(value);
    en->origin = origin;
    en->line = line;
    if (!en->section || !en->key || !en->value) {
        free(en->section);
        free(en->key);
        free(en->value);
        return CS_ENOMEM;
    }
    l->n++;
    return CS_OK;
}

cs_status cs_entries_add_set(cs_entries *l, const char *set, cs_error *err)
{
    const char *eq = strchr(set, '=');
    if (!eq || eq == set)
        return cs_error_set(err, CS_EINPUT, "--set '%s': expected section.key=value or key=value",
                            set);
    char lhs[256];
    size_t n = (size_t)(eq - set);
    if (n >= sizeof lhs)
        return cs_error_set(err, CS_EINPUT, "--set '%s': key too long", set);
    memcpy(lhs, set, n);
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
    if (cs_entries_add(l, section, key, eq + 1, "command line", 0) != CS_OK)
        return cs_error_set(err, CS_ENOMEM, "out of memory");
    return CS_OK;
}

cs_status cs_entries_apply(const cs_entries *l, cs_experiment *e, int *failed, cs_error *err)
{
    cs_status st = CS_OK;
    if (failed)
        *failed = -1;
    /* [experiment] first: the ruleset decides what the parameters are. */
    for (int pass = 0; pass < 2 && st == CS_OK; pass++)
        for (int i = 0; i < l->n && st == CS_OK; i++) {
            const cs_entry *en = &l->entry[i];
            bool is_exp = strcmp(en->section, "experiment") == 0;
            if (is_exp != (pass == 0))
                continue;
            st = cs_experiment_set(e, en->section, en->key, en->value, en->origin, en->line, err);
            if (st != CS_OK && failed)
                *failed = i;
        }
    if (st == CS_OK)
        st = cs_experiment_finish(e, err);
    return st;
}

void cs_entries_free(cs_entries *l)
{
    for (int i = 0; i < l->n; i++) {
        free(l->entry[i].section);
        free(l->entry[i].key);
        free(l->entry[i].value);
    }
    free(l->entry);
    l->entry = NULL;
    l->n = l->cap = 0;
}
