/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Ninth Age 2nd edition's Charge Range rules in the unit tables (issue
 * 50), from data/bsdata-t9a-2nd through experiments/mappings/t9a-2nd.ini:
 * where the data gives each rule (a rule link on the unit, a rule in it, an
 * upgrade holding it), read here with libxml2 alone, and the odds of each
 * row worked out by enumerating the dice as the rule texts say. */
#include <criterion/criterion.h>
#include <libxml/parser.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/unitsrc.h"
#include "support/helpers.h"
#include "support/units_helpers.h"

#define EXACT 1e-12

static void t9a_mapping(cs_units_mapping *m)
{
    char path[1200];
    cs_error err = {0};
    snprintf(path, sizeof path, "%s/experiments/mappings/t9a-2nd.ini", th_root());
    cr_assert_eq(cs_units_mapping_load(path, m, &err), CS_OK, "%s", err.msg);
    cr_assert_eq(cs_units_mapping_bind(m, &err), CS_OK, "%s", err.msg);
}

static void read_t9a(const char *name, const cs_units_mapping *m, cs_units *u)
{
    char path[1200];
    cs_error err = {0};
    snprintf(path, sizeof path, "%s/data/bsdata-t9a-2nd/%s", th_root(), name);
    *u = (cs_units){0};
    cr_assert_eq(cs_units_read_bs(path, m, u, &err), CS_OK, "%s", err.msg);
}

/* The row named `name`: a test failure when there is none. */
static const cs_unit *row(const cs_units *u, const char *name)
{
    const cs_unit *r = th_units_find(u, name);
    cr_assert_not_null(r, "no row `%s`", name);
    return r;
}

static double adv(const cs_unit *u)
{
    const char *v = th_units_value(u, "advance_rate");
    cr_assert_not_null(v, "%s: no Adv", u->name);
    return atof(v);
}

/* P(Charge Range >= d), 2nd edition: 2D6 + Adv, counted over the throws.
 * `extra` Maximised dice are rolled too and the lowest dropped (Maximised
 * Roll); with `ones` every die showing a natural 1 is rolled once more and
 * the second result kept, before the drop (Greenfire Eyes, "must reroll any
 * natural rolls of '1'"): each die is then thrown as a (first, second)
 * pair. With `again`, a roll that falls short is thrown again, once
 * (Devotees of Tyranny, "may reroll failed Charge Range rolls"). */
static double p_t9a(double a, int extra, bool ones, bool again, double d)
{
    int n = 2 + extra, per = ones ? 36 : 6, all = 1;
    long hit = 0;
    for (int i = 0; i < n; i++)
        all *= per;
    for (int code = 0; code < all; code++) {
        int f[3], x = code, sum = 0, lo = 7;
        for (int i = 0; i < n; i++, x /= per) {
            int first = x % per % 6 + 1, second = x % per / 6 + 1;
            f[i] = ones && first == 1 ? second : first;
            sum += f[i];
            lo = f[i] < lo ? f[i] : lo;
        }
        hit += (extra ? sum - lo : sum) + a >= d - 1e-9;
    }
    double p = (double)hit / (double)all;
    return again ? 1.0 - (1.0 - p) * (1.0 - p) : p;
}

/* Does the element named `owner` (a selection entry, any depth) in
 * data/bsdata-t9a-2nd/FILE hold, as its own child, a <rule> or an info link
 * of type rule named `rule`? Read with libxml2 alone. */
static bool holds_in(xmlNodePtr n, const char *owner, const char *rule)
{
    for (xmlNodePtr c = n; c; c = c->next) {
        if (c->type != XML_ELEMENT_NODE)
            continue;
        xmlChar *name = xmlGetProp(c, (const xmlChar *)"name");
        bool here = strcmp((const char *)c->name, "selectionEntry") == 0 && name &&
                    strcmp((const char *)name, owner) == 0;
        xmlFree(name);
        for (xmlNodePtr l = here ? c->children : NULL; l; l = l->next)
            for (xmlNodePtr k = l->children; k; k = k->next) {
                if (k->type != XML_ELEMENT_NODE)
                    continue;
                xmlChar *kn = xmlGetProp(k, (const xmlChar *)"name");
                xmlChar *kt = xmlGetProp(k, (const xmlChar *)"type");
                bool hit = kn && strcmp((const char *)kn, rule) == 0 &&
                           (strcmp((const char *)k->name, "rule") == 0 ||
                            (strcmp((const char *)k->name, "infoLink") == 0 && kt &&
                             strcmp((const char *)kt, "rule") == 0));
                xmlFree(kn);
                xmlFree(kt);
                if (hit)
                    return true;
            }
        if (holds_in(c->children, owner, rule))
            return true;
    }
    return false;
}

static bool holds(const char *file, const char *owner, const char *rule)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/data/bsdata-t9a-2nd/%s", th_root(), file);
    xmlDocPtr doc = xmlReadFile(path, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR);
    cr_assert_not_null(doc, "%s", path);
    bool h = holds_in(xmlDocGetRootElement(doc), owner, rule);
    xmlFreeDoc(doc);
    return h;
}

/* Swiftstride (the game system): "its rolls for Charge Range ... are
 * subject to Maximised Roll": Adv + the highest two of 3D6. The Warrior
 * Chariot has it by a rule link; Warriors have none and roll 2D6 + Adv. */
Test(units_t9a, swiftstride_is_adv_plus_the_highest_two_of_3d6)
{
    cr_assert(holds("2nd-warriorsOfTheDarkGods.cat", "Warrior Chariot", "Swiftstride"));
    cs_units_mapping m;
    t9a_mapping(&m);
    cs_units u;
    read_t9a("2nd-warriorsOfTheDarkGods.cat", &m, &u);
    const cs_unit *ch = row(&u, "Warrior Chariot"), *wa = row(&u, "Warriors");
    cr_expect_str_eq(th_units_value(ch, "maximised"), "1");
    cr_expect_null(th_units_value(wa, "maximised"));
    double a = adv(ch);
    for (double d = a + 2.0; d <= a + 12.0; d += 1.0)
        cr_expect_leq(fabs(th_units_p_at(ch, d) - p_t9a(a, 1, false, false, d)), EXACT, "at %g", d);
    /* At Adv + 9: the highest two of 3D6 >= 9 in 113 of 216 throws (2D6: 10/36). */
    cr_expect_leq(fabs(th_units_p_at(ch, a + 9.0) - 113.0 / 216.0), EXACT);
    a = adv(wa);
    cr_expect_leq(fabs(th_units_p_at(wa, a + 9.0) - 10.0 / 36.0), EXACT);
    /* A chariot mount that gives Swiftstride is no row of the rider on foot. */
    cr_assert(holds("2nd-warriorsOfTheDarkGods.cat", "Dark Chariot", "Swiftstride"));
    for (int i = 0; i < u.n; i++)
        cr_expect(!strstr(u.unit[i].name, "with Dark Chariot"), "%s", u.unit[i].name);
    cs_units_free(&u);
}

/* Favour of Kuulima, Goddess of Envy, an upgrade holding the rule: "Units
 * with more than half of their models with this Favour gain Maximised
 * (Charge Range, ...)". Warriors may take it: a row that names it, at the
 * upgrade's cost (0), Maximised; the plain row stays. */
Test(units_t9a, favour_of_kuulima_is_an_option_row)
{
    const char *favour = "Favour of Kuulima, Goddess of Envy";
    cr_assert(holds("2nd-warriorsOfTheDarkGods.cat", favour, favour));
    cs_units_mapping m;
    t9a_mapping(&m);
    cs_units u;
    read_t9a("2nd-warriorsOfTheDarkGods.cat", &m, &u);
    const cs_unit *wa = row(&u, "Warriors"),
                  *fa = row(&u, "Warriors (with Favour of Kuulima, Goddess of Envy)");
    cr_expect_str_eq(th_units_value(fa, "maximised"), "1");
    cr_expect_eq(fa->points, wa->points);
    cr_expect(strstr(fa->note, favour), "%s", fa->note);
    double a = adv(fa);
    cr_expect_eq(a, adv(wa));
    for (double d = a + 2.0; d <= a + 12.0; d += 1.0) {
        cr_expect_leq(fabs(th_units_p_at(fa, d) - p_t9a(a, 1, false, false, d)), EXACT, "at %g", d);
        cr_expect_leq(fabs(th_units_p_at(wa, d) - p_t9a(a, 0, false, false, d)), EXACT, "at %g", d);
    }
    cs_units_free(&u);
}

/* Greenfire Eyes (Daemon Legions): "must reroll any natural rolls of '1'
 * when rolling for Charge Range": the Mageblight Gremlins' upgrade `Unit -
 * Greenfire Eyes` links the rule; its row re-rolls each 1 of 2D6 once. */
Test(units_t9a, greenfire_eyes_rerolls_natural_ones)
{
    cr_assert(holds("2nd-daemonLegions.cat", "Unit - Greenfire Eyes", "Greenfire Eyes"));
    cs_units_mapping m;
    t9a_mapping(&m);
    cs_units u;
    read_t9a("2nd-daemonLegions.cat", &m, &u);
    const cs_unit *ge = row(&u, "Mageblight Gremlins (with Unit - Greenfire Eyes)"),
                  *plain = row(&u, "Mageblight Gremlins");
    cr_expect_str_eq(th_units_value(ge, "reroll_ones"), "true");
    cr_expect_null(th_units_value(plain, "reroll_ones"));
    double a = adv(ge);
    for (double d = a + 2.0; d <= a + 12.0; d += 1.0)
        cr_expect_leq(fabs(th_units_p_at(ge, d) - p_t9a(a, 0, true, false, d)), EXACT, "at %g", d);
    /* At Adv + 12 both dice must end 6: (7/36)^2, not (1/6)^2. */
    cr_expect_leq(fabs(th_units_p_at(ge, a + 12.0) - 49.0 / 1296.0), EXACT);
    cs_units_free(&u);
}

/* Devotees of Tyranny (the Tyrannical Disciples' own rule): "may reroll
 * failed Charge Range rolls": taken when the roll falls short, so
 * 1 - (1 - p)^2 of the plain 2D6 + Adv. */
Test(units_t9a, devotees_of_tyranny_reroll_a_failed_range)
{
    cr_assert(holds("2nd-hobgoblins.cat", "Tyrannical Disciples", "Devotees of Tyranny"));
    cs_units_mapping m;
    t9a_mapping(&m);
    cs_units u;
    read_t9a("2nd-hobgoblins.cat", &m, &u);
    const cs_unit *td = row(&u, "Tyrannical Disciples");
    cr_expect_str_eq(th_units_value(td, "reroll_failed"), "true");
    double a = adv(td);
    for (double d = a + 2.0; d <= a + 12.0; d += 1.0)
        cr_expect_leq(fabs(th_units_p_at(td, d) - p_t9a(a, 0, false, true, d)), EXACT, "at %g", d);
    /* At Adv + 7: 2D6 >= 7 in 21/36; again after a miss: 1 - (15/36)^2. */
    cr_expect_leq(fabs(th_units_p_at(td, a + 7.0) - (1.0 - 225.0 / 1296.0)), EXACT);
    cs_units_free(&u);
}

/* `option = row` takes row or no, and needs a param and no row. */
Test(units_t9a, option_key_is_checked)
{
    static const char *const bad[][2] = {
        {"[rule R]\nparam = maximised\noption = maybe\n", "option = maybe: expected row or no"},
        {"[rule R]\nnote = n\noption = row\n", "option = row needs a param and no row"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, "[units]\nruleset = t9a\nspeed = advance_rate\n"
                                    "[characteristic Adv]\nparam = advance_rate\n%s", bad[i][0]);
        cs_units_mapping m;
        cs_error err = {0};
        cr_expect_neq(cs_units_mapping_load(th_units_write_tmp(text), &m, &err), CS_OK, "%s",
                      bad[i][0]);
        cr_expect(strstr(err.msg, bad[i][1]), "%s", err.msg);
    }
}

/* option = row on a small catalogue (tests/data/units/options.cat, a flier
 * of Adv 2" (9")): the upgrade linked from a group and holding the rule,
 * and the one nested and named `Unit - Swift`, each give a row and its
 * flying twin, their cost added; the hidden upgrade and the mount (a speed
 * of its own) give none. Odds: Adv + the highest two of 3D6. */
Test(units_t9a, option_rows_from_a_small_catalogue)
{
    const char *map = th_units_write_tmp(
        "[units]\nruleset = t9a\ngame_system_id = gs-new\ncost = pts\nspeed = advance_rate\n"
        "[fixed]\nedition = 2\n[characteristic Adv]\nparam = advance_rate\nformat = inches\n"
        "alternate = no\nalternate_row = flying\n[rule Swift]\nparam = maximised\nvalue = 1\n"
        "option = row\n");
    cs_units_mapping m;
    cs_error err = {0};
    cr_assert_eq(cs_units_mapping_load(map, &m, &err), CS_OK, "%s", err.msg);
    cr_assert_eq(cs_units_mapping_bind(&m, &err), CS_OK, "%s", err.msg);
    cs_units u = {0};
    cr_assert_eq(cs_units_read_bs(th_units_data("options.cat"), &m, &u, &err), CS_OK, "%s",
                 err.msg);
    cr_expect_eq(u.n, 6, "%d rows", u.n);
    static const struct {
        const char *name;
        double adv, points;
        int extra;
    } want[] = {{"Harpies", 2, 100, 0},
                {"Harpies (flying)", 9, 100, 0},
                {"Harpies (with Favour of Speed)", 2, 120, 1},
                {"Harpies (flying, with Favour of Speed)", 9, 120, 1},
                {"Harpies (with Unit - Swift)", 2, 105, 1},
                {"Harpies (flying, with Unit - Swift)", 9, 105, 1}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const cs_unit *r = row(&u, want[i].name);
        cr_expect_eq(adv(r), want[i].adv, "%s", want[i].name);
        cr_expect_eq(r->points, want[i].points, "%s", want[i].name);
        for (double d = want[i].adv + 3.0; d <= want[i].adv + 12.0; d += 1.0)
            cr_expect_leq(fabs(th_units_p_at(r, d) - p_t9a(want[i].adv, want[i].extra, false,
                                                           false, d)),
                          EXACT, "%s at %g", want[i].name, d);
    }
    cr_expect_null(th_units_find(&u, "Harpies (with Hidden Gift)"), "hidden: not read");
    cr_expect_null(th_units_find(&u, "Harpies (with Swift Chariot)"), "a mount: no option row");
    cs_units_free(&u);
}
