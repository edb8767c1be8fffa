/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The backend (include/chargesim/backend.h): the sim layer's only mutable
 * global, kept here alone so that every reader goes through these calls.
 * It is set once, before any computation and before any thread starts
 * (cs_sched_mpi_start, or a test), and only read afterwards. */
#include "chargesim/backend.h"

/* NULL in the default build, where one process computes every item. */
static const cs_backend *backend;

void cs_backend_set(const cs_backend *b)
{
    backend = b;
}

const cs_backend *cs_backend_get(void)
{
    return backend;
}

const cs_backend *cs_backend_multi(void)
{
    return backend && backend->size > 1 ? backend : NULL;
}

void cs_backend_share_of(uint64_t n, int rank, int size, uint64_t *lo, uint64_t *hi)
{
    uint64_t r = (uint64_t)rank, q = n / (uint64_t)size, rem = n % (uint64_t)size;
    *lo = r * q + (r < rem ? r : rem);
    *hi = *lo + q + (r < rem ? 1 : 0);
}

void cs_backend_share(uint64_t n, uint64_t *lo, uint64_t *hi)
{
    const cs_backend *b = cs_backend_multi();
    if (b)
        cs_backend_share_of(n, b->rank, b->size, lo, hi);
    else {
        *lo = 0;
        *hi = n;
    }
}
