/* Rosters, the list itself (roster.h: cs_roster_read): the roster's tree,
 * from any of its three forms, read into units for stage 3 of unitsrc.h.
 *
 * A roster is what a list tool computed: each selection carries the
 * profiles, rules and costs of what was chosen, the tool's modifiers
 * applied. So it is read as it stands, without its catalogue:
 *   - a unit is a selection of type unit or model that no such selection
 *     holds, found in forces at any depth (New Recruit's regiments are
 *     forces in forces) and in selections at any depth (its manifestations
 *     sit in upgrades); a unit-typed selection inside a unit is a unit of
 *     its own (a detachment), its models and upgrades are its parts;
 *   - its models: the numbers of its model-typed parts (the unit's own
 *     number when it has none); its points: the costs of the mapping's
 *     cost type over the unit and its parts, as the roster gives them;
 *   - its mount, for a mapping with a `mount = yes` characteristic: a part
 *     whose catalogue entry (when the catalogue is at hand) has the
 *     mapping's mount_type as subType or sits in its mount_group; else a
 *     part New Recruit says was chosen from the mount_group (its `group`
 *     attribute); else, without the catalogue, a part that gives that
 *     characteristic a number below a selection giving `-` (a rider on its
 *     horse: a roster marks no mounts). The row is then named `NAME (on MOUNT)`, its
 *     mount characteristics are the mount's (a chariot's steeds' when the
 *     chariot gives `-`), its type the mount's, its rules the whole unit's;
 *   - with the catalogue at hand, a profile of the roster whose mapped text
 *     differs from the catalogue's profile of the same id (a modifier the
 *     list tool applied: a magic item, an upgrade) keeps the roster's text,
 *     and the row's notes say what changed.
 * Names: a selection's customName, else its name. Elements are matched by
 * local name, as for catalogues. */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <libxml/parser.h>
#include <libxml/xmlerror.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "chargesim/grow.h"
#include "chargesim/infile.h"
#include "chargesim/roster.h"
#include "chargesim/sha256.h"
#include "chargesim/unitsrc.h"

#include "roster_doc.h"
#include "units_doc.h"

/* Selections nested deeper than this are refused (a guard for the stack). */
#define MAX_DEPTH 256

bool cs_roster_is(const char *path)
{
    static const char *const suffixes[] = {".ros", ".rosz", ".json"};
    size_t n = strlen(path);
    for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++) {
        size_t k = strlen(suffixes[i]);
        if (n > k && strcasecmp(path + n - k, suffixes[i]) == 0)
            return true;
    }
    return false;
}

/* ---- the document --------------------------------------------------------- */

/* The whole file, up to the bound (its digest is the table's provenance). */
static cs_status slurp(const char *path, unsigned char **out, size_t *n, char sha[65],
                       cs_error *err)
{
    FILE *f = cs_infile_open(path);
    if (!f)
        return cs_error_set(err, CS_EINPUT, "%s: cannot open: %s", path, strerror(errno));
    unsigned char *buf = NULL;
    size_t len = 0, cap = 0;
    cs_status st = CS_OK;
    for (;;) {
        if (len == cap) {
            size_t c = cap ? 2 * cap : 65536;
            unsigned char *q = len > CS_ROSTER_MAX_BYTES ? NULL : realloc(buf, c);
            if (!q) {
                st = len > CS_ROSTER_MAX_BYTES
                         ? cs_error_set(err, CS_ELIMIT, "%s: more than the %zu bytes a roster "
                                        "may have", path, CS_ROSTER_MAX_BYTES)
                         : cs_error_set(err, CS_ENOMEM, "%s: out of memory", path);
                break;
            }
            buf = q;
            cap = c;
        }
        size_t r = fread(buf + len, 1, cap - len, f);
        len += r;
        if (r == 0)
            break;
    }
    if (st == CS_OK && ferror(f))
        st = cs_error_set(err, CS_EINPUT, "%s: cannot read: %s", path,
                          strerror(errno ? errno : EIO));
    fclose(f);
    if (st != CS_OK) {
        free(buf);
        return st;
    }
    cs_sha256_hex(buf, len, sha);
    *out = buf;
    *n = len;
    return CS_OK;
}

/* libxml2 reports nothing of its own (one chargesim message per bad file):
 * the parser keeps its last error in the context. */
static void quiet_structured(void *ctx, xmlErrorPtr e)
{
    (void)ctx;
    (void)e;
}

static void quiet_generic(void *ctx, const char *fmt, ...)
{
    (void)ctx;
    (void)fmt;
}

static cs_status parse_xml(const unsigned char *text, size_t n, const char *path, xmlDoc **out,
                           cs_error *err)
{
    if (n > (size_t)INT32_MAX)
        return cs_error_set(err, CS_ELIMIT, "%s: too large", path);
    xmlParserCtxt *ctxt = xmlNewParserCtxt();
    if (!ctxt)
        return cs_error_set(err, CS_ENOMEM, "%s: out of memory", path);
    xmlStructuredErrorFunc s = xmlStructuredError;
    void *sc = xmlStructuredErrorContext;
    xmlGenericErrorFunc g = xmlGenericError;
    void *gc = xmlGenericErrorContext;
    xmlSetStructuredErrorFunc(NULL, quiet_structured);
    xmlSetGenericErrorFunc(NULL, quiet_generic);
    *out = xmlCtxtReadMemory(ctxt, (const char *)text, (int)n, path, NULL,
                             XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING |
                                 XML_PARSE_BIG_LINES);
    xmlSetStructuredErrorFunc(sc, s);
    xmlSetGenericErrorFunc(gc, g);
    cs_status st = CS_OK;
    if (!*out || !ctxt->wellFormed) {
        const xmlError *e = xmlCtxtGetLastError(ctxt);
        char msg[CS_UNITS_NOTE] = "unreadable";
        if (e && e->message)
            snprintf(msg, sizeof msg, "%s", e->message);
        for (char *c = msg; *c; c++)
            if (*c == '\n' || *c == '\r')
                *c = ' ';
        size_t k = strlen(msg);
        while (k > 0 && msg[k - 1] == ' ')
            msg[--k] = '\0';
        st = cs_error_set(err, CS_EINPUT, "%s:%d: malformed XML: %s", path,
                          e ? e->line : 0, msg);
        if (*out)
            xmlFreeDoc(*out);
        *out = NULL;
    }
    xmlFreeParserCtxt(ctxt);
    return st;
}

/* The roster's tree from the file's bytes: a zip's entry or the bytes
 * themselves, JSON when its first character is `{`, else XML. */
static cs_status open_roster(const char *path, xmlDoc **doc, char sha[65], cs_error *err)
{
    unsigned char *raw = NULL, *text = NULL;
    size_t n = 0, tn = 0;
    cs_status st = slurp(path, &raw, &n, sha, err);
    if (st == CS_OK)
        st = cs_roster_unpack(raw, n, path, &text, &tn, err);
    free(raw);
    if (st != CS_OK)
        return st;
    size_t i = 0;
    if (tn >= 3 && text[0] == 0xef && text[1] == 0xbb && text[2] == 0xbf)
        i = 3; /* a UTF-8 byte order mark */
    while (i < tn && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n'))
        i++;
    if (i < tn && text[i] == '{')
        st = cs_roster_json_doc((const char *)text, tn, path, doc, err);
    else
        st = parse_xml(text, tn, path, doc, err);
    free(text);
    if (st != CS_OK)
        return st;
    const xmlNode *root = xmlDocGetRootElement(*doc);
    if (!cs_units_xml_is(root, "roster")) {
        st = cs_error_set(err, CS_EINPUT, "%s:%d: root element <%s> is not a roster's <roster> "
                          "(a catalogue is read as .cat)", path,
                          root ? cs_units_xml_line(root) : 1,
                          root ? (const char *)root->name : "none");
        xmlFreeDoc(*doc);
        *doc = NULL;
    }
    return st;
}

/* ---- the mapping ------------------------------------------------------------ */

/* The mapping whose game system is the roster's (and ruleset `rules`). */
static cs_status pick(const char *path, const cs_roster_info *info, cs_units_mapping *maps,
                      int n, const char *rules, cs_units_mapping **out, cs_error *err)
{
    *out = NULL;
    for (int i = 0; i < n; i++) {
        if (strcmp(maps[i].game_system_id, info->system_id) != 0 ||
            (rules && strcmp(maps[i].ruleset, rules) != 0))
            continue;
        if (*out)
            return cs_error_set(err, CS_EINPUT, "%s: mappings %s and %s both fit game system "
                                "%s; choose with --rules or --mapping", path, (*out)->path,
                                maps[i].path, info->system_id);
        *out = &maps[i];
    }
    if (*out)
        return (*out)->rs ? CS_OK : cs_units_mapping_bind(*out, err);
    char covered[1024] = "";
    for (int i = 0; i < n; i++) {
        if (!maps[i].game_system_id[0])
            continue;
        const char *file = strrchr(maps[i].path, '/');
        size_t k = strlen(covered);
        snprintf(covered + k, sizeof covered - k, "%s%s%s(%s, %s)", k ? "; " : "",
                 maps[i].game_system, maps[i].game_system[0] ? " " : "",
                 maps[i].game_system_id, file ? file + 1 : maps[i].path);
    }
    return cs_error_set(err, CS_EINPUT, "%s: no mapping for game system `%s` (id %s)%s%s; the "
                        "mappings cover: %s (write one under experiments/mappings, or pass "
                        "--mapping)", path, info->system, info->system_id,
                        rules ? " and ruleset " : "", rules ? rules : "",
                        covered[0] ? covered : "no game system");
}

/* ---- the walk ---------------------------------------------------------------- */

typedef struct nodes {
    const xmlNode **v;
    int n, cap;
} nodes;

static bool push(nodes *l, const xmlNode *x)
{
    const xmlNode **q = cs_grow(l->v, l->n, &l->cap, sizeof *q, 32);
    if (!q)
        return false;
    l->v = q;
    l->v[l->n++] = x;
    return true;
}

/* The roster reader's state. */
typedef struct reader {
    const char *path;
    const cs_units_mapping *m;
    cs_units *out;
    cs_error *err;
    cs_units_docs cat; /* the catalogue at hand (cat.n == 0: none) */
    int mount_char;    /* the first `mount = yes` characteristic, -1: none */
    char force_cat[CS_UNITS_NAME]; /* the catalogue name of the force being read */
} reader;

static bool is_selection(const xmlNode *n, const char *type)
{
    return cs_units_xml_is(n, "selection") && cs_units_xml_prop_is(n, "type", type);
}

static bool unit_selection(const xmlNode *n)
{
    return is_selection(n, "unit") || is_selection(n, "model");
}

/* The children of n's wrapper element `wrap` named `name`, in order. */
#define EACH_CHILD(n, wrap, name, var)                                                        \
    for (const xmlNode *w_ = (n)->children; w_; w_ = w_->next)                               \
        if (cs_units_xml_is(w_, wrap))                                                        \
            for (const xmlNode *var = w_->children; var; var = var->next)                    \
                if (cs_units_xml_is(var, name))

/* ---- one unit ---------------------------------------------------------------- */

/* Is `name` the mapping's cost type (trimmed, case aside: ASOIAF writes
 * " Points")? */
static bool cost_is(const cs_units_mapping *m, const char *name)
{
    while (*name == ' ')
        name++;
    size_t n = strlen(name);
    while (n > 0 && name[n - 1] == ' ')
        n--;
    return m->cost[0] && n == strlen(m->cost) && strncasecmp(name, m->cost, n) == 0;
}

/* Is x within the selection top (top itself included)? */
static bool within(const xmlNode *x, const xmlNode *top)
{
    for (; x; x = x->parent)
        if (x == top)
            return true;
    return false;
}

/* One unit's selections: the unit and its parts, in document order. */
typedef struct unit_tree {
    const xmlNode *sel;
    nodes parts;          /* sel first, then its parts; nested units aside */
    nodes nested;         /* unit-typed selections inside it: units of their own */
    const xmlNode *mount; /* the mount's selection, NULL: none */
} unit_tree;

static cs_status gather(reader *r, unit_tree *t, const xmlNode *s, int depth)
{
    if (depth > MAX_DEPTH)
        return cs_error_set(r->err, CS_EINPUT, "%s:%d: selections nested deeper than %d",
                            r->path, cs_units_xml_line(s), MAX_DEPTH);
    if (!push(&t->parts, s))
        return CS_ENOMEM;
    cs_status st = CS_OK;
    EACH_CHILD(s, "selections", "selection", c)
    {
        if (st != CS_OK)
            break;
        if (is_selection(c, "unit"))
            st = push(&t->nested, c) ? CS_OK : CS_ENOMEM;
        else
            st = gather(r, t, c, depth + 1);
    }
    return st;
}

/* The mapped characteristic c's texts in one selection's own profiles. */
static void sel_texts(const reader *r, const xmlNode *sel, int c, cs_units_found *f)
{
    const cs_units_char *ch = &r->m->chars[c];
    EACH_CHILD(sel, "profiles", "profile", p)
    {
        const xmlNode *k = cs_units_xml_find_char(p, ch->name);
        if (!k || !cs_units_xml_profile_matches(p, ch))
            continue;
        char v[CS_UNITS_TEXT];
        cs_units_xml_char_value(k, v, sizeof v);
        cs_units_found_add(f, v, r->path, cs_units_xml_line(k));
    }
}

static bool has_digit(const cs_units_found *f)
{
    for (int i = 0; i < f->n && i < CS_UNITS_FOUND; i++)
        if (strpbrk(f->text[i], "0123456789"))
            return true;
    return false;
}

/* The last segment of a roster's entryId (`link::target`: the entry). */
static const xmlNode *cat_entry(const reader *r, const xmlNode *sel, const char *attr)
{
    char id[4 * CS_UNITS_TEXT];
    if (r->cat.n == 0 || !cs_units_xml_prop(sel, attr, id, sizeof id))
        return NULL;
    const char *last = id;
    for (const char *p = strstr(id, "::"); p; p = strstr(p + 2, "::"))
        last = p + 2;
    return cs_units_docs_lookup(&r->cat, last);
}

/* Is part x marked a mount: by its catalogue entry, or by New Recruit's
 * `group` attribute? */
static bool marked_mount(const reader *r, const xmlNode *x)
{
    const cs_units_mapping *m = r->m;
    char group[CS_UNITS_NAME];
    const xmlNode *e = cat_entry(r, x, "entryId"), *g = cat_entry(r, x, "entryGroupId");
    if (e && m->mount_type[0] && cs_units_xml_prop_is(e, "subType", m->mount_type))
        return true;
    if (g && m->mount_group[0] && cs_units_xml_prop(g, "name", group, sizeof group) &&
        strcasecmp(group, m->mount_group) == 0)
        return true;
    return m->mount_group[0] && cs_units_xml_prop(x, "group", group, sizeof group) &&
           strcasecmp(group, m->mount_group) == 0;
}

/* What selection x's own profiles give the mount characteristic: 0
 * nothing, 1 only words (`-`: a rider), 2 a number. */
static int mount_text(const reader *r, const xmlNode *x)
{
    cs_units_found f = {0};
    sel_texts(r, x, r->mount_char, &f);
    return f.n == 0 ? 0 : has_digit(&f) ? 2 : 1;
}

/* Is part x, giving a number, the child of a rider: the nearest selection
 * above it (up to the unit) that gives the characteristic gives `-`? */
static bool rides_below_dash(const reader *r, const unit_tree *t, const xmlNode *x)
{
    for (const xmlNode *a = x->parent; a; a = a->parent) {
        int k = cs_units_xml_is(a, "selection") ? mount_text(r, a) : 0;
        if (k > 0)
            return k == 1;
        if (a == t->sel)
            break;
    }
    return false;
}

/* The unit's mount, if any (see the banner): a part marked so by the
 * catalogue or New Recruit; without the catalogue, else the first part
 * giving the mount characteristic a number below a rider giving `-` (the
 * catalogue at hand says what is a mount: a war machine's crew is not). */
static void one_text(const reader *r, const unit_tree *t, const xmlNode *top, const char *name,
                     char *buf, size_t cap);

/* Does the mapping name the unit's own type in a [type NAME] section? */
static bool typed(const reader *r, const unit_tree *t)
{
    char type[CS_UNITS_TEXT];
    one_text(r, t, NULL, r->m->type, type, sizeof type);
    for (int i = 0; type[0] && i < r->m->n_types; i++)
        if (strcmp(type, r->m->type_name[i]) == 0)
            return true;
    return false;
}

static void find_mount(const reader *r, unit_tree *t)
{
    t->mount = NULL;
    if (r->mount_char < 0)
        return;
    for (int i = 1; i < t->parts.n && !t->mount; i++)
        if (marked_mount(r, t->parts.v[i]))
            t->mount = t->parts.v[i];
    /* A type the mapping names is tabled as its note says (a war machine
     * at its crew's M, the crew under the machine of M `-`): no rider. */
    bool riders = r->cat.n == 0 && !typed(r, t);
    for (int i = 1; !t->mount && riders && i < t->parts.n; i++)
        if (mount_text(r, t->parts.v[i]) == 2 && rides_below_dash(r, t, t->parts.v[i]))
            t->mount = t->parts.v[i];
}

/* For a characteristic read from the mount (mount = yes), a `-` beside a
 * number is a model that moves with the others (a war machine beside its
 * crew), no value of its own: only the texts with a digit stay. */
static void drop_words(cs_units_found *f)
{
    if (!has_digit(f) || f->n > CS_UNITS_FOUND)
        return;
    int k = 0;
    for (int i = 0; i < f->n; i++)
        if (strpbrk(f->text[i], "0123456789")) {
            memmove(f->text[k], f->text[i], sizeof f->text[k]);
            f->file[k] = f->file[i];
            f->line[k++] = f->line[i];
        }
    f->n = k;
}

/* The texts of characteristic c for the row: a mount characteristic from
 * the mount (its own profiles, else the first of its parts that gives a
 * number: a chariot's steeds), else from the unit's parts outside it. */
static void row_texts(const reader *r, const unit_tree *t, int c, cs_units_found *f)
{
    *f = (cs_units_found){0};
    if (t->mount && r->m->chars[c].mount) {
        for (int i = 0; i < t->parts.n && !has_digit(f); i++)
            if (within(t->parts.v[i], t->mount)) {
                *f = (cs_units_found){0};
                sel_texts(r, t->parts.v[i], c, f);
            }
        if (has_digit(f))
            return;
        *f = (cs_units_found){0};
    }
    for (int i = 0; i < t->parts.n; i++)
        if (!t->mount || !within(t->parts.v[i], t->mount))
            sel_texts(r, t->parts.v[i], c, f);
    if (r->m->chars[c].mount)
        drop_words(f);
}

/* The text of characteristic `name` over the parts within `top` (NULL:
 * those outside the mount): "" when none gives it or two differ. */
static void one_text(const reader *r, const unit_tree *t, const xmlNode *top, const char *name,
                     char *buf, size_t cap)
{
    buf[0] = '\0';
    bool conflict = false;
    for (int i = 0; name[0] && i < t->parts.n; i++) {
        const xmlNode *x = t->parts.v[i];
        if (top ? !within(x, top) : (t->mount && within(x, t->mount)))
            continue;
        EACH_CHILD(x, "profiles", "profile", p)
        {
            const xmlNode *k = cs_units_xml_find_char(p, name);
            char v[CS_UNITS_TEXT];
            if (!k)
                continue;
            cs_units_xml_char_value(k, v, sizeof v);
            conflict = conflict || (buf[0] && strcmp(buf, v) != 0);
            snprintf(buf, cap, "%s", v);
        }
    }
    if (conflict)
        buf[0] = '\0';
    (void)r;
}

/* Does a profile or rule named `name` (or `name (...)`: Fly (10)) carry
 * rule `rule`? */
static bool names_rule(const char *name, const char *rule)
{
    size_t n = strlen(rule);
    while (*name == ' ')
        name++;
    return strncasecmp(name, rule, n) == 0 &&
           (name[n] == '\0' || name[n] == ' ' || name[n] == '(');
}

/* The mapping's rules that selection x's profiles and rules name, as bits. */
static unsigned sel_rules(const reader *r, const xmlNode *x)
{
    unsigned bits = 0;
    static const char *const kinds[][2] = {{"profiles", "profile"}, {"rules", "rule"}};
    for (int kind = 0; kind < 2; kind++)
        EACH_CHILD(x, kinds[kind][0], kinds[kind][1], p)
        {
            char name[CS_UNITS_NAME];
            if (!cs_units_xml_prop(p, "name", name, sizeof name))
                continue;
            for (int k = 0; k < r->m->n_rules; k++)
                if (names_rule(name, r->m->rules[k].name))
                    bits |= 1u << k;
        }
    return bits;
}

/* A note about row u (kept, note). */
static cs_status note(reader *r, const cs_unit *u, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static cs_status note(reader *r, const cs_unit *u, int line, const char *fmt, ...)
{
    cs_units *out = r->out;
    cs_unit_note *q = cs_grow(out->note, out->n_notes, &out->cap_notes, sizeof *q, 64);
    if (!q)
        return CS_ENOMEM;
    out->note = q;
    cs_unit_note *n = &out->note[out->n_notes++];
    *n = (cs_unit_note){.kind = CS_UNIT_NOTED, .problem = CS_UNIT_TYPED, .line = line};
    snprintf(n->name, sizeof n->name, "%s", u->name);
    snprintf(n->id, sizeof n->id, "%s", u->id);
    snprintf(n->file, sizeof n->file, "%s", r->path);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(n->what, sizeof n->what, fmt, ap);
    va_end(ap);
    return CS_OK;
}

/* With the catalogue at hand: a mapped text of the unit's profiles that
 * differs from the catalogue's profile of the same id is the list tool's
 * doing (a modifier): the roster's text stands, and a note says so. */
static cs_status compare_catalogue(reader *r, const unit_tree *t, const cs_unit *u)
{
    cs_status st = CS_OK;
    for (int i = 0; r->cat.n > 0 && st == CS_OK && i < t->parts.n; i++)
        EACH_CHILD(t->parts.v[i], "profiles", "profile", p)
        {
            char id[CS_UNITS_TEXT], pname[CS_UNITS_NAME] = "";
            if (st != CS_OK || !cs_units_xml_prop(p, "id", id, sizeof id))
                continue;
            const xmlNode *cp = cs_units_docs_lookup(&r->cat, id);
            if (!cs_units_xml_is(cp, "profile"))
                continue;
            cs_units_xml_prop(p, "name", pname, sizeof pname);
            for (int c = 0; st == CS_OK && c < r->m->n_chars; c++) {
                const char *cname = r->m->chars[c].name;
                const xmlNode *a = cs_units_xml_find_char(p, cname);
                const xmlNode *b = cs_units_xml_find_char(cp, cname);
                char va[CS_UNITS_TEXT], vb[CS_UNITS_TEXT];
                if (!a || !b)
                    continue;
                cs_units_xml_char_value(a, va, sizeof va);
                cs_units_xml_char_value(b, vb, sizeof vb);
                if (!cs_units_same_value(va, vb))
                    st = note(r, u, cs_units_xml_line(a),
                              "%s of `%s` is `%s` in the roster, `%s` in the catalogue (%s:%d): "
                              "the roster's is taken (a modifier the list tool applied)",
                              cname, pname, va, vb, cs_units_docs_path(&r->cat, cp),
                              cs_units_xml_line(cp));
            }
        }
    return st;
}

/* A mapping rule that only an upgrade chosen for the unit names (a magic
 * item, a virtue) changes the row: a note names the option. */
static cs_status option_rules(reader *r, const unit_tree *t, const cs_unit *u)
{
    unsigned base = 0;
    for (int i = 0; i < t->parts.n; i++)
        if (!is_selection(t->parts.v[i], "upgrade") || within(t->parts.v[i], t->mount))
            base |= sel_rules(r, t->parts.v[i]);
    cs_status st = CS_OK;
    for (int i = 0; st == CS_OK && i < t->parts.n; i++) {
        const xmlNode *x = t->parts.v[i];
        if (!is_selection(x, "upgrade") || within(x, t->mount))
            continue;
        unsigned extra = sel_rules(r, x) & ~base;
        char opt[CS_UNITS_NAME] = "";
        cs_units_xml_prop(x, "name", opt, sizeof opt);
        for (int k = 0; st == CS_OK && k < r->m->n_rules; k++)
            if (extra & (1u << k))
                st = note(r, u, cs_units_xml_line(x), "has %s from the option `%s` chosen",
                          r->m->rules[k].name, opt);
        base |= extra;
    }
    return st;
}

static double number_of(const xmlNode *x)
{
    char v[CS_UNITS_TEXT];
    return cs_units_xml_prop(x, "number", v, sizeof v) ? strtod(v, NULL) : 1.0;
}

/* The row's name, mount, models, points, base, type and rules. */
static void fill_unit(const reader *r, const unit_tree *t, cs_unit *u)
{
    const xmlNode *s = t->sel;
    char name[CS_UNITS_NAME] = "", mount[CS_UNITS_NAME] = "", id[4 * CS_UNITS_TEXT] = "";
    if (!cs_units_xml_prop(s, "customName", name, sizeof name) || !name[0])
        cs_units_xml_prop(s, "name", name, sizeof name);
    if (t->mount && (!cs_units_xml_prop(t->mount, "customName", mount, sizeof mount) || !mount[0]))
        cs_units_xml_prop(t->mount, "name", mount, sizeof mount);
    if (t->mount) {
        char full[2 * CS_UNITS_NAME + 8];
        snprintf(full, sizeof full, "%s (on %s)", name, mount);
        snprintf(u->name, sizeof u->name, "%.*s", (int)sizeof u->name - 1, full);
        snprintf(u->mount, sizeof u->mount, "%s", mount);
    } else {
        snprintf(u->name, sizeof u->name, "%s", name);
    }
    cs_units_xml_prop(s, "entryId", id, sizeof id);
    const char *last = id;
    for (const char *p = strstr(id, "::"); p; p = strstr(p + 2, "::"))
        last = p + 2;
    snprintf(u->id, sizeof u->id, "%.*s", (int)sizeof u->id - 1, last);
    snprintf(u->catalogue, sizeof u->catalogue, "%s", r->force_cat);
    snprintf(u->file, sizeof u->file, "%s", r->path);
    u->line = cs_units_xml_line(s);
    u->map = r->m;
    double models = 0.0;
    for (int i = 0; i < t->parts.n; i++) {
        const xmlNode *x = t->parts.v[i];
        if (i > 0 && is_selection(x, "model") && !within(x, t->mount))
            models += number_of(x);
        u->rules |= sel_rules(r, x);
        EACH_CHILD(x, "costs", "cost", k)
        {
            char cname[CS_UNITS_TEXT] = "", val[CS_UNITS_TEXT];
            char *end;
            cs_units_xml_prop(k, "name", cname, sizeof cname);
            if (!cost_is(r->m, cname) || !cs_units_xml_prop(k, "value", val, sizeof val))
                continue;
            double v = strtod(val, &end);
            if (end != val) {
                u->points += v;
                u->has_points = true;
            }
        }
    }
    double own = number_of(s);
    u->models = (int)(models > 0.0 ? models : own > 0.0 ? own : 1.0);
    one_text(r, t, NULL, r->m->base, u->base, sizeof u->base);
    one_text(r, t, t->mount, r->m->type, u->type, sizeof u->type);
}

static cs_status read_unit(reader *r, const xmlNode *s, int depth)
{
    unit_tree t = {.sel = s};
    cs_unit *u = calloc(1, sizeof *u);
    cs_units_found *found = calloc(CS_UNITS_MAX_CHARS, sizeof *found);
    cs_status st = u && found ? gather(r, &t, s, depth) : CS_ENOMEM;
    if (st == CS_OK) {
        find_mount(r, &t);
        fill_unit(r, &t, u);
        for (int c = 0; c < r->m->n_chars; c++)
            row_texts(r, &t, c, &found[c]);
        bool kept;
        st = cs_units_settle(r->out, u, found, false, &kept, r->err);
    }
    if (st == CS_OK)
        st = compare_catalogue(r, &t, u);
    if (st == CS_OK)
        st = option_rules(r, &t, u);
    for (int i = 0; st == CS_OK && i < t.nested.n; i++)
        st = read_unit(r, t.nested.v[i], depth + 1);
    free(t.parts.v);
    free(t.nested.v);
    free(found);
    free(u);
    return st;
}

/* The units among a selection's children (and deeper, outside units). */
static cs_status walk_selections(reader *r, const xmlNode *n, int depth)
{
    if (depth > MAX_DEPTH)
        return cs_error_set(r->err, CS_EINPUT, "%s:%d: selections nested deeper than %d",
                            r->path, cs_units_xml_line(n), MAX_DEPTH);
    cs_status st = CS_OK;
    EACH_CHILD(n, "selections", "selection", s)
    {
        if (st != CS_OK)
            break;
        st = unit_selection(s) ? read_unit(r, s, depth) : walk_selections(r, s, depth + 1);
    }
    return st;
}

/* A force's selections, then the forces it holds (New Recruit's regiments). */
static cs_status walk_forces(reader *r, const xmlNode *n, int depth)
{
    if (depth > MAX_DEPTH)
        return cs_error_set(r->err, CS_EINPUT, "%s:%d: forces nested deeper than %d", r->path,
                            cs_units_xml_line(n), MAX_DEPTH);
    cs_status st = CS_OK;
    EACH_CHILD(n, "forces", "force", f)
    {
        if (st != CS_OK)
            break;
        char saved[CS_UNITS_NAME];
        memcpy(saved, r->force_cat, sizeof saved);
        if (!cs_units_xml_prop(f, "catalogueName", r->force_cat, sizeof r->force_cat))
            cs_units_xml_prop(f, "name", r->force_cat, sizeof r->force_cat);
        st = walk_selections(r, f, 0);
        if (st == CS_OK)
            st = walk_forces(r, f, depth + 1);
        memcpy(r->force_cat, saved, sizeof saved);
    }
    return st;
}

/* ---- the catalogue at hand ------------------------------------------------- */

/* The first force's catalogue found beside the roster, by its id. */
static cs_status find_catalogue(const reader *r, const xmlNode *n, char *out, size_t cap,
                                bool *found, int depth)
{
    cs_status st = CS_OK;
    EACH_CHILD(n, "forces", "force", f)
    {
        char id[CS_UNITS_TEXT];
        if (*found || st != CS_OK || depth > MAX_DEPTH)
            break;
        if (cs_units_xml_prop(f, "catalogueId", id, sizeof id))
            st = cs_units_docs_find(r->path, id, out, cap, found, r->err);
        if (st == CS_OK && !*found)
            st = find_catalogue(r, f, out, cap, found, depth + 1);
    }
    return st;
}

static cs_status open_catalogue(reader *r, const xmlNode *root, const char *catalogue,
                                cs_roster_info *info)
{
    char path[CS_UNITS_PATH];
    bool found = catalogue != NULL;
    cs_status st = CS_OK;
    if (catalogue)
        snprintf(path, sizeof path, "%s", catalogue);
    else
        st = find_catalogue(r, root, path, sizeof path, &found, 0);
    if (st != CS_OK || !found)
        return st;
    st = cs_units_docs_open(path, &r->cat, r->err);
    for (int i = 0; st == CS_OK && i < r->cat.n; i++)
        st = cs_units_add_input(r->out, r->cat.doc[i].path, r->cat.doc[i].sha256);
    if (st == CS_OK)
        snprintf(info->catalogue, sizeof info->catalogue, "%s", path);
    return st;
}

/* ---- the roster ------------------------------------------------------------- */

/* The heading's facts: name, game system, the total of the mapping's cost
 * (or, before a mapping is known, of the first cost). */
static void read_info(const xmlNode *root, const cs_units_mapping *m, cs_roster_info *info)
{
    cs_units_xml_prop(root, "name", info->name, sizeof info->name);
    cs_units_xml_prop(root, "gameSystemName", info->system, sizeof info->system);
    cs_units_xml_prop(root, "gameSystemId", info->system_id, sizeof info->system_id);
    cs_units_xml_prop(root, "generatedBy", info->generated_by, sizeof info->generated_by);
    info->has_points = false;
    EACH_CHILD(root, "costs", "cost", c)
    {
        char name[CS_UNITS_TEXT] = "", val[CS_UNITS_TEXT];
        cs_units_xml_prop(c, "name", name, sizeof name);
        if (info->has_points || !cs_units_xml_prop(c, "value", val, sizeof val) ||
            (m && !cost_is(m, name)))
            continue;
        char *end;
        double v = strtod(val, &end);
        if (end != val) {
            info->points = v;
            info->has_points = true;
            snprintf(info->cost, sizeof info->cost, "%s", name);
        }
    }
}

cs_status cs_roster_read(const char *path, cs_units_mapping *maps, int n_maps, const char *rules,
                         const char *catalogue, cs_units *out, cs_roster_info *info,
                         cs_error *err)
{
    *info = (cs_roster_info){0};
    xmlDoc *doc = NULL;
    char sha[65];
    cs_status st = open_roster(path, &doc, sha, err);
    if (st != CS_OK)
        return st;
    const xmlNode *root = xmlDocGetRootElement(doc);
    read_info(root, NULL, info);
    cs_units_mapping *m = NULL;
    if (!info->system_id[0])
        st = cs_error_set(err, CS_EINPUT, "%s:%d: <roster> has no gameSystemId", path,
                          cs_units_xml_line(root));
    if (st == CS_OK)
        st = pick(path, info, maps, n_maps, rules, &m, err);
    reader r = {.path = path, .m = m, .out = out, .err = err, .mount_char = -1};
    if (st == CS_OK) {
        read_info(root, m, info);
        for (int c = m->n_chars - 1; c >= 0; c--)
            if (m->chars[c].mount)
                r.mount_char = c;
        st = cs_units_add_input(out, path, sha);
    }
    if (st == CS_OK)
        st = open_catalogue(&r, root, catalogue, info);
    if (st == CS_OK)
        st = walk_forces(&r, root, 0);
    if (st == CS_ENOMEM)
        cs_error_set(err, CS_ENOMEM, "%s: out of memory", path);
    cs_units_docs_close(&r.cat);
    xmlFreeDoc(doc);
    return st;
}
