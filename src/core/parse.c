/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The unsigned-integer parser and the text of a swept value; see
 * include/chargesim/parse.h. In core although it includes <stdio.h>:
 * snprintf only formats into the caller's buffer (as error.c). */
#include "chargesim/parse.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool cs_parse_u64(const char *s, uint64_t *out, const char **why)
{
    const char *dummy;
    if (!why)
        why = &dummy;
    *why = "a whole number in decimal digits (no sign, fraction, exponent or hex)";
    if (!s)
        return false;
    if (!(*s >= '0' && *s <= '9'))
        return false;
    uint64_t v = 0;
    for (; *s >= '0' && *s <= '9'; s++) {
        uint64_t d = (uint64_t)(*s - '0');
        /* v * 10 + d would pass 2^64 - 1. */
        if (v > (UINT64_MAX - d) / 10u) {
            *why = "a whole number at most 18446744073709551615";
            return false;
        }
        v = v * 10u + d;
    }
    if (*s != '\0')
        return false;
    *out = v;
    return true;
}

cs_status cs_parse_u64_option(const char *opt, const char *v, uint64_t lo, uint64_t hi,
                              uint64_t *out, cs_error *err)
{
    const char *why;
    if (!v)
        return cs_error_set(err, CS_EINPUT, "%s needs a value", opt);
    if (!cs_parse_u64(v, out, &why))
        return cs_error_set(err, CS_EINPUT, "%s '%s': expected %s", opt, v, why);
    if (*out < lo || *out > hi)
        return cs_error_set(err, CS_EINPUT, "%s '%s': expected %llu to %llu", opt, v,
                            (unsigned long long)lo, (unsigned long long)hi);
    return CS_OK;
}

int cs_parse_decimals(const char *s)
{
    int frac = 0;
    bool digits = false, point = false;
    if (*s == '+' || *s == '-')
        s++;
    for (; (*s >= '0' && *s <= '9') || (*s == '.' && !point); s++) {
        if (*s == '.')
            point = true;
        else {
            digits = true;
            frac += point;
        }
    }
    long exp = 0;
    if (digits && (*s == 'e' || *s == 'E')) {
        char *end;
        exp = strtol(s + 1, &end, 10);
        s = end;
    }
    if (!digits || *s != '\0')
        return -1;
    long d = (long)frac - exp;
    return d < 0 ? 0 : d > CS_PARSE_MAX_DECIMALS ? -1 : (int)d;
}

void cs_parse_shortest(char *buf, size_t cap, double x)
{
    if (x == 0.0) { /* +0 and -0 alike */
        snprintf(buf, cap, "0");
        return;
    }
    /* 17 significant digits always round-trip a double, so the loop ends
     * there at the latest (inf and nan, which never compare equal, too). */
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, cap, "%.*g", prec, x);
        if (strtod(buf, NULL) == x)
            return;
    }
}

void cs_parse_format_value(char *buf, size_t cap, double x, int decimals)
{
    char dec[64];
    /* At d places the text names the decimal a + i * step when x lies well
     * within half a unit of its last place, i.e. while |x| 10^d stays far
     * below 2^53 (a double's 15 to 16 significant digits). */
    if (decimals >= 0 && fabs(x) * pow(10.0, decimals) < 1e14) {
        snprintf(dec, sizeof dec, "%.*f", decimals, x);
        char *point = strchr(dec, '.');
        if (point) {
            char *end = dec + strlen(dec);
            while (end > point && (end[-1] == '0' || end[-1] == '.'))
                *--end = '\0';
        }
        if (strcmp(dec, "-0") == 0)
            snprintf(dec, sizeof dec, "0");
    } else {
        cs_parse_shortest(dec, sizeof dec, x);
    }
    snprintf(buf, cap, "%.10g", x);
    if (strtod(buf, NULL) != strtod(dec, NULL))
        snprintf(buf, cap, "%s", dec);
}

/* Optimal string alignment distance of a and b (lengths below 64), the
 * classic dynamic programme with the swap of two neighbours as one edit. */
static int osa_distance(const char *a, size_t la, const char *b, size_t lb)
{
    int d[64][64];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            int cost = a[i - 1] != b[j - 1];
            int best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (d[i - 1][j - 1] + cost < best)
                best = d[i - 1][j - 1] + cost;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[la][lb];
}

void cs_parse_suggest_offer(cs_parse_suggest *s, const char *name)
{
    size_t la = strlen(s->word), lb = strlen(name);
    if (la >= 64 || lb >= 64 || strcmp(s->word, name) == 0)
        return;
    int d = osa_distance(s->word, la, name, lb);
    if (d > 2 || 2 * (size_t)d >= la)
        return;
    if (!s->best || d < s->dist) {
        s->best = name;
        s->dist = d;
    }
}
