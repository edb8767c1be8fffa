#ifndef CHARGESIM_ROSTER_DOC_H
#define CHARGESIM_ROSTER_DOC_H
/* A roster's JSON form as the XML tree its `.ros` form gives, private to
 * the io layer's roster reader: src/io/roster_json.c builds it,
 * src/io/roster.c walks it. Not in include/chargesim/: it exposes libxml2's
 * types, which no other module sees. */
#include <libxml/tree.h>
#include <stddef.h>

#include "chargesim/error.h"
#include "chargesim/status.h"

/* Parses New Recruit's JSON (jansson) into *out (xmlFreeDoc). The object
 * {"roster": {...}} becomes <roster>; in any object a string, number or
 * boolean becomes an attribute (numbers as written in the shortest form
 * that reads back the same: 1680, 2.03), "$text" the element's text, an
 * array of objects a wrapper element holding one element per object, named
 * by the singular of the wrapper (selections -> selection, categories ->
 * category), an object one element of its key's name; null and arrays of
 * scalars are left out. Elements carry no line (JSON has none to give).
 * Malformed or truncated JSON: CS_EINPUT naming path:line:column. */
cs_status cs_roster_json_doc(const char *text, size_t n, const char *path, xmlDoc **out,
                             cs_error *err);

#endif
