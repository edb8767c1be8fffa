/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Fliers' second rows in The Ninth Age 2nd edition (issue 42), from the
 * BattleScribe data in data/bsdata-t9a-2nd through
 * experiments/mappings/t9a-2nd.ini: a flier's Adv is printed ground (fly),
 * `5" (8")`, and its `(flying)` row charges with the fly rate: 2D6 + Adv.
 * The Adv text is read from the catalogue here with libxml2 alone, and the
 * odds are counted over the 36 throws. */
#include <criterion/criterion.h>
#include <libxml/parser.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/unitsrc.h"
#include "support/helpers.h"
#include "support/units_helpers.h"

/* The first Adv text inside the selection entry named `entry`. */
static bool adv_in(xmlNodePtr n, bool inside, const char *entry, char *buf, size_t cap)
{
    for (xmlNodePtr c = n; c; c = c->next) {
        if (c->type != XML_ELEMENT_NODE)
            continue;
        xmlChar *name = xmlGetProp(c, (const xmlChar *)"name");
        bool here = inside || (strcmp((const char *)c->name, "selectionEntry") == 0 && name &&
                               strcmp((const char *)name, entry) == 0);
        bool adv = here && strcmp((const char *)c->name, "characteristic") == 0 && name &&
                   strcmp((const char *)name, "Adv") == 0;
        xmlFree(name);
        if (adv) {
            xmlChar *t = xmlNodeGetContent(c);
            snprintf(buf, cap, "%s", (const char *)t);
            xmlFree(t);
            return true;
        }
        if (adv_in(c->children, here, entry, buf, cap))
            return true;
    }
    return false;
}

/* P(2D6 + adv >= d), counted. */
static double p_2d6(double adv, double d)
{
    int hit = 0;
    for (int a = 1; a <= 6; a++)
        for (int b = 1; b <= 6; b++)
            hit += adv + a + b >= d - 1e-9;
    return hit / 36.0;
}

Test(units_fly, t9a_flier_gets_a_flying_row_at_its_fly_rate)
{
    char path[1200], map[1200], text[64];
    cs_error err = {0};
    cs_units_mapping m;
    snprintf(map, sizeof map, "%s/experiments/mappings/t9a-2nd.ini", th_root());
    cr_assert_eq(cs_units_mapping_load(map, &m, &err), CS_OK, "%s", err.msg);
    cr_assert_eq(cs_units_mapping_bind(&m, &err), CS_OK, "%s", err.msg);
    snprintf(path, sizeof path, "%s/data/bsdata-t9a-2nd/2nd-dreadElves.cat", th_root());

    xmlDocPtr doc = xmlReadFile(path, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR);
    cr_assert_not_null(doc);
    cr_assert(adv_in(xmlDocGetRootElement(doc), false, "Harpies", text, sizeof text));
    xmlFreeDoc(doc);
    double ground = atof(text);
    const char *bracket = strchr(text, '(');
    cr_assert_not_null(bracket, "Harpies' Adv `%s` is not a flier's", text);
    double fly = atof(bracket + 1);
    cr_assert_gt(fly, ground);

    cs_units u = {0};
    cr_assert_eq(cs_units_read_bs(path, &m, &u, &err), CS_OK, "%s", err.msg);
    const cs_unit *g = th_units_find(&u, "Harpies"), *f = th_units_find(&u, "Harpies (flying)");
    cr_assert(g && f, "a ground row and a flying row");
    cr_expect_eq(atof(th_units_value(g, "advance_rate")), ground);
    cr_expect_eq(atof(th_units_value(f, "advance_rate")), fly);
    cr_expect_eq(f->points, g->points);
    for (double d = 2.0; d <= fly + 13.0; d += 1.0) {
        cr_expect_leq(fabs(th_units_p_at(f, d) - p_2d6(fly, d)), 1e-12, "flying, at %g", d);
        cr_expect_leq(fabs(th_units_p_at(g, d) - p_2d6(ground, d)), 1e-12, "on the ground, at %g", d);
    }
    cs_units_free(&u);
}
