/* SPDX-License-Identifier: GPL-3.0-or-later */
/* rules and draw as requests (issue 51): what `chargesim rules` prints, as
 * text, and the display list of one trial (drawing.h) with its title,
 * which the command line renders (battlefield.h) and the page may. See
 * include/chargesim/reqsteps.h. */
#include "chargesim/reqsteps.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/columns.h"
#include "chargesim/drawing.h"
#include "chargesim/expfile.h"
#include "chargesim/registry.h"
#include "chargesim/replay.h"

/* printf into the request's text. */
__attribute__((format(printf, 2, 3))) static void say(cs_text *t, const char *fmt, ...)
{
    char buf[4096];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n < sizeof buf) {
        cs_text_put(t, buf, (size_t)n);
        return;
    }
    char *big = malloc((size_t)n + 1);
    if (!big) {
        t->oom = true;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    cs_text_put(t, big, (size_t)n);
    free(big);
}

static void ruleset_text(const cs_ruleset *rs, cs_text *t)
{
    say(t, "%s — %s\n\n%s\n\nparameters:\n", rs->name, rs->summary, rs->doc);
    for (int i = 0; i < rs->n_params; i++) {
        const cs_param_def *p = &rs->params[i];
        char accepted[512];
        cs_columns_accepted(p, accepted, sizeof accepted);
        say(t, "  %-18s %-6s default %-8s %-4s %s%s%s\n      %s\n", p->key,
            cs_ruleset_type_name(p->type), p->def[0] ? p->def : "\"\"", p->unit, accepted,
            (p->flags & CS_PF_LAYOUT) ? " [layout]" : "",
            (p->flags & CS_PF_ASSUMPTION) ? " [assumption]" : "", p->help);
    }
    say(t, "\noutcomes (* = success), each with what it means at the table:\n");
    for (int o = 0; o < rs->n_outcomes; o++)
        say(t, "  %s%-*s %s\n", rs->outcomes[o], 19 - (int)strlen(rs->outcomes[o]),
            (rs->success_mask >> o) & 1u ? "*" : "", rs->outcome_help[o]);
    /* The success set spelled out (issue 15, point 5): p_success counts
     * these, unless `run --success` names others. */
    say(t, "Success: ");
    for (int o = 0, n = 0; o < rs->n_outcomes; o++)
        if ((rs->success_mask >> o) & 1u)
            say(t, "%s%s", n++ ? ", " : "", rs->outcomes[o]);
    say(t, "\n\nmeasured (mean_<name> columns; mean+dist: --dist rows too):\n");
    for (int m = 0; m < rs->n_metrics; m++)
        say(t, "  %-18s %-4s %-9s %s\n", rs->metrics[m].name, rs->metrics[m].unit,
            rs->metrics[m].kind == CS_METRIC_DIST ? "mean+dist" : "mean", rs->metrics[m].help);
    say(t, "\nexact method: %s\n",
        rs->outcome_probabilities ? "yes (exact / conditional)" : "no (mc only)");
}

cs_status cs_req_rules_run(cs_request *r)
{
    const char *name = cs_req_slot(r, CS_REQ_NAME);
    if (!name) {
        for (int i = 0; i < cs_registry_count(); i++)
            say(&r->text_out, "%-10s %s\n", cs_registry_at(i)->name, cs_registry_at(i)->summary);
    } else if (cs_registry_find(name)) {
        ruleset_text(cs_registry_find(name), &r->text_out);
    } else {
        char list[256] = "";
        for (int i = 0; i < cs_registry_count(); i++) {
            size_t u = strlen(list);
            snprintf(list + u, sizeof list - u, "%s%s", i ? ", " : "", cs_registry_at(i)->name);
        }
        r->fault = r->slot[CS_REQ_NAME];
        return cs_error_set(&r->err, CS_EINPUT, "unknown ruleset '%s'; expected one of: %s", name,
                            list);
    }
    return r->text_out.oom ? cs_error_set(&r->err, CS_ENOMEM, "out of memory") : CS_OK;
}

/* The rulesets with a draw hook, for the refusal's message. */
static void drawable(char *buf, size_t cap)
{
    buf[0] = '\0';
    for (int i = 0; i < cs_registry_count(); i++) {
        const cs_ruleset *rs = cs_registry_at(i);
        size_t n = strlen(buf);
        if (rs->draw && n < cap)
            snprintf(buf + n, cap - n, "%s%s", n ? ", " : "", rs->name);
    }
}

cs_status cs_req_draw_run(cs_request *r)
{
    const char *path = cs_req_slot(r, CS_REQ_INPUT);
    cs_status st = cs_expfile_load(path, r->a.text, r->a.n, &r->ea, &r->err);
    if (st != CS_OK)
        return st;
    r->has_a = true;
    const cs_experiment *e = &r->ea;
    if (!e->rs->draw) {
        char names[256];
        drawable(names, sizeof names);
        return cs_error_set(&r->err, CS_EINPUT,
                            "%s: ruleset %s has no table geometry to draw; draw supports %s", path,
                            e->rs->name, names);
    }
    cs_replay rp;
    if ((st = cs_replay_trial(e, r->point, r->trial, &rp, &r->err)) != CS_OK) {
        cs_replay_free(&rp);
        return st;
    }
    if (!(r->drawing = malloc(sizeof *r->drawing))) { /* a few tens of kilobytes */
        cs_replay_free(&rp);
        return cs_error_set(&r->err, CS_ENOMEM, "out of memory");
    }
    cs_drawing_init(r->drawing);
    e->rs->draw(rp.ctx, rp.num, &rp.layout_rng, rp.layout, &rp.dice_rng, &rp.trial, r->drawing);
    r->n_title = cs_replay_title(e, r->point, r->trial, &rp, r->title);
    for (int k = 0; k < r->n_title; k++)
        r->title_line[k] = r->title[k];
    cs_replay_free(&rp);
    return CS_OK;
}

const char *cs_request_text(const cs_request *r)
{
    return r->ran && r->text_out.s ? r->text_out.s : "";
}

const struct cs_drawing *cs_request_drawing(const cs_request *r, const char *const **title,
                                            int *n_title)
{
    static const char *none[1];
    if (!r->ran || !r->drawing) {
        *title = none;
        *n_title = 0;
        return NULL;
    }
    *title = r->title_line;
    *n_title = r->n_title;
    return r->drawing;
}
