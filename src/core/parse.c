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
