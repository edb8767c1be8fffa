/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The ruleset interface states its metric kinds (ruleset.h, cs_metric_kind):
 * every ruleset declares one for every metric, and its exact answer keeps
 * the declaration on the default layout: a DIST metric measured with
 * positive probability lists its values, a MEAN one gives its mean only. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "chargesim/rng.h"
#include "chargesim/registry.h"
#include "support/helpers.h"

Test(ruleset_metrics, every_metric_declares_its_kind)
{
    cr_assert_gt(cs_registry_count(), 0);
    for (int i = 0; i < cs_registry_count(); i++) {
        const cs_ruleset *rs = cs_registry_at(i);
        for (int m = 0; m < rs->n_metrics; m++) {
            cs_metric_kind k = rs->metrics[m].kind;
            cr_expect(k == CS_METRIC_MEAN || k == CS_METRIC_DIST,
                      "%s: metric %s declares no kind (CS_METRIC_MEAN or CS_METRIC_DIST)",
                      rs->name, rs->metrics[m].name);
        }
    }
}

/* The page and `chargesim rules` explain every outcome and list every
 * ruleset by the games it plays (issue 45): none may be missing. */
Test(ruleset_metrics, every_outcome_is_explained_and_every_ruleset_names_its_games)
{
    for (int i = 0; i < cs_registry_count(); i++) {
        const cs_ruleset *rs = cs_registry_at(i);
        cr_assert(rs->outcome_help, "%s: no outcome_help", rs->name);
        for (int o = 0; o < rs->n_outcomes; o++)
            cr_expect(rs->outcome_help[o] && rs->outcome_help[o][0],
                      "%s: outcome %s has no description", rs->name, rs->outcomes[o]);
        cr_expect_gt(rs->n_games, 0, "%s: plays no game", rs->name);
        for (int g = 0; g < rs->n_games; g++)
            cr_expect(rs->games[g].title && rs->games[g].title[0], "%s: a game with no title",
                      rs->name);
        cr_expect_eq(rs->map_keys != NULL, rs->map_place != NULL,
                     "%s: map_keys and map_place go together", rs->name);
    }
}

Test(ruleset_metrics, exact_answers_keep_the_declared_kinds)
{
    for (int i = 0; i < cs_registry_count(); i++) {
        const cs_ruleset *rs = cs_registry_at(i);
        if (!rs->outcome_probabilities)
            continue;
        cs_params p;
        th_defaults(rs, &p);
        void *ctx = calloc(1, rs->ctx_size ? rs->ctx_size : 1);
        void *lay = calloc(1, rs->layout_size ? rs->layout_size : 1);
        cr_assert(ctx && lay);
        cs_diag diag = {0};
        cr_assert_eq(rs->prepare(&p, ctx, &diag), CS_OK, "%s: %s", rs->name,
                     diag.what ? diag.what : "");
        cs_rng rng;
        cs_rng_stream(&rng, 1, 0, 0);
        rs->draw_layout(ctx, p.num, &rng, lay);
        /* cleared as the driver clears it */
        cs_probs pr;
        for (int o = 0; o < rs->n_outcomes; o++)
            pr.p[o] = 0.0;
        for (int m = 0; m < rs->n_metrics; m++) {
            pr.n[m] = 0;
            pr.mean[m] = (double)NAN;
            pr.pdef[m] = (double)NAN;
        }
        rs->outcome_probabilities(ctx, lay, &pr);
        int listed = 0;
        for (int m = 0; m < rs->n_metrics; m++) {
            const cs_metric_def *md = &rs->metrics[m];
            if (md->kind == CS_METRIC_MEAN)
                cr_expect_eq(pr.n[m], 0, "%s: %s is a mean only but lists values", rs->name,
                             md->name);
            else if (pr.pdef[m] > 0.0)
                cr_expect_neq(pr.n[m], 0, "%s: %s is a distribution but gives no values",
                              rs->name, md->name);
            listed += pr.n[m] > 0;
        }
        cr_expect_gt(listed, 0, "%s: no metric measured on the default layout", rs->name);
        free(ctx);
        free(lay);
    }
}
