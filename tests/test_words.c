/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A player's words for every column and every field (issue 52): each column
 * of each table the page shows (run exact and sampled, compare, map, dice
 * exact and sampled, units) has a label and a description from the core;
 * each form field of the page (options.h) a label and a one-line help that
 * --help lists too; the glossary no empty entry. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/glossary.h"
#include "chargesim/options.h"
#include "chargesim/request.h"
#include "chargesim/grow.h"
#include "support/helpers.h"

/* Every column of r's first table has a label and a description; a
 * probability says so by its unit. Returns how many columns. */
static int every_column_worded(cs_request *r, const char *what)
{
    cs_request_column c;
    int k = 0;
    for (; cs_request_column_at(r, 0, k, &c); k++) {
        cr_expect(c.label[0], "%s: column %s has no label", what, c.name);
        cr_expect(c.description[0], "%s: column %s has no description", what, c.name);
        if (strcmp(c.name, "p_success") == 0 || strcmp(c.name, "ci_low") == 0 ||
            strcmp(c.name, "p_at_least") == 0 || strcmp(c.name, "delta_lo") == 0)
            cr_expect_str_eq(c.unit, "probability", "%s: %s", what, c.name);
        if (strcmp(c.name, "trials") == 0 || strcmp(c.name, "mean_roll") == 0)
            cr_expect_str_neq(c.unit, "probability", "%s: %s", what, c.name);
    }
    cr_expect_gt(k, 0, "%s: no column", what);
    return k;
}

static void run_one(const char *cmd, const char *const *kv, const char *what)
{
    cs_request *r = cs_request_new(cmd);
    cr_assert_not_null(r);
    for (int i = 0; kv[i]; i += 2)
        cr_assert_eq(cs_request_set(r, kv[i], kv[i + 1]), CS_OK, "%s: %s", what, kv[i]);
    cr_assert_eq(cs_request_run(r), CS_OK, "%s: %s", what, cs_request_error(r)->msg);
    every_column_worded(r, what);
    cs_request_free(r);
}

Test(words, every_column_of_every_page_table)
{
    const char *exact[] = {"experiment.ruleset", "t9a", "distance", "5..9", NULL};
    const char *mc[] = {"experiment.ruleset", "generic", "distance", "6..8",
                        "experiment.method", "mc", "experiment.trials", "2000", NULL};
    const char *cmp[] = {"experiment.ruleset", "generic", "distance", "6..8",
                         "experiment.trials", "2000", "b.move", "6", NULL};
    const char *map[] = {"experiment.ruleset", "t9a", "x", "-2..2:2", "y", "0..4:2",
                         NULL};
    const char *dice[] = {"expr", "2d6", NULL};
    const char *sampled[] = {"expr", "2d6", "trials", "1000", NULL};
    run_one("run", exact, "run exact");
    run_one("run", mc, "run mc");
    run_one("compare", cmp, "compare");
    run_one("map", map, "map");
    run_one("dice", dice, "dice exact");
    run_one("dice", sampled, "dice sampled");

    char src[512], maps[512];
    snprintf(src, sizeof src, "%s/data/tow/Bretonnians.cat", th_root());
    snprintf(maps, sizeof maps, "%s/experiments/mappings", th_root());
    cs_request *r = cs_request_new("units");
    cs_request_default(r, "mapping", maps);
    cs_request_set(r, "source", src);
    cs_request_set(r, "distance", "4..8:4");
    cr_assert_eq(cs_request_run(r), CS_OK, "%s", cs_request_error(r)->msg);
    every_column_worded(r, "units");
    cs_request_column c;
    bool reach = false;
    for (int k = 0; cs_request_column_at(r, 0, k, &c); k++)
        reach = reach || (strcmp(c.name, "reach_75") == 0 && strcmp(c.label, "reach 75%") == 0);
    cr_expect(reach, "units: reach_75 labelled \"reach 75%%\"");
    cs_request_free(r);
}

Test(words, every_field_has_a_label_and_help_that_help_lists)
{
    for (int i = 0; i < cs_opt_tables(); i++) {
        const cs_opt_table *t = cs_opt_table_at(i);
        cs_text help = {0};
        cs_opt_help(t, &help);
        const char *h = help.s ? help.s : "";
        if (t->operand_field) {
            cr_expect(t->operand_label && t->operand_label[0], "%s: operand unlabelled", t->cmd);
            cr_expect(strstr(h, t->operand_label), "%s --help: no %s", t->cmd, t->operand_label);
        }
        for (int k = 0; k < t->n; k++) {
            const cs_opt *o = &t->opt[k];
            if (!o->field)
                continue;
            cr_expect(o->label && o->label[0], "%s %s: a field without a label", t->cmd, o->name);
            cr_expect(o->field[0], "%s %s: a field without help", t->cmd, o->name);
            char line[160];
            snprintf(line, sizeof line, "  %s (%s)\n", o->label, o->name);
            cr_expect(strstr(h, line), "%s --help does not list %s", t->cmd, line);
        }
        free(help.s);
    }
}

Test(words, glossary_entries_worded)
{
    cr_expect_gt(cs_glossary_count(), 10);
    for (int i = 0; i < cs_glossary_count(); i++) {
        cr_expect(cs_glossary_at(i)->term[0]);
        cr_expect(strlen(cs_glossary_at(i)->words) > 10, "%s", cs_glossary_at(i)->term);
    }
    cr_expect_null(cs_glossary_at(cs_glossary_count()));
}
