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

/* True with *out set; false with *why (if not NULL) set to a phrase that
 * completes "expected ...": why it was refused. */
bool cs_parse_u64(const char *s, uint64_t *out, const char **why);

#endif
