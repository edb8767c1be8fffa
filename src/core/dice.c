/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The dice language: parser, canonical text, exact distribution, sampling;
 * see include/chargesim/dice.h for the grammar, the readings and the limits. */
#include <math.h>
#include <stddef.h>

#include "chargesim/dice.h"

/* ------------------------------------------------------------------------ */
/* Faces, re-rolls and ranges                                               */
/* ------------------------------------------------------------------------ */

bool cs_dice_face_matches(const cs_dice_term *t, int f)
{
    switch (t->reroll_cmp) {
    case CS_CMP_EQ: return f == t->reroll_value;
    case CS_CMP_LE: return f <= t->reroll_value;
    case CS_CMP_GE: return f >= t->reroll_value;
    }
    return false;
}

/* How many of the faces 1..S the re-roll condition matches. */
static int n_matching(const cs_dice_term *t)
{
    int n = 0;
    for (int f = 1; f <= t->sides; f++)
        n += cs_dice_face_matches(t, f) ? 1 : 0;
    return n;
}

/* The faces a single roll can show once the re-roll rule has acted. A
 * repeated re-roll removes the matching faces (the parser guarantees one is
 * left); a re-roll once can still show a matching face, on the second roll. */
static void face_range(const cs_dice_term *t, int *fmin, int *fmax)
{
    int lo = 1, hi = t->sides;
    if (t->reroll == CS_REROLL_REPEAT) {
        while (cs_dice_face_matches(t, lo))
            lo++;
        while (cs_dice_face_matches(t, hi))
            hi--;
    }
    *fmin = lo;
    *fmax = hi;
}

/* The totals one die can reach. With '!', the maximum face always explodes
 * up to the cap, so a die that can only show S totals (CAP + 1) * S. */
static void die_range(const cs_dice_term *t, int *lo, int *hi)
{
    int fmin, fmax;
    face_range(t, &fmin, &fmax);
    int top = (CS_DICE_EXPLODE_CAP + 1) * t->sides;
    *lo = (t->explode && fmin == t->sides) ? top : fmin;
    *hi = (t->explode && fmax == t->sides) ? top : fmax;
}

int cs_dice_term_kept_count(const cs_dice_term *t)
{
    switch (t->keep) {
    case CS_KEEP_ALL: return t->count;
    case CS_KEEP_HIGH:
    case CS_KEEP_LOW: return t->keep_n;
    case CS_DROP_HIGH:
    case CS_DROP_LOW: return t->count - t->keep_n;
    }
    return t->count;
}

bool cs_dice_term_keeps_low(const cs_dice_term *t)
{
    return t->keep == CS_KEEP_LOW || t->keep == CS_DROP_HIGH;
}

static void term_range(const cs_dice_term *t, int *lo, int *hi)
{
    int a, b;
    if (t->sides == 0) {
        a = b = t->count;
    } else {
        int dlo, dhi;
        die_range(t, &dlo, &dhi);
        a = cs_dice_term_kept_count(t) * dlo;
        b = cs_dice_term_kept_count(t) * dhi;
    }
    if (t->sign < 0) {
        *lo = -b;
        *hi = -a;
    } else {
        *lo = a;
        *hi = b;
    }
}

int cs_dice_min(const cs_dice *d)
{
    int sum = 0;
    for (int i = 0; i < d->n_terms; i++) {
        int lo, hi;
        term_range(&d->term[i], &lo, &hi);
        sum += lo;
    }
    return sum;
}

int cs_dice_max(const cs_dice *d)
{
    int sum = 0;
    for (int i = 0; i < d->n_terms; i++) {
        int lo, hi;
        term_range(&d->term[i], &lo, &hi);
        sum += hi;
    }
    return sum;
}

/* ------------------------------------------------------------------------ */
/* Parser                                                                   */
/* ------------------------------------------------------------------------ */

typedef struct parser {
    const char *text;
    int pos;          /* 0-based index of the next unread character */
    cs_diag *diag;
} parser;

static int lower(int c)
{
    return (c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c;
}

static bool is_digit(int c)
{
    return c >= '0' && c <= '9';
}

/* The next token's first character, lower-cased, after spaces and tabs; 0 at
 * the end. Leaves pos on that character. */
static int peek(parser *p)
{
    while (p->text[p->pos] == ' ' || p->text[p->pos] == '\t')
        p->pos++;
    return lower((unsigned char)p->text[p->pos]);
}

/* The character right at pos (the second letter of kh, ro, ...), lower-cased. */
static int raw(const parser *p)
{
    return lower((unsigned char)p->text[p->pos]);
}

static cs_status fail(parser *p, cs_status status, int pos, const char *what)
{
    p->diag->column = pos + 1;
    p->diag->key = NULL;
    p->diag->what = what;
    return status;
}

/* An unsigned decimal number; `what` names it when no digit is there. */
static cs_status parse_number(parser *p, int *value, int *at, const char *what)
{
    int c = peek(p);
    *at = p->pos;
    if (!is_digit(c))
        return fail(p, CS_EINPUT, p->pos, what);
    int v = 0;
    while (is_digit(raw(p))) {
        v = v * 10 + (raw(p) - '0');
        if (v > CS_DICE_MAX_NUMBER)
            return fail(p, CS_ELIMIT, *at, "a number of at most 1000000");
        p->pos++;
    }
    *value = v;
    return CS_OK;
}

static cs_status parse_keep(parser *p, cs_dice_term *t, int mod_at, bool drop)
{
    int c = raw(p);
    if (c != 'h' && c != 'l')
        return fail(p, CS_EINPUT, p->pos,
                    drop ? "'h' or 'l' after 'd' (dh, dl: drop highest/lowest)"
                         : "'h' or 'l' after 'k' (kh, kl: keep highest/lowest)");
    p->pos++;
    if (t->keep != CS_KEEP_ALL)
        return fail(p, CS_EINPUT, mod_at, "at most one keep/drop modifier per term");
    int n, at;
    cs_status st = parse_number(p, &n, &at, "a count after kh, kl, dh or dl");
    if (st != CS_OK)
        return st;
    if (drop) {
        if (n < 1)
            return fail(p, CS_EINPUT, at, "a drop count of at least 1");
        if (n >= t->count)
            return fail(p, CS_EINPUT, at, "a drop count smaller than the dice count");
        t->keep = (c == 'h') ? CS_DROP_HIGH : CS_DROP_LOW;
    } else {
        if (n < 1)
            return fail(p, CS_EINPUT, at, "a keep count of at least 1");
        if (n > t->count)
            return fail(p, CS_EINPUT, at, "keep count larger than the dice count");
        t->keep = (c == 'h') ? CS_KEEP_HIGH : CS_KEEP_LOW;
    }
    t->keep_n = n;
    return CS_OK;
}

static cs_status parse_reroll(parser *p, cs_dice_term *t, int mod_at)
{
    cs_dice_reroll mode = CS_REROLL_REPEAT;
    const char *what = "a number, '<V' or '>V' after 'r'";
    if (raw(p) == 'o' || raw(p) == 's') {
        mode = raw(p) == 'o' ? CS_REROLL_ONCE : CS_REROLL_SINGLE;
        what = raw(p) == 'o' ? "a number, '<V' or '>V' after 'ro'"
                             : "a number, '<V' or '>V' after 'rs'";
        p->pos++;
    }
    if (t->reroll != CS_REROLL_NONE)
        return fail(p, CS_EINPUT, mod_at, "at most one re-roll modifier per term");
    if (mode == CS_REROLL_SINGLE && t->explode)
        return fail(p, CS_EINPUT, mod_at, "'rs' does not combine with '!'");
    cs_dice_cmp cmp = CS_CMP_EQ;
    int c = peek(p);
    if (c == '<' || c == '>') {
        cmp = (c == '<') ? CS_CMP_LE : CS_CMP_GE;
        p->pos++;
        what = c == '<' ? "a number after '<'" : "a number after '>'";
    }
    int v, at;
    cs_status st = parse_number(p, &v, &at, what);
    if (st != CS_OK)
        return st;
    t->reroll = mode;
    t->reroll_cmp = cmp;
    t->reroll_value = v;
    /* Re-rolling until no match never ends when every face matches. */
    if (mode == CS_REROLL_REPEAT && n_matching(t) == t->sides)
        return fail(p, CS_EINPUT, mod_at, "re-roll would match every face");
    return CS_OK;
}

static cs_status parse_modifiers(parser *p, cs_dice_term *t)
{
    for (;;) {
        int c = peek(p);
        int at = p->pos;
        cs_status st = CS_OK;
        if (c == 0 || c == '+' || c == '-')
            return CS_OK;
        p->pos++;
        if (c == 'k' || c == 'd') {
            st = parse_keep(p, t, at, c == 'd');
        } else if (c == 'r') {
            st = parse_reroll(p, t, at);
        } else if (c == '!') {
            if (t->explode)
                return fail(p, CS_EINPUT, at, "at most one '!' per term");
            if (t->reroll == CS_REROLL_SINGLE)
                return fail(p, CS_EINPUT, at, "'rs' does not combine with '!'");
            t->explode = true;
        } else {
            return fail(p, CS_EINPUT, at,
                        "unknown modifier: expected kh, kl, dh, dl, r, ro, rs, !, '+', '-' or "
                        "the end");
        }
        if (st != CS_OK)
            return st;
    }
}

static cs_status parse_term(parser *p, int sign, cs_dice_term *t, const char *what)
{
    *t = (cs_dice_term){.sign = sign, .count = 1};
    int c = peek(p);
    int count_at = p->pos;
    cs_status st;
    if (is_digit(c)) {
        st = parse_number(p, &t->count, &count_at, what);
        if (st != CS_OK)
            return st;
        if (peek(p) != 'd')
            return CS_OK; /* a constant: sides stays 0 */
    } else if (c != 'd') {
        return fail(p, CS_EINPUT, p->pos, what);
    }
    p->pos++; /* the 'd' */
    if (t->count < 1)
        return fail(p, CS_EINPUT, count_at, "a dice count of at least 1");
    if (t->count > CS_DICE_MAX_COUNT)
        return fail(p, CS_ELIMIT, count_at, "at most 100 dice in a term");
    int sides_at;
    st = parse_number(p, &t->sides, &sides_at, "a number of sides after 'd'");
    if (st != CS_OK)
        return st;
    if (t->sides < 1)
        return fail(p, CS_EINPUT, sides_at, "a number of sides of at least 1");
    if (t->sides > CS_DICE_MAX_SIDES)
        return fail(p, CS_ELIMIT, sides_at, "at most 1000 sides");
    return parse_modifiers(p, t);
}

cs_status cs_dice_parse(const char *text, cs_dice *out, cs_diag *diag)
{
    parser p = {.text = text, .pos = 0, .diag = diag};
    *diag = (cs_diag){0};
    out->n_terms = 0;
    int c = peek(&p);
    if (c == 0)
        return fail(&p, CS_EINPUT, p.pos, "a dice expression (e.g. 2d6+1)");
    int sign = 1;
    const char *what = "a number or a die (e.g. 2d6)";
    if (c == '-') {
        sign = -1;
        p.pos++;
        what = "a number or a die after '-'";
    }
    for (;;) {
        if (out->n_terms == CS_DICE_MAX_TERMS) {
            (void)peek(&p);
            return fail(&p, CS_ELIMIT, p.pos, "at most 8 terms");
        }
        cs_status st = parse_term(&p, sign, &out->term[out->n_terms], what);
        if (st != CS_OK)
            return st;
        out->n_terms++;
        c = peek(&p);
        if (c == 0)
            return CS_OK;
        if (c != '+' && c != '-') /* only a constant can stop here */
            return fail(&p, CS_EINPUT, p.pos, "'d', '+', '-' or the end after a number");
        sign = (c == '+') ? 1 : -1;
        what = "a number or a die after '+' or '-'";
        p.pos++;
    }
}

/* ------------------------------------------------------------------------ */
/* Canonical text                                                           */
/* ------------------------------------------------------------------------ */

typedef struct writer {
    char *buf;
    int cap;
    int len;
} writer;

static void put_char(writer *w, char c)
{
    if (w->len < w->cap - 1)
        w->buf[w->len] = c;
    w->len++;
}

static void put_str(writer *w, const char *s)
{
    while (*s)
        put_char(w, *s++);
}

static void put_int(writer *w, int v)
{
    char digits[12];
    int n = 0;
    unsigned u = v < 0 ? 0u - (unsigned)v : (unsigned)v;
    if (v < 0)
        put_char(w, '-');
    do {
        digits[n++] = (char)('0' + (int)(u % 10u));
        u /= 10u;
    } while (u != 0u);
    while (n > 0)
        put_char(w, digits[--n]);
}

void cs_dice_format(const cs_dice *d, char *buf, int cap)
{
    writer w = {.buf = buf, .cap = cap, .len = 0};
    for (int i = 0; i < d->n_terms; i++) {
        const cs_dice_term *t = &d->term[i];
        if (t->sign < 0)
            put_char(&w, '-');
        else if (i > 0)
            put_char(&w, '+');
        if (t->sides == 0) {
            put_int(&w, t->count);
            continue;
        }
        if (t->count != 1)
            put_int(&w, t->count);
        put_char(&w, 'd');
        put_int(&w, t->sides);
        if (t->explode)
            put_char(&w, '!');
        if (t->reroll != CS_REROLL_NONE) {
            static const char *const reroll_text[] = {"", "r", "ro", "rs"};
            put_str(&w, reroll_text[t->reroll]);
            if (t->reroll_cmp == CS_CMP_LE)
                put_char(&w, '<');
            else if (t->reroll_cmp == CS_CMP_GE)
                put_char(&w, '>');
            put_int(&w, t->reroll_value);
        }
        static const char *const keep_text[] = {"", "kh", "kl", "dh", "dl"};
        if (t->keep != CS_KEEP_ALL) {
            put_str(&w, keep_text[t->keep]);
            put_int(&w, t->keep_n);
        }
    }
    buf[w.len < cap - 1 ? w.len : cap - 1] = '\0';
}

/* ------------------------------------------------------------------------ */
/* Distributions                                                            */
/* ------------------------------------------------------------------------ */

static int dist_width(const cs_dist *d)
{
    return d->hi - d->lo + 1;
}

void cs_dist_point(cs_dist *out, int value)
{
    out->lo = out->hi = value;
    out->p[0] = 1.0;
}

double cs_dist_p_eq(const cs_dist *d, int v)
{
    return (v < d->lo || v > d->hi) ? 0.0 : d->p[v - d->lo];
}

/* Each tail is summed over its own terms rather than as 1 minus the other
 * tail, so that a small tail keeps its relative precision. */
double cs_dist_p_at_least(const cs_dist *d, int v)
{
    if (v <= d->lo)
        return 1.0;
    double s = 0.0;
    for (int x = d->hi; x >= v; x--)
        s += d->p[x - d->lo];
    return s;
}

double cs_dist_p_at_most(const cs_dist *d, int v)
{
    if (v >= d->hi)
        return 1.0;
    double s = 0.0;
    for (int x = d->lo; x <= v; x++)
        s += d->p[x - d->lo];
    return s;
}

double cs_dist_p_at_least_real(const cs_dist *d, double x)
{
    double c = ceil(x);
    if (c <= (double)d->lo)
        return 1.0;
    if (!(c <= (double)d->hi)) /* also NaN */
        return 0.0;
    return cs_dist_p_at_least(d, (int)c);
}

double cs_dist_mean(const cs_dist *d)
{
    double s = 0.0;
    for (int i = 0; i < dist_width(d); i++)
        s += (double)(d->lo + i) * d->p[i];
    return s;
}

double cs_dist_variance(const cs_dist *d)
{
    double m = cs_dist_mean(d), s = 0.0;
    for (int i = 0; i < dist_width(d); i++) {
        double e = (double)(d->lo + i) - m;
        s += e * e * d->p[i];
    }
    return s;
}

void cs_dist_shift(cs_dist *d, int by)
{
    d->lo += by;
    d->hi += by;
}

cs_status cs_dist_convolve(const cs_dist *a, const cs_dist *b, cs_dist *out)
{
    int wa = dist_width(a), wb = dist_width(b);
    if (wa + wb - 1 > CS_DIST_CAP)
        return CS_ELIMIT;
    cs_dist r;
    r.lo = a->lo + b->lo;
    r.hi = a->hi + b->hi;
    for (int i = 0; i < wa + wb - 1; i++)
        r.p[i] = 0.0;
    for (int i = 0; i < wa; i++) {
        double pa = a->p[i];
        if (pa == 0.0)
            continue;
        for (int j = 0; j < wb; j++)
            r.p[i + j] += pa * b->p[j];
    }
    out->lo = r.lo;
    out->hi = r.hi;
    for (int i = 0; i < wa + wb - 1; i++)
        out->p[i] = r.p[i];
    return CS_OK;
}

/* -X: a subtracted term, or keep-lowest computed as keep-highest of -X. */
static void dist_mirror(cs_dist *d)
{
    int w = dist_width(d);
    for (int i = 0, j = w - 1; i < j; i++, j--) {
        double t = d->p[i];
        d->p[i] = d->p[j];
        d->p[j] = t;
    }
    int lo = d->lo;
    d->lo = -d->hi;
    d->hi = -lo;
}

static cs_status limit(cs_diag *diag, const char *what)
{
    diag->column = 0;
    diag->key = NULL;
    diag->what = what;
    return CS_ELIMIT;
}

/* One die's total. A single roll shows face f with q(f): 1/S plain; 1/(S - M)
 * on the S - M faces a repeated re-roll keeps; [f does not match]/S + (M/S)(1/S)
 * with a re-roll once (the first roll kept, or a matching first roll then any
 * face). With '!', k maxima then a non-maximal face total k S + f with
 * q(S)^k q(f), and after CS_DICE_EXPLODE_CAP maxima the last roll is kept
 * whatever it shows. The caller has checked the width. */
static void die_dist(const cs_dice_term *t, cs_dist *out)
{
    double q[CS_DICE_MAX_SIDES + 1];
    int s = t->sides, m = n_matching(t);
    for (int f = 1; f <= s; f++) {
        bool match = cs_dice_face_matches(t, f);
        switch (t->reroll) {
        case CS_REROLL_NONE:
        case CS_REROLL_SINGLE: q[f] = 1.0 / (double)s; break; /* one die: term_dist */
        case CS_REROLL_REPEAT: q[f] = match ? 0.0 : 1.0 / (double)(s - m); break;
        case CS_REROLL_ONCE:
            q[f] = ((match ? 0.0 : (double)s) + (double)m) / ((double)s * (double)s);
            break;
        }
    }
    int fmin, fmax;
    face_range(t, &fmin, &fmax);
    die_range(t, &out->lo, &out->hi);
    for (int i = 0; i < dist_width(out); i++)
        out->p[i] = 0.0;
    if (!t->explode) {
        for (int f = fmin; f <= fmax; f++)
            out->p[f - out->lo] = q[f];
        return;
    }
    /* q(S) = 0 (S re-rolled away) leaves only k = 0: the loop stops there. */
    double pk = 1.0; /* q(S)^k */
    for (int k = 0; k <= CS_DICE_EXPLODE_CAP && pk > 0.0; k++) {
        for (int f = fmin; f <= fmax; f++) {
            if (f == s && k < CS_DICE_EXPLODE_CAP)
                continue; /* it explodes: counted at k + 1 */
            out->p[k * s + f - out->lo] += pk * q[f];
        }
        pk *= q[s];
    }
}

/* C(n, k) in double, exact for the n <= CS_DICE_MAX_COUNT used here up to
 * the last bit or so. */
static double binomial(int n, int k)
{
    double c = 1.0;
    for (int i = 1; i <= k; i++)
        c = c * (double)(n - k + i) / (double)i;
    return c;
}

/* The multiply-adds keep_high will do; see there. */
static double keep_work(const cs_dist *die, int k)
{
    double work = 0.0;
    int above = 0; /* support values above t */
    for (int t = die->hi; t >= die->lo; t--) {
        if (die->p[t - die->lo] == 0.0)
            continue;
        double span = (double)(die->hi - t - 1);
        for (int a = 1; a < k && above > 0; a++)
            work += ((double)(a - 1) * span + 1.0) * (double)above;
        above++;
    }
    return work;
}

/* The sum of the K highest of N independent dice distributed as `die`, by
 * conditioning on t, the K-th highest value. With A dice above t (A < K), B at
 * t (B >= K - A) and the N - A - B others below, the kept sum is (sum of the
 * A dice above t) + (K - A) t, and
 *   P = C(N, A) [q restricted to > t]^{*A}(sum)
 *       * sum_B C(N - A, B) q(t)^B P(X < t)^(N - A - B).
 * Every term is a non-negative product, so nothing cancels. The A-fold
 * convolution is built one die at a time over the values above t. */
static void keep_high(const cs_dist *die, int n, int k, cs_dist *out)
{
    double buf_a[CS_DIST_CAP], buf_b[CS_DIST_CAP];
    int lo = die->lo, hi = die->hi;
    out->lo = k * lo;
    out->hi = k * hi;
    for (int i = 0; i < dist_width(out); i++)
        out->p[i] = 0.0;
    double below = 0.0; /* P(X < t) */
    for (int t = lo; t <= hi; t++) {
        double pt = die->p[t - lo];
        if (pt == 0.0)
            continue;
        /* cur[i] = P(A dice, all above t, sum to A (t + 1) + i) */
        double *cur = buf_a, *nxt = buf_b;
        int span = hi - t - 1; /* sums of one die above t: t+1 .. hi */
        cur[0] = 1.0;
        double c_na = 1.0; /* C(N, A) */
        for (int a = 0; a < k; a++) {
            if (a > 0) {
                if (t == hi)
                    break; /* nothing above the maximum */
                int w_prev = (a - 1) * span + 1;
                for (int i = 0; i < a * span + 1; i++)
                    nxt[i] = 0.0;
                for (int i = 0; i < w_prev; i++) {
                    if (cur[i] == 0.0)
                        continue;
                    for (int v = t + 1; v <= hi; v++)
                        nxt[i + v - t - 1] += cur[i] * die->p[v - lo];
                }
                double *tmp = cur;
                cur = nxt;
                nxt = tmp;
            }
            int rest = n - a;
            double w = 0.0, c = binomial(rest, k - a);
            for (int b = k - a; b <= rest; b++) {
                w += c * pow(pt, (double)b) * pow(below, (double)(rest - b));
                c = c * (double)(rest - b) / (double)(b + 1);
            }
            double coef = c_na * w;
            int base = (k - a) * t + a * (t + 1) - out->lo;
            for (int i = 0; i < a * span + 1; i++)
                out->p[base + i] += coef * cur[i];
            c_na = c_na * (double)(n - a) / (double)(a + 1);
        }
        below += pt;
    }
}

/* The kept total of the n faces in v (sorted here, ascending). */
int cs_dice_term_kept(const cs_dice_term *t, int *v, int n)
{
    for (int i = 1; i < n; i++) /* insertion sort */
        for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
            int x = v[j];
            v[j] = v[j - 1];
            v[j - 1] = x;
        }
    int k = cs_dice_term_kept_count(t), from = cs_dice_term_keeps_low(t) ? 0 : n - k, total = 0;
    for (int i = from; i < from + k; i++)
        total += v[i];
    return total;
}

bool cs_dice_faces_next(int *face, int n, int sides)
{
    int i = 0;
    while (i < n && face[i] == sides)
        face[i++] = 1;
    if (i == n)
        return false;
    face[i]++;
    return true;
}

/* The die of `face` that 'rs' re-rolls: the lowest matching one; -1: none. */
static int single_pick(const cs_dice_term *t, const int *face)
{
    int pick = -1;
    for (int i = 0; i < t->count; i++)
        if (cs_dice_face_matches(t, face[i]) && (pick < 0 || face[i] < face[pick]))
            pick = i;
    return pick;
}

/* An 'rs' term, by enumeration: each of the S^N first rolls has weight
 * S^-N; one with a matching die spreads it over the S faces of the
 * re-roll. Every weight is a product of exact factors: nothing sampled. */
static cs_status single_dist(const cs_dice_term *t, cs_dist *out, cs_diag *diag)
{
    int n = t->count, s = t->sides;
    if (pow((double)s, (double)n + 1.0) > CS_DICE_SINGLE_WORK)
        return limit(diag, "an 'rs' term too large to compute exactly (S^(N+1) > 2e6)");
    int face[CS_DICE_MAX_COUNT], v[CS_DICE_MAX_COUNT];
    out->lo = cs_dice_term_kept_count(t);
    out->hi = cs_dice_term_kept_count(t) * s;
    for (int i = 0; i < dist_width(out); i++)
        out->p[i] = 0.0;
    double w = pow((double)s, -(double)n);
    for (int i = 0; i < n; i++)
        face[i] = 1;
    for (;;) {
        int pick = single_pick(t, face);
        for (int g = pick < 0 ? 0 : 1; g <= (pick < 0 ? 0 : s); g++) {
            for (int i = 0; i < n; i++)
                v[i] = face[i];
            if (pick >= 0)
                v[pick] = g;
            out->p[cs_dice_term_kept(t, v, n) - out->lo] += pick < 0 ? w : w / (double)s;
        }
        if (!cs_dice_faces_next(face, n, s))
            break;
    }
    if (t->sign < 0)
        dist_mirror(out);
    return CS_OK;
}

static cs_status term_dist(const cs_dice_term *t, cs_dist *out, cs_diag *diag)
{
    if (t->sides == 0) {
        cs_dist_point(out, t->sign * t->count);
        return CS_OK;
    }
    if (t->reroll == CS_REROLL_SINGLE)
        return single_dist(t, out, diag);
    cs_dist die;
    die_dist(t, &die);
    int k = cs_dice_term_kept_count(t);
    if (k < t->count) {
        if (cs_dice_term_keeps_low(t))
            dist_mirror(&die);
        if (keep_work(&die, k) > CS_DICE_EXACT_WORK)
            return limit(diag, "a keep/drop term too large to compute exactly");
        keep_high(&die, t->count, k, out);
        if (cs_dice_term_keeps_low(t))
            dist_mirror(out);
    } else {
        *out = die;
        for (int i = 1; i < t->count; i++)
            (void)cs_dist_convolve(out, &die, out); /* width checked by the caller */
    }
    if (t->sign < 0)
        dist_mirror(out);
    return CS_OK;
}

cs_status cs_dice_exact(const cs_dice *d, cs_dist *out, cs_diag *diag)
{
    *diag = (cs_diag){0};
    /* Every die's and term's support is no wider than the total's. */
    if (cs_dice_max(d) - cs_dice_min(d) + 1 > CS_DIST_CAP)
        return limit(diag, "the totals span more than 4096 values (CS_DIST_CAP)");
    cs_status st = term_dist(&d->term[0], out, diag);
    for (int i = 1; i < d->n_terms && st == CS_OK; i++) {
        cs_dist term;
        st = term_dist(&d->term[i], &term, diag);
        if (st == CS_OK)
            (void)cs_dist_convolve(out, &term, out);
    }
    return st;
}

/* ------------------------------------------------------------------------ */
/* Sampling                                                                 */
/* ------------------------------------------------------------------------ */

/* One roll after the re-roll rule. A repeated re-roll is drawn directly,
 * uniformly on the faces that do not match: the same distribution as rolling
 * until no match, in one draw. */
static int roll_face(const cs_dice_term *t, cs_rng *rng)
{
    int s = t->sides, v = t->reroll_value;
    switch (t->reroll) {
    case CS_REROLL_NONE:
    case CS_REROLL_SINGLE: break; /* one die of the term: roll_single */
    case CS_REROLL_ONCE: {
        int f = cs_rng_die(rng, s);
        return cs_dice_face_matches(t, f) ? cs_rng_die(rng, s) : f;
    }
    case CS_REROLL_REPEAT:
        switch (t->reroll_cmp) {
        case CS_CMP_EQ:
            if (v >= 1 && v <= s) {
                int f = cs_rng_die(rng, s - 1);
                return f >= v ? f + 1 : f;
            }
            break;
        case CS_CMP_LE: {
            int first = v + 1; /* v < S: the parser refused r<S and above */
            return first + (int)cs_rng_bounded(rng, (uint32_t)(s - first + 1));
        }
        case CS_CMP_GE: return cs_rng_die(rng, v - 1 < s ? v - 1 : s);
        }
        break;
    }
    return cs_rng_die(rng, s);
}

static int roll_die(const cs_dice_term *t, cs_rng *rng)
{
    int total = 0;
    for (int k = 0;; k++) {
        int f = roll_face(t, rng);
        total += f;
        if (!t->explode || f != t->sides || k == CS_DICE_EXPLODE_CAP)
            return total;
    }
}

/* An 'rs' term: N faces, the lowest matching one rolled again, then kept. */
static int roll_single(const cs_dice_term *t, cs_rng *rng)
{
    int face[CS_DICE_MAX_COUNT];
    for (int i = 0; i < t->count; i++)
        face[i] = cs_rng_die(rng, t->sides);
    int pick = single_pick(t, face);
    if (pick >= 0)
        face[pick] = cs_rng_die(rng, t->sides);
    return cs_dice_term_kept(t, face, t->count);
}

static int roll_term(const cs_dice_term *t, cs_rng *rng)
{
    if (t->sides == 0)
        return t->count;
    if (t->reroll == CS_REROLL_SINGLE)
        return roll_single(t, rng);
    if (t->keep == CS_KEEP_ALL && t->reroll == CS_REROLL_NONE && !t->explode) {
        /* The hot path: N bounded draws, the +1 per die added once. */
        uint32_t sum = 0, sides = (uint32_t)t->sides;
        for (int i = 0; i < t->count; i++)
            sum += cs_rng_bounded(rng, sides);
        return (int)sum + t->count;
    }
    int total = 0;
    if (t->keep == CS_KEEP_ALL) {
        for (int i = 0; i < t->count; i++)
            total += roll_die(t, rng);
        return total;
    }
    int v[CS_DICE_MAX_COUNT];
    for (int i = 0; i < t->count; i++) { /* insertion sort, ascending */
        int x = roll_die(t, rng), j = i;
        for (; j > 0 && v[j - 1] > x; j--)
            v[j] = v[j - 1];
        v[j] = x;
    }
    int k = cs_dice_term_kept_count(t);
    int from = cs_dice_term_keeps_low(t) ? 0 : t->count - k;
    for (int i = from; i < from + k; i++)
        total += v[i];
    return total;
}

int cs_dice_roll(const cs_dice *d, cs_rng *rng)
{
    int total = 0;
    for (int i = 0; i < d->n_terms; i++) {
        int x = roll_term(&d->term[i], rng);
        total += d->term[i].sign < 0 ? -x : x;
    }
    return total;
}
