/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Polygon text (chargesim/poly_parse.h): the one parser of CS_PARAM_POLYGON
 * values. It reads only the len bytes it is given, so it never relies on a
 * terminating NUL, and every error names the byte where it was found. */
#include "chargesim/poly_parse.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define STR_(x) #x
#define STR(x)  STR_(x)

/* Longest number token read; longer is refused rather than cut. */
#define NUMBER_MAX 64

typedef struct cursor {
    const char *text; /* start, for columns */
    const char *p;    /* next byte */
    const char *end;  /* one past the last byte */
} cursor;

/* The next byte, or '\0' at the end (NUL bytes are refused before any
 * scanning, so '\0' means the end only). */
static char peek(const cursor *c)
{
    return c->p < c->end ? *c->p : '\0';
}

static void skip_space(cursor *c)
{
    while (peek(c) == ' ' || peek(c) == '\t')
        c->p++;
}

static bool is_alpha(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
}

static bool in_number(char ch)
{
    return (ch >= '0' && ch <= '9') || ch == '.' || ch == '+' || ch == '-' || ch == 'e' ||
           ch == 'E';
}

static cs_status fail(cs_diag *diag, const cursor *c, const char *at, const char *what)
{
    *diag = (cs_diag){(int)(at - c->text) + 1, NULL, what};
    return CS_EINPUT;
}

/* One coordinate: a decimal number token, read whole by strtod from a
 * terminated copy, finite and within CS_POLY_COORD_MAX. */
static cs_status number(cursor *c, double *out, const char *what, cs_diag *diag)
{
    const char *start = c->p;
    while (in_number(peek(c)))
        c->p++;
    size_t n = (size_t)(c->p - start);
    if (n == 0)
        return fail(diag, c, start, what);
    if (n >= NUMBER_MAX)
        return fail(diag, c, start, "number too long");
    char buf[NUMBER_MAX];
    memcpy(buf, start, n);
    buf[n] = '\0';
    char *end;
    double v = strtod(buf, &end);
    if (end != buf + n)
        return fail(diag, c, start, what);
    if (!isfinite(v) || fabs(v) > CS_POLY_COORD_MAX)
        return fail(diag, c, start,
                    "a coordinate beyond +-" STR(CS_POLY_COORD_MAX) " in");
    *out = v;
    return CS_OK;
}

/* An optional "kind:" label: one of kinds as a whole word, then ':'. */
static cs_status label(cursor *c, const char *const *kinds, int *kind, cs_diag *diag)
{
    *kind = 0;
    if (!kinds || !is_alpha(peek(c)))
        return CS_OK;
    const char *start = c->p;
    for (int k = 0; kinds[k]; k++) {
        size_t n = strlen(kinds[k]);
        if ((size_t)(c->end - start) < n || memcmp(start, kinds[k], n) != 0)
            continue;
        if (start + n < c->end && is_alpha(start[n]))
            continue;
        c->p = start + n;
        skip_space(c);
        if (peek(c) != ':')
            return fail(diag, c, c->p, "expected ':' after the kind");
        c->p++;
        *kind = k;
        return CS_OK;
    }
    return fail(diag, c, start, "expected one of the parameter's kinds (kind: x,y ...)");
}

/* Checks a piece is strictly convex and makes it counter-clockwise. */
static bool make_convex_ccw(cs_poly *p)
{
    double area = 0.0, turn = 0.0;
    int sign = 0;
    for (int i = 0; i < p->n; i++) {
        cs_vec2 a = p->v[i], b = p->v[(i + 1) % p->n], d = p->v[(i + 2) % p->n];
        double cr = (b.x - a.x) * (d.y - a.y) - (b.y - a.y) * (d.x - a.x);
        int sg = cr > 0.0 ? 1 : cr < 0.0 ? -1 : 0;
        if (sg == 0 || (sign != 0 && sg != sign))
            return false;
        sign = sg;
        area += a.x * b.y - b.x * a.y;
        turn += atan2(cr, (b.x - a.x) * (d.x - b.x) + (b.y - a.y) * (d.y - b.y));
    }
    /* a convex outline turns once around: +-2 pi; a star turns twice */
    if (fabs(fabs(turn) - 2.0 * 3.14159265358979323846) > 1e-6)
        return false;
    if (area < 0.0)
        for (int i = 0, j = p->n - 1; i < j; i++, j--) {
            cs_vec2 t = p->v[i];
            p->v[i] = p->v[j];
            p->v[j] = t;
        }
    return true;
}

/* The vertices "x,y x,y ..." of the piece that began at `piece`, up to ';'
 * or the end. */
static cs_status vertices(cursor *c, const char *piece, cs_poly *poly, cs_diag *diag)
{
    poly->n = 0;
    for (;;) {
        skip_space(c);
        if (peek(c) == ';' || peek(c) == '\0')
            break;
        if (poly->n == CS_POLY_MAX)
            return fail(diag, c, c->p, "at most " STR(CS_POLY_MAX) " vertices per piece");
        double x, y;
        cs_status st = number(c, &x, "expected a vertex x,y", diag);
        if (st != CS_OK)
            return st;
        skip_space(c);
        if (peek(c) != ',')
            return fail(diag, c, c->p, "expected ',' between x and y");
        c->p++;
        skip_space(c);
        if ((st = number(c, &y, "expected the vertex's y", diag)) != CS_OK)
            return st;
        poly->v[poly->n++] = (cs_vec2){x, y};
    }
    if (poly->n < 3)
        return fail(diag, c, piece, "a piece needs at least 3 vertices x,y");
    if (!make_convex_ccw(poly))
        return fail(diag, c, piece,
                    "the piece is not a convex outline (vertices in order around it, no "
                    "three in a line)");
    return CS_OK;
}

cs_status cs_poly_parse(const char *text, size_t len, const char *const *kinds,
                        cs_poly_list *out, cs_diag *diag)
{
    cursor c = {text ? text : "", text ? text : "", text ? text + len : ""};
    const char *nul = text ? memchr(text, '\0', len) : NULL;
    out->n = 0;
    if (nul)
        return fail(diag, &c, nul, "a NUL byte in the text");
    for (;;) {
        skip_space(&c);
        if (peek(&c) == '\0')
            return CS_OK;
        if (out->n == CS_POLY_LIST_MAX)
            return fail(diag, &c, c.p, "at most " STR(CS_POLY_LIST_MAX) " pieces");
        const char *piece = c.p;
        cs_status st = label(&c, kinds, &out->kind[out->n], diag);
        if (st == CS_OK)
            st = vertices(&c, piece, &out->poly[out->n], diag);
        if (st != CS_OK)
            return st;
        out->n++;
        if (peek(&c) == ';')
            c.p++;
    }
}
