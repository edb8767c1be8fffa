/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_ROSTER_DOC_H
#define CHARGESIM_ROSTER_DOC_H
/* The roster reader's private parts (io layer only; roster.h is the
 * module's public header): src/io/units/roster_json.c rebuilds the JSON form as
 * the XML tree, src/io/units/roster.c opens a roster and walks its forces and
 * selections, src/io/units/roster_unit.c makes one unit's row. roster.c calls
 * roster_unit.c, never the reverse. Not in include/chargesim/: it exposes
 * libxml2's types, which no other module sees. */
#include <libxml/tree.h>
#include <stdbool.h>
#include <stddef.h>

#include "chargesim/error.h"
#include "chargesim/status.h"
#include "chargesim/units.h"
#include "units_doc.h"
#include "units_reader.h"

/* Selections or forces nested deeper than this are refused (a guard for
 * the stack; a real list nests a handful). */
#define CS_ROSTER_MAX_DEPTH 256

/* The state of one roster's reading. */
typedef struct cs_roster_reader {
    const char *path;          /* the roster, as messages name it (outlives the reading) */
    const cs_units_mapping *m; /* bound */
    cs_units *out;
    cs_error *err;
    cs_units_docs cat;             /* the catalogue at hand (cat.n == 0: none) */
    int mount_char;                /* the first `mount = yes` characteristic, -1: none */
    const char *data_dir;          /* the shipped catalogues (data/), NULL: not looked in */
    char force_cat[CS_UNITS_NAME]; /* the catalogue name of the force being read */
    /* The catalogue reader's state as its rows (units_rows.c) use it, which
     * make a roster's rows too: the mapping, the output, the roster as
     * every element's file (set by roster_unit.c). */
    reader rows;
} cs_roster_reader;

/* The children named `name` of n's wrapper elements `wrap`, in order (a
 * `break` leaves one wrapper's children only). */
#define CS_ROSTER_EACH_CHILD(n, wrap, name, var)                                              \
    for (const xmlNode *w_ = (n)->children; w_; w_ = w_->next)                               \
        if (cs_units_xml_is(w_, wrap))                                                        \
            for (const xmlNode *var = w_->children; var; var = var->next)                    \
                if (cs_units_xml_is(var, name))

static inline bool cs_roster_is_selection(const xmlNode *n, const char *type)
{
    return cs_units_xml_is(n, "selection") && cs_units_xml_prop_is(n, "type", type);
}

/* Parses New Recruit's JSON (jansson) into *out (xmlFreeDoc). The object
 * {"roster": {...}} becomes <roster>; in any object a string, number or
 * boolean becomes an attribute (numbers as written in the shortest form
 * that reads back the same: 1680, 2.03), "$text" the element's text, an
 * array of objects a wrapper element holding one element per object, named
 * by the singular of the wrapper (selections -> selection, categories ->
 * category), an object one element of its key's name; null and arrays of
 * scalars are left out. Elements carry no line (JSON has none to give).
 * Malformed or truncated JSON: CS_EINPUT naming path:line:column.
 * (src/io/units/roster_json.c) */
cs_status cs_roster_json_doc(const char *text, size_t n, const char *path, xmlDoc **out,
                             cs_error *err);

/* Reads unit selection s (depth: how deep it sits, for the guard) into a
 * row of r->out with its notes, then the unit-typed selections inside it,
 * each a unit of its own. (src/io/units/roster_unit.c) */
cs_status cs_roster_unit_read(cs_roster_reader *r, const xmlNode *s, int depth);

#endif
