/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Shared by the unit-source tests; see units_helpers.h. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chargesim/cli.h"
#include "helpers.h"
#include "units_helpers.h"

const char *th_units_data(const char *name)
{
    static char path[8][1200];
    static int k;
    const char *root = getenv("CS_ROOT");
    k = (k + 1) % 8;
    snprintf(path[k], sizeof path[k], "%s/tests/data/units/%s", root ? root : ".", name);
    return path[k];
}

void th_units_load_bound(const char *name, cs_units_mapping *m)
{
    cs_error err = {0};
    cr_assert_eq(cs_units_mapping_load(th_units_data(name), m, &err), CS_OK, "%s", err.msg);
    cr_assert_eq(cs_units_mapping_bind(m, &err), CS_OK, "%s", err.msg);
}

const cs_unit *th_units_find(const cs_units *u, const char *name)
{
    for (int i = 0; i < u->n; i++)
        if (strcmp(u->unit[i].name, name) == 0)
            return &u->unit[i];
    return NULL;
}

const cs_unit_note *th_units_find_note(const cs_units *u, const char *name)
{
    for (int i = 0; i < u->n_notes; i++)
        if (strcmp(u->note[i].name, name) == 0)
            return &u->note[i];
    return NULL;
}

const char *th_units_value(const cs_unit *u, const char *key)
{
    for (int i = 0; i < u->n_values; i++)
        if (strcmp(u->map->rs->params[u->value[i].param].key, key) == 0)
            return u->value[i].text;
    return NULL;
}

const char *th_units_write_tmp(const char *text)
{
    /* In a th_tmpdir directory: removed when the test's process exits. */
    static char path[320];
    snprintf(path, sizeof path, "%s/map-XXXXXX", th_tmpdir());
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

int th_units_run(const char *const *args)
{
    char *argv[32];
    int argc = 0;
    static char store[32][1200];
    for (; args[argc]; argc++) {
        snprintf(store[argc], sizeof store[argc], "%s", args[argc]);
        argv[argc] = store[argc];
    }
    return cs_cli_units(argc, argv);
}

double th_units_p_at(const cs_unit *u, double d)
{
    cs_units_grid g = {d, d, 1.0};
    cs_units_sets sets = {0};
    double p;
    cs_unit_result res = {.p = &p};
    cs_error err = {0};
    cr_assert_eq(cs_units_analyse(u, &sets, &g, &res, &err), CS_OK, "%s", err.msg);
    return p;
}

void th_units_repo_mapping(const char *ini, cs_units_mapping *m)
{
    char path[1200];
    cs_error err = {0};
    snprintf(path, sizeof path, "%s/experiments/mappings/%s", th_root(), ini);
    cr_assert_eq(cs_units_mapping_load(path, m, &err), CS_OK, "%s", err.msg);
    cr_assert_eq(cs_units_mapping_bind(m, &err), CS_OK, "%s", err.msg);
}

void th_units_repo_read(const char *rel, const cs_units_mapping *m, cs_units *u)
{
    char path[1200];
    cs_error err = {0};
    snprintf(path, sizeof path, "%s/data/%s", th_root(), rel);
    *u = (cs_units){0};
    cr_assert_eq(cs_units_read_bs(path, m, u, &err), CS_OK, "%s", err.msg);
}
