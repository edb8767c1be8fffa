/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The verdict of a comparison in one sentence; see include/chargesim/
 * cmpverdict.h, and docs/compare.md ("The verdict") for the reading. */
#include "chargesim/cmpverdict.h"

#include "chargesim/experiment.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Exact sums of the same probabilities in another order may differ in
 * their last bits: an exact delta this small is no difference. */
#define EXACT_ZERO 1e-12

/* A text that grows up to its capacity and stays a C string. */
typedef struct vtext {
    char *buf;
    size_t cap, len;
} vtext;

static void put(vtext *t, const char *fmt, ...)
{
    if (t->len + 1 >= t->cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
    va_end(ap);
    if (w > 0)
        t->len = t->len + (size_t)w < t->cap ? t->len + (size_t)w : t->cap - 1;
}

int cs_cmpverdict_class(const cs_cmp_result *r, uint64_t k)
{
    const cs_cmp_point *p = &r->point[k];
    if (r->method == CS_METHOD_EXACT)
        return p->d[0] > EXACT_ZERO ? 1 : p->d[0] < -EXACT_ZERO ? -1 : 0;
    return p->lo[0] > 0.0 ? 1 : p->hi[0] < 0.0 ? -1 : 0;
}

/* The unit written after a value: inches as ″, degrees as °. */
static void unit_of(const char *unit, char *buf, size_t cap)
{
    if (!unit || !*unit)
        buf[0] = '\0';
    else if (strcmp(unit, "in") == 0)
        snprintf(buf, cap, "\u2033");
    else if (strcmp(unit, "deg") == 0)
        snprintf(buf, cap, "\u00b0");
    else
        snprintf(buf, cap, " %s", unit);
}

/* The value of swept position pos at point k, with its unit. */
static void value_at(const cs_experiment *e, uint64_t k, int pos, bool unit, vtext *t)
{
    int choice[CS_MAX_PARAMS];
    char u[32];
    cs_experiment_point_choices(e, k, choice);
    int i = e->sweep[pos];
    unit_of(e->rs->params[i].unit, u, sizeof u);
    put(t, "%s%s", e->param[i].text[choice[i]], unit ? u : "");
}

/* Point k in words: "8″" (distance swept alone), "charge_speed 9", or
 * every swept key "maximised 1, distance 11″". */
static void point_words(const cs_experiment *e, uint64_t k, vtext *t)
{
    for (int s = 0; s < e->n_sweep; s++) {
        const char *key = e->rs->params[e->sweep[s]].key;
        if (e->n_sweep > 1 || strcmp(key, "distance") != 0)
            put(t, "%s%s ", s ? ", " : "", key);
        value_at(e, k, s, true, t);
    }
}

/* Values of the innermost swept key (the last, which varies fastest). */
static uint64_t inner_n(const cs_experiment *e)
{
    return (uint64_t)e->param[e->sweep[e->n_sweep - 1]].n;
}

/* Whether every combination of the outer swept keys has the classes of
 * the first along the innermost key: then the ranges of that key say it
 * all, "alike for every" outer key. */
static bool alike(const cs_cmp_result *r)
{
    const cs_experiment *e = r->a;
    if (e->n_sweep < 2)
        return false;
    uint64_t n = inner_n(e);
    for (uint64_t k = n; k < r->n_points; k++)
        if (cs_cmpverdict_class(r, k) != cs_cmpverdict_class(r, k % n))
            return false;
    return true;
}

/* One run of points i..j (of n) along the innermost swept key (the points
 * of the first combination of the others): "at 4″", "at 6–10″", "from
 * 14″" (to the last point), "up to 3″" (from the first). */
static void run_words(const cs_experiment *e, uint64_t i, uint64_t j, uint64_t n, vtext *t)
{
    int pos = e->n_sweep - 1;
    const char *key = e->rs->params[e->sweep[pos]].key;
    bool named = strcmp(key, "distance") != 0;
    bool from = j == n - 1 && i > 0 && j > i, upto = i == 0 && j < n - 1 && j > i;
    put(t, "%s%s%s", from ? "from " : upto ? "up to " : "at ", named ? key : "",
        named ? " " : "");
    if (i != j && !from && !upto) {
        value_at(e, i, pos, false, t);
        put(t, "\u2013");
    }
    value_at(e, upto ? j : i == j ? i : from ? i : j, pos, true, t);
}

/* Whether point k begins a run of class c. */
static bool run_start(const cs_cmp_result *r, int c, uint64_t k)
{
    return cs_cmpverdict_class(r, k) == c && (k == 0 || cs_cmpverdict_class(r, k - 1) != c);
}

/* Runs of one class past this many are counted, not listed: the verdict
 * stays one readable sentence (and within its buffer) over any sweep. */
#define MAX_RUNS 6

/* Whether the verdict speaks in ranges of the innermost swept key: one
 * key swept, or several alike (above), and no class in too many runs. */
static bool ranged(const cs_cmp_result *r)
{
    const cs_experiment *e = r->a;
    if (e->n_sweep == 0 || (e->n_sweep > 1 && !alike(r)))
        return false;
    for (int c = -1; c <= 1; c++) {
        uint64_t runs = 0;
        for (uint64_t k = 0; k < inner_n(e); k++)
            runs += run_start(r, c, k);
        if (runs > MAX_RUNS)
            return false;
    }
    return true;
}

/* Where the points of class c lie: ranges along the innermost swept key
 * (ranged), else the points themselves when one or two of several keys,
 * else their count. */
static void where_words(const cs_cmp_result *r, int c, vtext *t)
{
    const cs_experiment *e = r->a;
    uint64_t n = r->n_points, count = 0, runs = 0;
    for (uint64_t k = 0; k < n; k++)
        count += cs_cmpverdict_class(r, k) == c;
    if (e->n_sweep == 0)
        return;
    if (ranged(r)) {
        n = inner_n(e);
        uint64_t all = 0; /* runs in all, for "X, Y and Z" */
        for (uint64_t k = 0; k < n; k++)
            all += run_start(r, c, k);
        for (uint64_t k = 0; k < n; k++) {
            if (!run_start(r, c, k))
                continue;
            uint64_t j = k;
            while (j + 1 < n && cs_cmpverdict_class(r, j + 1) == c)
                j++;
            put(t, "%s", runs == 0 ? " " : runs + 1 == all ? " and " : ", ");
            run_words(e, k, j, n, t);
            runs++;
        }
    } else if (e->n_sweep > 1 && count <= 2) {
        for (uint64_t k = 0; k < n; k++)
            if (cs_cmpverdict_class(r, k) == c) {
                put(t, "%s", runs++ ? " and at " : " at ");
                point_words(e, k, t);
            }
    } else if (count == n) {
        put(t, " in all %llu cases", (unsigned long long)n);
    } else {
        put(t, " in %llu of %llu cases", (unsigned long long)count, (unsigned long long)n);
    }
}

/* x (a proportion) in percentage points with d decimals, signed. */
static void pp(double x, int d, char *buf, size_t cap)
{
    double v = 100.0 * x;
    snprintf(buf, cap, "%+.*f", d, v == 0.0 ? 0.0 : v);
}

/* The fewest decimals (1 to 4) that keep a non-zero end from reading 0
 * and two different ends from reading the same. */
static int decimals(double lo, double hi)
{
    for (int d = 1; d < 4; d++) {
        char a[64], b[64], z[64];
        pp(lo, d, a, sizeof a);
        pp(hi, d, b, sizeof b);
        pp(0.0, d, z, sizeof z);
        bool zero = (lo != 0.0 && (strcmp(a, z) == 0 || strcmp(a + 1, z + 1) == 0)) ||
                    (hi != 0.0 && (strcmp(b, z) == 0 || strcmp(b + 1, z + 1) == 0));
        if (!zero && (lo == hi || strcmp(a, b) != 0))
            return d;
    }
    return 4;
}

/* The size at point k: "(+2.7 to +2.9 points at 8″, 95%)", exact
 * "(+2.8 points at 8″, exact)"; no "at" with no sweep. */
static void size_words(const cs_cmp_result *r, uint64_t k, vtext *t)
{
    const cs_cmp_point *p = &r->point[k];
    char a[64], b[64];
    bool exact = r->method == CS_METHOD_EXACT;
    int d = exact ? decimals(p->d[0], p->d[0]) : decimals(p->lo[0], p->hi[0]);
    if (exact) {
        pp(p->d[0], d, a, sizeof a);
        put(t, " (%s points", a);
    } else {
        pp(p->lo[0], d, a, sizeof a);
        pp(p->hi[0], d, b, sizeof b);
        put(t, " (%s to %s points", a, b);
    }
    if (r->a->n_sweep > 0) {
        put(t, " at ");
        point_words(r->a, k, t);
    }
    if (exact)
        put(t, ", exact)");
    else
        put(t, ", %g%%)", 100.0 * r->a->confidence);
}

/* The point of class c with the largest |delta| (the first of equals). */
static uint64_t telling(const cs_cmp_result *r, int c)
{
    uint64_t best = 0;
    double m = -1.0;
    for (uint64_t k = 0; k < r->n_points; k++)
        if ((c == 2 || cs_cmpverdict_class(r, k) == c) && fabs(r->point[k].d[0]) > m) {
            m = fabs(r->point[k].d[0]);
            best = k;
        }
    return best;
}

/* What B (or A) does more often: "reaches" for the ruleset's own success,
 * else the outcomes p_success counts, "ends charged or caught". */
static void verb(const cs_cmp_result *r, vtext *t)
{
    const cs_ruleset *rs = r->a->rs;
    unsigned mask = r->success_mask ? r->success_mask : rs->success_mask;
    if (mask == rs->success_mask) {
        put(t, "reaches");
        return;
    }
    put(t, "ends");
    int said = 0;
    for (int o = 0; o < rs->n_outcomes; o++)
        if ((mask >> o) & 1u) {
            put(t, "%s", said++ ? " or " : " ");
            for (const char *s = rs->outcomes[o]; *s; s++)
                put(t, "%c", *s == '_' ? ' ' : *s);
        }
}

void cs_cmpverdict(const cs_cmp_result *r, char *buf, size_t cap)
{
    vtext t = {buf, cap, 0};
    if (cap == 0)
        return;
    buf[0] = '\0';
    if (r->n_points == 0)
        return;
    bool any[3] = {false, false, false}; /* A, none, B by class + 1 */
    for (uint64_t k = 0; k < r->n_points; k++)
        any[cs_cmpverdict_class(r, k) + 1] = true;
    int parts = 0;
    for (int c = 1; c >= -1; c -= 2) {
        if (!any[c + 1])
            continue;
        put(&t, "%s%s ", parts++ ? "; " : "", c > 0 ? "B" : "A");
        verb(r, &t);
        put(&t, " more often");
        where_words(r, c, &t);
        size_words(r, telling(r, c), &t);
    }
    if (any[1]) {
        bool exact = r->method == CS_METHOD_EXACT;
        put(&t, "%s%s", parts ? "; n" : "N", exact ? "o difference" : "o difference detected");
        where_words(r, 0, &t);
        if (!parts) /* nothing differs: how large the largest delta may be */
            size_words(r, telling(r, 2), &t);
    }
    if (r->a->n_sweep > 1 && ranged(r))
        for (int s = 0; s + 1 < r->a->n_sweep; s++)
            put(&t, "%s%s", s ? " and " : "; alike for every ",
                r->a->rs->params[r->a->sweep[s]].key);
    put(&t, ".");
}
