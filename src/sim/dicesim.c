/* Sampled dice totals for `chargesim dice --trials`; see include/chargesim/sim.h. */
#include <omp.h>
#include <stdlib.h>

#include "chargesim/dice.h"
#include "chargesim/sim.h"

cs_status cs_sim_dice_counts(const cs_dice *d, uint64_t trials, uint64_t seed, int threads,
                             uint64_t *counts, cs_error *err)
{
    int lo = cs_dice_min(d), width = cs_dice_max(d) - lo + 1;
    uint64_t bs = cs_sim_block_size(trials), nb = (trials + bs - 1) / bs;
    int failed = 0;
#pragma omp parallel num_threads(threads > 0 ? threads : omp_get_max_threads())
    {
        uint64_t *local = calloc((size_t)width, sizeof *local);
        if (!local) {
#pragma omp atomic write
            failed = 1;
        }
#pragma omp for schedule(dynamic, 1)
        for (uint64_t b = 0; b < nb; b++) {
            if (!local)
                continue;
            cs_rng rng;
            uint64_t n = b + 1 == nb ? trials - b * bs : bs;
            cs_rng_stream(&rng, seed, 0, b);
            for (uint64_t t = 0; t < n; t++)
                local[cs_dice_roll(d, &rng) - lo]++;
        }
        /* Integer counts: the order threads add them in cannot matter. */
        for (int v = 0; local && v < width; v++) {
#pragma omp atomic
            counts[v] += local[v];
        }
        free(local);
    }
    if (failed)
        return cs_error_set(err, CS_ENOMEM, "out of memory");
    return CS_OK;
}
