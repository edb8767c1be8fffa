#ifndef CHARGESIM_UNITS_DOC_H
#define CHARGESIM_UNITS_DOC_H
/* The BattleScribe documents of one catalogue, private to the io layer's
 * unit stages: src/io/units_source.c opens them (stage 1, read the source),
 * src/io/units_resolve.c walks them (stage 2, resolve entries). Not in
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
} cs_units_doc;

/* The file read (doc[0]) and its game system (doc[1], when doc[0] is a
 * catalogue): every link target is looked up in them, in that order. */
#define CS_UNITS_DOCS 2
typedef struct cs_units_docs {
    int n;
    cs_units_doc doc[CS_UNITS_DOCS];
} cs_units_docs;

/* Opens `path` (a .cat or .gst) and, for a catalogue, the game system
 * beside it whose id is the catalogue's gameSystemId. Malformed XML, an
 * unreadable or compressed file, a root that is not BattleScribe's or a
 * missing game system: CS_EINPUT naming the file (and line); out of memory:
 * CS_ENOMEM. One chargesim message, never libxml2's own lines. On failure
 * nothing stays open. */
cs_status cs_units_docs_open(const char *path, cs_units_docs *d, cs_error *err);
void cs_units_docs_close(cs_units_docs *d);

/* The element with this id in the set, or NULL. */
const xmlNode *cs_units_docs_lookup(const cs_units_docs *d, const char *id);

/* The path of the document holding n. */
const char *cs_units_docs_path(const cs_units_docs *d, const xmlNode *n);

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
