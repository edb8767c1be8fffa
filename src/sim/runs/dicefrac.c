/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A dice expression's exact distribution as fractions; see
 * include/chargesim/dicefrac.h. Every step of src/core/dice.c's
 * cs_dice_exact is mirrored here with integer weights over a common
 * denominator (P(X = v) = w[v - lo] / den), so nothing is rounded: a die's
 * faces, a term's sum or its kept dice, the terms' sum. Where dice.c
 * multiplies probabilities, this multiplies weights and denominators. */
#include "chargesim/dicefrac.h"

/* GMP's header is the library's: its inline mpz_size trips clang's
 * -Wsign-conversion in the web build, where the header is not a system one. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wsign-conversion"
#include <gmp.h>
#pragma GCC diagnostic pop
#include <stdlib.h>
#include <string.h>

/* A distribution over lo..hi: P(X = v) = w[v - lo] / den. */
typedef struct fdist {
    int lo, hi;
    mpz_t *w;
    mpz_t den;
} fdist;

struct cs_dicefrac {
    fdist total;
};

/* The big-integer multiply-adds done so far, against CS_DICEFRAC_WORK. */
typedef struct budget {
    double work;
} budget;

static bool spend(budget *b, double work)
{
    b->work += work;
    return b->work <= CS_DICEFRAC_WORK;
}

static int width(const fdist *d)
{
    return d->hi - d->lo + 1;
}

/* Weights 0 over lo..hi, den 1; false when out of memory. */
static bool fd_init(fdist *d, int lo, int hi)
{
    d->lo = lo;
    d->hi = hi;
    d->w = malloc((size_t)(hi - lo + 1) * sizeof *d->w);
    if (!d->w)
        return false;
    for (int i = 0; i < hi - lo + 1; i++)
        mpz_init(d->w[i]);
    mpz_init_set_ui(d->den, 1);
    return true;
}

static void fd_clear(fdist *d)
{
    if (!d->w)
        return;
    for (int i = 0; i < width(d); i++)
        mpz_clear(d->w[i]);
    free(d->w);
    d->w = NULL;
    mpz_clear(d->den);
}

/* Divides the weights and den by their greatest common divisor, so the
 * numbers a term carries into the next step stay small. */
static void fd_reduce(fdist *d)
{
    mpz_t g;
    mpz_init_set(g, d->den);
    for (int i = 0; i < width(d) && mpz_cmp_ui(g, 1) != 0; i++)
        mpz_gcd(g, g, d->w[i]);
    if (mpz_cmp_ui(g, 1) != 0) {
        for (int i = 0; i < width(d); i++)
            mpz_divexact(d->w[i], d->w[i], g);
        mpz_divexact(d->den, d->den, g);
    }
    mpz_clear(g);
}

/* -X (dice.c: dist_mirror). */
static void fd_mirror(fdist *d)
{
    for (int i = 0, j = width(d) - 1; i < j; i++, j--)
        mpz_swap(d->w[i], d->w[j]);
    int lo = d->lo;
    d->lo = -d->hi;
    d->hi = -lo;
}

/* *a = *a + *b (independent): the convolution, into a. */
static cs_status fd_add(fdist *a, const fdist *b, budget *bud)
{
    if (!spend(bud, (double)width(a) * (double)width(b)))
        return CS_ELIMIT;
    fdist s;
    if (!fd_init(&s, a->lo + b->lo, a->hi + b->hi))
        return CS_ENOMEM;
    for (int i = 0; i < width(a); i++)
        if (mpz_sgn(a->w[i]) != 0)
            for (int j = 0; j < width(b); j++)
                mpz_addmul(s.w[i + j], a->w[i], b->w[j]);
    mpz_mul(s.den, a->den, b->den);
    fd_reduce(&s);
    fd_clear(a);
    *a = s;
    return CS_OK;
}

/* One die (dice.c: die_dist). A single roll shows face f with weight q[f]
 * over D: 1 over S plain (and for 'rs', whose re-roll acts on the term);
 * [f does not match] over S - M with a repeated re-roll; [f does not
 * match] S + M over S^2 with a re-roll once. With '!', k maxima then a
 * face f weigh q[S]^k q[f] over D^(k + 1), that is q[S]^k q[f] D^(CAP - k)
 * over D^(CAP + 1); the last roll after CAP maxima never explodes. */
static bool die_fd(const cs_dice_term *t, fdist *out)
{
    unsigned long q[CS_DICE_MAX_SIDES + 1], s = (unsigned long)t->sides, m = 0, dd;
    int fmin = t->sides + 1, fmax = 0;
    for (int f = 1; f <= t->sides; f++)
        m += cs_dice_face_matches(t, f);
    for (int f = 1; f <= t->sides; f++) {
        bool match = cs_dice_face_matches(t, f);
        switch (t->reroll) {
        case CS_REROLL_REPEAT: q[f] = match ? 0 : 1; break;
        case CS_REROLL_ONCE: q[f] = (match ? 0 : s) + m; break;
        default: q[f] = 1; break;
        }
        if (q[f]) {
            fmin = f < fmin ? f : fmin;
            fmax = f;
        }
    }
    dd = t->reroll == CS_REROLL_REPEAT ? s - m : t->reroll == CS_REROLL_ONCE ? s * s : s;
    const int cap = CS_DICE_EXPLODE_CAP, top = (cap + 1) * t->sides;
    if (!t->explode) {
        if (!fd_init(out, fmin, fmax))
            return false;
        for (int f = fmin; f <= fmax; f++)
            mpz_set_ui(out->w[f - fmin], q[f]);
        mpz_set_ui(out->den, dd);
        return true;
    }
    if (!fd_init(out, fmin == t->sides ? top : fmin, fmax == t->sides ? top : fmax))
        return false;
    mpz_t pk, c;
    mpz_init_set_ui(pk, 1); /* q[S]^k */
    mpz_init(c);
    for (int k = 0; k <= cap && mpz_sgn(pk) != 0; k++) {
        mpz_ui_pow_ui(c, dd, (unsigned long)(cap - k));
        mpz_mul(c, c, pk);
        for (int f = fmin; f <= fmax; f++)
            if (!(f == t->sides && k < cap)) /* else it explodes: counted at k + 1 */
                mpz_addmul_ui(out->w[k * t->sides + f - out->lo], c, q[f]);
        mpz_mul_ui(pk, pk, q[t->sides]);
    }
    mpz_ui_pow_ui(out->den, dd, (unsigned long)cap + 1);
    mpz_clear(pk);
    mpz_clear(c);
    fd_reduce(out);
    return true;
}

/* The K highest of N dice (dice.c: keep_high, whose formula this is in
 * integers): conditioning on t, the K-th highest value, with A dice above
 * t, B at t and the others below, the kept sum's weight is C(N, A) (the
 * A-fold sum of the weights above t) sum_B C(N - A, B) w(t)^B
 * below(t)^(N - A - B), over D^N. */
static cs_status keep_high_fd(const fdist *die, int n, int k, fdist *out, budget *bud)
{
    int lo = die->lo, hi = die->hi, span_max = hi - lo + 1;
    if (!fd_init(out, k * lo, k * hi))
        return CS_ENOMEM;
    mpz_t *cur = malloc((size_t)k * (size_t)span_max * sizeof *cur);
    mpz_t *nxt = malloc((size_t)k * (size_t)span_max * sizeof *nxt);
    int nbuf = k * span_max;
    cs_status st = cur && nxt ? CS_OK : CS_ENOMEM;
    for (int i = 0; st == CS_OK && i < nbuf; i++) {
        mpz_init(cur[i]);
        mpz_init(nxt[i]);
    }
    mpz_t below, wsum, term, c, coef;
    mpz_inits(below, wsum, term, c, coef, NULL);
    for (int t = lo; st == CS_OK && t <= hi; t++) {
        const mpz_t *pt = &die->w[t - lo];
        if (mpz_sgn(*pt) == 0)
            continue;
        int span = hi - t - 1; /* one die above t: t+1 .. hi */
        mpz_set_ui(cur[0], 1);
        for (int a = 0; st == CS_OK && a < k; a++) {
            if (a > 0) {
                if (t == hi)
                    break;
                int w_prev = (a - 1) * span + 1;
                if (!spend(bud, (double)w_prev * (double)(span + 1))) {
                    st = CS_ELIMIT;
                    break;
                }
                for (int i = 0; i < a * span + 1; i++)
                    mpz_set_ui(nxt[i], 0);
                for (int i = 0; i < w_prev; i++)
                    if (mpz_sgn(cur[i]) != 0)
                        for (int v = t + 1; v <= hi; v++)
                            mpz_addmul(nxt[i + v - t - 1], cur[i], die->w[v - lo]);
                mpz_t *tmp = cur;
                cur = nxt;
                nxt = tmp;
            }
            int rest = n - a;
            mpz_set_ui(wsum, 0);
            for (int b = k - a; b <= rest; b++) {
                mpz_bin_uiui(c, (unsigned long)rest, (unsigned long)b);
                mpz_pow_ui(term, *pt, (unsigned long)b);
                mpz_mul(c, c, term);
                mpz_pow_ui(term, below, (unsigned long)(rest - b));
                mpz_addmul(wsum, c, term);
            }
            mpz_bin_uiui(coef, (unsigned long)n, (unsigned long)a);
            mpz_mul(coef, coef, wsum);
            int base = (k - a) * t + a * (t + 1) - out->lo;
            if (!spend(bud, (double)(a * span + 1))) {
                st = CS_ELIMIT;
                break;
            }
            for (int i = 0; i < a * span + 1; i++)
                mpz_addmul(out->w[base + i], coef, cur[i]);
        }
        mpz_add(below, below, *pt);
    }
    mpz_pow_ui(out->den, die->den, (unsigned long)n);
    mpz_clears(below, wsum, term, c, coef, NULL);
    for (int i = 0; cur && nxt && i < nbuf; i++) {
        mpz_clear(cur[i]);
        mpz_clear(nxt[i]);
    }
    free(cur);
    free(nxt);
    if (st == CS_OK)
        fd_reduce(out);
    return st;
}

/* An 'rs' term (dice.c: single_dist): each of the S^N first rolls weighs S
 * over S^(N + 1), or, when a die matches, 1 for each face of the re-roll
 * of the lowest matching die. */
static cs_status single_fd(const cs_dice_term *t, fdist *out, budget *bud)
{
    int n = t->count, s = t->sides;
    int face[CS_DICE_MAX_COUNT], v[CS_DICE_MAX_COUNT];
    mpz_t work;
    mpz_init(work);
    mpz_ui_pow_ui(work, (unsigned long)s, (unsigned long)n + 1);
    bool ok = mpz_cmp_d(work, CS_DICE_SINGLE_WORK) <= 0 && spend(bud, mpz_get_d(work));
    mpz_clear(work);
    if (!ok)
        return CS_ELIMIT;
    if (!fd_init(out, cs_dice_term_kept_count(t), cs_dice_term_kept_count(t) * s))
        return CS_ENOMEM;
    mpz_ui_pow_ui(out->den, (unsigned long)s, (unsigned long)n + 1);
    for (int i = 0; i < n; i++)
        face[i] = 1;
    for (;;) {
        int pick = -1;
        for (int i = 0; i < n; i++)
            if (cs_dice_face_matches(t, face[i]) && (pick < 0 || face[i] < face[pick]))
                pick = i;
        for (int g = pick < 0 ? 0 : 1; g <= (pick < 0 ? 0 : s); g++) {
            memcpy(v, face, (size_t)n * sizeof *v);
            if (pick >= 0)
                v[pick] = g;
            mpz_t *w = &out->w[cs_dice_term_kept(t, v, n) - out->lo];
            mpz_add_ui(*w, *w, pick < 0 ? (unsigned long)s : 1);
        }
        if (!cs_dice_faces_next(face, n, s))
            break;
    }
    fd_reduce(out);
    return CS_OK;
}

/* One term (dice.c: term_dist). */
static cs_status term_fd(const cs_dice_term *t, fdist *out, budget *bud)
{
    cs_status st = CS_OK;
    if (t->sides == 0) {
        if (!fd_init(out, t->sign * t->count, t->sign * t->count))
            return CS_ENOMEM;
        mpz_set_ui(out->w[0], 1);
        return CS_OK;
    }
    if (t->reroll == CS_REROLL_SINGLE) {
        st = single_fd(t, out, bud);
    } else {
        fdist die;
        if (!die_fd(t, &die))
            return CS_ENOMEM;
        int k = cs_dice_term_kept_count(t);
        if (k < t->count) {
            if (cs_dice_term_keeps_low(t))
                fd_mirror(&die);
            st = keep_high_fd(&die, t->count, k, out, bud);
            if (st == CS_OK && cs_dice_term_keeps_low(t))
                fd_mirror(out);
            if (st != CS_OK)
                fd_clear(out);
        } else {
            st = fd_init(out, 0, 0) ? CS_OK : CS_ENOMEM;
            if (st == CS_OK)
                mpz_set_ui(out->w[0], 1);
            for (int i = 0; st == CS_OK && i < t->count; i++)
                st = fd_add(out, &die, bud);
            if (st != CS_OK)
                fd_clear(out);
        }
        fd_clear(&die);
    }
    if (st == CS_OK && t->sign < 0)
        fd_mirror(out);
    return st;
}

cs_status cs_dicefrac_new(const cs_dice *d, cs_dicefrac **out)
{
    *out = NULL;
    if (cs_dice_max(d) - cs_dice_min(d) + 1 > CS_DIST_CAP)
        return CS_ELIMIT;
    cs_dicefrac *f = calloc(1, sizeof *f);
    if (!f)
        return CS_ENOMEM;
    budget bud = {0};
    cs_status st = term_fd(&d->term[0], &f->total, &bud);
    for (int i = 1; i < d->n_terms && st == CS_OK; i++) {
        fdist term = {0};
        st = term_fd(&d->term[i], &term, &bud);
        if (st == CS_OK)
            st = fd_add(&f->total, &term, &bud);
        fd_clear(&term);
    }
    if (st != CS_OK) {
        cs_dicefrac_free(f);
        return st;
    }
    *out = f;
    return CS_OK;
}

bool cs_dicefrac_text(const cs_dicefrac *f, int v, char *buf, size_t cap)
{
    const fdist *d = &f->total;
    buf[0] = '\0';
    if (v < d->lo || v > d->hi || mpz_sgn(d->w[v - d->lo]) == 0) {
        if (cap > 1)
            memcpy(buf, "0", 2);
        return cap > 1;
    }
    mpz_t g, num, den;
    mpz_inits(g, num, den, NULL);
    mpz_gcd(g, d->w[v - d->lo], d->den);
    mpz_divexact(num, d->w[v - d->lo], g);
    mpz_divexact(den, d->den, g);
    /* sizeinbase may say one digit more than there are: the length decides. */
    size_t nn = mpz_sizeinbase(num, 10), nd = mpz_sizeinbase(den, 10);
    bool ok = nn <= CS_DICEFRAC_MAX_DIGITS + 1 && nd <= CS_DICEFRAC_MAX_DIGITS + 1 &&
              cap >= nn + nd + 3;
    if (ok) {
        mpz_get_str(buf, 10, num);
        size_t ln = strlen(buf), ld = 0;
        if (mpz_cmp_ui(den, 1) != 0) {
            buf[ln] = '/';
            mpz_get_str(buf + ln + 1, 10, den);
            ld = strlen(buf + ln + 1);
        }
        ok = ln <= CS_DICEFRAC_MAX_DIGITS && ld <= CS_DICEFRAC_MAX_DIGITS;
        if (!ok)
            buf[0] = '\0';
    }
    mpz_clears(g, num, den, NULL);
    return ok;
}

void cs_dicefrac_free(cs_dicefrac *f)
{
    if (!f)
        return;
    fd_clear(&f->total);
    free(f);
}
