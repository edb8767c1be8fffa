/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The BattleScribe document library of the unit stages (units_doc.h):
 * a document opened through infile.h (under MPI, rank 0's bytes), parsed
 * by libxml2 with an index of its ids; a catalogue with its game system
 * and the catalogues it links; the sets of elements the walk of stage 2
 * keeps; and the files of a folder with given suffixes (cs_units_list_files,
 * which the mapping files share). Stage 1 (units_source.c) opens the
 * documents, stage 2 (units_resolve.c) walks them. Both schema generations
 * are one namespace here: elements are matched by local name. */
#include <errno.h>
#include <libxml/parser.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlreader.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/infile.h"
#include "chargesim/sha256.h"
#include "chargesim/unitsrc.h"
#include "units_doc.h"

/* ---- one document and its id index --------------------------------------- */

/* FNV-1a, enough to spread BattleScribe's hex ids. */
static size_t hash(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return (size_t)h;
}

static size_t count_ids(const xmlNode *n)
{
    size_t c = 0;
    for (; n; n = n->next)
        if (n->type == XML_ELEMENT_NODE)
            c += (xmlHasProp(n, (const xmlChar *)"id") != NULL) + count_ids(n->children);
    return c;
}

static bool index_ids(cs_units_doc *d, const xmlNode *n)
{
    for (; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        char id[CS_UNITS_TEXT];
        if (cs_units_xml_prop(n, "id", id, sizeof id)) {
            size_t i = hash(id) & (d->cap - 1);
            while (d->ids[i].id && strcmp(d->ids[i].id, id) != 0)
                i = (i + 1) & (d->cap - 1);
            /* A repeated id keeps its first element, as a lookup in
             * document order would. */
            if (!d->ids[i].id) {
                d->ids[i].id = strdup(id);
                if (!d->ids[i].id)
                    return false;
                d->ids[i].node = n;
            }
        }
        if (!index_ids(d, n->children))
            return false;
    }
    return true;
}

static const xmlNode *lookup(const cs_units_doc *d, const char *id)
{
    if (!d->doc)
        return NULL;
    size_t i = hash(id) & (d->cap - 1);
    for (; d->ids[i].id; i = (i + 1) & (d->cap - 1))
        if (strcmp(d->ids[i].id, id) == 0)
            return d->ids[i].node;
    return NULL;
}

static void close_doc(cs_units_doc *d)
{
    for (size_t i = 0; d->ids && i < d->cap; i++)
        free(d->ids[i].id);
    free(d->ids);
    if (d->doc)
        xmlFreeDoc(d->doc);
    *d = (cs_units_doc){0};
}

/* The stream infile.h opened, as libxml2 reads it; err keeps why a read
 * failed (libxml2 would only say the document ended early). */
typedef struct xml_in {
    FILE *f;
    int err;
    size_t seen;        /* bytes read so far */
    const char *packed; /* the first were a compressed file's (infile.h) */
    cs_sha256 sha;      /* of the bytes handed to libxml2: the table's provenance */
} xml_in;

static int read_stream(void *ctx, char *buf, int len)
{
    xml_in *in = ctx;
    size_t n = fread(buf, 1, (size_t)len, in->f);
    if (in->seen == 0 && (in->packed = cs_infile_packed((const unsigned char *)buf, n)))
        return -1;
    in->seen += n;
    cs_sha256_update(&in->sha, buf, n);
    if (n == 0 && ferror(in->f)) {
        in->err = errno ? errno : EIO;
        return -1;
    }
    return (int)n;
}

/* What libxml2 reports while one document is parsed. Its own channels
 * print nothing (issue 28: one chargesim message per bad file): the
 * parser's errors stay in the context, and the first encoding or I/O error
 * is kept here, as it is the cause of the parse errors after it (a file
 * not in its declared encoding gives "input conversion failed", then a
 * tag "not found" where the conversion stopped). */
typedef struct xml_errors {
    bool seen;
    char msg[CS_UNITS_NOTE];
    int line;
} xml_errors;

/* A message on one line: libxml2 puts a second one under some
 * ("...indicate encoding !\nBytes: 0xFF ..."). */
static void one_line(char *msg, size_t cap, const char *text)
{
    snprintf(msg, cap, "%s", text);
    for (char *c = msg; *c; c++)
        if (*c == '\n' || *c == '\r')
            *c = ' ';
    size_t n = strlen(msg);
    while (n > 0 && msg[n - 1] == ' ')
        msg[--n] = '\0';
}

static void on_structured(void *ctx, xmlErrorPtr e)
{
    xml_errors *x = ctx;
    if (x->seen || !e || !e->message || (e->domain != XML_FROM_I18N && e->domain != XML_FROM_IO))
        return;
    one_line(x->msg, sizeof x->msg, e->message);
    x->line = e->line;
    x->seen = true;
}

/* libxml2's generic channel: silent (structured errors never reach it
 * while on_structured is installed; a module that prints directly does). */
static void on_generic(void *ctx, const char *fmt, ...)
{
    (void)ctx;
    (void)fmt;
}

/* Why a parse failed, as one message naming the file. */
static cs_status parse_error(const char *path, const xml_in *in, xmlParserCtxt *ctxt,
                             const xml_errors *x, cs_error *err)
{
    const xmlError *e = xmlCtxtGetLastError(ctxt);
    char msg[CS_UNITS_NOTE] = "unreadable";
    int line = 0;
    if (e && e->message) {
        one_line(msg, sizeof msg, e->message);
        line = e->line;
    }
    if (x->seen) {
        /* A conversion error has no line of its own: the parser's last. */
        snprintf(msg, sizeof msg, "%s", x->msg);
        line = x->line > 0 ? x->line : line;
    }
    if (in->packed)
        return cs_error_set(err, CS_EINPUT, "%s: a %s file, not XML: unpack it first (a .catz "
                            "or .gstz is a zip archive)", path, in->packed);
    if (in->err) /* read_stream is libxml2's only input: this is every I/O error */
        return cs_error_set(err, CS_EINPUT, "%s: cannot read: %s", path, strerror(in->err));
    if (x->seen)
        return cs_error_set(err, CS_EINPUT, "%s:%d: malformed XML: %s (the file is not in the "
                            "encoding it declares, UTF-8 when it declares none)", path, line, msg);
    return cs_error_set(err, CS_EINPUT, "%s:%d: malformed XML: %s", path, line, msg);
}

/* libxml2's error channels as they were before a read silenced them. */
typedef struct channels {
    xmlStructuredErrorFunc s;
    void *sc;
    xmlGenericErrorFunc g;
    void *gc;
} channels;

static channels silence(xml_errors *x)
{
    channels c = {xmlStructuredError, xmlStructuredErrorContext, xmlGenericError,
                  xmlGenericErrorContext};
    xmlSetStructuredErrorFunc(x, on_structured);
    xmlSetGenericErrorFunc(x, on_generic);
    return c;
}

static void restore(const channels *c)
{
    xmlSetStructuredErrorFunc(c->sc, c->s);
    xmlSetGenericErrorFunc(c->gc, c->g);
}

/* Parses the stream with libxml2's channels silenced (xml_errors), then
 * puts them back as they were. */
static xmlDoc *parse(xmlParserCtxt *ctxt, xml_in *in, const char *path, xml_errors *x)
{
    channels c = silence(x);
    /* NOERROR/NOWARNING: libxml2 keeps the error for us instead of printing
     * it; BIG_LINES: true line numbers past 65535. */
    xmlDoc *doc = xmlCtxtReadIO(ctxt, read_stream, NULL, in, path, NULL,
                                XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING |
                                    XML_PARSE_BIG_LINES);
    restore(&c);
    return doc;
}

/* The root element's attribute `attr` (*found), read with libxml2's reader
 * only as far as the root: a directory's catalogues are scanned for the one
 * a link names without parsing each whole. A file that does not read is
 * not the one. */
static cs_status root_attr(const char *path, const char *attr, char *out, size_t cap,
                           bool *found)
{
    *found = false;
    xml_in in = {.f = cs_infile_open(path)};
    cs_sha256_init(&in.sha);
    if (!in.f)
        return CS_OK;
    xml_errors x = {0};
    channels c = silence(&x);
    xmlTextReaderPtr rd = xmlReaderForIO(read_stream, NULL, &in, path, NULL,
                                         XML_PARSE_NONET | XML_PARSE_NOERROR |
                                             XML_PARSE_NOWARNING);
    while (rd && xmlTextReaderRead(rd) == 1)
        if (xmlTextReaderNodeType(rd) == XML_READER_TYPE_ELEMENT) {
            xmlChar *v = xmlTextReaderGetAttribute(rd, (const xmlChar *)attr);
            if (v)
                snprintf(out, cap, "%s", (const char *)v);
            *found = v != NULL;
            xmlFree(v);
            break;
        }
    xmlFreeTextReader(rd);
    restore(&c);
    fclose(in.f);
    return rd ? CS_OK : CS_ENOMEM;
}

static cs_status open_doc(const char *path, cs_units_doc *d, cs_error *err)
{
    *d = (cs_units_doc){0};
    snprintf(d->path, sizeof d->path, "%s", path);
    /* Opened through infile.h (under MPI, rank 0's bytes), never by libxml2
     * itself, which would also print its own I/O warning. */
    xml_in in = {.f = cs_infile_open(path)};
    cs_sha256_init(&in.sha);
    if (!in.f)
        return cs_error_set(err, CS_EINPUT, "%s: cannot open: %s", path, strerror(errno));
    xmlParserCtxt *ctxt = xmlNewParserCtxt();
    if (!ctxt) {
        fclose(in.f);
        cs_error_set(err, CS_ENOMEM, "%s: out of memory", path);
        return CS_ENOMEM;
    }
    xml_errors x = {0};
    d->doc = parse(ctxt, &in, path, &x);
    fclose(in.f);
    if (in.err || !d->doc || !ctxt->wellFormed || x.seen) {
        parse_error(path, &in, ctxt, &x, err);
        xmlFreeParserCtxt(ctxt);
        close_doc(d);
        return CS_EINPUT;
    }
    xmlFreeParserCtxt(ctxt);
    uint8_t digest[32];
    cs_sha256_final(&in.sha, digest);
    cs_sha256_to_hex(digest, d->sha256);
    const xmlNode *root = xmlDocGetRootElement(d->doc);
    if (!cs_units_xml_is(root, "catalogue") && !cs_units_xml_is(root, "gameSystem")) {
        cs_error_set(err, CS_EINPUT,
                     "%s:%d: root element <%s> is not a BattleScribe <catalogue> or "
                     "<gameSystem>",
                     path, root ? cs_units_xml_line(root) : 1,
                     root ? (const char *)root->name : "none");
        close_doc(d);
        return CS_EINPUT;
    }
    if (cs_units_xml_namespace(path, root, &d->no_namespace, err) != CS_OK) {
        close_doc(d);
        return CS_EINPUT;
    }
    size_t n = count_ids(root), cap = 16;
    while (cap < 2 * n + 1)
        cap *= 2;
    d->ids = calloc(cap, sizeof *d->ids);
    d->cap = cap;
    if (!d->ids || !index_ids(d, root)) {
        cs_error_set(err, CS_ENOMEM, "%s: out of memory", path);
        close_doc(d);
        return CS_ENOMEM;
    }
    return CS_OK;
}

cs_status cs_units_xml_namespace(const char *path, const xmlNode *root, bool *none,
                                 cs_error *err)
{
    static const char *const schema[][2] = {
        {"catalogue", "http://www.battlescribe.net/schema/catalogueSchema"},
        {"gameSystem", "http://www.battlescribe.net/schema/gameSystemSchema"},
        {"roster", "http://www.battlescribe.net/schema/rosterSchema"},
    };
    const char *want = NULL;
    for (size_t i = 0; i < sizeof schema / sizeof schema[0]; i++)
        if (cs_units_xml_is(root, schema[i][0]))
            want = schema[i][1];
    *none = !root->ns || !root->ns->href;
    if (*none || !want || strcmp((const char *)root->ns->href, want) == 0)
        return CS_OK;
    return cs_error_set(err, CS_EINPUT, "%s:%d: <%s> is in the XML namespace %s, not "
                        "BattleScribe's %s", path, cs_units_xml_line(root),
                        (const char *)root->name, (const char *)root->ns->href, want);
}

/* ---- a catalogue and its game system ------------------------------------- */

/* The directory a file is in ("." when none is named). */
static void dir_of(const char *path, char *dir, size_t cap)
{
    snprintf(dir, cap, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash)
        slash[slash == dir ? 1 : 0] = '\0';
    else
        snprintf(dir, cap, ".");
}

/* The .gst next to `cat_path` whose root id is `system_id`. */
static cs_status find_gst(const char *cat_path, const char *system_id, char *out, size_t cap,
                          cs_error *err)
{
    char dir[CS_UNITS_PATH];
    dir_of(cat_path, dir, sizeof dir);
    static const char *const gst_only[] = {".gst", NULL};
    char(*files)[CS_UNITS_PATH];
    int n;
    cs_status st = cs_units_list_files(dir, gst_only, &files, &n, err);
    if (st != CS_OK)
        return st;
    st = CS_EINPUT;
    for (int i = 0; i < n; i++) {
        char id[CS_UNITS_TEXT];
        cs_status sys = cs_units_bs_system(files[i], id, sizeof id, err);
        /* A file that is not this system's is skipped; running out of
         * memory while reading one is not "no such file". */
        if (sys == CS_ENOMEM) {
            st = sys;
            break;
        }
        if (sys == CS_OK && strcmp(id, system_id) == 0) {
            snprintf(out, cap, "%s", files[i]);
            st = CS_OK;
            break;
        }
    }
    free(files);
    if (st == CS_EINPUT)
        cs_error_set(err, CS_EINPUT, "%s: no game system file (.gst) with id %s in %s", cat_path,
                     system_id, dir);
    return st;
}

/* Is a document with root id `id` open already? */
static bool is_open(const cs_units_docs *d, const char *id)
{
    for (int i = 0; i < d->n; i++)
        if (cs_units_xml_prop_is(xmlDocGetRootElement(d->doc[i].doc), "id", id))
            return true;
    return false;
}

/* The catalogue in folder `dir` whose root id is `id`, into out (*found). */
static cs_status find_in(const char *dir, const char *id, char *out, size_t cap, bool *found,
                         cs_error *err)
{
    static const char *const cat_only[] = {".cat", NULL};
    char(*files)[CS_UNITS_PATH];
    int n;
    cs_status st = cs_units_list_files(dir, cat_only, &files, &n, err);
    for (int i = 0; st == CS_OK && !*found && i < n; i++) {
        char rid[CS_UNITS_TEXT];
        bool has;
        st = root_attr(files[i], "id", rid, sizeof rid, &has);
        if (st == CS_OK && has && strcmp(rid, id) == 0) {
            snprintf(out, cap, "%s", files[i]);
            *found = true;
        }
    }
    free(files);
    return st;
}

/* The catalogue beside `from` whose root id is `id`, into out (*found). */
cs_status cs_units_docs_find(const char *from, const char *id, char *out, size_t cap,
                             bool *found, cs_error *err)
{
    char dir[CS_UNITS_PATH];
    dir_of(from, dir, sizeof dir);
    *found = false;
    cs_status st = find_in(dir, id, out, cap, found, err);
    if (st == CS_ENOMEM)
        cs_error_set(err, CS_ENOMEM, "%s: out of memory", from);
    return st;
}

cs_status cs_units_docs_find_shipped(const char *dir, const char *id, char *out, size_t cap,
                                     bool *found, cs_error *err)
{
    static const char *const any[] = {"", NULL};
    char(*sub)[CS_UNITS_PATH];
    int n;
    cs_error ignored;
    *found = false;
    /* A folder that cannot be listed holds no catalogue: not an error. */
    cs_status st = cs_units_list_files(dir, any, &sub, &n, &ignored);
    if (st != CS_OK)
        return st == CS_ENOMEM ? cs_error_set(err, CS_ENOMEM, "%s: out of memory", dir) : CS_OK;
    st = find_in(dir, id, out, cap, found, &ignored);
    for (int i = 0; (st == CS_OK || st == CS_EINPUT) && !*found && i < n; i++)
        st = find_in(sub[i], id, out, cap, found, &ignored);
    free(sub);
    if (st == CS_ENOMEM)
        return cs_error_set(err, CS_ENOMEM, "%s: out of memory", dir);
    return CS_OK;
}

/* Opens the catalogues document i links that are not open yet. */
static cs_status open_links(cs_units_docs *d, int i, cs_error *err)
{
    const xmlNode *root = xmlDocGetRootElement(d->doc[i].doc);
    cs_status st = CS_OK;
    for (const xmlNode *c = root->children; st == CS_OK && c; c = c->next) {
        if (!cs_units_xml_is(c, "catalogueLinks"))
            continue;
        for (const xmlNode *l = c->children; st == CS_OK && l; l = l->next) {
            char id[CS_UNITS_TEXT], name[CS_UNITS_NAME] = "", path[CS_UNITS_PATH];
            bool found;
            if (!cs_units_xml_is(l, "catalogueLink") ||
                !cs_units_xml_prop(l, "targetId", id, sizeof id) || is_open(d, id))
                continue;
            cs_units_xml_prop(l, "name", name, sizeof name);
            st = cs_units_docs_find(d->doc[0].path, id, path, sizeof path, &found, err);
            if (st == CS_OK && !found)
                st = cs_error_set(err, CS_EINPUT, "%s:%d: <catalogueLink> `%s`: no catalogue "
                                  "(.cat) with id %s beside it", d->doc[i].path,
                                  cs_units_xml_line(l), name, id);
            if (st == CS_OK && d->n == CS_UNITS_DOCS)
                st = cs_error_set(err, CS_ELIMIT, "%s: more than %d linked catalogues",
                                  d->doc[0].path, CS_UNITS_DOCS - 2);
            if (st == CS_OK && (st = open_doc(path, &d->doc[d->n], err)) == CS_OK)
                d->n++;
        }
    }
    return st;
}

cs_status cs_units_docs_open(const char *path, cs_units_docs *d, cs_error *err)
{
    *d = (cs_units_docs){0};
    cs_status st = open_doc(path, &d->doc[0], err);
    if (st != CS_OK)
        return st;
    d->n = 1;
    /* Breadth first: the file's own links, then theirs. */
    for (int i = 0; st == CS_OK && i < d->n; i++)
        st = open_links(d, i, err);
    const xmlNode *root = xmlDocGetRootElement(d->doc[0].doc);
    if (st == CS_OK && cs_units_xml_is(root, "catalogue")) {
        char id[CS_UNITS_TEXT], gst[CS_UNITS_PATH];
        if (!cs_units_xml_prop(root, "gameSystemId", id, sizeof id))
            st = cs_error_set(err, CS_EINPUT, "%s:%d: <catalogue> has no gameSystemId", path,
                              cs_units_xml_line(root));
        if (st == CS_OK)
            st = find_gst(path, id, gst, sizeof gst, err);
        if (st == CS_OK && d->n == CS_UNITS_DOCS)
            st = cs_error_set(err, CS_ELIMIT, "%s: more than %d linked catalogues", path,
                              CS_UNITS_DOCS - 2);
        if (st == CS_OK && (st = open_doc(gst, &d->doc[d->n], err)) == CS_OK)
            d->n++;
    }
    if (st != CS_OK)
        cs_units_docs_close(d);
    return st;
}

void cs_units_docs_close(cs_units_docs *d)
{
    for (int i = 0; i < CS_UNITS_DOCS; i++)
        close_doc(&d->doc[i]);
    d->n = 0;
}

const xmlNode *cs_units_docs_lookup(const cs_units_docs *d, const char *id)
{
    for (int i = 0; i < d->n; i++) {
        const xmlNode *n = lookup(&d->doc[i], id);
        if (n)
            return n;
    }
    return NULL;
}

const char *cs_units_docs_path(const cs_units_docs *d, const xmlNode *n)
{
    for (int i = 1; i < d->n; i++)
        if (n->doc == d->doc[i].doc)
            return d->doc[i].path;
    return d->doc[0].path;
}

cs_status cs_units_bs_system(const char *path, char *id, size_t idcap, cs_error *err)
{
    cs_units_doc d;
    cs_status st = open_doc(path, &d, err);
    if (st != CS_OK)
        return st;
    const xmlNode *root = xmlDocGetRootElement(d.doc);
    const char *key = cs_units_xml_is(root, "catalogue") ? "gameSystemId" : "id";
    if (!cs_units_xml_prop(root, key, id, idcap)) {
        cs_error_set(err, CS_EINPUT, "%s:%d: <%s> has no %s", path, cs_units_xml_line(root),
                     (const char *)root->name, key);
        st = CS_EINPUT;
    }
    close_doc(&d);
    return st;
}

/* ---- sets of elements (units_doc.h) ------------------------------------- */

static size_t ptr_hash(const xmlNode *n, size_t cap)
{
    return ((uintptr_t)n >> 4) & (cap - 1);
}

cs_units_memo_slot *cs_units_memo_find(const cs_units_memo *m, const xmlNode *n)
{
    if (m->cap == 0)
        return NULL;
    for (size_t j = ptr_hash(n, m->cap); m->slot[j].node; j = (j + 1) & (m->cap - 1))
        if (m->slot[j].node == n)
            return &m->slot[j];
    return NULL;
}

cs_units_memo_slot *cs_units_memo_insert(cs_units_memo *m, const xmlNode *n)
{
    if (2 * (m->n + 1) > m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 64;
        cs_units_memo_slot *q = calloc(cap, sizeof *q);
        if (!q)
            return NULL;
        for (size_t i = 0; i < m->cap; i++)
            if (m->slot[i].node) {
                size_t j = ptr_hash(m->slot[i].node, cap);
                while (q[j].node)
                    j = (j + 1) & (cap - 1);
                q[j] = m->slot[i];
            }
        free(m->slot);
        m->slot = q;
        m->cap = cap;
    }
    size_t j = ptr_hash(n, m->cap);
    while (m->slot[j].node)
        j = (j + 1) & (m->cap - 1);
    m->slot[j] = (cs_units_memo_slot){.node = n};
    m->n++;
    return &m->slot[j];
}

void cs_units_memo_clear(cs_units_memo *m)
{
    if (m->n > 0)
        memset(m->slot, 0, m->cap * sizeof *m->slot);
    m->n = 0;
}

/* A set is a memo whose slots' values go unused: one hash table. */
bool cs_units_nodes_has(const cs_units_nodes *s, const xmlNode *n)
{
    return cs_units_memo_find(s, n) != NULL;
}

cs_status cs_units_nodes_add(cs_units_nodes *s, const xmlNode *n, bool *added)
{
    *added = false;
    if (cs_units_memo_find(s, n))
        return CS_OK;
    if (!cs_units_memo_insert(s, n))
        return CS_ENOMEM;
    *added = true;
    return CS_OK;
}

/* ---- the files SOURCE names ---------------------------------------------- */

static int by_name(const void *a, const void *b)
{
    return strcmp(a, b);
}

static bool has_suffix(const char *name, const char *const *suffixes)
{
    size_t n = strlen(name);
    for (int i = 0; suffixes[i]; i++) {
        size_t k = strlen(suffixes[i]);
        if (n > k && strcmp(name + n - k, suffixes[i]) == 0)
            return true;
    }
    return false;
}

cs_status cs_units_list_files(const char *dir, const char *const *suffixes,
                              char (**out)[CS_UNITS_PATH], int *n, cs_error *err)
{
    *out = NULL;
    *n = 0;
    char *all;
    size_t len;
    int e = cs_infile_list(dir, &all, &len);
    if (e == ENOMEM)
        return cs_error_set(err, CS_ENOMEM, "%s: out of memory", dir);
    if (e)
        return cs_error_set(err, CS_EINPUT, "%s: cannot open the directory: %s", dir, strerror(e));
    char(*names)[CS_UNITS_PATH] = NULL;
    int count = 0, cap = 0;
    cs_status st = CS_OK;
    for (const char *name = all; st == CS_OK && name < all + len; name += strlen(name) + 1) {
        if (name[0] == '.' || !has_suffix(name, suffixes))
            continue;
        if (count == cap) {
            int c = cap ? cap * 2 : 64;
            void *q = realloc(names, (size_t)c * sizeof *names);
            if (!q) {
                st = cs_error_set(err, CS_ENOMEM, "%s: out of memory", dir);
                break;
            }
            names = q;
            cap = c;
        }
        int w = snprintf(names[count], CS_UNITS_PATH, "%s/%s", dir, name);
        if (w < 0 || w >= CS_UNITS_PATH)
            st = cs_error_set(err, CS_EINPUT, "%s/%s: path too long", dir, name);
        count++;
    }
    free(all);
    if (st != CS_OK) {
        free(names);
        return st;
    }
    if (count > 0)
        qsort(names, (size_t)count, sizeof *names, by_name);
    *out = names;
    *n = count;
    return CS_OK;
}
