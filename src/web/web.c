/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The web edition's C side: a link's pairs to a request (request.h) and
 * its result to JSON; see include/chargesim/web.h. The page runs the same
 * request as the command it shows: the same steps, tables and refusals. */
#include "chargesim/web.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/entries.h"
#include "chargesim/estimator.h"
#include "chargesim/experiment.h"
#include "chargesim/options.h"
#include "chargesim/request.h"
#include "chargesim/sched.h"
#include "chargesim/webinfo.h"
#include "chargesim/webjson.h"
#include "chargesim/webunits.h"
#include "chargesim/mapjson.h"

#ifdef __EMSCRIPTEN__
#include <emscripten.h>

/* Progress goes to the worker's JavaScript, which posts it to the page. */
EM_JS(void, web_progress, (double done, double total), {
    if (Module.onProgress)
        Module.onProgress(done, total);
});
#endif

static void progress(void *user, uint64_t done, uint64_t total)
{
    (void)user;
#ifdef __EMSCRIPTEN__
    web_progress((double)done, (double)total);
#else
    (void)done;
    (void)total;
#endif
}

/* The page's link, between cs_web_begin and cs_web_exec: its command and
 * its pairs, as the worker hands them over one call at a time
 * (web/worker.js). The request is made from them in cs_web_exec. The
 * worker holds the handle; nothing of a link is kept here. */
#define MAX_PAIRS (2 * CS_ENTRIES_MAX_SETS)
struct cs_web_link {
    char cmd[16];
    char *key[MAX_PAIRS], *value[MAX_PAIRS]; /* value NULL: the piece had no '=' */
    int n;
    bool too_many, oom;
};

/* The answer when there is no memory for one: never freed. */
static const char OOM_ANSWER[] =
    "{\"ok\":false,\"cmd\":\"\",\"command\":\"\",\"message\":\"out of memory\","
    "\"cli\":\"out of memory\",\"exit\":1,\"field\":null}";

cs_web_link *cs_web_begin(const char *cmd)
{
    cs_web_link *l = calloc(1, sizeof *l);
    if (l)
        snprintf(l->cmd, sizeof l->cmd, "%s", cmd ? cmd : "");
    return l;
}

void cs_web_pair(cs_web_link *l, const char *key, const char *value)
{
    if (!l)
        return;
    if (l->n == MAX_PAIRS) {
        l->too_many = true;
        return;
    }
    l->key[l->n] = strdup(key ? key : "");
    l->value[l->n] = value ? strdup(value) : NULL;
    if (!l->key[l->n] || (value && !l->value[l->n])) {
        free(l->key[l->n]);
        free(l->value[l->n]);
        l->oom = true;
        return;
    }
    l->n++;
}

static void link_free(cs_web_link *l)
{
    if (!l)
        return;
    for (int i = 0; i < l->n; i++) {
        free(l->key[i]);
        free(l->value[i]);
    }
    free(l);
}

void cs_web_free(const char *json)
{
    if (json != OOM_ANSWER && json != cs_web_units_oom)
        free((char *)json);
}

/* A text as it is (the command line's bytes, whatever they hold); NULL: null. */
static json_t *text(const char *s)
{
    return s ? json_string_nocheck(s) : json_null();
}

/* The commands a link may name (the Units tab has its own entry point). */
static bool page_command(const char *cmd)
{
    return strcmp(cmd, "run") == 0 || strcmp(cmd, "map") == 0 || strcmp(cmd, "compare") == 0 ||
           strcmp(cmd, "dice") == 0;
}

/* What the method field should say of these settings (issue 52: rqmc ran
 * 6 s on a fixed layout where exact takes 0.01 s): whether exact can run
 * them ("exact": the core's own check), and the trials rqmc takes for the
 * ones asked ("rqmc_trials": a power of two per replicate, 0 when method m,
 * the one that ran or will run, is not rqmc). Nothing for dice, which has
 * no experiment. */
static void method_facts(json_t *o, cs_request *r, const char *m, bool *oom)
{
    const cs_experiment *e = cs_request_experiment(r);
    if (!e) {
        cs_webjson_set(o, "exact_available", json_null(), oom);
        cs_webjson_set(o, "rqmc_trials", json_null(), oom);
        return;
    }
    cs_error err = {0};
    bool exact = cs_experiment_method_check(e, CS_METHOD_EXACT, &err) == CS_OK;
    uint64_t rqmc = m && strcmp(m, "rqmc") == 0 ? cs_est_qmc_trials(e, e->n_drawn) : 0;
    cs_webjson_set(o, "exact_available", json_boolean(exact), oom);
    cs_webjson_set(o, "trials", json_integer((json_int_t)e->trials), oom);
    cs_webjson_set(o, "rqmc_trials", json_integer((json_int_t)rqmc), oom);
}

/* cs_web_check's answer for a checked request: the method asked
 * ("method": auto, mc, ...), the one a run would take ("resolved": auto
 * decided by the estimators' registry, a comparison's paired one; null when
 * none can run it) and method_facts for it. */
static json_t *check_result(cs_request *r, bool *oom)
{
    json_t *o = json_object();
    cs_webjson_set(o, "ok", json_true(), oom);
    const cs_experiment *e = cs_request_experiment(r);
    const cs_run_opts *opts = cs_request_run_opts(r);
    cs_method m;
    cs_error err = {0};
    const char *resolved = NULL;
    if (e && cs_est_run_method(e, opts ? opts->pair : NULL, &m, &err) == CS_OK)
        resolved = cs_method_name(m);
    cs_webjson_set(o, "method", text(e ? cs_method_name(e->method) : NULL), oom);
    cs_webjson_set(o, "resolved", text(resolved), oom);
    method_facts(o, r, resolved, oom);
    return o;
}

static json_t *result(cs_request *r, const char *cmd, const char *command, bool *oom)
{
    json_t *o = json_object();
    cs_webjson_set(o, "ok", json_true(), oom);
    cs_webjson_export(o, r, cmd, command, oom);
    cs_webjson_set(o, "method", text(cs_request_method(r)), oom);
    cs_webjson_set(o, "note", text(cs_request_note(r)), oom);
    cs_webjson_set(o, "notice", json_null(), oom);
    cs_webjson_set(o, "warning", text(cs_request_warning(r)), oom);
    /* compare's verdict, the command line's sentence (cmpverdict.h). */
    if (*cs_request_verdict(r))
        cs_webjson_set(o, "verdict", text(cs_request_verdict(r)), oom);
    cs_webjson_table(o, cs_request_table(r, 0), oom);
    /* What each column holds, for the page's charts: never guessed from
     * its position. */
    cs_webjson_columns(o, r, oom);
    method_facts(o, r, cs_request_method(r), oom);
    /* A map's picture, decided by the C core as the command line's is
     * (mapdraw.h): the page only draws it. */
    const struct cs_map_result *m = cs_request_map(r);
    cs_mapdraw d;
    if (m && cs_mapdraw_of_map(m, &d) == CS_OK) {
        cs_mapjson_write(o, &d, oom);
        cs_mapdraw_free(&d);
    } else if (m) {
        *oom = true;
    }
    return o;
}

/* A refusal: the message beside its field (the detail alone: the field
 * says where), the command line's words and exit status. */
static json_t *refusal(const cs_web_link *l, const cs_error *err, const char *field, bool *oom)
{
    char cli[sizeof err->msg + 64];
    if (page_command(l->cmd))
        snprintf(cli, sizeof cli, "chargesim %s: %s", l->cmd, err->msg);
    else
        snprintf(cli, sizeof cli, "chargesim: %s", err->msg);
    json_t *o = json_object();
    cs_webjson_set(o, "ok", json_false(), oom);
    cs_webjson_set(o, "message", text(err->msg + err->detail), oom);
    cs_webjson_set(o, "cli", text(cli), oom);
    cs_webjson_set(o, "exit", json_integer(cs_status_exit_code(err->status)), oom);
    cs_webjson_set(o, "field", text(field), oom);
    return o;
}

/* o's text, the caller's (o consumed). */
static const char *answer(json_t *o, bool oom)
{
    char *json = cs_webjson_dump(o, &oom);
    json_decref(o);
    return json ? json : OOM_ANSWER;
}

/* One pair of the link into the request: the page's fields (options.h:
 * those with a field) and overrides as they are; the operand that is no
 * field of the page ("input": the page reads no file) as the override it
 * would be on the command line. */
static cs_status set(cs_request *r, const char *cmd, const char *key, const char *value)
{
    const cs_opt_table *t = cs_opt_table_of(cmd);
    if (!t->operand || strcmp(key, t->operand) != 0 || t->operand_field)
        return cs_request_set(r, key, value);
    size_t n = strlen(key) + (value ? strlen(value) : 0) + 2;
    char *text = malloc(n);
    if (!text)
        return cs_request_set(r, key, value); /* refused there, out of memory */
    snprintf(text, n, "%s%s%s", key, value ? "=" : "", value ? value : "");
    cs_status st = cs_request_set(r, "set", text);
    free(text);
    return st;
}

/* The link's request, checked (run false) or run: its answer, and l
 * freed (cs_web_exec, cs_web_check). */
static const char *serve(cs_web_link *l, bool run)
{
    if (!l)
        return OOM_ANSWER;
    cs_error err = {0};
    char command[16384] = "";
    cs_request *r = page_command(l->cmd) ? cs_request_new(l->cmd) : NULL;
    cs_status st = CS_OK;
    if (!page_command(l->cmd))
        st = cs_error_set(&err, CS_EINPUT,
                          "unknown command '%s': expected run, map, compare or dice", l->cmd);
    else if (!r || l->oom)
        st = cs_error_set(&err, CS_ENOMEM, "out of memory");
    else if (l->too_many)
        st = cs_error_set(&err, CS_EINPUT, "too many overrides");
    for (int i = 0; st == CS_OK && i < l->n; i++)
        st = set(r, l->cmd, l->key[i], l->value[i]);
    if (r) {
        cs_request_on_progress(r, progress, NULL);
        if (st == CS_OK)
            st = run ? cs_request_run(r) : cs_request_check(r);
        if (st != CS_OK && err.status == CS_OK)
            err = *cs_request_error(r);
        cs_request_command_line(r, command, sizeof command);
    } else {
        snprintf(command, sizeof command, "chargesim %s", l->cmd);
    }
    int fault = r ? cs_request_fault(r) : -1;
    const char *field = !r ? NULL : fault >= 0 ? l->key[fault] : cs_request_fault_key(r);
    bool oom = false;
    json_t *o = st != CS_OK ? refusal(l, &err, field, &oom)
                : run       ? result(r, l->cmd, command, &oom)
                            : check_result(r, &oom);
    cs_webjson_set(o, "cmd", text(l->cmd), &oom);
    cs_webjson_set(o, "command", text(command), &oom);
    cs_request_free(r);
    link_free(l);
    return answer(o, oom);
}

const char *cs_web_exec(cs_web_link *l)
{
    return serve(l, true);
}

const char *cs_web_check(cs_web_link *l)
{
    return serve(l, false);
}

const char *cs_web_rulesets(void)
{
    char *json = cs_webinfo_json();
    return json ? json : OOM_ANSWER;
}
