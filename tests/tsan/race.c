/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A planted data race, for `make tsan` only (not part of chargesim, not in
 * the test suite): the threads of one OpenMP region add their blocks'
 * counts into one total without `omp atomic`, the mistake the driver's
 * merges guard against (src/sim/driver.c, src/sim/runs/dicesim.c).
 *
 * scripts/tsan.sh runs this first, built exactly like the product (clang,
 * LLVM's OpenMP runtime, ThreadSanitizer, Archer loaded, no suppressions),
 * and fails unless ThreadSanitizer reports the race in add_block: a tsan
 * build that cannot see this race cannot vouch for the product (issue 16,
 * "Thread safety is proven, not suppressed"). */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

#define N_BLOCKS 64

static uint64_t total;

/* The race: an unsynchronised read-modify-write of `total` from every thread. */
static void add_block(uint64_t count)
{
    total += count;
}

int main(void)
{
    uint64_t count[N_BLOCKS];
#pragma omp parallel for schedule(static) num_threads(2)
    for (int b = 0; b < N_BLOCKS; b++) {
        count[b] = (uint64_t)b + 1; /* each block's own slot: no race here */
        add_block(count[b]);
    }
    printf("total %" PRIu64 " (expected %d when the race loses no update)\n", total,
           N_BLOCKS * (N_BLOCKS + 1) / 2);
    return 0;
}
