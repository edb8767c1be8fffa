/* Unit sources, BattleScribe side (src/io/units_bs.c): schema 2.01 and 2.03
 * test catalogues, every catalogue under ../shared/data checked against an
 * independent XPath count, and entry-link graphs (shared entries resolved
 * once, cycles named). The rest of `chargesim units`: tests/test_units.c. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <libxml/parser.h>
#include <libxml/xpath.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "chargesim/unitsrc.h"
#include "support/helpers.h"
#include "support/units_helpers.h"

/* ---- BattleScribe ------------------------------------------------------ */

Test(units, battlescribe_2_03_text_values_links_and_shared_profiles)
{
    cs_units_mapping m;
    th_units_load_bound("mappings/new.ini", &m);
    cs_units u = {0};
    cs_error err = {0};
    cr_assert_eq(cs_units_read_bs(th_units_data("new.cat"), &m, &u, &err), CS_OK, "%s", err.msg);

    /* Seven units, in the order met: the two root links first, then the
     * catalogue's entries. */
    const char *names[] = {"Linked Hero", "Warband", "Swordsmen", "Knight",
                           "Flier",       "Gremlin", "Hounds"};
    cr_assert_eq(u.n, 7);
    for (int i = 0; i < 7; i++)
        cr_expect_str_eq(u.unit[i].name, names[i]);

    /* A game-system unit reached by a root entry link, its Adv in a shared
     * profile of the game system behind an info link. */
    const cs_unit *hero = th_units_find(&u, "Linked Hero");
    cr_expect_str_eq(th_units_value(hero, "move"), "5");
    cr_expect_str_eq(hero->id, "se-hero");
    cr_expect(strstr(hero->file, "new.gst"));
    cr_expect_eq(hero->points, 120.0);
    cr_expect_str_eq(hero->catalogue, "Test Army");
    /* Models as children: nested (Swordsmen, min 10 at 10 pts + 50) and
     * linked from a group to a shared library (Warband, min 5 on the link at
     * 12 pts + 20). The library model is not a unit of its own. */
    const cs_unit *sw = th_units_find(&u, "Swordsmen");
    cr_expect_str_eq(th_units_value(sw, "move"), "4");
    cr_expect_eq(sw->points, 50.0 + 10.0 * 10.0);
    cr_expect_str_eq(sw->base, "20×20");
    cr_expect_str_eq(th_units_value(th_units_find(&u, "Warband"), "move"), "6");
    cr_expect_eq(th_units_find(&u, "Warband")->points, 20.0 + 5.0 * 12.0);
    cr_expect_null(th_units_find(&u, "Warrior"));
    /* The Knight's Horse is an upgrade: its 9" is not the Knight's. */
    cr_expect_str_eq(th_units_value(th_units_find(&u, "Knight"), "move"), "7");
    /* `2" (9")`: the ground rate, as the mapping keeps alternate = no. */
    cr_expect_str_eq(th_units_value(th_units_find(&u, "Flier"), "move"), "2");
    cr_expect_str_eq(th_units_find(&u, "Flier")->value[0].raw, "2\" (9\")");
    cr_expect_null(th_units_find(&u, "Never Linked"), "a game-system unit no link reaches");

    /* The models typed "upgrade" that the unit must take (min 5 at 14 pts):
     * their profile is the unit's (T9A's Steppe Wolfhounds, Feldraks). */
    const cs_unit *hounds = th_units_find(&u, "Hounds");
    cr_expect_str_eq(th_units_value(hounds, "move"), "8");
    cr_expect_eq(hounds->points, 5.0 * 14.0);

    /* Left out or warned, each named with what is wrong and where. */
    cr_assert_eq(u.n_notes, 5);
    const cs_unit_note *n = th_units_find_note(&u, "Random Beast");
    cr_expect(n->kind == CS_UNIT_SKIPPED && n->problem == CS_UNIT_INVALID);
    cr_expect_eq(n->line, 73);
    cr_expect(strstr(n->what, "Adv `3D6` is not a distance"), "%s", n->what);
    n = th_units_find_note(&u, "Ghost");
    cr_expect(n->problem == CS_UNIT_MISSING && strcmp(n->what, "lacks Adv") == 0, "%s", n->what);
    /* `Standard` beside `5"`: a word is no speed; the one number is taken,
     * with a warning naming both lines. */
    cr_expect_str_eq(th_units_value(th_units_find(&u, "Gremlin"), "move"), "5");
    n = th_units_find_note(&u, "Gremlin");
    cr_expect(n->kind == CS_UNIT_WARNED && n->problem == CS_UNIT_CONFLICT);
    cr_expect(strstr(n->what, "`5\"` (") && strstr(n->what, "new.cat:92) taken") &&
                  strstr(n->what, "`Standard` (") && strstr(n->what, "new.cat:87) is a word"),
              "%s", n->what);
    /* Two numbers (and a word) stay a conflict: neither is guessed. */
    n = th_units_find_note(&u, "Twin Speed");
    cr_expect(n->kind == CS_UNIT_SKIPPED && n->problem == CS_UNIT_CONFLICT);
    cr_expect(strstr(n->what, "Adv given more than twice: `5\"`"), "%s", n->what);
    cr_expect_null(th_units_find(&u, "Twin Speed"));
    n = th_units_find_note(&u, "War Engine");
    cr_expect(n->problem == CS_UNIT_MISSING && strstr(n->what, "(`-`)"), "%s", n->what);
    cs_units_free(&u);
}

Test(units, battlescribe_2_01_value_attributes_and_melee_profiles)
{
    cs_units_mapping m;
    th_units_load_bound("mappings/old.ini", &m);
    cs_units u = {0};
    cs_error err = {0};
    cr_assert_eq(cs_units_read_bs(th_units_data("old.cat"), &m, &u, &err), CS_OK, "%s", err.msg);
    cr_assert_eq(u.n, 4);
    const cs_unit *g = th_units_find(&u, "Guardsmen");
    cr_expect_str_eq(th_units_value(g, "speed"), "5");
    cr_expect_str_eq(th_units_value(g, "hit"), "3");
    cr_expect_str_eq(th_units_value(g, "attack_dice"), "7");
    cr_expect_eq(g->points, 7.0, "the \" Points\" cost, names compared trimmed");
    cr_expect(g->complete);
    /* Two attacks: only the Melee one is the charge attack. */
    const cs_unit *a = th_units_find(&u, "Archers");
    cr_expect_str_eq(th_units_value(a, "attack_dice"), "5");
    cr_expect_str_eq(th_units_value(a, "speed"), "5", "`5` without the inch mark");
    /* Two melee attacks: kept for its charge odds, its attack not guessed. */
    const cs_unit *x = th_units_find(&u, "Axemen");
    cr_expect_not(x->complete);
    cr_expect_null(th_units_value(x, "hit"));
    const cs_unit_note *n = th_units_find_note(&u, "Axemen");
    cr_expect(n->kind == CS_UNIT_INCOMPLETE && n->problem == CS_UNIT_CONFLICT);
    /* A game-system unit with its attack in a shared profile. */
    const cs_unit *merc = th_units_find(&u, "Mercenaries");
    cr_expect_str_eq(th_units_value(merc, "speed"), "6");
    cr_expect_str_eq(th_units_value(merc, "hit"), "4");
    cr_expect(merc->complete);
    n = th_units_find_note(&u, "Lord");
    cr_expect(n->kind == CS_UNIT_SKIPPED && strcmp(n->what, "lacks Speed") == 0, "%s", n->what);
    cs_units_free(&u);
}

Test(units, battlescribe_errors_name_file_line_and_element)
{
    cs_units_mapping m;
    th_units_load_bound("mappings/new.ini", &m);
    cs_units u = {0};
    cs_error err = {0};
    cr_expect_eq(cs_units_read_bs(th_units_data("broken.cat"), &m, &u, &err), CS_EINPUT);
    cr_expect(strstr(err.msg, "broken.cat:9: malformed XML") && strstr(err.msg, "characteristic"),
              "%s", err.msg);
    cr_expect_eq(cs_units_read_bs(th_units_data("badlink.cat"), &m, &u, &err), CS_EINPUT);
    cr_expect(strstr(err.msg, "badlink.cat:4: <entryLink> `Nowhere`") &&
                  strstr(err.msg, "no-such-id"),
              "%s", err.msg);
    cr_expect_eq(cs_units_read_bs(th_units_data("nothing-here.cat"), &m, &u, &err), CS_EINPUT);
    cr_expect(strstr(err.msg, "nothing-here.cat"), "%s", err.msg);
    /* A catalogue without its game system beside it. */
    char dir[] = "/tmp/chargesim-units-XXXXXX", cmd[2048];
    cr_assert(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "cp %s %s/", th_units_data("new.cat"), dir);
    cr_assert_eq(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s/new.cat", dir);
    cr_expect_eq(cs_units_read_bs(cmd, &m, &u, &err), CS_EINPUT);
    cr_expect(strstr(err.msg, "no game system file (.gst) with id gs-new"), "%s", err.msg);
    snprintf(cmd, sizeof cmd, "rm -r %s", dir);
    cr_expect_eq(system(cmd), 0);
    cr_expect_eq(u.n, 0);
    cs_units_free(&u);
}

/* ---- every catalogue under ../shared/data, against XPath --------------- */

/* The independent count: units found by XPath queries, following links by
 * id lookups, with no code shared with the reader but the value parser. */
typedef struct xdoc {
    xmlDocPtr doc;
    xmlXPathContextPtr ctx;
} xdoc;

#define SE "*[local-name()='selectionEntry']"
#define UNIT "[@type='unit' or @type='model']"

static xmlXPathObjectPtr xq(xdoc *d, xmlNodePtr at, const char *expr)
{
    d->ctx->node = at ? at : xmlDocGetRootElement(d->doc);
    xmlXPathObjectPtr o = xmlXPathEvalExpression((const xmlChar *)expr, d->ctx);
    cr_assert_not_null(o, "%s", expr);
    return o;
}

static int nodes(xmlXPathObjectPtr o)
{
    return o->nodesetval ? o->nodesetval->nodeNr : 0;
}

static void text_of(xmlNodePtr n, char *buf, size_t cap)
{
    xmlChar *v = xmlGetProp(n, (const xmlChar *)"value");
    if (!v)
        v = xmlNodeGetContent(n);
    const char *s = v ? (const char *)v : "";
    while (*s == ' ')
        s++;
    snprintf(buf, cap, "%s", s);
    size_t len = strlen(buf);
    while (len > 0 && buf[len - 1] == ' ')
        buf[--len] = '\0';
    xmlFree(v);
}

/* The element with id `id` in the catalogue, else the game system. */
static xmlNodePtr by_id(xdoc *cat, xdoc *gst, const char *id)
{
    char expr[256];
    snprintf(expr, sizeof expr, "//*[@id='%s']", id);
    xdoc *docs[2] = {cat, gst};
    for (int k = 0; k < 2; k++) {
        xmlXPathObjectPtr o = xq(docs[k], NULL, expr);
        xmlNodePtr n = nodes(o) ? o->nodesetval->nodeTab[0] : NULL;
        xmlXPathFreeObject(o);
        if (n)
            return n;
    }
    return NULL;
}

typedef struct texts {
    int n;
    char t[8][64];
    int numeric; /* the one text with a digit, else 0 */
} texts;

static void add_text(texts *v, const char *t)
{
    for (int i = 0; i < v->n; i++)
        if (strcmp(v->t[i], t) == 0)
            return;
    if (v->n < 8)
        snprintf(v->t[v->n++], sizeof v->t[0], "%s", t);
}

/* The characteristic's texts in an entry's own profiles and info-linked ones. */
static void own_texts(xdoc *cat, xdoc *gst, xmlNodePtr e, const char *key, texts *v)
{
    char expr[256], buf[64];
    xdoc *d = e->doc == cat->doc ? cat : gst;
    snprintf(expr, sizeof expr,
             "./*[local-name()='profiles']/*[local-name()='profile']//"
             "*[local-name()='characteristic'][@name='%s']",
             key);
    xmlXPathObjectPtr o = xq(d, e, expr);
    for (int i = 0; i < nodes(o); i++) {
        text_of(o->nodesetval->nodeTab[i], buf, sizeof buf);
        add_text(v, buf);
    }
    xmlXPathFreeObject(o);
    o = xq(d, e, "./*[local-name()='infoLinks']/*[local-name()='infoLink'][@type='profile']");
    for (int i = 0; i < nodes(o); i++) {
        xmlChar *t = xmlGetProp(o->nodesetval->nodeTab[i], (const xmlChar *)"targetId");
        xmlNodePtr p = by_id(cat, gst, (const char *)t);
        xmlFree(t);
        cr_assert_not_null(p);
        xdoc *pd = p->doc == cat->doc ? cat : gst;
        snprintf(expr, sizeof expr, ".//*[local-name()='characteristic'][@name='%s']", key);
        xmlXPathObjectPtr c = xq(pd, p, expr);
        for (int j = 0; j < nodes(c); j++) {
            text_of(c->nodesetval->nodeTab[j], buf, sizeof buf);
            add_text(v, buf);
        }
        xmlXPathFreeObject(c);
    }
    xmlXPathFreeObject(o);
}

/* Own texts, those of nested model entries, of linked model entries, and
 * of the unit's own upgrade children it must take at least once (a min
 * selections constraint >= 1 on the entry or its link): the data's models
 * typed "upgrade" (Steppe Wolfhounds, Feldraks). */
static void unit_texts(xdoc *cat, xdoc *gst, xmlNodePtr u, const char *key, texts *v)
{
    xdoc *d = u->doc == cat->doc ? cat : gst;
    own_texts(cat, gst, u, key, v);
#define MIN1                                                                                     \
    "*[local-name()='constraints']/*[local-name()='constraint'][@type='min'][@scope='parent']"   \
    "[@field='selections'][number(@value) >= 1]"
    xmlXPathObjectPtr up = xq(d, u, "./*[local-name()='selectionEntries']/" SE
                                    "[@type='upgrade'][" MIN1 "]");
    for (int i = 0; i < nodes(up); i++)
        own_texts(cat, gst, up->nodesetval->nodeTab[i], key, v);
    xmlXPathFreeObject(up);
    up = xq(d, u, "./*[local-name()='entryLinks']/*[local-name()='entryLink']");
    for (int i = 0; i < nodes(up); i++) {
        xmlNodePtr l = up->nodesetval->nodeTab[i];
        xmlChar *t = xmlGetProp(l, (const xmlChar *)"targetId");
        xmlNodePtr e = by_id(cat, gst, (const char *)t);
        xmlFree(t);
        xmlChar *type = e ? xmlGetProp(e, (const xmlChar *)"type") : NULL;
        if (type && strcmp((const char *)type, "upgrade") == 0) {
            xdoc *ld = l->doc == cat->doc ? cat : gst, *ed = e->doc == cat->doc ? cat : gst;
            xmlXPathObjectPtr a = xq(ld, l, "./" MIN1), b = xq(ed, e, "./" MIN1);
            if (nodes(a) + nodes(b) > 0)
                own_texts(cat, gst, e, key, v);
            xmlXPathFreeObject(a);
            xmlXPathFreeObject(b);
        }
        xmlFree(type);
    }
    xmlXPathFreeObject(up);
#undef MIN1
    xmlXPathObjectPtr o = xq(d, u, ".//" SE "[@type='model']");
    for (int i = 0; i < nodes(o); i++)
        own_texts(cat, gst, o->nodesetval->nodeTab[i], key, v);
    xmlXPathFreeObject(o);
    o = xq(d, u, ".//*[local-name()='entryLink']");
    for (int i = 0; i < nodes(o); i++) {
        xmlChar *t = xmlGetProp(o->nodesetval->nodeTab[i], (const xmlChar *)"targetId");
        xmlNodePtr e = by_id(cat, gst, (const char *)t);
        xmlFree(t);
        xmlChar *type = e ? xmlGetProp(e, (const xmlChar *)"type") : NULL;
        if (type && strcmp((const char *)type, "model") == 0)
            own_texts(cat, gst, e, key, v);
        xmlFree(type);
    }
    xmlXPathFreeObject(o);
}

static bool open_xdoc(const char *path, xdoc *d)
{
    d->doc = xmlReadFile(path, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    d->ctx = d->doc ? xmlXPathNewContext(d->doc) : NULL;
    return d->ctx != NULL;
}

static void close_xdoc(xdoc *d)
{
    if (d->ctx)
        xmlXPathFreeContext(d->ctx);
    if (d->doc)
        xmlFreeDoc(d->doc);
}

typedef struct idlist {
    int n;
    char id[1024][64];
} idlist;

static bool has_id(const idlist *l, const char *id)
{
    for (int i = 0; i < l->n; i++)
        if (strcmp(l->id[i], id) == 0)
            return true;
    return false;
}

/* Checks one catalogue: the units XPath finds with the key characteristic
 * are exactly the table's rows plus the units left out for an unreadable or
 * contradictory value; each row once, with the value the XML holds. */
static void check_catalogue(const char *cat_path, const char *gst_path, const cs_units_mapping *m,
                            const char *key, int *rows_total, int *xpath_total)
{
    xdoc cat = {0}, gst = {0};
    cr_assert(open_xdoc(cat_path, &cat), "%s", cat_path);
    cr_assert(open_xdoc(gst_path, &gst), "%s", gst_path);
    idlist *expected = calloc(1, sizeof *expected), *readable = calloc(1, sizeof *readable);
    texts *vals = calloc(1024, sizeof *vals);
    xmlNodePtr cand[1024];
    int nc = 0;

    /* Units of the catalogue: not nested in a unit, not a unit's linked
     * model; then game-system units a link outside any unit reaches. */
    xmlXPathObjectPtr o = xq(&cat, NULL, "//" SE UNIT "[not(ancestor::" SE UNIT ")]");
    xmlXPathObjectPtr linked =
        xq(&cat, NULL, "//" SE UNIT "//*[local-name()='entryLink']/@targetId");
    for (int i = 0; i < nodes(o); i++) {
        xmlNodePtr e = o->nodesetval->nodeTab[i];
        xmlChar *id = xmlGetProp(e, (const xmlChar *)"id");
        bool child = false;
        for (int j = 0; j < nodes(linked); j++) {
            xmlChar *t = xmlNodeGetContent(linked->nodesetval->nodeTab[j]);
            child = child || strcmp((const char *)t, (const char *)id) == 0;
            xmlFree(t);
        }
        xmlFree(id);
        if (!child)
            cand[nc++] = e;
    }
    xmlXPathFreeObject(o);
    xmlXPathFreeObject(linked);
    o = xq(&cat, NULL, "//*[local-name()='entryLink'][not(ancestor::" SE UNIT ")]/@targetId");
    for (int i = 0; i < nodes(o); i++) {
        xmlChar *t = xmlNodeGetContent(o->nodesetval->nodeTab[i]);
        char expr[256];
        snprintf(expr, sizeof expr, "//" SE UNIT "[@id='%s']", (const char *)t);
        xmlFree(t);
        xmlXPathObjectPtr g = xq(&gst, NULL, expr);
        for (int j = 0; j < nodes(g); j++) {
            bool dup = false;
            for (int k = 0; k < nc; k++)
                dup = dup || cand[k] == g->nodesetval->nodeTab[j];
            if (!dup)
                cand[nc++] = g->nodesetval->nodeTab[j];
        }
        xmlXPathFreeObject(g);
    }
    xmlXPathFreeObject(o);

    for (int i = 0; i < nc; i++) {
        unit_texts(&cat, &gst, cand[i], key, &vals[i]);
        xmlChar *id = xmlGetProp(cand[i], (const xmlChar *)"id");
        double num;
        bool absent;
        const char *why;
        if (vals[i].n > 0)
            snprintf(expected->id[expected->n++], 64, "%s", (const char *)id);
        /* One numeric value: the only text holding a digit (a word such
         * as `Standard` is no speed), and it reads as a distance. */
        int numeric = -1, n_numeric = 0;
        for (int t = 0; t < vals[i].n; t++)
            if (strpbrk(vals[i].t[t], "0123456789")) {
                numeric = t;
                n_numeric++;
            }
        if (n_numeric == 1 && cs_units_parse_value(vals[i].t[numeric], CS_UNITS_INCHES,
                                                   m->chars[0].alternate, &num, &absent, &why))
            snprintf(readable->id[readable->n++], 64, "%s", (const char *)id);
        vals[i].numeric = n_numeric == 1 ? numeric : 0;
        xmlFree(id);
    }

    cs_units u = {0};
    cs_error err = {0};
    cr_assert_eq(cs_units_read_bs(cat_path, m, &u, &err), CS_OK, "%s", err.msg);
    /* Rows: exactly the units whose one value reads, each once, with it. */
    cr_expect_eq(u.n, readable->n, "%s: %d rows, XPath finds %d units with a readable %s", cat_path,
                 u.n, readable->n, key);
    for (int i = 0; i < u.n; i++) {
        cr_expect(has_id(readable, u.unit[i].id), "%s: row %s (%s) not found by XPath", cat_path,
                  u.unit[i].name, u.unit[i].id);
        for (int j = 0; j < i; j++)
            cr_expect(strcmp(u.unit[i].id, u.unit[j].id) != 0, "%s: %s twice", cat_path,
                      u.unit[i].name);
        for (int k = 0; k < nc; k++) {
            xmlChar *id = xmlGetProp(cand[k], (const xmlChar *)"id");
            if (strcmp((const char *)id, u.unit[i].id) == 0)
                cr_expect_str_eq(u.unit[i].value[0].raw, vals[k].t[vals[k].numeric], "%s: %s",
                                 cat_path,
                                 u.unit[i].name);
            xmlFree(id);
        }
    }
    /* Left out for an unreadable or contradictory value: the rest of the
     * units that have the characteristic. */
    int with_value_left_out = 0;
    for (int i = 0; i < u.n_notes; i++) {
        const cs_unit_note *n = &u.note[i];
        if (n->kind == CS_UNIT_SKIPPED && n->problem != CS_UNIT_MISSING) {
            with_value_left_out++;
            cr_expect(has_id(expected, n->id) && !has_id(readable, n->id), "%s: note %s", cat_path,
                      n->name);
        }
    }
    cr_expect_eq(u.n + with_value_left_out, expected->n,
                 "%s: %d rows + %d left out, XPath finds %d units with %s", cat_path, u.n,
                 with_value_left_out, expected->n, key);
    *rows_total += u.n;
    *xpath_total += readable->n;
    cs_units_free(&u);
    free(vals);
    free(expected);
    free(readable);
    close_xdoc(&cat);
    close_xdoc(&gst);
}

static bool game_system_of_dir(const char *dir, char *gst, size_t cap)
{
    DIR *d = opendir(dir);
    if (!d)
        return false;
    bool found = false;
    for (struct dirent *e; !found && (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (n > 4 && strcmp(e->d_name + n - 4, ".gst") == 0) {
            snprintf(gst, cap, "%s/%s", dir, e->d_name);
            found = true;
        }
    }
    closedir(d);
    return found;
}

Test(units, every_shared_catalogue_against_xpath, .timeout = 60)
{
    char shared[1200];
    const char *root = getenv("CS_ROOT");
    snprintf(shared, sizeof shared, "%s/../shared/data", root ? root : ".");
    struct stat sb;
    if (stat(shared, &sb) != 0) {
        /* A skip, not a warning: Criterion exits 1 after any cr_log_warn. */
        cr_skip_test("%s is absent: the shared-data integration test is skipped", shared);
    }
    /* The shipped mappings where their ruleset is built in; for T9A before
     * the t9a ruleset exists, the same reading through generic (2D6 + Adv,
     * edition 2's range), so the catalogues are still read and counted. */
    cs_units_mapping asoiaf, t9a;
    cs_error err = {0};
    char path[1400];
    snprintf(path, sizeof path, "%s/experiments/mappings/asoiaf.ini", root ? root : ".");
    cr_assert_eq(cs_units_mapping_load(path, &asoiaf, &err), CS_OK, "%s", err.msg);
    cr_assert_eq(cs_units_mapping_bind(&asoiaf, &err), CS_OK, "%s", err.msg);
    snprintf(path, sizeof path, "%s/experiments/mappings/t9a-2nd.ini", root ? root : ".");
    cr_assert_eq(cs_units_mapping_load(path, &t9a, &err), CS_OK, "%s", err.msg);
    if (cs_units_mapping_bind(&t9a, &err) != CS_OK) {
        const char *p = th_units_write_tmp("[units]\nruleset = generic\n"
                                  "game_system_id = aa64-1e8e-66fc-9abf\ncost = pts\n"
                                  "speed = move\n[fixed]\ndice = 2d6\n"
                                  "[characteristic Adv]\nparam = move\nformat = inches\n");
        cr_assert_eq(cs_units_mapping_load(p, &t9a, &err), CS_OK, "%s", err.msg);
        cr_assert_eq(cs_units_mapping_bind(&t9a, &err), CS_OK, "%s", err.msg);
        unlink(p);
    }
    const struct {
        const char *dir, *key;
        cs_units_mapping *m;
        int xpath_units; /* units with one numeric value, by the XPath count above */
    } sets[] = {{"bsdata-asoiaf", "Speed", &asoiaf, 37}, {"bsdata-t9a-2nd", "Adv", &t9a, 141}};
    for (size_t s = 0; s < 2; s++) {
        char dir[1400], gst[1700];
        snprintf(dir, sizeof dir, "%s/%s", shared, sets[s].dir);
        cr_assert(game_system_of_dir(dir, gst, sizeof gst), "no .gst in %s", dir);
        static const char *const cat[] = {".cat", NULL};
        char(*files)[CS_UNITS_PATH];
        int n, rows = 0, xpath = 0;
        cr_assert_eq(cs_units_list_files(dir, cat, &files, &n, &err), CS_OK, "%s", err.msg);
        for (int i = 0; i < n; i++)
            check_catalogue(files[i], gst, sets[s].m, sets[s].key, &rows, &xpath);
        free(files);
        cr_expect_gt(n, 0);
        /* Every unit whose entry has one numeric speed value is a row. */
        cr_expect_eq(rows, xpath, "%s: %d rows, XPath finds %d", sets[s].dir, rows, xpath);
        cr_expect_eq(xpath, sets[s].xpath_units, "%s: XPath finds %d units", sets[s].dir, xpath);
    }
}

/* ---- entry links form a graph ------------------------------------------ */

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Writes `depth` + 1 shared groups named prefix0..prefixN, each linking the
 * next twice; the last one holds `last` (XML text). */
static void write_chain(FILE *f, const char *prefix, int depth, const char *last)
{
    for (int k = 0; k <= depth; k++) {
        fprintf(f, "    <selectionEntryGroup id=\"%s%d\" name=\"%s%d\" hidden=\"false\">\n", prefix,
                k, prefix, k);
        if (k < depth)
            fprintf(f,
                    "      <entryLinks>\n"
                    "        <entryLink id=\"%sa%d\" name=\"a\" targetId=\"%s%d\" "
                    "type=\"selectionEntryGroup\"/>\n"
                    "        <entryLink id=\"%sb%d\" name=\"b\" targetId=\"%s%d\" "
                    "type=\"selectionEntryGroup\"/>\n"
                    "      </entryLinks>\n",
                    prefix, k, prefix, k + 1, prefix, k, prefix, k + 1);
        else
            fputs(last, f);
        fputs("    </selectionEntryGroup>\n", f);
    }
}

/* Issue 15.6 / 18.2: links nesting 32 deep, each level linking the next
 * twice (2^32 paths), inside a unit and outside any unit, load in well
 * under a second: each shared entry is resolved once per unit. The points
 * still count every path, as a roster would (a model min 1 at 1 pt reached
 * by 2^32 links is 2^32 points), so the memo changes the cost, not the sum. */
Test(units, deep_repeated_entry_links_load_in_linear_time, .timeout = 30)
{
    char dir[] = "/tmp/chargesim-deep-XXXXXX", path[300];
    cr_assert_not_null(mkdtemp(dir));
    const int depth = 32;
    snprintf(path, sizeof path, "%s/deep.gst", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gameSystem id=\"gs-new\" name=\"Deep\" "
          "xmlns=\"http://www.battlescribe.net/schema/gameSystemSchema\"/>\n",
          f);
    fclose(f);
    snprintf(path, sizeof path, "%s/deep.cat", dir);
    f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          "<catalogue id=\"cat-deep\" name=\"Deep\" gameSystemId=\"gs-new\" "
          "xmlns=\"http://www.battlescribe.net/schema/catalogueSchema\">\n"
          "  <entryLinks>\n"
          "    <entryLink id=\"root-a\" name=\"r\" targetId=\"h0\" type=\"selectionEntryGroup\"/>\n"
          "  </entryLinks>\n"
          "  <selectionEntries>\n"
          "    <selectionEntry id=\"se-deep\" name=\"Deep Unit\" type=\"unit\">\n"
          "      <entryLinks>\n"
          "        <entryLink id=\"du-a\" name=\"a\" targetId=\"g0\" type=\"selectionEntryGroup\"/>\n"
          "      </entryLinks>\n"
          "    </selectionEntry>\n"
          "  </selectionEntries>\n"
          "  <sharedSelectionEntries>\n"
          "    <selectionEntry id=\"se-deep-model\" name=\"Deep Model\" type=\"model\">\n"
          "      <profiles><profile id=\"p-dm\" name=\"G\"><characteristics>\n"
          "        <characteristic name=\"Adv\">5&quot;</characteristic>\n"
          "      </characteristics></profile></profiles>\n"
          "      <costs><cost name=\"pts\" typeId=\"ct-pts\" value=\"1.0\"/></costs>\n"
          "    </selectionEntry>\n"
          "  </sharedSelectionEntries>\n"
          "  <sharedSelectionEntryGroups>\n",
          f);
    write_chain(f, "g", depth,
                "      <entryLinks>\n"
                "        <entryLink id=\"to-model\" name=\"m\" targetId=\"se-deep-model\" "
                "type=\"selectionEntry\"><constraints><constraint field=\"selections\" "
                "scope=\"parent\" value=\"1.0\" type=\"min\"/></constraints></entryLink>\n"
                "      </entryLinks>\n");
    write_chain(f, "h", depth,
                "      <selectionEntries>\n"
                "        <selectionEntry id=\"se-far\" name=\"Far Unit\" type=\"unit\">\n"
                "          <profiles><profile id=\"p-far\" name=\"G\"><characteristics>\n"
                "            <characteristic name=\"Adv\">6&quot;</characteristic>\n"
                "          </characteristics></profile></profiles>\n"
                "        </selectionEntry>\n"
                "      </selectionEntries>\n");
    fputs("  </sharedSelectionEntryGroups>\n</catalogue>\n", f);
    fclose(f);

    cs_units_mapping m;
    th_units_load_bound("mappings/new.ini", &m);
    cs_units u = {0};
    cs_error err = {0};
    double t0 = now_seconds();
    cs_status st = cs_units_read_bs(path, &m, &u, &err);
    double took = now_seconds() - t0;
    cr_expect_eq(st, CS_OK, "%s", err.msg);
    cr_expect_lt(took, th_time_limit(1.0), "32 levels of doubled links took %.3f s", took);
    /* Deep Unit, Far Unit, and Deep Model: a model defined at the top of
     * the file that no link inside a unit names is a unit of its own
     * (cs_units_read_bs). */
    cr_expect_eq(u.n, 3);
    const cs_unit *deep = th_units_find(&u, "Deep Unit");
    cr_expect_str_eq(th_units_value(deep, "move"), "5");
    cr_expect_eq(deep->points, ldexp(1.0, depth), "%.0f", deep->points);
    cr_expect_str_eq(th_units_value(th_units_find(&u, "Far Unit"), "move"), "6");
    cs_units_free(&u);

    /* A cycle is named, not followed for ever. */
    f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          "<catalogue id=\"cat-deep\" name=\"Deep\" gameSystemId=\"gs-new\">\n"
          "  <selectionEntries>\n"
          "    <selectionEntry id=\"se-loop\" name=\"Loop\" type=\"unit\"><entryLinks>\n"
          "      <entryLink id=\"l0\" name=\"a\" targetId=\"c0\" type=\"selectionEntryGroup\"/>\n"
          "    </entryLinks></selectionEntry>\n"
          "  </selectionEntries>\n"
          "  <sharedSelectionEntryGroups>\n"
          "    <selectionEntryGroup id=\"c0\" name=\"c0\"><entryLinks>\n"
          "      <entryLink id=\"l1\" name=\"b\" targetId=\"c1\" type=\"selectionEntryGroup\"/>\n"
          "    </entryLinks></selectionEntryGroup>\n"
          "    <selectionEntryGroup id=\"c1\" name=\"c1\"><entryLinks>\n"
          "      <entryLink id=\"l2\" name=\"c\" targetId=\"c0\" type=\"selectionEntryGroup\"/>\n"
          "    </entryLinks></selectionEntryGroup>\n"
          "  </sharedSelectionEntryGroups>\n</catalogue>\n",
          f);
    fclose(f);
    cs_units u2 = {0};
    cr_expect_eq(cs_units_read_bs(path, &m, &u2, &err), CS_EINPUT);
    cr_expect(strstr(err.msg, "deep.cat:") && strstr(err.msg, "entry links form a cycle"), "%s",
              err.msg);
    cs_units_free(&u2);

    unlink(path);
    snprintf(path, sizeof path, "%s/deep.gst", dir);
    unlink(path);
    cr_expect_eq(rmdir(dir), 0, "%s removed", dir);
}

