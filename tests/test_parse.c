/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cs_parse_shortest (src/core/parse.c): how every value computed exactly is
 * written in a CSV (issue 52). The text must read back as the same double,
 * and no shorter "%.Ng" text may: the property is checked over many doubles,
 * the expectations computed here. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/parse.h"

/* The significant digits of a "%g" text: its digits, leading zeros and the
 * exponent left out. */
static int significant(const char *s)
{
    int n = 0;
    bool lead = true;
    for (; *s && *s != 'e'; s++) {
        if (*s < '0' || *s > '9')
            continue;
        if (lead && *s == '0')
            continue;
        lead = false;
        n++;
    }
    return n ? n : 1;
}

/* x's shortest text round-trips, and no precision below its own does. */
static void check(double x)
{
    char buf[CS_PARSE_SHORTEST_CAP], shorter[400];
    cs_parse_shortest(buf, sizeof buf, x);
    cr_assert(strtod(buf, NULL) == x, "%.17g printed %s", x, buf);
    int digits = significant(buf);
    for (int prec = 1; prec < digits; prec++) {
        snprintf(shorter, sizeof shorter, "%.*g", prec, x);
        cr_assert(strtod(shorter, NULL) != x, "%.17g: %s, though %s reads back", x, buf, shorter);
    }
}

Test(parse_shortest, named_values)
{
    static const struct {
        double x;
        const char *text;
    } cases[] = {
        {0.0, "0"},   {-0.0, "0"},  {1.0, "1"},   {0.5, "0.5"}, {0.25, "0.25"},
        {0.1, "0.1"}, {-2.5, "-2.5"}, {1e-300, "1e-300"}, {123456789.0, "123456789"},
    };
    char buf[CS_PARSE_SHORTEST_CAP];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cs_parse_shortest(buf, sizeof buf, cases[i].x);
        cr_expect_str_eq(buf, cases[i].text);
    }
}

Test(parse_shortest, one_in_216_and_one_in_6_to_the_10)
{
    char buf[CS_PARSE_SHORTEST_CAP];
    double a = 1.0 / 216.0, b = 1.0 / 60466176.0; /* 6^10 = 60466176 */
    cs_parse_shortest(buf, sizeof buf, a);
    cr_expect(strtod(buf, NULL) == a, "%s", buf);
    cr_expect_str_eq(buf, "0.004629629629629629"); /* 16 digits: %.6f gave 0.004630 */
    check(a);
    cs_parse_shortest(buf, sizeof buf, b);
    cr_expect(strtod(buf, NULL) == b, "%s", buf);
    cr_expect(strchr(buf, 'e'), "an exponent where the shortest form needs it: %s", buf);
    /* 15 digits suffice here (1.65381716879202e-08): %.17g's
     * 1.6538171687920202e-08 is longer than needed; check() proves that
     * no shorter text reads back. */
    cr_expect(strncmp(buf, "1.65381716879202", 16) == 0, "%s", buf);
    check(b);
}

/* Many doubles, of every magnitude and digit count: k/n for small n (the
 * shape of dice probabilities), random bit patterns, powers of two. */
Test(parse_shortest, round_trips_and_nothing_shorter_does)
{
    for (int n = 1; n <= 300; n++)
        for (int k = 0; k <= n; k++)
            check((double)k / (double)n);
    uint64_t s = 0x9e3779b97f4a7c15u;
    for (int i = 0; i < 200000; i++) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        double x;
        memcpy(&x, &s, sizeof x);
        if (isfinite(x))
            check(x);
    }
    for (int e = -1074; e <= 1023; e++)
        check(ldexp(1.0, e));
    check(nextafter(1.0, 2.0));
    check(nextafter(0.0, 1.0));
    check(1.7976931348623157e308);
}
