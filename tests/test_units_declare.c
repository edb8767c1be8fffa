/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Units that cannot declare a charge (issue 50): a mapping's `declare = no`
 * on a [rule NAME] or [type NAME]. The unit keeps its row, at p 0 at every
 * distance (the charge is never declared, so it never reaches: exactly 0),
 * with no reach, +1 speed or points per inch, and a note quoting the rule.
 * Checked on the repository's data: The Old World's war machines (Weapon
 * of War, by troop type, whichever case the data writes it in) and Random
 * Movement, The Ninth Age 2nd edition's War Machine and Random Movement;
 * each note's quotation is found word for word in the game system's file.
 * And one spelling per troop type across every Old World catalogue. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "chargesim/unitsrc.h"
#include "support/helpers.h"
#include "support/units_helpers.h"

#define TOW_GST "tow/Warhammer_Old_World.gst"
#define T9A_GST "bsdata-t9a-2nd/2nd-theNinthAge-FantasyBattles.gst"

/* The noted note of the unit named `name`, or NULL. */
static const cs_unit_note *note_of(const cs_units *u, const char *name)
{
    for (int i = 0; i < u->n_notes; i++)
        if (strcmp(u->note[i].name, name) == 0 && u->note[i].kind == CS_UNIT_NOTED)
            return &u->note[i];
    return NULL;
}

/* Does the repository's data/REL hold `text` word for word? (The data
 * writes quotes and apostrophes as XML entities; the texts checked have
 * none.) */
static bool data_holds(const char *rel, const char *text)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/data/%s", th_root(), rel);
    char *all = th_slurp(path, NULL);
    cr_assert_not_null(all, "%s", path);
    bool yes = strstr(all, text) != NULL;
    free(all);
    return yes;
}

/* Unit `name` of u cannot declare: p 0 exactly at every distance of g,
 * and no reach, +1 speed, metrics or points per inch. */
static void never_charges(const cs_units *u, const char *name, const cs_units_grid *g)
{
    const cs_unit *un = th_units_find(u, name);
    cr_assert_not_null(un, "no row `%s`", name);
    cr_expect(un->no_declare, "%s", name);
    int n = cs_units_grid_count(g);
    double *p = calloc((size_t)n, sizeof *p);
    cr_assert_not_null(p);
    for (int i = 0; i < n; i++)
        p[i] = -1.0;
    cs_unit_result res = {.p = p};
    cs_units_sets sets = {0};
    cs_error err = {0};
    cr_assert_eq(cs_units_analyse(un, &sets, g, &res, &err), CS_OK, "%s", err.msg);
    for (int i = 0; i < n; i++)
        cr_expect_eq(p[i], 0.0, "%s at %g: %g", name, cs_units_grid_at(g, i), p[i]);
    for (int k = 0; k < CS_UNITS_N_REACH; k++)
        cr_expect_not(res.has_reach[k], "%s: reach at level %d", name, k);
    cr_expect_not(res.has_plus1);
    cr_expect_not(res.has_ppi);
    free(p);
}

/* The Great Cannon (The Empire of Man): a war machine, so Weapon of War
 * holds: p 0 at every distance, empty reach cells in the table, and the
 * note quoting the rule as the game system's file words it. */
Test(units_declare, the_great_cannon_cannot_declare_a_charge)
{
    const char *quote = "war machines cannot march, declare a charge or make a pursuit move";
    cr_assert(data_holds(TOW_GST, quote), "the rule's own words");
    cs_units_mapping m;
    th_units_repo_mapping("tow.ini", &m);
    cs_units u;
    th_units_repo_read("tow/The Empire of Man.cat", &m, &u);
    const cs_units_grid g = {0.5, 30.0, 0.5};
    never_charges(&u, "Great Cannon", &g);
    cr_expect_str_eq(th_units_find(&u, "Great Cannon")->type, "War Machine");
    const cs_unit_note *n = note_of(&u, "Great Cannon");
    cr_assert_not_null(n);
    char want[256];
    snprintf(want, sizeof want, "cannot declare a charge (Weapon of War: \"%s\")", quote);
    cr_expect(strstr(n->what, want), "%s", n->what);

    /* The table: reach, +1 speed and points per inch empty, every p 0. */
    const cs_units_grid tg = {1.0, 20.0, 1.0};
    cs_unit_result *res;
    double *p;
    cs_error err = {0};
    cr_assert_eq(cs_units_analyse_all(&u, &(cs_units_sets){0}, &tg, &res, &p, &err), CS_OK,
                 "%s", err.msg);
    cs_table t;
    cr_assert_eq(cs_units_table(&u, res, &tg, CS_FORMAT_CSV, NULL, &t), CS_OK);
    int row = -1, c_reach = -1, c_p = -1;
    for (int r = 0; r < t.nrows; r++)
        if (strcmp(cs_table_cell(&t, r, 1), "Great Cannon") == 0)
            row = r;
    for (int c = 0; c < t.ncols; c++) {
        c_reach = strcmp(t.header[c], "reach_50") == 0 ? c : c_reach;
        c_p = c_p < 0 && strncmp(t.header[c], "p_", 2) == 0 ? c : c_p;
    }
    cr_assert(row >= 0 && c_reach >= 0 && c_p == c_reach + 5);
    for (int c = c_reach; c < c_p; c++)
        cr_expect_str_empty(cs_table_cell(&t, row, c), "%s", t.header[c]);
    for (int c = c_p; c < t.ncols; c++)
        cr_expect_str_eq(cs_table_cell(&t, row, c), "0", "%s", t.header[c]); /* exact: whole */
    /* A unit beside it that may charge is untouched: it reaches at 1". */
    const cs_unit *knights = th_units_find(&u, "Empire Knights");
    cr_assert_not_null(knights);
    cr_expect_not(knights->no_declare);
    cr_expect_gt(th_units_p_at(knights, 1.0), 0.0);
    cs_table_free(&t);
    free(res);
    free(p);
    cs_units_free(&u);
}

/* The data spells the type "War machine" on 15 rows (the Dark Elves'
 * Reaper Bolt Thrower among them): the table writes "War Machine", and
 * [type War Machine] holds for it. */
Test(units_declare, a_war_machine_spelled_in_lower_case_is_one_too)
{
    cr_assert(data_holds("tow/Dark Elves.cat", "\"Troop Type\" typeId=\"5d94-6b94-bd89-1944\">"
                                               "War machine<"));
    cs_units_mapping m;
    th_units_repo_mapping("tow.ini", &m);
    cs_units u;
    th_units_repo_read("tow/Dark Elves.cat", &m, &u);
    const cs_unit *rbt = th_units_find(&u, "Reaper Bolt Thrower");
    cr_assert_not_null(rbt);
    cr_expect_str_eq(rbt->type, "War Machine");
    const cs_units_grid g = {1.0, 20.0, 1.0};
    never_charges(&u, "Reaper Bolt Thrower", &g);
    const cs_unit_note *n = note_of(&u, "Reaper Bolt Thrower");
    cr_expect(n && strstr(n->what, "Weapon of War"), "%s", n ? n->what : "no note");
    cs_units_free(&u);
}

/* Random Movement (The Old World): "They cannot march or declare a
 * charge." The Snotling Pump Wagons, left out before for their M of 2D6,
 * keep their row at p 0, with no move value and the note. */
Test(units_declare, random_movement_cannot_declare_in_the_old_world)
{
    const char *quote = "They cannot march or declare a charge.";
    cr_assert(data_holds(TOW_GST, quote));
    cs_units_mapping m;
    th_units_repo_mapping("tow.ini", &m);
    cs_units u;
    th_units_repo_read("tow/Orc and Goblin Tribes.cat", &m, &u);
    const cs_units_grid g = {1.0, 20.0, 1.0};
    never_charges(&u, "Snotling Pump Wagons", &g);
    cr_expect_null(th_units_value(th_units_find(&u, "Snotling Pump Wagons"), "move"),
                   "its M is a roll: no move");
    const cs_unit_note *n = note_of(&u, "Snotling Pump Wagons");
    cr_assert_not_null(n);
    char want[128];
    snprintf(want, sizeof want, "Random Movement: \"%s\"", quote);
    cr_expect(strstr(n->what, want), "%s", n->what);
    cr_expect(strstr(n->what, "M `2D6`") && strstr(n->what, "not needed"), "%s", n->what);
    cs_units_free(&u);
}

/* The Ninth Age 2nd edition's War Machine rule, linked to the Dread
 * Elves' Repeater Battery: "The model cannot Pursue (...), declare
 * Charges, or declare Flee Charge Reactions." */
Test(units_declare, a_t9a_war_machine_cannot_declare_a_charge)
{
    cr_assert(data_holds(T9A_GST, "The model cannot Pursue (which does not prevent it from "
                                  "being affected by Random Movement), declare Charges, or "
                                  "declare Flee Charge Reactions."));
    cs_units_mapping m;
    th_units_repo_mapping("t9a-2nd.ini", &m);
    cs_units u;
    th_units_repo_read("bsdata-t9a-2nd/2nd-dreadElves.cat", &m, &u);
    const cs_units_grid g = {1.0, 24.0, 1.0};
    never_charges(&u, "Repeater Battery", &g);
    const cs_unit_note *n = note_of(&u, "Repeater Battery");
    cr_assert_not_null(n);
    cr_expect(strstr(n->what, "cannot declare a charge (War Machine: \"The model cannot Pursue "
                              "(...), declare Charges, or declare Flee Charge Reactions.\")"),
              "%s", n->what);
    cs_units_free(&u);
}

/* A Song of Ice and Fire's War Machine (the Builder Scorpion Crew's own
 * rule, Nights_Watch.cat): "cannot Charge or Retreat". Its row stays, at p 0
 * with no reach; its Speed + D6 would otherwise reach 6" at 5/6. */
Test(units_declare, an_asoiaf_war_machine_cannot_charge)
{
    cr_assert(data_holds("bsdata-asoiaf/Nights_Watch.cat",
                         "This model never makes Morale Tests, cannot Charge or Retreat, and "
                         "cannot gain Condition Tokens."));
    cs_units_mapping m;
    th_units_repo_mapping("asoiaf.ini", &m);
    cs_units u;
    th_units_repo_read("bsdata-asoiaf/Nights_Watch.cat", &m, &u);
    const cs_units_grid g = {1.0, 14.0, 1.0};
    never_charges(&u, "Builder Scorpion Crew", &g);
    const cs_unit_note *n = note_of(&u, "Builder Scorpion Crew");
    cr_assert_not_null(n);
    cr_expect(strstr(n->what, "cannot charge (War Machine: \"This model never makes Morale Tests, "
                              "cannot Charge or Retreat"),
              "%s", n->what);
    cs_units_free(&u);
}

/* The Ninth Age's Random Movement: "cannot declare Charges in the Charge
 * Phase". The Steam Tank (Empire of Sonnstahl, Adv 2D6") keeps its row. */
Test(units_declare, random_movement_cannot_declare_in_the_ninth_age)
{
    const char *quote = "The unit cannot move normally in the Movement Phase (Advance, March, "
                        "Reform) and cannot declare Charges in the Charge Phase.";
    cr_assert(data_holds(T9A_GST, quote));
    cs_units_mapping m;
    th_units_repo_mapping("t9a-2nd.ini", &m);
    cs_units u;
    th_units_repo_read("bsdata-t9a-2nd/2nd-empireOfSonnstahl.cat", &m, &u);
    const cs_units_grid g = {1.0, 24.0, 1.0};
    never_charges(&u, "Steam Tank", &g);
    const cs_unit_note *n = note_of(&u, "Steam Tank");
    cr_assert_not_null(n);
    cr_expect(strstr(n->what, quote), "%s", n->what);
    cs_units_free(&u);
}

/* Every Old World catalogue's `type` column: no two values the same but
 * for case (the data writes "War machine" and "War Machine", "Regular
 * infantry" and "Regular Infantry", ...). */
Test(units_declare, troop_types_are_one_spelling_each)
{
    cs_units_mapping m;
    th_units_repo_mapping("tow.ini", &m);
    char dir[1200];
    snprintf(dir, sizeof dir, "%s/data/tow", th_root());
    DIR *d = opendir(dir);
    cr_assert_not_null(d);
    static char seen[512][CS_UNITS_TEXT];
    int n_seen = 0, files = 0;
    bool war_machine = false;
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".cat") != 0)
            continue;
        char rel[600];
        snprintf(rel, sizeof rel, "tow/%s", e->d_name);
        cs_units u;
        th_units_repo_read(rel, &m, &u);
        files++;
        for (int i = 0; i < u.n; i++) {
            const char *t = u.unit[i].type;
            int k = 0;
            while (k < n_seen && strcmp(seen[k], t) != 0)
                k++;
            if (k < n_seen)
                continue;
            for (int j = 0; j < n_seen; j++)
                cr_expect_neq(strcasecmp(seen[j], t), 0, "`%s` and `%s` (%s)", seen[j], t, rel);
            cr_assert_lt(n_seen, 512);
            snprintf(seen[n_seen++], CS_UNITS_TEXT, "%s", t);
            war_machine = war_machine || strcmp(t, "War Machine") == 0;
        }
        cs_units_free(&u);
    }
    closedir(d);
    cr_expect_gt(files, 30);
    cr_expect(war_machine);
}

/* The mapping's declare key, checked when the file is read. */
Test(units_declare, declare_is_checked_when_read)
{
    static const struct {
        const char *body, *msg;
    } bad[] = {
        {"[rule R]\nnote = a\ndeclare = maybe\n", "declare: expected yes or no"},
        {"[rule R]\nparam = x\ndeclare = no\n", "[rule R] declare = no needs a note quoting"},
        {"[type T]\nomit = a\ndeclare = no\n", "[type T] declare = no keeps the unit"},
        {"[type T]\ndeclare = no\n", "[type T] needs omit or note"},
        {"[type War Machine]\nnote = a\n[type war machine]\nnote = b\n",
         "[type war machine] has omit or note already"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char body[1024];
        snprintf(body, sizeof body, "[units]\nruleset = generic\n%s", bad[i].body);
        const char *path = th_units_write_tmp(body);
        cs_units_mapping m;
        cs_error err = {0};
        cr_expect_eq(cs_units_mapping_load(path, &m, &err), CS_EINPUT, "%s", bad[i].body);
        cr_expect(strstr(err.msg, bad[i].msg), "%s", err.msg);
        unlink(path);
    }
}
