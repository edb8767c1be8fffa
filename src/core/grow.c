/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Growing arrays and texts; see include/chargesim/grow.h. */
#include "chargesim/grow.h"

#include <stdlib.h>
#include <string.h>

void *cs_grow(void *items, int n, int *cap, size_t size, int first)
{
    if (n < *cap)
        return items;
    int c = *cap ? 2 * *cap : first;
    void *q = realloc(items, (size_t)c * size);
    if (q)
        *cap = c;
    return q;
}

void cs_text_put(cs_text *t, const char *s, size_t n)
{
    if (t->oom)
        return;
    if (t->len + n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 1024;
        while (cap < t->len + n + 1)
            cap *= 2;
        char *more = realloc(t->s, cap);
        if (!more) {
            t->oom = true;
            return;
        }
        t->s = more;
        t->cap = cap;
    }
    memcpy(t->s + t->len, s, n);
    t->len += n;
    t->s[t->len] = '\0';
}
