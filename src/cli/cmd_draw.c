/* `chargesim draw`: one trial's battlefield as an SVG picture. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/atomicfile.h"
#include "chargesim/cli.h"
#include "chargesim/expfile.h"
#include "chargesim/geom.h"
#include "chargesim/scenario.h"
#include "chargesim/sim.h"
#include "chargesim/svg.h"

static const char usage[] =
    "usage: chargesim draw EXPERIMENT.ini [--set K=V]... [--point P] [--trial K] -o FILE.svg\n"
    "\n"
    "Draws the battlefield of one trial: the charger (blue), the target (red), other\n"
    "enemies (orange) and friends (green), terrain (grey), every unit's front edge as a\n"
    "thick line, the target's arcs, the charger's 90-degree field of view, and the\n"
    "cheapest snaking path (forward, one wheel, forward) to the facing the centre of\n"
    "the charger's front edge is located in.\n"
    "\n"
    "  --set K=V    override a key, as for chargesim run\n"
    "  --point P    the sweep point, 0-based, in the order of `run`'s rows (default 0)\n"
    "  --trial K    the trial, 0-based, as --method mc draws it (default 0): values\n"
    "               drawn per trial (uniform, normal) are the ones that trial used\n"
    "  -o FILE      the SVG file (default: standard output)\n"
    "\n"
    "Rulesets whose battlefield is the common rectangle scenario (t9a, asoiaf) can be\n"
    "drawn; the others place their units otherwise and are refused.\n";

/* The scenario block's keys, to recognise it in a ruleset's table. */
static const cs_param_def scenario_block[] = {
    CS_SCENARIO_PARAMS("8", "5", "2", "1", "1", "5", "2", "1", "1"),
};

static int scenario_first(const cs_ruleset *rs)
{
    int first = cs_ruleset_param_index(rs, scenario_block[0].key);
    if (first < 0 || first + CS_SCN_N_PARAMS > rs->n_params)
        return -1;
    for (int i = 0; i < CS_SCN_N_PARAMS; i++)
        if (strcmp(rs->params[first + i].key, scenario_block[i].key) != 0)
            return -1;
    return first;
}

int cs_cli_draw(int argc, char **argv)
{
    const char *path = NULL, *out = NULL, *v;
    const char *sets[256];
    int n_sets = 0;
    uint64_t point = 0, trial = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(usage, stdout);
            return 0;
        } else if (cs_cli_opt(argc, argv, &i, "--set", &v)) {
            if (!v || n_sets >= 256)
                return cs_cli_fail("draw", CS_EINPUT, "--set needs K=V");
            sets[n_sets++] = v;
        } else if (cs_cli_opt(argc, argv, &i, "--point", &v)) {
            int rc = cs_cli_uint("draw", "--point", v, 0, UINT64_MAX, &point);
            if (rc)
                return rc;
        } else if (cs_cli_opt(argc, argv, &i, "--trial", &v)) {
            int rc = cs_cli_uint("draw", "--trial", v, 0, UINT64_MAX, &trial);
            if (rc)
                return rc;
        } else if (cs_cli_opt(argc, argv, &i, "-o", &v)) {
            if (!v)
                return cs_cli_fail("draw", CS_EINPUT, "-o needs a file name");
            out = v;
        } else if (a[0] == '-' && a[1] != '\0') {
            return cs_cli_fail("draw", CS_EINPUT, "unknown option '%s' (see chargesim draw --help)",
                               a);
        } else if (path) {
            return cs_cli_fail("draw", CS_EINPUT, "one experiment file at a time");
        } else {
            path = a;
        }
    }
    if (!path) {
        fputs(usage, stderr);
        return 2;
    }
    cs_experiment e;
    cs_error err;
    if (cs_expfile_load(path, sets, n_sets, &e, &err) != CS_OK)
        return cs_cli_fail_err("draw", &err);
    int rc = 0, first = scenario_first(e.rs);
    double num[CS_MAX_PARAMS];
    if (first < 0) {
        rc = cs_cli_fail("draw", CS_EINPUT,
                         "%s: ruleset %s does not use the rectangle scenario; draw supports "
                         "t9a and asoiaf",
                         path, e.rs->name);
        goto done;
    }
    if (trial >= e.trials) {
        rc = cs_cli_fail("draw", CS_EINPUT, "--trial %llu: the experiment runs %llu trials",
                         (unsigned long long)trial, (unsigned long long)e.trials);
        goto done;
    }
    if (cs_sim_trial_params(&e, point, trial, num, &err) != CS_OK) {
        rc = cs_cli_fail_err("draw", &err);
        goto done;
    }
    cs_scenario s;
    cs_scenario_build(num, first, &s);
    /* The path to the facing the charger is located in (T9A's reading);
     * other enemies may not be touched on the way. */
    cs_rect enemies[CS_SCN_MAX_OTHERS];
    int n_enemies = cs_scenario_units_of_kind(&s, CS_UNIT_ENEMY, enemies);
    cs_facing f = cs_geom_arc_of_point(&s.target.r, cs_geom_edge_centre(&s.charger.r, CS_FRONT));
    cs_snake snake;
    cs_geom_snake(&s.charger.r, &s.target.r, f, enemies, n_enemies, &snake);
    static const char *const facing_names[] = {"front", "left", "right", "rear"};
    char label[512], title[1024];
    cs_experiment_point_label(&e, point, label, sizeof label);
    if (snake.found)
        snprintf(title, sizeof title,
                 "%s (%s)\n%s%strial %llu\nlocated in the %s arc; closest distance %.2f\"\n"
                 "snaking path cost %.2f\", wheel %.1f deg%s",
                 e.name, e.rs->name, label, label[0] ? ", " : "", (unsigned long long)trial,
                 facing_names[f], cs_geom_dist_rect_rect(&s.charger.r, &s.target.r), snake.cost,
                 snake.wheel, snake.touches >= 0 ? " (touches another enemy)" : "");
    else
        snprintf(title, sizeof title,
                 "%s (%s)\n%s%strial %llu\nlocated in the %s arc; no snaking path reaches it",
                 e.name, e.rs->name, label, label[0] ? ", " : "", (unsigned long long)trial,
                 facing_names[f]);
    cs_svg_path pic = {snake.found ? &snake : NULL, NULL, 90.0, title};
    cs_outfile o;
    if (cs_outfile_open(&o, out, &err) != CS_OK) {
        rc = cs_cli_fail_err("draw", &err);
        goto done;
    }
    if (cs_svg_write(o.f, &s, &pic) != CS_OK) {
        cs_outfile_abort(&o);
        rc = cs_cli_fail("draw", CS_ERUNTIME, "%s: write error", out ? out : "stdout");
        goto done;
    }
    if (cs_outfile_commit(&o, &err) != CS_OK)
        rc = cs_cli_fail_err("draw", &err);
done:
    cs_experiment_free(&e);
    return rc;
}
