/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_GROW_H
#define CHARGESIM_GROW_H
/* Growing memory, written once for every layer: an array that doubles when
 * full, and a NUL-terminated text that grows as it is written. Core: no
 * stdio, only the allocator. */
#include <stdbool.h>
#include <stddef.h>

/* Room for element n of an array of `size`-byte elements with *cap slots:
 * returns `items` itself while n < *cap, else the array moved to twice the
 * slots (`first` slots when *cap is 0) with *cap updated. NULL when memory
 * runs out; `items` and *cap are then untouched and still the caller's to
 * free. The caller stores the result: p = cs_grow(p, n, &cap, sizeof *p, 8). */
void *cs_grow(void *items, int n, int *cap, size_t size, int first);

/* A text that grows as it is written. Zero-initialise it; free(s) when done.
 * Once an allocation fails, oom is set, the text stays as it was (cut
 * short) and later writes do nothing: the writer checks oom once at the end. */
typedef struct cs_text {
    char *s;       /* NUL-terminated; NULL before the first write */
    size_t len, cap;
    bool oom;
} cs_text;

/* Appends the n bytes at s. */
void cs_text_put(cs_text *t, const char *s, size_t n);

#endif
