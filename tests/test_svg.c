/* The SVG writer: the output parses as XML (libxml2) and holds what the
 * scenario and path say, at the documented scale. */
#include <criterion/criterion.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/svg.h"

/* Writes the picture to memory and parses it. */
static xmlDocPtr draw(const cs_scenario *s, const cs_svg_path *p, char **text)
{
    size_t n = 0;
    FILE *f = open_memstream(text, &n);
    cr_assert_not_null(f);
    cr_assert_eq(cs_svg_write(f, s, p), CS_OK);
    fclose(f);
    xmlDocPtr doc = xmlReadMemory(*text, (int)n, "draw.svg", NULL, XML_PARSE_NONET);
    cr_assert_not_null(doc, "not well-formed XML:\n%s", *text);
    return doc;
}

static int count(xmlNodePtr n, const char *name)
{
    int c = 0;
    for (; n != NULL; n = n->next) {
        if (n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0)
            c++;
        c += count(n->children, name);
    }
    return c;
}

Test(svg, head_on_with_path_terrain_and_others)
{
    cs_scenario s;
    cs_scenario_head_on(6, 3, 20, 4, 2, 4, 2, &s);
    s.n_terrain = 1;
    s.terrain[0].kind = CS_TERRAIN_IMPASSABLE;
    cs_rect tr = cs_geom_rect((cs_vec2){ -6, 3 }, 2, 2, 0);
    s.terrain[0].poly = cs_geom_rect_poly(&tr);
    s.n_others = 1;
    s.others[0].kind = CS_UNIT_ENEMY;
    s.others[0].r = cs_geom_rect((cs_vec2){ 8, 3 }, 3, 1, 180);
    cs_snake sn;
    cs_geom_snake(&s.charger.r, &s.target.r, CS_FRONT, NULL, 0, &sn);
    cr_assert(sn.found);
    cs_svg_path p = { &sn, NULL, 90, "t9a <test> & check" };
    char *text = NULL;
    xmlDocPtr doc = draw(&s, &p, &text);
    xmlNodePtr root = xmlDocGetRootElement(doc);
    cr_expect_str_eq((const char *)root->name, "svg");
    /* polygons: terrain, other, target, charger, and the charger at contact
     * (plus its outline where the wheel starts, when it wheels) */
    cr_expect_eq(count(root, "polygon"), sn.wheel != 0 ? 6 : 5);
    cr_expect_eq(count(root, "path"), 1);
    cr_expect_eq(count(root, "circle"), 1);
    /* the title, escaped */
    cr_expect_not_null(strstr(text, "t9a &lt;test&gt; &amp; check"));
    xmlFreeDoc(doc);
    free(text);
}

Test(svg, scale_and_flip)
{
    /* Head-on at 4": the charger spans x in [-2, 2], y in [-2, 0]; the
     * target y in [4, 6]. With a 3" margin the picture spans x in [-5, 5],
     * y in [-5, 9]: 200 x 280 px. The charger's front edge (y = 0) is drawn
     * at 9 * 20 = 180 px from the top, from x = 60 to x = 140 px. */
    cs_scenario s;
    cs_scenario_head_on(4, 0, 0, 4, 2, 4, 2, &s);
    char *text = NULL;
    xmlDocPtr doc = draw(&s, NULL, &text);
    cr_expect_not_null(strstr(text, "width=\"200\" height=\"280\""), "%s", text);
    cr_expect_not_null(strstr(text, "x1=\"60.00\" y1=\"180.00\" x2=\"140.00\" y2=\"180.00\""),
                       "%s", text);
    xmlFreeDoc(doc);
    free(text);
}
