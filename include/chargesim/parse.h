/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_PARSE_H
#define CHARGESIM_PARSE_H
/* The one parser of unsigned integers: every integer option and key (seed,
 * trials, threads, max-trials, point, trial) reads through it, so they all
 * accept and refuse the same texts. Decimal digits only (no blanks: the
 * readers trim their values); parsed as an integer, never through a double (seed
 * 9007199254740993 stays that). A sign, a fraction ("5.0"), an exponent
 * ("1e3") or hex ("0x10") is refused, as is a value above 2^64 - 1. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "chargesim/error.h"

/* True with *out set; false with *why (if not NULL) set to a phrase that
 * completes "expected ...": why it was refused. */
bool cs_parse_u64(const char *s, uint64_t *out, const char **why);

/* Option `opt`'s value v (NULL: none given) as a whole number within
 * [lo, hi] into *out; else CS_EINPUT with the refusal both front ends
 * print: "OPT needs a value", "OPT 'V': expected <why>", or "OPT 'V':
 * expected LO to HI". */
cs_status cs_parse_u64_option(const char *opt, const char *v, uint64_t lo, uint64_t hi,
                              uint64_t *out, cs_error *err);

/* The decimal places a number carries as written: "0.25" 2, "8" 0,
 * "1e-10" 10, "2.5e1" 0; -1 when s is not a plain decimal number (hex,
 * inf, nan, more than CS_PARSE_MAX_DECIMALS places). */
#define CS_PARSE_MAX_DECIMALS 17
int cs_parse_decimals(const char *s);

/* How a value of a sweep a..b:step (or a map axis) is written, into buf
 * (cap >= 32): x is a + i * step computed in binary, `decimals` the
 * places of a and step as written (cs_parse_decimals; -1 unknown). The
 * "%.10g" text tables have always shown, when it stands for the same number
 * as x at those places (1, 0.25, 0.3 for 0.1 * 3); else x at those places
 * (8.0000000001, which "%.10g" shows as 8), so that values a step apart
 * never print alike; else, when the places are unknown or too many for a
 * double to hold, the shortest text that reads back as x itself. */
void cs_parse_format_value(char *buf, size_t cap, double x, int decimals);

/* Room for any text cs_parse_shortest writes ("-2.2250738585072014e-308"
 * and its NUL fit with room to spare). */
#define CS_PARSE_SHORTEST_CAP 32

/* The shortest decimal that reads back (strtod) as x itself, into buf
 * (cap >= CS_PARSE_SHORTEST_CAP): "%.Ng" at the smallest N of 1..17 that
 * round-trips, so "0.004629629629629629" for 1/216, "1.65381716879202e-08"
 * for 1/60466176 (%g's exponent form where it is shorter), "0", "1", "0.5".
 * How every value computed exactly is written in a CSV (issue 52): no digit
 * lost, none invented. -0 is written "0"; inf and nan as %g writes them. */
void cs_parse_shortest(char *buf, size_t cap, double x);

/* A typo's suggestion ("did you mean charge_speed?"): offer every name the
 * word could have meant; `best` is then the closest by optimal string
 * alignment distance (one edit each: a letter inserted, deleted or changed,
 * two neighbours swapped), the first offered among equals, or NULL when
 * none is close enough: at most 2 edits and fewer than half of the word's
 * letters, so a word is never "corrected" into an unrelated name.
 * Start with {word, NULL, 0}. Names longer than 63 bytes are never close. */
typedef struct cs_parse_suggest {
    const char *word;
    const char *best;
    int dist;
} cs_parse_suggest;
void cs_parse_suggest_offer(cs_parse_suggest *s, const char *name);

#endif
