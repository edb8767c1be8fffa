/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `chargesim draw`: the trial replayed exactly as --method mc ran it, each
 * geometric ruleset's picture of its own move (draw hook, drawing.h), the
 * cairo renderer (battlefield.h): a PNG of the laid-out size, the same bytes
 * from two runs, any trial of any run found at once, and the refusals (no
 * geometry, unknown extension). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sys/wait.h>
#include <unistd.h>

#include "chargesim/battlefield.h"
#include "chargesim/drawing.h"
#include "chargesim/expfile.h"
#include "chargesim/replay.h"
#include "support/helpers.h"

/* A t9a approach whose every trial draws its placement. */
static const char t9a_random[] =
    "[experiment]\nname = approach\nruleset = t9a\ntrials = 300\nseed = 7\nmethod = mc\n"
    "[params]\ndistance = uniform(1, 9)\noffset = uniform(-4, 4)\nangle = uniform(-60, 60)\n";

static void load_file(const char *rel, cs_experiment *e)
{
    char path[1024];
    cs_error err;
    snprintf(path, sizeof path, "%s/%s", th_root(), rel);
    cr_assert_eq(cs_expfile_load(path, NULL, 0, e, &err), CS_OK, "%s", err.msg);
}

/* The picture of trial k of point 0 (of `point_of_picture`). */
static uint64_t point_of_picture;
static void picture(const cs_experiment *e, uint64_t k, cs_drawing *d)
{
    cs_replay r;
    cs_error err;
    cr_assert_eq(cs_replay_trial(e, point_of_picture, k, &r, &err), CS_OK, "%s", err.msg);
    cr_assert_not_null(e->rs->draw, "%s has no draw hook", e->rs->name);
    cs_drawing_init(d);
    e->rs->draw(r.ctx, r.num, &r.layout_rng, r.layout, &r.dice_rng, &r.trial, d);
    cs_replay_free(&r);
}

static bool has_line(const cs_drawing *d, const char *needle)
{
    for (int i = 0; i < d->n_caption; i++)
        if (strstr(d->caption[i], needle))
            return true;
    return false;
}

static bool has_legend(const cs_drawing *d, const char *needle)
{
    for (int i = 0; i < d->n_lines; i++)
        if (strstr(d->line[i].legend, needle))
            return true;
    return false;
}

/* Every trial of a block replayed one by one gives the outcome counts the
 * Monte Carlo run tallied: the replay draws exactly what --method mc draws. */
static void replay_matches_mc(cs_experiment *e)
{
    cs_run_result res;
    cr_assert_eq(th_run(e, 2, &res), CS_OK);
    uint64_t count[CS_MAX_OUTCOMES] = {0};
    for (uint64_t k = 0; k < e->trials; k++) {
        cs_replay r;
        cs_error err;
        cr_assert_eq(cs_replay_trial(e, 0, k, &r, &err), CS_OK, "%s", err.msg);
        count[r.trial.outcome]++;
        cs_replay_free(&r);
    }
    for (int o = 0; o < e->rs->n_outcomes; o++)
        cr_expect_eq(count[o], res.point[0].outcome_count[o], "%s %s: replay %llu, run %llu",
                     e->rs->name, e->rs->outcomes[o], (unsigned long long)count[o],
                     (unsigned long long)res.point[0].outcome_count[o]);
    cs_sched_result_free(&res);
}

Test(draw, replay_draws_what_mc_draws_drawn_layout)
{
    cs_experiment e;
    cs_error err;
    cr_assert_eq(th_load(t9a_random, NULL, 0, &e, &err), CS_OK, "%s", err.msg);
    replay_matches_mc(&e);
    cs_experiment_free(&e);
}

Test(draw, replay_draws_what_mc_draws_random_and_fixed_layouts)
{
    /* coreheim: interceptors placed at random (layout_is_random, nothing
     * drawn); asoiaf: a fixed layout, dice only */
    static const char *const ini[] = {
        "[experiment]\nruleset = coreheim\ntrials = 400\nseed = 3\nmethod = mc\n[params]\n"
        "interceptors = 3\nintercept_lateral_min = -3\nintercept_lateral_max = 3\n"
        "intercept_along_min = 0\nintercept_along_max = 1\ndistance = 6\nestimate_sd = 0.2\n",
        "[experiment]\nruleset = asoiaf\ntrials = 400\nseed = 3\nmethod = mc\n[params]\ndistance = 6\n",
    };
    for (int i = 0; i < 2; i++) {
        cs_experiment e;
        cs_error err;
        cr_assert_eq(th_load(ini[i], NULL, 0, &e, &err), CS_OK, "%s", err.msg);
        replay_matches_mc(&e);
        cs_experiment_free(&e);
    }
}

/* Issue 18: trial K is sought, not replayed. In a run of 10^12 trials
 * (blocks of 3906250000) the last trial of block 0 and the last trial of
 * the run are found at once, and a trial draws from the generator that
 * stepping through its block trial by trial gives it. */
Test(draw, any_trial_of_any_run_is_found_at_once)
{
    cs_experiment e;
    cs_error err;
    const char *sets[] = {"experiment.trials=1000000000000"};
    cr_assert_eq(th_load(t9a_random, sets, 1, &e, &err), CS_OK, "%s", err.msg);
    cs_replay r;
    double t0 = th_now();
    cr_assert_eq(cs_replay_trial(&e, 0, 3906250000ull - 1, &r, &err), CS_OK, "%s", err.msg);
    cs_replay_free(&r);
    cr_assert_eq(cs_replay_trial(&e, 0, 1000000000000ull - 1, &r, &err), CS_OK, "%s", err.msg);
    cs_replay_free(&r);
    double dt = th_now() - t0;
    cr_expect_lt(dt, 1.0, "two trials deep in 10^12 took %.3f s", dt);
    cr_expect_eq(cs_replay_trial(&e, 0, 1000000000000ull, &r, &err), CS_EINPUT);
    cs_replay_free(&r);

    /* trial 3906250000 + 4321 is trial 4321 of block 1 */
    cr_assert_eq(cs_replay_trial(&e, 0, 3906250000ull + 4321, &r, &err), CS_OK, "%s", err.msg);
    cs_rng rng, walk;
    cs_rng_stream(&rng, e.seed, 0, 1);
    cs_rng_trials ts;
    cs_rng_trials_init(&ts, &rng);
    for (int k = 0; k <= 4321; k++)
        cs_rng_trials_next(&ts, &walk);
    cs_rng_uniform(&walk); /* distance, offset and angle: two outputs each */
    cs_rng_uniform(&walk);
    cs_rng_uniform(&walk);
    cr_expect_eq(r.layout_rng.state, walk.state, "the layout starts after the trial's draws");
    cr_expect_eq(r.layout_rng.inc, walk.inc);
    cs_replay_free(&r);
    cs_experiment_free(&e);
}

Test(draw, t9a_draws_its_snaking_path_and_align_move)
{
    cs_experiment e;
    cs_error err;
    cr_assert_eq(th_load(t9a_random, NULL, 0, &e, &err), CS_OK, "%s", err.msg);
    bool charged = false, failed = false;
    static cs_drawing d;
    for (uint64_t k = 0; k < 40 && !(charged && failed); k++) {
        picture(&e, k, &d);
        cr_assert(has_line(&d, "The Ninth Age"));
        if (strcmp(d.outcome, "charged") == 0) {
            charged = true;
            cr_expect(has_legend(&d, "Snaking Forward Move"));
            cr_expect(has_line(&d, "Align Move") || has_line(&d, "Unaligned Charge"));
            cr_expect(isfinite(d.rolled) && isfinite(d.needed) && d.rolled >= d.needed - 1e-6);
        } else if (strcmp(d.outcome, "failed") == 0) {
            failed = true;
            cr_expect(has_legend(&d, "Failed Charge Move"));
            cr_expect(d.rolled < d.needed);
        }
    }
    cr_expect(charged && failed, "40 trials hold a charge and a failure");
    cs_experiment_free(&e);
}

Test(draw, every_geometric_ruleset_draws_its_own_move)
{
    static const struct {
        const char *file;
        uint64_t point;
        const char *caption, *legend;
    } cases[] = {
        {"experiments/asoiaf-crowded.ini", 0, "A Song of Ice and Fire", "charge move: straight"},
        {"experiments/coreheim-interception.ini", 3, "Coreheim", "interception reach"},
        {"experiments/sovl-engagement.ini", 0, "SOVL charge phase", ""},
        {"experiments/t9a-head-on-ed3.ini", 0, "The Ninth Age", "Snaking Forward Move"},
    };
    static cs_drawing d;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        cs_experiment e;
        load_file(cases[i].file, &e);
        point_of_picture = cases[i].point;
        picture(&e, 0, &d);
        point_of_picture = 0;
        cr_expect(has_line(&d, cases[i].caption), "%s: caption", cases[i].file);
        cr_expect(has_legend(&d, cases[i].legend), "%s: legend '%s'", cases[i].file,
                  cases[i].legend);
        cr_expect(!has_legend(&d, "Snaking") || strstr(cases[i].file, "t9a"),
                  "%s drawn with T9A's snaking move", cases[i].file);
        cr_expect_not_null(d.outcome);
        int chargers = 0;
        for (int s = 0; s < d.n_shapes; s++)
            chargers += d.shape[s].role == CS_DRAW_CHARGER;
        cr_expect(chargers <= 1, "%s", cases[i].file);
        cs_experiment_free(&e);
    }
}

/* ---- the renderer ------------------------------------------------------------ */

static char *render(cs_canvas_format f, size_t *len)
{
    cs_experiment e;
    cs_error err;
    cr_assert_eq(th_load(t9a_random, NULL, 0, &e, &err), CS_OK, "%s", err.msg);
    static cs_drawing d;
    picture(&e, 3, &d);
    cs_battlefield_title t = {2, {"approach (ruleset t9a)", "trial 3 of 300, seed 7"}};
    char *buf = NULL;
    FILE *out = open_memstream(&buf, len);
    cr_assert_eq(cs_battlefield_write(&d, &t, f, out, &err), CS_OK, "%s", err.msg);
    fclose(out);
    cs_experiment_free(&e);
    return buf;
}

Test(draw, png_has_the_laid_out_size)
{
    cs_experiment e;
    cs_error err;
    cr_assert_eq(th_load(t9a_random, NULL, 0, &e, &err), CS_OK, "%s", err.msg);
    static cs_drawing d;
    picture(&e, 3, &d);
    cs_battlefield_title t = {2, {"approach (ruleset t9a)", "trial 3 of 300, seed 7"}};
    double w, h, sw, sh;
    cs_battlefield_size(&d, &t, CS_CANVAS_PNG, &w, &h);
    cs_battlefield_size(&d, &t, CS_CANVAS_SVG, &sw, &sh);
    cs_experiment_free(&e);
    /* PNG pixels are CS_BATTLEFIELD_PNG_SCALE per point; the table at least
     * CS_BATTLEFIELD_PT_PER_IN points an inch */
    cr_expect_eq(w, sw * CS_BATTLEFIELD_PNG_SCALE);
    cr_expect_eq(h, sh * CS_BATTLEFIELD_PNG_SCALE);
    size_t len;
    unsigned char *png = (unsigned char *)render(CS_CANVAS_PNG, &len);
    cr_assert(len > 24 && memcmp(png, "\x89PNG", 4) == 0);
    unsigned pw = (unsigned)png[16] << 24 | (unsigned)png[17] << 16 | (unsigned)png[18] << 8 |
                  png[19];
    unsigned ph = (unsigned)png[20] << 24 | (unsigned)png[21] << 16 | (unsigned)png[22] << 8 |
                  png[23];
    cr_expect_eq(pw, (unsigned)w, "width %u, laid out %.0f", pw, w);
    cr_expect_eq(ph, (unsigned)h, "height %u, laid out %.0f", ph, h);
    free(png);
}

static char *render_format(int format, size_t *len)
{
    return render((cs_canvas_format)format, len);
}

Test(draw, two_renders_give_the_same_bytes)
{
    th_check_renders_identical(render_format);
}

Test(draw, caption_formatter_rounds_without_stdio)
{
    char buf[64];
    cs_drawing_format(buf, sizeof buf, "%s %d %.2f %.0f %.1f 100%%", "x", -3, 2.345, 7.5, -0.04);
    cr_expect_str_eq(buf, "x -3 2.35 8 0.0 100%"); /* half away from zero; no -0.0 */
    cs_drawing_format(buf, 6, "%s", "truncated");
    cr_expect_str_eq(buf, "trunc");
}

/* ---- the command ------------------------------------------------------------- */

Test(draw, cli_writes_each_format_by_extension)
{
    const char *dir = th_tmpdir();
    static const char *const ext[] = {"svg", "png", "pdf"};
    static const char *const magic[] = {"<?xml", "\x89PNG", "%PDF"};
    for (int k = 0; k < 3; k++) {
        char args[1024], path[512];
        snprintf(path, sizeof path, "%s/trial.%s", dir, ext[k]);
        snprintf(args, sizeof args, "draw %s/experiments/t9a-random-approach.ini --trial 2 -o %s",
                 th_root(), path);
        char *err = NULL;
        cr_assert_eq(th_cli(args, NULL, &err), 0, "%s", err);
        free(err);
        size_t n;
        char *text = th_slurp(path, &n);
        cr_assert_not_null(text);
        cr_expect(n > 4 && memcmp(text, magic[k], strlen(magic[k])) == 0, "%s", ext[k]);
        free(text);
        unlink(path);
    }
}

Test(draw, cli_refuses_rulesets_without_geometry_and_unknown_formats)
{
    char args[1024], *err = NULL;
    const char *dir = th_tmpdir();
    snprintf(args, sizeof args, "draw %s/experiments/generic-tow.ini -o %s/g.png", th_root(), dir);
    cr_expect_eq(th_cli(args, NULL, &err), 2);
    cr_expect_not_null(strstr(err, "generic has no table geometry"), "%s", err);
    cr_expect_not_null(strstr(err, "t9a"), "%s", err);
    free(err);
    snprintf(args, sizeof args, "draw %s/experiments/t9a-head-on-ed3.ini -o %s/g.jpg", th_root(),
             dir);
    cr_expect_eq(th_cli(args, NULL, &err), 2);
    cr_expect_not_null(strstr(err, ".svg, .png or .pdf"), "%s", err);
    free(err);
    snprintf(args, sizeof args, "%s/g.png", dir);
    cr_expect(access(args, F_OK) != 0, "nothing written");
    snprintf(args, sizeof args, "%s/g.jpg", dir);
    cr_expect(access(args, F_OK) != 0, "nothing written");
}
