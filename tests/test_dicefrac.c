/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cs_dicefrac (src/sim/runs/dicefrac.c): a dice expression's probabilities
 * as fractions in lowest terms, counted with integers (issue 52). The
 * expectations are counted here by hand or by enumerating the rolls, and
 * every fraction is checked against cs_dice_exact's double. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/dice.h"
#include "chargesim/dicefrac.h"

static cs_dicefrac *frac_of(const char *text, cs_dice *d)
{
    cs_diag diag;
    cr_assert_eq(cs_dice_parse(text, d, &diag), CS_OK, "%s", text);
    cs_dicefrac *f = NULL;
    cr_assert_eq(cs_dicefrac_new(d, &f), CS_OK, "%s", text);
    return f;
}

static void expect_text(const cs_dicefrac *f, int v, const char *want)
{
    char buf[2 * CS_DICEFRAC_MAX_DIGITS + 2];
    cr_expect(cs_dicefrac_text(f, v, buf, sizeof buf));
    cr_expect_str_eq(buf, want, "P(X = %d)", v);
}

/* The greatest common divisor, to reduce a count over its denominator. */
static unsigned long long gcd(unsigned long long a, unsigned long long b)
{
    while (b) {
        unsigned long long t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* "n/d" in lowest terms, "0" or "1" as the fractions are written. */
static void fraction(unsigned long long n, unsigned long long d, char *buf, size_t cap)
{
    unsigned long long g = n ? gcd(n, d) : d;
    if (n == 0)
        snprintf(buf, cap, "0");
    else if (d / g == 1)
        snprintf(buf, cap, "%llu", n / g);
    else
        snprintf(buf, cap, "%llu/%llu", n / g, d / g);
}

Test(dicefrac, three_d6_keep_two_by_enumeration)
{
    cs_dice d;
    cs_dicefrac *f = frac_of("3d6kh2", &d);
    unsigned long long count[13] = {0};
    for (int a = 1; a <= 6; a++)
        for (int b = 1; b <= 6; b++)
            for (int c = 1; c <= 6; c++) {
                int lo = a < b ? (a < c ? a : c) : (b < c ? b : c);
                count[a + b + c - lo]++;
            }
    char want[64];
    for (int v = 2; v <= 12; v++) {
        fraction(count[v], 216, want, sizeof want);
        expect_text(f, v, want);
    }
    expect_text(f, 2, "1/216"); /* only 1, 1, 1 */
    expect_text(f, 1, "0");
    cs_dicefrac_free(f);
}

Test(dicefrac, ten_d6_sixty_is_one_in_6_to_the_10)
{
    cs_dice d;
    cs_dicefrac *f = frac_of("10d6", &d);
    expect_text(f, 60, "1/60466176");
    expect_text(f, 10, "1/60466176");
    char want[64];
    fraction(10, 60466176, want, sizeof want); /* one die shows 2: ten ways */
    expect_text(f, 11, want);
    cs_dicefrac_free(f);
}

Test(dicefrac, constants_signs_rerolls_and_explosions_by_hand)
{
    cs_dice d;
    cs_dicefrac *f = frac_of("d6+3", &d);
    expect_text(f, 4, "1/6");
    cs_dicefrac_free(f);
    f = frac_of("d4-d4", &d); /* 4 of 16 pairs are equal */
    expect_text(f, 0, "1/4");
    expect_text(f, -3, "1/16");
    cs_dicefrac_free(f);
    f = frac_of("d6r1", &d); /* five faces left */
    expect_text(f, 2, "1/5");
    cs_dicefrac_free(f);
    f = frac_of("d6ro1", &d); /* 1 only when 1 then 1: 1/36; 2: 1/6 + 1/36 */
    expect_text(f, 1, "1/36");
    expect_text(f, 2, "7/36");
    cs_dicefrac_free(f);
    f = frac_of("d6!", &d); /* 6 then 1: 1/36; never 6 */
    expect_text(f, 7, "1/36");
    expect_text(f, 6, "0");
    expect_text(f, 66, "1/362797056"); /* eleven sixes: the last one stands, 6^-11 */
    cs_dicefrac_free(f);
    f = frac_of("2d6rs1kh1", &d); /* 1 only when a 1 stays and the other is 1 */
    /* first rolls (1,1): re-roll one 1, a 1 again (1/6): 1/216; no other way */
    expect_text(f, 1, "1/216");
    cs_dicefrac_free(f);
}

/* Every fraction of many expressions equals cs_dice_exact's double to its
 * last bits: the two computations weigh the same outcomes. */
Test(dicefrac, agrees_with_the_doubles)
{
    static const char *const exprs[] = {
        "2d6",     "3d6kh2", "4d6kh3", "4d6dl1", "2d20kh1", "2d20kl1", "10d10dl3", "d6!",
        "3d6!kh2", "d6ro<2", "4d6r1",  "2d6rs1kh1", "3d6rs<2", "2d8-d4+2", "-d6+10", "100d6kh50",
        "5d6!r6",  "4d12ro>11dh1",
    };
    cs_dist *dist = malloc(sizeof *dist);
    for (size_t i = 0; i < sizeof exprs / sizeof exprs[0]; i++) {
        cs_dice d;
        cs_diag diag;
        cs_dicefrac *f = frac_of(exprs[i], &d);
        cr_assert_eq(cs_dice_exact(&d, dist, &diag), CS_OK, "%s", exprs[i]);
        char buf[2 * CS_DICEFRAC_MAX_DIGITS + 2];
        for (int v = dist->lo; v <= dist->hi; v++) {
            double p = dist->p[v - dist->lo];
            if (!cs_dicefrac_text(f, v, buf, sizeof buf))
                continue; /* too many digits to print */
            char *slash = strchr(buf, '/');
            double q = strtod(buf, NULL);
            if (slash)
                q /= strtod(slash + 1, NULL);
            cr_expect(fabs(q - p) <= 1e-12 * (p > 1e-300 ? p : 1.0) + 1e-300,
                      "%s: P(X = %d) = %s = %.17g, the double %.17g", exprs[i], v, buf, q, p);
        }
        cs_dicefrac_free(f);
    }
    free(dist);
}

Test(dicefrac, past_the_limits)
{
    cs_dice d;
    cs_diag diag;
    cr_assert_eq(cs_dice_parse("4d1000kh3", &d, &diag), CS_OK);
    cs_dicefrac *f = NULL;
    cr_expect_eq(cs_dicefrac_new(&d, &f), CS_ELIMIT, "over CS_DICEFRAC_WORK");
    cr_expect_null(f);
    /* 100d6's P(100) is 1/6^100 (78 digits): it prints. */
    f = frac_of("100d6", &d);
    char buf[2 * CS_DICEFRAC_MAX_DIGITS + 2];
    cr_expect(cs_dicefrac_text(f, 100, buf, sizeof buf));
    cr_expect(strncmp(buf, "1/", 2) == 0 && strlen(buf) == 2 + 78, "%s", buf);
    cs_dicefrac_free(f);
    /* 30d6!: a total of 30 is 1/6^30, but a total reached through many
     * explosions has a denominator near 6^330 (258 digits): left out. */
    f = frac_of("30d6!", &d);
    cr_expect(cs_dicefrac_text(f, 30, buf, sizeof buf));
    cr_expect(strlen(buf) == 2 + 24, "%s", buf); /* 6^30 has 24 digits */
    cr_expect_not(cs_dicefrac_text(f, 30 * 66 - 1, buf, sizeof buf));
    cr_expect_str_eq(buf, "");
    cs_dicefrac_free(f);
}
