/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Rosters, the JSON form (roster_doc.h: cs_roster_json_doc): New
 * Recruit's export parsed by jansson and rebuilt as the XML tree of the
 * `.ros` form, so that src/io/units/roster.c has one tree to walk.
 *
 * The JSON is the XML turned inside out by a generic converter: attributes
 * are members, an element's text is "$text", and a wrapper element
 * (<selections>, <profiles>) is an array of its children. What comes back
 * is therefore only one choice per shape: a number is written back as the
 * shortest text that reads as the same double (New Recruit gives number,
 * cost values, revisions and now and then a numeric-looking id as
 * numbers), so `1680` stays `1680` and `2.03` stays `2.03`; the child
 * element of an array is named by the wrapper's singular. */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "roster_doc.h"

/* Nesting deeper than this is refused (jansson's own limit is 2048). */
#define MAX_DEPTH 512

/* The singular of a wrapper element's name: the roster schema's plurals
 * are the singular plus `s`, but for `categories` and `entries`. */
static void singular(const char *key, char *out, size_t cap)
{
    size_t n = strlen(key);
    if (n > 3 && strcmp(key + n - 3, "ies") == 0)
        snprintf(out, cap, "%.*sy", (int)(n - 3), key);
    else if (n > 1 && key[n - 1] == 's')
        snprintf(out, cap, "%.*s", (int)(n - 1), key);
    else
        snprintf(out, cap, "%s", key);
}

/* A number as the shortest text that reads back as the same value. */
static void number_text(const json_t *v, char *out, size_t cap)
{
    if (json_is_integer(v)) {
        snprintf(out, cap, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
        return;
    }
    double x = json_real_value(v);
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(out, cap, "%.*g", prec, x);
        if (strtod(out, NULL) == x)
            return;
    }
}

/* A scalar's text (false: not a scalar, or null). */
static bool scalar_text(const json_t *v, char *buf, size_t cap, const char **text)
{
    if (json_is_string(v)) {
        *text = json_string_value(v);
        return true;
    }
    if (json_is_number(v)) {
        number_text(v, buf, cap);
        *text = buf;
        return true;
    }
    if (json_is_boolean(v)) {
        *text = json_is_true(v) ? "true" : "false";
        return true;
    }
    return false;
}

/* How a rebuild went: the first failure wins. */
typedef enum built { BUILT, TOO_DEEP, NO_MEMORY } built;

static built fill(xmlNode *el, const json_t *obj, int depth);

/* An array member: a wrapper element holding one element per object. */
static built wrapper(xmlNode *el, const char *key, const json_t *arr, int depth)
{
    xmlNode *w = xmlNewChild(el, NULL, (const xmlChar *)key, NULL);
    if (!w)
        return NO_MEMORY;
    char one[256];
    singular(key, one, sizeof one);
    size_t i;
    const json_t *item;
    json_array_foreach(arr, i, item)
    {
        if (!json_is_object(item))
            continue;
        xmlNode *c = xmlNewChild(w, NULL, (const xmlChar *)one, NULL);
        built b = c ? fill(c, item, depth + 1) : NO_MEMORY;
        if (b != BUILT)
            return b;
    }
    return BUILT;
}

/* The members of obj into element el. */
static built fill(xmlNode *el, const json_t *obj, int depth)
{
    if (depth > MAX_DEPTH)
        return TOO_DEEP;
    const char *key;
    const json_t *v;
    json_object_foreach((json_t *)(uintptr_t)obj, key, v)
    {
        char buf[64];
        const char *text;
        built b = BUILT;
        if (key[0] == '\0')
            continue;
        if (strcmp(key, "$text") == 0) {
            /* xmlAddChild fails only on a NULL node: out of memory. */
            if (scalar_text(v, buf, sizeof buf, &text))
                b = xmlAddChild(el, xmlNewText((const xmlChar *)text)) ? BUILT : NO_MEMORY;
        } else if (scalar_text(v, buf, sizeof buf, &text)) {
            b = xmlNewProp(el, (const xmlChar *)key, (const xmlChar *)text) ? BUILT : NO_MEMORY;
        } else if (json_is_array(v)) {
            b = wrapper(el, key, v, depth);
        } else if (json_is_object(v)) {
            xmlNode *c = xmlNewChild(el, NULL, (const xmlChar *)key, NULL);
            b = c ? fill(c, v, depth + 1) : NO_MEMORY;
        }
        if (b != BUILT)
            return b;
    }
    return BUILT;
}

cs_status cs_roster_json_doc(const char *text, size_t n, const char *path, xmlDoc **out,
                             cs_error *err)
{
    *out = NULL;
    json_error_t je;
    json_t *root = json_loadb(text, n, JSON_REJECT_DUPLICATES, &je);
    if (!root)
        return cs_error_set(err, CS_EINPUT, "%s:%d:%d: malformed JSON: %s", path, je.line,
                            je.column, je.text);
    const json_t *r = json_is_object(root) ? json_object_get(root, "roster") : NULL;
    if (!json_is_object(r)) {
        json_decref(root);
        return cs_error_set(err, CS_EINPUT, "%s: not a roster: expected a JSON object "
                            "{\"roster\": {...}} (New Recruit's JSON export)", path);
    }
    xmlDoc *doc = xmlNewDoc((const xmlChar *)"1.0");
    xmlNode *el = doc ? xmlNewNode(NULL, (const xmlChar *)"roster") : NULL;
    if (el)
        xmlDocSetRootElement(doc, el);
    built b = el ? fill(el, r, 0) : NO_MEMORY;
    json_decref(root);
    if (b != BUILT) {
        if (doc)
            xmlFreeDoc(doc);
        return b == TOO_DEEP ? cs_error_set(err, CS_EINPUT, "%s: JSON nested deeper than %d",
                                            path, MAX_DEPTH)
                             : cs_error_set(err, CS_ENOMEM, "%s: out of memory", path);
    }
    *out = doc;
    return CS_OK;
}
