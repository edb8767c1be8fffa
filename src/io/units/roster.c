/* SPDX-License-Identifier: GPL-3.0-or-later */
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
 * local name, as for catalogues. This file opens the roster and walks its
 * forces and selections; src/io/units/roster_unit.c makes each unit's row. */
#include <errno.h>
#include <stdint.h>
#include <libxml/parser.h>
#include <libxml/xmlerror.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "chargesim/infile.h"
#include "chargesim/roster.h"
#include "chargesim/sha256.h"
#include "chargesim/unitsrc.h"

#include "roster_doc.h"
#include "units_doc.h"


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
static cs_status open_roster(const char *path, xmlDoc **doc, char sha[65], bool *no_ns,
                             cs_error *err)
{
    *no_ns = false;
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
    bool json = i < tn && text[i] == '{';
    if (json)
        st = cs_roster_json_doc((const char *)text, tn, path, doc, err);
    else
        st = parse_xml(text, tn, path, doc, err);
    free(text);
    if (st != CS_OK)
        return st;
    const xmlNode *root = xmlDocGetRootElement(*doc);
    /* New Recruit's JSON has no namespace to check: its tree is ours. */
    if (!json && root && (st = cs_units_xml_namespace(path, root, no_ns, err)) != CS_OK) {
        xmlFreeDoc(*doc);
        *doc = NULL;
    } else if (!cs_units_xml_is(root, "roster")) {
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
    /* The key at fault is the mapping (as in units_source.c). */
    cs_error_set(err, CS_EINPUT, "%s: no mapping for game system `%s` (id %s)%s%s; the "
                 "mappings cover: %s (write one under experiments/mappings, or pass "
                 "--mapping)", path, info->system, info->system_id,
                 rules ? " and ruleset " : "", rules ? rules : "",
                 covered[0] ? covered : "no game system");
    return cs_error_key(err, "mapping");
}

/* ---- the walk ---------------------------------------------------------------- */

static bool unit_selection(const xmlNode *n)
{
    return cs_roster_is_selection(n, "unit") || cs_roster_is_selection(n, "model");
}

/* The units among a selection's children (and deeper, outside units). */
static cs_status walk_selections(cs_roster_reader *r, const xmlNode *n, int depth)
{
    if (depth > CS_ROSTER_MAX_DEPTH)
        return cs_error_set(r->err, CS_EINPUT, "%s:%d: selections nested deeper than %d",
                            r->path, cs_units_xml_line(n), CS_ROSTER_MAX_DEPTH);
    cs_status st = CS_OK;
    CS_ROSTER_EACH_CHILD(n, "selections", "selection", s)
    {
        if (st != CS_OK)
            break;
        st = unit_selection(s) ? cs_roster_unit_read(r, s, depth) : walk_selections(r, s, depth + 1);
    }
    return st;
}

/* A force's selections, then the forces it holds (New Recruit's regiments). */
static cs_status walk_forces(cs_roster_reader *r, const xmlNode *n, int depth)
{
    if (depth > CS_ROSTER_MAX_DEPTH)
        return cs_error_set(r->err, CS_EINPUT, "%s:%d: forces nested deeper than %d", r->path,
                            cs_units_xml_line(n), CS_ROSTER_MAX_DEPTH);
    cs_status st = CS_OK;
    CS_ROSTER_EACH_CHILD(n, "forces", "force", f)
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

/* The first force's catalogue, by its id: beside the roster, or (shipped)
 * in the shipped data's folder. */
static cs_status find_catalogue(const cs_roster_reader *r, const xmlNode *n, char *out, size_t cap,
                                bool *found, int depth, bool shipped)
{
    cs_status st = CS_OK;
    CS_ROSTER_EACH_CHILD(n, "forces", "force", f)
    {
        char id[CS_UNITS_TEXT];
        if (*found || st != CS_OK || depth > CS_ROSTER_MAX_DEPTH)
            break;
        if (cs_units_xml_prop(f, "catalogueId", id, sizeof id))
            st = shipped ? cs_units_docs_find_shipped(r->data_dir, id, out, cap, found, r->err)
                         : cs_units_docs_find(r->path, id, out, cap, found, r->err);
        if (st == CS_OK && !*found)
            st = find_catalogue(r, f, out, cap, found, depth + 1, shipped);
    }
    return st;
}

/* The first force's catalogueId (depth first, as find_catalogue looks). */
static bool first_catalogue_id(const xmlNode *n, char *out, size_t cap, int depth)
{
    if (depth > CS_ROSTER_MAX_DEPTH)
        return false;
    CS_ROSTER_EACH_CHILD(n, "forces", "force", f)
    {
        if (cs_units_xml_prop(f, "catalogueId", out, cap) ||
            first_catalogue_id(f, out, cap, depth + 1))
            return true;
    }
    return false;
}

static cs_status open_catalogue(cs_roster_reader *r, const xmlNode *root, const char *catalogue,
                                cs_roster_info *info)
{
    char path[CS_UNITS_PATH];
    bool found = catalogue != NULL;
    cs_status st = CS_OK;
    if (catalogue)
        snprintf(path, sizeof path, "%s", catalogue);
    else
        st = find_catalogue(r, root, path, sizeof path, &found, 0, false);
    /* None beside it: the catalogue the repository ships (issue 50). */
    if (st == CS_OK && !found && r->data_dir)
        st = find_catalogue(r, root, path, sizeof path, &found, 0, true);
    /* None anywhere: the id is said, so that the page can fetch the
     * catalogue it ships under that id and read the roster again. */
    if (st == CS_OK && !found)
        first_catalogue_id(root, info->catalogue_wanted, sizeof info->catalogue_wanted, 0);
    if (st != CS_OK || !found)
        return st;
    st = cs_units_docs_open(path, &r->cat, r->err);
    for (int i = 0; st == CS_OK && i < r->cat.n; i++) {
        st = cs_units_add_input(r->out, r->cat.doc[i].path, r->cat.doc[i].sha256);
        if (r->cat.doc[i].no_namespace)
            cs_units_input_no_namespace(r->out, r->cat.doc[i].path);
    }
    if (st == CS_OK)
        snprintf(info->catalogue, sizeof info->catalogue, "%s", path);
    return st;
}

/* ---- the roster ------------------------------------------------------------- */

/* The heading's facts: name, game system and, once the mapping is known
 * (m), the roster's total of its cost. */
static void read_info(const xmlNode *root, const cs_units_mapping *m, cs_roster_info *info)
{
    cs_units_xml_prop(root, "name", info->name, sizeof info->name);
    cs_units_xml_prop(root, "gameSystemName", info->system, sizeof info->system);
    cs_units_xml_prop(root, "gameSystemId", info->system_id, sizeof info->system_id);
    cs_units_xml_prop(root, "generatedBy", info->generated_by, sizeof info->generated_by);
    info->has_points = m && cs_units_entry_cost(root, m->cost, &info->points);
    if (info->has_points)
        snprintf(info->cost, sizeof info->cost, "%s", m->cost);
}

cs_status cs_roster_read(const char *path, cs_units_mapping *maps, int n_maps, const char *rules,
                         const char *catalogue, const char *data_dir, cs_units *out,
                         cs_roster_info *info, cs_error *err)
{
    *info = (cs_roster_info){0};
    xmlDoc *doc = NULL;
    char sha[65];
    bool no_ns;
    cs_status st = open_roster(path, &doc, sha, &no_ns, err);
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
    cs_roster_reader r = {.path = path, .m = m, .out = out, .err = err, .mount_char = -1,
                          .data_dir = data_dir};
    if (st == CS_OK) {
        read_info(root, m, info);
        for (int c = m->n_chars - 1; c >= 0; c--)
            if (m->chars[c].mount)
                r.mount_char = c;
        st = cs_units_add_input(out, path, sha);
        if (no_ns)
            cs_units_input_no_namespace(out, path);
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
