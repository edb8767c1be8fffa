/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The sovl charge phase ruleset on hand-built layouts (issue 8 acceptance):
 * range and arc limits, terrain, the troll-in-the-left-flank figure, counter
 * charges, intercepts that win by distance and by flank, fleeing, room in
 * base contact; and Monte Carlo against the exact chase odds. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/geom.h"
#include "chargesim/registry.h"
#include "chargesim/sovl.h"
#include "support/helpers.h"

static const cs_ruleset *const RS = &cs_rules_sovl;

/* 5 x 3 infantry on 20 mm bases: 100 mm by 60 mm. */
#define INF_W (100.0 / 25.4)
#define INF_D (60.0 / 25.4)

static int param(const char *key)
{
    for (int i = 0; i < RS->n_params; i++)
        if (strcmp(RS->params[i].key, key) == 0)
            return i;
    cr_assert_fail("no parameter %s", key);
    return -1;
}

static int outcome(const char *name)
{
    for (int i = 0; i < RS->n_outcomes; i++)
        if (strcmp(RS->outcomes[i], name) == 0)
            return i;
    cr_assert_fail("no outcome %s", name);
    return -1;
}

static int metric(const char *name)
{
    for (int i = 0; i < RS->n_metrics; i++)
        if (strcmp(RS->metrics[i].name, name) == 0)
            return i;
    cr_assert_fail("no metric %s", name);
    return -1;
}

/* The defaults, as the experiment loader would read them. */
static void defaults(cs_params *p)
{
    memset(p, 0, sizeof *p);
    for (int i = 0; i < RS->n_params; i++) {
        const cs_param_def *d = &RS->params[i];
        switch (d->type) {
        case CS_PARAM_BOOL:
            p->num[i] = strcmp(d->def, "true") == 0;
            break;
        case CS_PARAM_CHOICE:
            p->num[i] = -1;
            for (int k = 0; d->choices[k]; k++)
                if (strcmp(d->choices[k], d->def) == 0)
                    p->num[i] = k;
            cr_assert_geq(p->num[i], 0.0);
            break;
        case CS_PARAM_TEXT:
        case CS_PARAM_DICE:
        case CS_PARAM_POLYGON:
            p->text[i] = d->def;
            break;
        default:
            p->num[i] = strtod(d->def, NULL);
        }
    }
}

static void set(cs_params *p, const char *key, double v)
{
    p->num[param(key)] = v;
}

static void set_choice(cs_params *p, const char *key, const char *v)
{
    const cs_param_def *d = &RS->params[param(key)];
    for (int k = 0; d->choices[k]; k++)
        if (strcmp(d->choices[k], v) == 0) {
            p->num[param(key)] = k;
            return;
        }
    cr_assert_fail("no choice %s for %s", v, key);
}

/* Places unit id ("a1") with its front-edge centre at (x, y) facing f. */
static void place_front(cs_params *p, const char *id, double x, double y, double f, double depth)
{
    char key[32];
    cs_rect r = cs_geom_rect_front_at((cs_vec2){x, y}, 1.0, depth, f);
    snprintf(key, sizeof key, "%s_x", id);
    set(p, key, r.c.x);
    snprintf(key, sizeof key, "%s_y", id);
    set(p, key, r.c.y);
    snprintf(key, sizeof key, "%s_facing", id);
    set(p, key, f);
}

typedef struct run {
    unsigned char ctx[1 << 16];
    unsigned char layout[1 << 12];
    cs_probs probs;
} run;

/* prepare + draw_layout + outcome_probabilities; the probabilities start as
 * NaN so that an outcome the ruleset forgot to set shows up. */
static void exact(const cs_params *p, run *r)
{
    cr_assert_leq(RS->ctx_size, sizeof r->ctx);
    cr_assert_leq(RS->layout_size, sizeof r->layout);
    cs_diag diag = {0};
    cs_status st = RS->prepare(p, r->ctx, &diag);
    cr_assert_eq(st, CS_OK, "prepare: %s (%s)", diag.what ? diag.what : "",
                 diag.key ? diag.key : "");
    cs_rng rng;
    cs_rng_seed(&rng, 5u, 5u);
    RS->draw_layout(r->ctx, p->num, &rng, r->layout);
    for (int i = 0; i < CS_MAX_OUTCOMES; i++)
        r->probs.p[i] = NAN;
    for (int m = 0; m < CS_MAX_METRICS; m++) {
        r->probs.n[m] = 0;
        r->probs.mean[m] = NAN;
        r->probs.pdef[m] = NAN;
    }
    RS->outcome_probabilities(r->ctx, r->layout, &r->probs);
    double sum = 0.0;
    for (int i = 0; i < RS->n_outcomes; i++) {
        cr_assert(!isnan(r->probs.p[i]), "outcome %s left unset", RS->outcomes[i]);
        sum += r->probs.p[i];
    }
    cr_assert_float_eq(sum, 1.0, 1e-12);
}

static double p_of(const run *r, const char *name)
{
    return r->probs.p[outcome(name)];
}

static double mean_of(const run *r, const char *name)
{
    return r->probs.mean[metric(name)];
}

/* A one-on-one head-on layout: a1 charges, b1 holds (policy_b = pass). */
static void one_on_one(cs_params *p, double distance)
{
    defaults(p);
    set(p, "distance", distance);
    set_choice(p, "policy_b", "pass");
}

Test(sovl, range_limit)
{
    /* Infantry moves 8": head-on the range line runs front-edge centre to
     * front-edge centre, so it is the gap itself. */
    cs_params p;
    run *r = malloc(sizeof *r);
    one_on_one(&p, 8.0 - 1e-6);
    exact(&p, r);
    cr_expect_float_eq(p_of(r, "charged"), 1.0, 1e-12);
    cr_expect_float_eq(mean_of(r, "distance"), 8.0 - 1e-6, 1e-9);
    cr_expect_float_eq(mean_of(r, "side"), 0.0, 1e-12);
    /* Issue 15.4: "reaches" is range >= distance - CS_REACH_TOL (1e-6 in,
     * reach.h). This test used 8 + 1e-6 as out of range, which encoded the
     * old 1e-9 tolerance; now half a tolerance over is still 8" (equal on
     * the tape) and two tolerances over is out of range. */
    one_on_one(&p, 8.0 + 0.5e-6);
    exact(&p, r);
    cr_expect_float_eq(p_of(r, "charged"), 1.0, 1e-12);
    one_on_one(&p, 8.0 + 2e-6);
    exact(&p, r);
    cr_expect_float_eq(p_of(r, "illegal"), 1.0, 1e-12);
    /* Cavalry (16") reaches 15.9" and a move_mod of -1 (heavy armour)
     * takes it out of range of 15.5". */
    one_on_one(&p, 15.9);
    set_choice(&p, "a1_type", "cavalry");
    exact(&p, r);
    cr_expect_float_eq(p_of(r, "charged"), 1.0, 1e-12);
    one_on_one(&p, 15.5);
    set_choice(&p, "a1_type", "cavalry");
    set(&p, "a1_move_mod", -1);
    exact(&p, r);
    cr_expect_float_eq(p_of(r, "illegal"), 1.0, 1e-12);
    free(r);
}

Test(sovl, arc_limit_45_and_90)
{
    /* los_arc = 45: rays at 22.5 degrees outward from the front corners
     * (+-INF_W/2, 0). b1 faces 180 with its front edge 6" ahead: its front
     * centre (x, 6) is in the arc iff x <= INF_W/2 + 6 tan 22.5. The charger
     * then lies well inside b1's front arc (b1's corner ray passes
     * x = x0 - INF_W/2 - 6 - 2.36 < -5 at the charger's rear), so the side
     * is the front, at distance sqrt(x^2 + 36) < 8. */
    double edge = INF_W / 2.0 + 6.0 * tan(22.5 * 3.14159265358979323846 / 180.0);
    cs_params p;
    run *r = malloc(sizeof *r);
    for (int k = 0; k < 3; k++) {
        double x = edge + (k == 0 ? -1e-6 : 1e-6);
        one_on_one(&p, 6.0);
        set_choice(&p, "placement", "fixed");
        set(&p, "los_arc", k == 2 ? 90.0 : 45.0);
        place_front(&p, "a1", 0.0, 0.0, 0.0, INF_D);
        place_front(&p, "b1", x, 6.0, 180.0, INF_D);
        exact(&p, r);
        cr_expect_float_eq(p_of(r, k == 1 ? "illegal" : "charged"), 1.0, 1e-12,
                           "case %d (x = %f)", k, x);
        if (k != 1)
            cr_expect_float_eq(mean_of(r, "side"), 0.0, 1e-12);
    }
    /* los_arc = 90: rays at 45 degrees. b1 turned to face a1's front-edge
     * centre, its own front centre at (INF_W/2 + 3 +- 1e-6, 3): on the
     * charger's axis of view, so the charger is in b1's front arc, and the
     * point is in the arc iff x <= INF_W/2 + y. */
    for (int k = 0; k < 2; k++) {
        double x = INF_W / 2.0 + 3.0 + (k == 0 ? -1e-6 : 1e-6), y = 3.0;
        double f = atan2(x, -y) * 180.0 / 3.14159265358979323846; /* fwd = -(x, y)/|.| */
        one_on_one(&p, 6.0);
        set_choice(&p, "placement", "fixed");
        place_front(&p, "a1", 0.0, 0.0, 0.0, INF_D);
        place_front(&p, "b1", x, y, f, INF_D);
        exact(&p, r);
        cr_expect_float_eq(p_of(r, k == 0 ? "charged" : "illegal"), 1.0, 1e-12, "case %d", k);
    }
    free(r);
}

Test(sovl, terrain_hides_the_target)
{
    cs_params p;
    run *r = malloc(sizeof *r);
    /* A cliff across the range line (x = 0, y 0..6) hides b1. */
    one_on_one(&p, 6.0);
    p.text[param("terrain")] = "solid: -1,2 1,2 1,3 -1,3";
    exact(&p, r);
    cr_expect_float_eq(p_of(r, "illegal"), 1.0, 1e-12);
    /* A river does not block sight. */
    p.text[param("terrain")] = "impassable: -1,2 1,2 1,3 -1,3";
    exact(&p, r);
    cr_expect_float_eq(p_of(r, "charged"), 1.0, 1e-12);
    /* A forest beside the line, x 1.5..2.5: clear for the range line, but it
     * enters the strip between the two front edges (|x| <= INF_W/2 = 1.97),
     * so the any_part reading blocks the charge. */
    p.text[param("terrain")] = "blocking: 1.5,2 2.5,2 2.5,3 1.5,3";
    exact(&p, r);
    cr_expect_float_eq(p_of(r, "charged"), 1.0, 1e-12);
    set_choice(&p, "los_block", "any_part");
    exact(&p, r);
    cr_expect_float_eq(p_of(r, "illegal"), 1.0, 1e-12);
    /* Clockwise vertices are accepted; a non-convex piece is refused. */
    one_on_one(&p, 6.0);
    p.text[param("terrain")] = "-1,3 1,3 1,2 -1,2";
    exact(&p, r);
    cr_expect_float_eq(p_of(r, "illegal"), 1.0, 1e-12);
    p.text[param("terrain")] = "0,0 4,0 1,1 0,4";
    cs_diag diag = {0};
    cr_expect_eq(RS->prepare(&p, r->ctx, &diag), CS_EINPUT);
    cr_expect_str_eq(diag.key, "terrain");
    free(r);
}

Test(sovl, room_in_base_contact)
{
    cs_params p;
    run *r = malloc(sizeof *r);
    /* An impassable block on the left half of the place in front of b1
     * (x -3..-0.5, the charger's centred footprint spans +-1.97): the
     * charger shifts right and still charges. */
    one_on_one(&p, 6.0);
    p.text[param("terrain")] = "impassable: -3,3 -0.5,3 -0.5,5.5 -3,5.5";
    exact(&p, r);
    cr_expect_float_eq(p_of(r, "charged"), 1.0, 1e-12);
    /* A block across the whole front of b1, wider than any shift keeping
     * contact (+-3.94): no room, no valid charge. */
    p.text[param("terrain")] = "impassable: -5,3 5,3 5,5.5 -5,5.5";
    exact(&p, r);
    cr_expect_float_eq(p_of(r, "illegal"), 1.0, 1e-12);
    free(r);
}

Test(sovl, troll_in_the_left_flank)
{
    /* flankCharge.png, measured off the picture (64.8 px to the inch): the
     * target, 5 x 3 on 20 mm bases, faces down the page (facing 180) with
     * its centre at the origin; the Troll unit, three 40 mm monsters in one
     * rank, centre (6.19, -4.21), its long front edge facing up-left
     * (facing 65.5). Two of its corners lie beyond the corner ray from the
     * target's front-left corner (in the flank arc), and the larger part of
     * its area with them: "A majority of the Troll unit lies in the left
     * flank". The range line is about 5.2" against the Troll's 12". */
    cs_params p;
    run *r = malloc(sizeof *r);
    one_on_one(&p, 6.0);
    set_choice(&p, "placement", "fixed");
    set_choice(&p, "a1_type", "monstrous_infantry");
    set(&p, "a1_frontage", 3);
    set(&p, "a1_ranks", 1);
    set(&p, "a1_x", 6.19);
    set(&p, "a1_y", -4.21);
    set(&p, "a1_facing", 65.5);
    set(&p, "b1_x", 0.0);
    set(&p, "b1_y", 0.0);
    set(&p, "b1_facing", 180.0);
    exact(&p, r);
    cr_expect_float_eq(p_of(r, "charged"), 1.0, 1e-12);
    cr_expect_float_eq(mean_of(r, "side"), 1.0, 1e-12);
    cr_expect_float_eq(mean_of(r, "flank_a"), 1.0, 1e-12);
    cr_expect_float_eq(mean_of(r, "distance"), 5.2, 0.15);
    /* The left flank, precisely: the target's left is +x when it faces 180. */
    cs_rect target = cs_geom_rect((cs_vec2){0.0, 0.0}, INF_W, INF_D, 180.0);
    cs_rect troll = cs_geom_rect((cs_vec2){6.19, -4.21}, 3 * 40 / 25.4, 40 / 25.4, 65.5);
    cs_arc_share sh;
    cs_geom_arc_share(&target, &troll, &sh);
    cr_expect_eq(sh.majority, CS_LEFT);
    cr_expect_gt(sh.area[CS_FRONT], 0.0);
    free(r);
}

Test(sovl, counter_charge)
{
    cs_params p;
    run *r = malloc(sizeof *r);
    /* Head-on at 6": a1 charges b1's front; b1, charged only in the front
     * and with a1's front 6" <= 8" away, counter charges. */
    defaults(&p);
    set(&p, "distance", 6.0);
    exact(&p, r);
    cr_expect_float_eq(p_of(r, "counter_charged"), 1.0, 1e-12);
    cr_expect_float_eq(mean_of(r, "counter_charges"), 1.0, 1e-12);
    cr_expect_float_eq(mean_of(r, "declared"), 2.0, 1e-12);
    cr_expect_float_eq(mean_of(r, "successful_a"), 1.0, 1e-12);
    cr_expect_float_eq(mean_of(r, "successful_b"), 1.0, 1e-12);
    /* Cavalry from 10": b1 (8") cannot reach back, the charge lands. */
    set(&p, "distance", 10.0);
    set_choice(&p, "a1_type", "cavalry");
    set(&p, "a1_ranks", 1);
    exact(&p, r);
    cr_expect_float_eq(p_of(r, "charged"), 1.0, 1e-12);
    cr_expect_float_eq(mean_of(r, "counter_charges"), 0.0, 1e-12);
    /* No counter charge when b1 is also charged in a flank: a2 takes b1's
     * left flank (b1 faces 180, its left is +x) straight on from 5" away. */
    defaults(&p);
    set(&p, "distance", 6.0);
    set(&p, "units_a", 2);
    /* b1's left flank centre: (INF_W/2, 6 + INF_D/2); a2 faces -x. */
    place_front(&p, "a2", INF_W / 2.0 + 5.0, 6.0 + INF_D / 2.0, 90.0, INF_D);
    exact(&p, r);
    cr_expect_float_eq(mean_of(r, "counter_charges"), 0.0, 1e-12);
    cr_expect_float_eq(mean_of(r, "flank_a"), 1.0, 1e-12);
    cr_expect_float_eq(mean_of(r, "successful_a"), 2.0, 1e-12);
    free(r);
}

/* a1 charges b1 head-on at 6"; b2 faces a1 from the left, its front-edge
 * centre at `pos` and facing `f`. */
static void intercept_layout(cs_params *p, cs_vec2 pos, double f)
{
    defaults(p);
    set(p, "distance", 6.0);
    set(p, "units_b", 2);
    place_front(p, "b2", pos.x, pos.y, f, INF_D);
}

Test(sovl, intercept_wins_by_distance)
{
    cs_params p;
    run *r = malloc(sizeof *r);
    /* b2's front centre at (-4, 4), facing a1's front centre: its range
     * line is sqrt(32) = 5.66" to a1's front, shorter than a1's 6" charge,
     * so it intercepts: a1's charge is cancelled. a1, now charged only in
     * the front, counter charges b2. los_arc = 45 keeps b2 out of a1's own
     * sight (|x| = 4 > 1.97 + 4 tan 22.5 = 3.63), or a1 would charge the
     * nearer b2 first; b2 lies in a1's front arc by area all the same. */
    cs_vec2 pos = {-4.0, 4.0};
    double f = atan2(pos.x, -pos.y) * 180.0 / 3.14159265358979323846;
    intercept_layout(&p, pos, f);
    set(&p, "los_arc", 45.0);
    exact(&p, r);
    cr_expect_float_eq(p_of(r, "intercepted"), 1.0, 1e-12);
    cr_expect_float_eq(mean_of(r, "intercepts"), 1.0, 1e-12);
    cr_expect_float_eq(mean_of(r, "successful_a"), 1.0, 1e-12); /* the counter charge */
    set_choice(&p, "focus", "b2");
    exact(&p, r);
    cr_expect_float_eq(p_of(r, "counter_charged"), 1.0, 1e-12);
    cr_expect_float_eq(mean_of(r, "side"), 0.0, 1e-12);
    cr_expect_float_eq(mean_of(r, "distance"), sqrt(32.0), 1e-9);
    /* Pushed back to 6.5" (still in the front arc) it does not outrank the
     * 6" charge: b1 counter charges instead and a1's charge stands. */
    double k = 6.5 / sqrt(32.0);
    intercept_layout(&p, (cs_vec2){pos.x * k, pos.y * k}, f);
    set(&p, "los_arc", 45.0);
    exact(&p, r);
    cr_expect_float_eq(p_of(r, "counter_charged"), 1.0, 1e-12);
    cr_expect_float_eq(mean_of(r, "intercepts"), 0.0, 1e-12);
    free(r);
}

Test(sovl, intercept_wins_by_flank)
{
    cs_params p;
    run *r = malloc(sizeof *r);
    /* b2 faces a1's left flank (centre (-INF_W/2, -INF_D/2)) straight on,
     * from exactly 6": equal to a1's charge, and a flank charge outranks a
     * front one (distance first, then flank: docs/rules/sovl.md). */
    cs_vec2 side = {-INF_W / 2.0, -INF_D / 2.0};
    intercept_layout(&p, (cs_vec2){side.x - 6.0, side.y}, -90.0);
    exact(&p, r);
    cr_expect_float_eq(p_of(r, "intercepted"), 1.0, 1e-12);
    set_choice(&p, "focus", "b2");
    exact(&p, r);
    cr_expect_float_eq(p_of(r, "charged"), 1.0, 1e-12);
    cr_expect_float_eq(mean_of(r, "side"), 1.0, 1e-12);
    cr_expect_float_eq(mean_of(r, "flank_b"), 1.0, 1e-12);
    /* From 7" the distance decides first: no intercept... */
    intercept_layout(&p, (cs_vec2){side.x - 7.0, side.y}, -90.0);
    exact(&p, r);
    cr_expect_float_eq(mean_of(r, "intercepts"), 0.0, 1e-12);
    /* ...unless flank/rear is read as the first criterion. */
    set_choice(&p, "priority", "flank_first");
    exact(&p, r);
    cr_expect_float_eq(p_of(r, "intercepted"), 1.0, 1e-12);
    cr_expect_float_eq(mean_of(r, "intercepts"), 1.0, 1e-12);
    free(r);
}

/* MC share of `name` over n trials of the layout in r, against exact. */
static void mc_vs_exact(const cs_params *p, run *r, const char *name, int n, uint64_t seed)
{
    exact(p, r);
    double q = p_of(r, name);
    cs_rng rng;
    cs_rng_seed(&rng, seed, 3u);
    int o = outcome(name), hits = 0;
    for (int t = 0; t < n; t++) {
        cs_trial tr;
        RS->resolve(r->ctx, r->layout, &rng, &tr);
        hits += tr.outcome == o;
    }
    double ph = (double)hits / n, se = sqrt(q * (1.0 - q) / n);
    cr_expect_leq(fabs(ph - q), 5.0 * se, "%s: MC %f vs exact %f", name, ph, q);
}

Test(sovl, flee_from_charge)
{
    cs_params p;
    run *r = malloc(sizeof *r);
    /* Cavalry (16") charges infantry (8") from 10": 8 > 16 - 10, so b1 may
     * flee. It flies 2D6 straight away; the cavalry catches it iff
     * 16 >= 10 + 2D6, i.e. 2D6 <= 6: 15/36. */
    defaults(&p);
    set(&p, "distance", 10.0);
    set_choice(&p, "a1_type", "cavalry");
    set(&p, "a1_ranks", 1);
    set(&p, "flee_b", 1);
    exact(&p, r);
    cr_expect_float_eq(p_of(r, "caught"), 15.0 / 36.0, 1e-12);
    cr_expect_float_eq(p_of(r, "fled"), 21.0 / 36.0, 1e-12);
    cr_expect_float_eq(mean_of(r, "flight"), 7.0, 1e-12);
    cr_expect_float_eq(mean_of(r, "caught"), 15.0 / 36.0, 1e-12);
    cr_expect_float_eq(mean_of(r, "flees"), 1.0, 1e-12);
    mc_vs_exact(&p, r, "caught", 20000, 21u);
    /* From 7" it may not flee (8 > 16 - 7 fails) and counter charges. */
    set(&p, "distance", 7.0);
    exact(&p, r);
    cr_expect_float_eq(p_of(r, "counter_charged"), 1.0, 1e-12);
    cr_expect_float_eq(mean_of(r, "flees"), 0.0, 1e-12);
    /* A monster (12", 3D6) fleeing from cavalry 6" away: caught iff
     * 3D6 <= 10: 108/216 = 1/2. */
    set(&p, "distance", 6.0);
    set_choice(&p, "b1_type", "large_monster");
    set(&p, "b1_frontage", 1);
    set(&p, "b1_ranks", 1);
    exact(&p, r);
    cr_expect_float_eq(p_of(r, "caught"), 0.5, 1e-12);
    mc_vs_exact(&p, r, "caught", 20000, 22u);
    free(r);
}

/* Issue 15.2. At a gap of 0 the two units are in base contact: an
 * Engagement (SOVL Combat Phase "Resolve Engagements": "Each grouping of
 * two or more units in base contact is considered an Engagement"), and an
 * engaged side is not a valid target (SOVL Charge Phase "Charge Side").
 * No charge is declared, so the focus charge is `illegal`, the outcome for
 * "no valid target", in the exact and the sampled path. Before the fix a1
 * charged (and b1, greedy, counter charged) at 0". */
static void expect_no_valid_target(const cs_params *p, run *r, const char *what)
{
    exact(p, r);
    cr_expect_eq(p_of(r, "illegal"), 1.0, "%s: P(illegal) = %g", what, p_of(r, "illegal"));
    cr_expect_eq(mean_of(r, "declared"), 0.0, "%s: charges declared", what);
    mc_vs_exact(p, r, "illegal", 500, 41u); /* P = 1: every sampled phase agrees */
}

Test(sovl, no_valid_target_at_gap_zero)
{
    cs_params p;
    run *r = malloc(sizeof *r);
    /* Head-on, both players greedy: neither may charge the other. */
    defaults(&p);
    set(&p, "distance", 0.0);
    expect_no_valid_target(&p, r, "head-on");
    set_choice(&p, "a1_type", "cavalry");
    set(&p, "flee_b", 1);
    expect_no_valid_target(&p, r, "cavalry, b1 flees");
    /* A gap within CS_REACH_TOL (1e-6 in) of 0 is contact; a hundredth of
     * an inch is not: a1 charges and b1 counter charges. */
    defaults(&p);
    set(&p, "distance", 0.5e-6);
    expect_no_valid_target(&p, r, "gap 0.5e-6");
    set(&p, "distance", 0.01);
    exact(&p, r);
    cr_expect_float_eq(p_of(r, "counter_charged"), 1.0, 1e-12);
    free(r);
}

Test(sovl, no_valid_target_touching_at_a_corner)
{
    cs_params p;
    run *r = malloc(sizeof *r);
    /* b1 turned 45 degrees and pushed until its nearest point, a corner, is
     * on a1's front line (distance = 0) right in front of a1: the corner
     * touches a1's front edge. At 0.01" the pair is free again. */
    one_on_one(&p, 0.0);
    set(&p, "angle", 45.0);
    expect_no_valid_target(&p, r, "corner on the front edge");
    set(&p, "distance", 0.01);
    exact(&p, r);
    cr_expect_float_eq(p_of(r, "charged"), 1.0, 1e-12);
    /* Corner to corner: b1 (the same 5 x 20 mm frontage) slid one frontage
     * to the right at a gap of 0. */
    one_on_one(&p, 0.0);
    set(&p, "offset", INF_W);
    expect_no_valid_target(&p, r, "corner to corner");
    free(r);
}

Test(sovl, an_engaged_unit_cannot_flee)
{
    /* SOVL Charge Phase "Fleeing from a Charge": "It is not already
     * engaged in combat or fleeing." Cavalry charges b1 from 10": alone, b1
     * flees (caught 15/36, flee_from_charge). With a2 in base contact with
     * b1's rear it is engaged and may not flee; it cannot counter charge
     * (10" > 8"), so the charge lands. a2 stands back to back with b1,
     * facing away: it has no valid target whether it touches b1 or not. */
    cs_params p;
    run *r = malloc(sizeof *r);
    defaults(&p);
    set(&p, "distance", 10.0);
    set_choice(&p, "a1_type", "cavalry");
    set(&p, "a1_ranks", 1);
    set(&p, "flee_b", 1);
    set(&p, "units_a", 2);
    place_front(&p, "a2", 0.0, 10.0 + 2.0 * INF_D, 0.0, INF_D);
    exact(&p, r);
    cr_expect_float_eq(p_of(r, "charged"), 1.0, 1e-12);
    cr_expect_float_eq(mean_of(r, "flees"), 0.0, 1e-12);
    cr_expect_float_eq(mean_of(r, "declared"), 1.0, 1e-12);
    /* 0.01" behind b1's rear, a2 no longer touches it: b1 flees. */
    place_front(&p, "a2", 0.0, 10.01 + 2.0 * INF_D, 0.0, INF_D);
    exact(&p, r);
    cr_expect_float_eq(p_of(r, "caught"), 15.0 / 36.0, 1e-12);
    free(r);
}

Test(sovl, random_engagement_conditional_vs_mc)
{
    /* Two cavalry against two infantry that flee when they may, placed at
     * random: the mean of the exact per-layout P(success) and the MC share
     * agree within 5 combined standard errors. No two units overlap. */
    cs_params p;
    defaults(&p);
    set_choice(&p, "placement", "random");
    set(&p, "units_a", 2);
    set(&p, "units_b", 2);
    set_choice(&p, "a1_type", "cavalry");
    set_choice(&p, "a2_type", "cavalry");
    set(&p, "a1_ranks", 1);
    set(&p, "a2_ranks", 1);
    set(&p, "flee_b", 1);
    run *r = malloc(sizeof *r);
    cs_diag diag = {0};
    cr_assert_eq(RS->prepare(&p, r->ctx, &diag), CS_OK);
    cr_assert(RS->layout_is_random(r->ctx));
    const int n = 4000;
    cs_rng lay, dice;
    cs_rng_seed(&lay, 77u, 1u);
    cs_rng_seed(&dice, 77u, 2u);
    double sum = 0.0, sum2 = 0.0;
    int hits = 0;
    for (int t = 0; t < n; t++) {
        RS->draw_layout(r->ctx, p.num, &lay, r->layout);
        const cs_rect *u = (const cs_rect *)r->layout;
        int idx[4] = {0, 1, 3, 4};
        for (int i = 0; i < 4; i++)
            for (int j = i + 1; j < 4; j++)
                cr_assert(!cs_geom_rects_overlap(&u[idx[i]], &u[idx[j]]));
        RS->outcome_probabilities(r->ctx, r->layout, &r->probs);
        double s = 0.0;
        for (int o = 0; o < RS->n_outcomes; o++)
            if (RS->success_mask & (1u << o))
                s += r->probs.p[o];
        sum += s;
        sum2 += s * s;
        cs_trial tr;
        RS->resolve(r->ctx, r->layout, &dice, &tr);
        hits += (RS->success_mask & (1u << tr.outcome)) != 0;
    }
    double pc = sum / n, vc = (sum2 / n - pc * pc) / n;
    double pm = (double)hits / n, vm = pm * (1.0 - pm) / n;
    cr_expect_leq(fabs(pc - pm), 5.0 * sqrt(vc + vm), "conditional %f vs mc %f", pc, pm);
    cr_expect_gt(pm, 0.0);
    free(r);
}

Test(sovl, prepare_rejects)
{
    cs_params p;
    run *r = malloc(sizeof *r);
    cs_diag diag = {0};
    defaults(&p);
    set_choice(&p, "focus", "a3");
    cr_expect_eq(RS->prepare(&p, r->ctx, &diag), CS_EINPUT);
    cr_expect_str_eq(diag.key, "focus");
    defaults(&p);
    set(&p, "units_a", 2);
    set(&p, "a2_x", 1.0); /* on top of a1 */
    cr_expect_eq(RS->prepare(&p, r->ctx, &diag), CS_EINPUT);
    defaults(&p);
    set_choice(&p, "placement", "random");
    set(&p, "area_width", 4.0);
    cr_expect_eq(RS->prepare(&p, r->ctx, &diag), CS_EINPUT);
    free(r);
}

/* The terrain is a polygon parameter: the loader checks it once, with the
 * one polygon parser, and names the file, line, key and column; a good
 * value reaches prepare as written. */
Test(sovl, terrain_checked_at_load)
{
    cs_experiment e;
    cs_error err;
    const char *bad = "[experiment]\nruleset = sovl\ntrials = 100\n[params]\n"
                      "terrain = solid: 0,0 4,0 1e999,1\n";
    cr_assert_eq(th_load(bad, NULL, 0, &e, &err), CS_EINPUT);
    cr_expect(strstr(err.msg, ":5: terrain = 'solid: 0,0 4,0 1e999,1': column 16: "), "%s",
              err.msg);
    const char *dent = "[experiment]\nruleset = sovl\n[params]\nterrain = 0,0 4,0 1,1 0,4\n";
    cr_assert_eq(th_load(dent, NULL, 0, &e, &err), CS_EINPUT);
    cr_expect(strstr(err.msg, ":4: terrain = '0,0 4,0 1,1 0,4': column 1: "), "%s", err.msg);
    cr_expect(strstr(err.msg, "convex"), "%s", err.msg);
    const char *set[] = {"terrain=forest: 0,0 1,0 0,1"};
    const char *ok = "[experiment]\nruleset = sovl\n[params]\nterrain = blocking: 1,2 2,2 2,3\n";
    cr_assert_eq(th_load(ok, set, 1, &e, &err), CS_EINPUT);
    cr_expect(strstr(err.msg, "terrain = 'forest: 0,0 1,0 0,1': column 1: "), "%s", err.msg);
    cr_assert_eq(th_load(ok, NULL, 0, &e, &err), CS_OK, "%s", err.msg);
    cs_params p;
    cs_experiment_point(&e, 0, &p);
    cr_expect_str_eq(p.text[param("terrain")], "blocking: 1,2 2,2 2,3");
    cs_experiment_free(&e);
}
