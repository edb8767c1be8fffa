/* The unsigned-integer parser; see include/chargesim/parse.h. */
#include "chargesim/parse.h"

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
