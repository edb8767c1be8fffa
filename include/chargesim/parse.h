#ifndef CHARGESIM_PARSE_H
#define CHARGESIM_PARSE_H
/* The one parser of unsigned integers: every integer option and key (seed,
 * trials, threads, max-trials, point, trial) reads through it, so they all
 * accept and refuse the same texts. Decimal digits only (no blanks: the
 * readers trim their values); parsed as an integer, never through a double (seed
 * 9007199254740993 stays that). A sign, a fraction ("5.0"), an exponent
 * ("1e3") or hex ("0x10") is refused, as is a value above 2^64 - 1. */
#include <stdbool.h>
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

#endif
