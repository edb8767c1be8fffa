/* SPDX-License-Identifier: GPL-3.0-or-later */
/* --success (include/chargesim/success.h): which outcomes p_success counts,
 * read from their names and written back as names. */
#include "chargesim/success.h"

#include <stdio.h>
#include <string.h>

cs_status cs_success_parse(const cs_ruleset *rs, const char *list, unsigned *mask, cs_error *err)
{
    char name[128];
    *mask = 0;
    for (const char *p = list;;) {
        size_t n = strcspn(p, ",");
        int o = -1;
        if (n > 0 && n < sizeof name) {
            memcpy(name, p, n);
            name[n] = '\0';
            o = cs_ruleset_outcome_index(rs, name);
        }
        if (o < 0) {
            char valid[512] = "";
            for (int i = 0; i < rs->n_outcomes; i++) {
                size_t u = strlen(valid);
                snprintf(valid + u, sizeof valid - u, "%s%s", i ? ", " : "", rs->outcomes[i]);
            }
            return cs_error_set(err, CS_EINPUT,
                                "--success '%s': unknown outcome '%.*s' of %s; expected one or "
                                "more of: %s",
                                list, (int)n, p, rs->name, valid);
        }
        *mask |= 1u << o;
        if (p[n] == '\0')
            return CS_OK;
        p += n + 1;
    }
}

void cs_success_names(const cs_ruleset *rs, unsigned mask, char *buf, size_t cap)
{
    size_t u = 0;
    buf[0] = '\0';
    for (int o = 0; o < rs->n_outcomes; o++)
        if ((mask >> o) & 1u) {
            int w = snprintf(buf + u, cap - u, "%s%s", u ? "," : "", rs->outcomes[o]);
            if (w < 0 || (size_t)w >= cap - u)
                return;
            u += (size_t)w;
        }
}
