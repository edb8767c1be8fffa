/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_UNITS_DOC_H
#define CHARGESIM_UNITS_DOC_H
/* The BattleScribe documents of one catalogue, private to the io layer's
 * unit stages: src/io/units/units_doc.c, the document library, opens and
 * indexes them, src/io/units/units_resolve.c walks them (stage 2, resolve
 * entries). Not in
 * include/chargesim/: it exposes libxml2's types, which no other module
 * sees.
 *
 * A document keeps an index of its elements' ids (the first element of a
 * repeated id wins, as a lookup in document order would); a set holds the
 * file read first and the game system its links may point into, looked up
 * in that order. */
#include <libxml/tree.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "chargesim/unitsrc.h"

typedef struct cs_units_doc_slot {
    char *id;
    const xmlNode *node;
} cs_units_doc_slot;

typedef struct cs_units_doc {
    xmlDoc *doc; /* NULL: not open */
    char path[CS_UNITS_PATH];
    cs_units_doc_slot *ids; /* open addressing, cap a power of two */
    size_t cap;
    char sha256[65]; /* of the bytes parsed (hex) */
    bool no_namespace; /* its root is in no XML namespace (cs_units_xml_namespace) */
} cs_units_doc;

/* The file read (doc[0]), the catalogues it links (its <catalogueLinks>,
 * and theirs in turn: an army variant links its army, an army its
 * libraries of items and mercenaries), then its game system: every link
 * target is looked up in them, in that order. */
#define CS_UNITS_DOCS 24
typedef struct cs_units_docs {
    int n;
    cs_units_doc doc[CS_UNITS_DOCS];
} cs_units_docs;

/* Opens `path` (a .cat or .gst), the catalogues it links (found beside it
 * by their root id; a link imports their entries for links to point at,
 * never their units into this file's table) and, for a catalogue, the game
 * system beside it whose id is its gameSystemId. Malformed XML, an
 * unreadable or compressed file, a root that is not BattleScribe's, a
 * linked catalogue or game system missing: CS_EINPUT naming the file (and
 * line); out of memory: CS_ENOMEM. One chargesim message, never libxml2's
 * own lines. On failure nothing stays open. */
cs_status cs_units_docs_open(const char *path, cs_units_docs *d, cs_error *err);
void cs_units_docs_close(cs_units_docs *d);

/* BattleScribe writes each root element in a namespace of its own
 * (http://www.battlescribe.net/schema/catalogueSchema, gameSystemSchema,
 * rosterSchema). A root in another namespace is not BattleScribe's file:
 * CS_EINPUT, one line naming the file, the namespace found and the one
 * expected. A root in none (a hand-written file) is read: *none says so,
 * for the table's heading. */
cs_status cs_units_xml_namespace(const char *path, const xmlNode *root, bool *none,
                                 cs_error *err);

/* The element with this id in the set, or NULL. */
const xmlNode *cs_units_docs_lookup(const cs_units_docs *d, const char *id);

/* The catalogue (.cat) beside the file `from` whose root id is `id`, into
 * out (*found; none is no error). A roster finds its catalogue so. */
cs_status cs_units_docs_find(const char *from, const char *id, char *out, size_t cap,
                             bool *found, cs_error *err);

/* The catalogue whose root id is `id` in the folder `dir` or one of its
 * subfolders (the shipped data: data/tow, data/bsdata-t9a-2nd, ...), into
 * out (*found). A folder missing or unreadable holds none: no error; out of
 * memory: CS_ENOMEM. A roster whose catalogue is not beside it finds it
 * so. */
cs_status cs_units_docs_find_shipped(const char *dir, const char *id, char *out, size_t cap,
                                     bool *found, cs_error *err);

/* The path of the document holding n. */
const char *cs_units_docs_path(const cs_units_docs *d, const xmlNode *n);

/* ---- sets of elements and memos, for the walks of stage 2 -------------------- */

/* What an entry contributes below it: the points of its model children.
 * An entry reached twice inside one unit (two links to one shared group)
 * is resolved the first time and its sum reused, so a link graph costs
 * time linear in its entries, not in its paths (issue 15.6, 18.2). */
typedef struct cs_units_memo_slot {
    const xmlNode *node;
    bool done; /* false while the entry is being resolved: a cycle if met */
    bool has_points;
    double points;
} cs_units_memo_slot;

typedef struct cs_units_memo {
    cs_units_memo_slot *slot; /* open addressing, cap a power of two */
    size_t cap, n;
} cs_units_memo;

cs_units_memo_slot *cs_units_memo_find(const cs_units_memo *m, const xmlNode *n);
/* A new slot for n (not in m); NULL if out of memory. */
cs_units_memo_slot *cs_units_memo_insert(cs_units_memo *m, const xmlNode *n);
void cs_units_memo_clear(cs_units_memo *m);

/* A set of elements: a memo whose slots' values go unused (never shrinks). */
typedef cs_units_memo cs_units_nodes;

bool cs_units_nodes_has(const cs_units_nodes *s, const xmlNode *n);
/* Adds n; *added says whether it was new. CS_ENOMEM if out of memory. */
cs_status cs_units_nodes_add(cs_units_nodes *s, const xmlNode *n, bool *added);

/* ---- element helpers ------------------------------------------------------ */

static inline bool cs_units_xml_is(const xmlNode *n, const char *name)
{
    return n && n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0;
}

/* Copies attribute `name` (entities expanded) into buf; false if absent. */
static inline bool cs_units_xml_prop(const xmlNode *n, const char *name, char *buf, size_t cap)
{
    xmlChar *v = xmlGetNoNsProp(n, (const xmlChar *)name);
    if (!v)
        return false;
    snprintf(buf, cap, "%s", (const char *)v);
    xmlFree(v);
    return true;
}

static inline bool cs_units_xml_prop_is(const xmlNode *n, const char *name, const char *want)
{
    char buf[CS_UNITS_TEXT];
    return cs_units_xml_prop(n, name, buf, sizeof buf) && strcmp(buf, want) == 0;
}

static inline int cs_units_xml_line(const xmlNode *n)
{
    return (int)xmlGetLineNo(n);
}

#endif
