/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_POLY_PARSE_H
#define CHARGESIM_POLY_PARSE_H
/* Polygon text, parsed in one place: the value of a CS_PARAM_POLYGON
 * parameter (ruleset.h). The experiment loader checks it once, at load, and
 * names file, line and key on an error; the ruleset reads the same text
 * with the same function in prepare. Pure: no I/O, no allocation.
 *
 * The text is one or more convex pieces separated by ';', each an optional
 * kind label and its vertices in order around it:
 *     kind: x,y x,y x,y ...; kind: x,y ...
 * Spaces and tabs may stand between any two tokens; a final ';' is allowed.
 * Coordinates are decimal numbers (inches), at most CS_POLY_COORD_MAX in
 * absolute value. A piece has 3 to CS_POLY_MAX vertices forming a strictly
 * convex outline (no three consecutive vertices in a line), in either
 * direction; it is stored counter-clockwise. The empty text is no piece. */
#include <stddef.h>

#include "chargesim/geom.h"
#include "chargesim/status.h"

#define CS_POLY_LIST_MAX  4       /* pieces in one value */
#define CS_POLY_COORD_MAX 10000.0 /* |x| and |y| of a vertex, inches */

typedef struct cs_poly_list {
    int n;                          /* pieces, 0..CS_POLY_LIST_MAX */
    int kind[CS_POLY_LIST_MAX];     /* index of the piece's label in `kinds`; 0 unlabelled */
    cs_poly poly[CS_POLY_LIST_MAX]; /* convex, counter-clockwise, as written otherwise */
} cs_poly_list;

/* Parses the len bytes at text (no terminating NUL needed; a NUL byte among
 * them is an error). kinds: the labels a piece may carry, NULL-terminated,
 * the first one the kind of an unlabelled piece; NULL: no labels. On error
 * returns CS_EINPUT with diag->column (1-based byte) and diag->what set and
 * diag->key NULL (the caller names the key); *out is then unspecified. */
cs_status cs_poly_parse(const char *text, size_t len, const char *const *kinds,
                        cs_poly_list *out, cs_diag *diag);

#endif
