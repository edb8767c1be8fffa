/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A request: a command and its keys, checked and run once; see
 * include/chargesim/request.h. This file keeps the handle, its keys and its
 * results; the commands' steps are in src/req/reqsteps.c, one function per
 * command, which the command line and the page both reach through here. */
#include "chargesim/request.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/cmdline.h"
#include "chargesim/options.h"
#include "chargesim/parse.h"
#include "chargesim/reqsteps.h"

bool cs_request_known(const char *cmd)
{
    return cmd && (strcmp(cmd, "run") == 0 || strcmp(cmd, "map") == 0 ||
                   strcmp(cmd, "compare") == 0 || strcmp(cmd, "dice") == 0 ||
                   strcmp(cmd, "units") == 0 || strcmp(cmd, "rules") == 0 ||
                   strcmp(cmd, "draw") == 0 || strcmp(cmd, "rerun") == 0);
}

cs_request *cs_request_new(const char *cmd)
{
    if (!cs_request_known(cmd))
        return NULL;
    cs_request *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    snprintf(r->cmd, sizeof r->cmd, "%s", cmd);
    r->opts_table = cs_opt_table_of(cmd);
    r->fault = -1;
    r->fmt = CS_FORMAT_CSV;
    r->input = "-";
    r->seed = 1;
    r->confidence = 0.95;
    for (int i = 0; i < CS_REQ_SLOTS; i++)
        r->slot[i] = -1;
    return r;
}

void cs_request_free(cs_request *r)
{
    if (!r)
        return;
    cs_req_steps_free(r);
    for (int i = 0; i < r->n; i++) {
        free(r->key[i]);
        free(r->value[i]);
        free(r->text[i]);
    }
    for (int s = 0; s < CS_REQ_SLOTS; s++)
        free(r->slot_default[s]);
    free(r);
}

/* Refuses the request: the error, and the parameter at fault (-1: none). */
static cs_status refuse(cs_request *r, int fault, cs_status st, const char *fmt, const char *a)
{
    cs_error_set(&r->err, st, fmt, a);
    r->fault = fault;
    r->refused = true;
    return st;
}

/* An override's text as --set gives it: "K=V", or "K" without a value. */
static char *override_text(const char *key, const char *value)
{
    size_t n = strlen(key) + (value ? strlen(value) + 2 : 1);
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s%s%s", key, value ? "=" : "", value ? value : "");
    return s;
}

/* A value the command line checks as soon as it reads its option. */
static cs_status check_now(cs_request *r, int i, const cs_opt *o, const char *v)
{
    cs_error *err = &r->err;
    cs_status st = CS_OK;
    const char *k = o->key;
    if (strcmp(k, "threads") == 0) {
        uint64_t t;
        if ((st = cs_parse_u64_option(o->name, v, 1, 1024, &t, err)) == CS_OK)
            r->threads = (int)t;
    } else if (strcmp(k, "max_trials") == 0) {
        st = cs_parse_u64_option(o->name, v, 1, CS_REQ_MAX_TRIALS, &r->max_trials, err);
    } else if (strcmp(k, "format") == 0) {
        if (!cs_format_parse(v, &r->fmt))
            st = cs_error_set(err, CS_EINPUT, "--format '%s': expected csv, md or tex", v);
    } else if (strcmp(k, "pivot") == 0) {
        if (!strchr(v, ':'))
            st = cs_error_set(err, CS_EINPUT,
                              strcmp(r->cmd, "compare") == 0 ? "--pivot '%s': expected ROW:COL"
                                                             : "--pivot '%s': expected "
                                                               "ROW:COL[:COLUMN]",
                              v);
    } else if (strcmp(k, "trials") == 0) {
        st = cs_parse_u64_option(o->name, v, 1, CS_REQ_DICE_MAX_TRIALS, &r->trials, err);
    } else if (strcmp(k, "seed") == 0) {
        st = cs_parse_u64_option(o->name, v, 0, UINT64_MAX, &r->seed, err);
    } else if (strcmp(k, "confidence") == 0) {
        char *end;
        r->confidence = strtod(v, &end);
        if (end == v || *end || !(r->confidence > 0.0 && r->confidence < 1.0))
            st = cs_error_set(err, CS_EINPUT,
                              "--confidence '%s': expected a number between 0 and 1", v);
    } else if (strcmp(k, "exact") == 0) {
        r->exact = true;
    } else if (strcmp(k, "point") == 0 || strcmp(k, "trial") == 0) {
        st = cs_parse_u64_option(o->name, v, 0, UINT64_MAX, k[0] == 'p' ? &r->point : &r->trial,
                                 err);
    }
    if (st == CS_OK && (strcmp(k, "seed") == 0 || strcmp(k, "threads") == 0 ||
                        strcmp(k, "confidence") == 0) && strcmp(r->cmd, "dice") == 0) {
        r->sampling_only = o->name;
        r->sampling_pair = i;
    }
    if (st != CS_OK) {
        r->fault = i;
        r->refused = true;
    }
    return st;
}

/* The slot an option's key fills, or -1. */
static int slot_of(const char *key)
{
    static const char *const names[CS_REQ_SLOTS] = {
        "input", "success", "pivot", "x", "y", "expr", "dist",
        "source", "rules", "mapping", "catalogue", "distance", "name", "data", "metadata"};
    for (int s = 0; s < CS_REQ_SLOTS; s++)
        if (strcmp(key, names[s]) == 0)
            return s;
    return -1;
}

cs_status cs_request_set(cs_request *r, const char *key, const char *value)
{
    if (r->refused)
        return r->err.status;
    if (r->n == CS_REQ_MAX_PARAMS)
        return refuse(r, -1, CS_EINPUT, "too many overrides%s", "");
    int i = r->n;
    r->key[i] = strdup(key ? key : "");
    r->value[i] = value ? strdup(value) : NULL;
    if (!r->key[i] || (value && !r->value[i])) {
        free(r->key[i]);
        free(r->value[i]);
        return refuse(r, -1, CS_ENOMEM, "out of memory%s", "");
    }
    r->n++;
    key = r->key[i];
    const cs_opt *o = cs_opt_by_key(r->opts_table, key);
    bool operand = r->opts_table->operand && strcmp(key, r->opts_table->operand) == 0;
    bool dice = strcmp(r->cmd, "dice") == 0, units = strcmp(r->cmd, "units") == 0;
    if (!o && !operand && dice)
        return refuse(r, i, CS_EINPUT,
                      "'%s' is not a key of a dice link; expected expr, trials or seed", key);
    if (!o && !operand && (units || strcmp(r->cmd, "rules") == 0 || strcmp(r->cmd, "rerun") == 0))
        return refuse(r, i, CS_EINPUT, "'%s' is not a key of this command", key);
    if (units && o && o->type == CS_OPT_SET) {
        const char *eq = value ? strchr(value, '=') : NULL;
        if (!eq || eq == value)
            return refuse(r, i, CS_EINPUT, "--set '%s': expected KEY=VALUE", value ? value : "");
        if (r->a.n == CS_UNITS_MAX_SETS) {
            cs_error_set(&r->err, CS_EINPUT, "more than %d --set options", CS_UNITS_MAX_SETS);
            r->fault = i;
            r->refused = true;
            return CS_EINPUT;
        }
    }
    const char *v = value ? r->value[i] : "";
    /* set and b carry a --set text; any other key of run, map and compare
     * that is no option is an override itself (b.K: of B). */
    bool b = strcmp(key, "b") == 0 || (!o && !operand && strncmp(key, "b.", 2) == 0 &&
                                       strcmp(r->cmd, "compare") == 0);
    if ((o && o->type == CS_OPT_SET) || (!o && !operand)) {
        char *text = o ? strdup(v) : override_text(b && key[1] ? key + 2 : key, value ? v : NULL);
        cs_req_sets *s = b ? &r->b : &r->a;
        if (!text)
            return refuse(r, -1, CS_ENOMEM, "out of memory%s", "");
        r->text[i] = text;
        if (s->n == CS_REQ_MAX_SETS)
            return refuse(r, -1, CS_EINPUT, "too many overrides%s", "");
        s->text[s->n] = text;
        s->pair[s->n++] = i;
        return CS_OK;
    }
    if (o && strncmp(key, "experiment.", 11) == 0) {
        /* --trials N is the override experiment.trials=N, in its place. */
        r->text[i] = override_text(key, v);
        if (!r->text[i])
            return refuse(r, -1, CS_ENOMEM, "out of memory%s", "");
        if (r->a.n == CS_REQ_MAX_SETS)
            return refuse(r, -1, CS_EINPUT, "too many overrides%s", "");
        r->a.text[r->a.n] = r->text[i];
        r->a.pair[r->a.n++] = i;
        return CS_OK;
    }
    int s = slot_of(key);
    cs_status st = s < 0 || strcmp(key, "pivot") == 0 ? check_now(r, i, o, v) : CS_OK;
    if (st == CS_OK && s >= 0)
        r->slot[s] = i;
    return st;
}

cs_status cs_request_default(cs_request *r, const char *key, const char *value)
{
    int s = slot_of(key);
    if (s < 0)
        return refuse(r, -1, CS_EINPUT, "'%s' takes no default", key);
    char *copy = strdup(value ? value : "");
    if (!copy)
        return refuse(r, -1, CS_ENOMEM, "out of memory%s", "");
    free(r->slot_default[s]);
    r->slot_default[s] = copy;
    return CS_OK;
}

void cs_request_on_cancel(cs_request *r, int (*fn)(void *user), void *user)
{
    r->cancel = fn;
    r->cancel_user = user;
}

void cs_request_on_progress(cs_request *r, void (*fn)(void *user, uint64_t done, uint64_t total),
                            void *user)
{
    r->progress = fn;
    r->progress_user = user;
    r->opts.progress = fn; /* a request checked already runs with these too */
    r->opts.progress_user = user;
}

/* Word i of the recorded command set on r, through its option table as
 * the command line reads it: the operand (word 1: "-" or the expression),
 * or an option's key and value ("--trials=N", "--set K=V"). --quiet sets
 * no key (it is the command line's); a trailing --dist asks for the
 * distributions, whose file is the caller's. The index of the next word. */
static int set_word(cs_request *r, int i, cs_status *st)
{
    char *const *w = r->rerun_argv;
    int n = r->rerun_argc;
    if (i == 1) {
        *st = cs_request_set(r, r->opts_table->operand, w[i]);
        return i + 1;
    }
    char name[64];
    const char *eq = strchr(w[i], '=');
    snprintf(name, sizeof name, "%.*s", eq ? (int)(eq - w[i]) : (int)strlen(w[i]), w[i]);
    const cs_opt *o = cs_opt_find(r->opts_table, name);
    if (!o) {
        *st = refuse(r, -1, CS_EINPUT, "the recorded command has no option '%s'", w[i]);
        return n;
    }
    bool flag = o->type == CS_OPT_FLAG, own = eq || flag || i + 1 == n;
    const char *v = eq ? eq + 1 : flag ? NULL : own ? "" : w[i + 1];
    if (o->key)
        *st = cs_request_set(r, o->key, v);
    return own ? i + 1 : i + 2;
}

/* rerun: the command the metadata records (reqrerun.c) set on r in its
 * place, so that r checks and runs as that command; a refusal of one of
 * its words names the metadata as the parameter at fault. */
static cs_status become_recorded(cs_request *r)
{
    cs_status st = cs_req_rerun_read(r);
    if (st != CS_OK)
        return st;
    snprintf(r->cmd, sizeof r->cmd, "%s", r->rerun_argv[0]);
    r->opts_table = cs_opt_table_of(r->cmd);
    r->recorded_from = r->n;
    for (int i = 1; st == CS_OK && i < r->rerun_argc;)
        i = set_word(r, i, &st);
    return st;
}

cs_status cs_request_check(cs_request *r)
{
    if (r->refused)
        return r->err.status;
    if (r->checked)
        return CS_OK;
    bool rerun = strcmp(r->cmd, "rerun") == 0;
    cs_status st = rerun ? become_recorded(r) : CS_OK;
    if (st == CS_OK)
        st = cs_req_steps_check(r);
    /* A run made again keeps the provenance its metadata recorded. */
    if (st == CS_OK && rerun && r->has_a)
        st = cs_csvwread_remade_apply(&r->remade, &r->ea, &r->err);
    if (st != CS_OK && rerun && (r->fault < 0 || r->fault >= r->recorded_from)) {
        r->fault = r->slot[CS_REQ_METADATA];
        r->fault_key = r->fault < 0 ? "metadata" : NULL;
    }
    if (st != CS_OK)
        r->refused = true;
    else
        r->checked = true;
    return st;
}

cs_status cs_request_run(cs_request *r)
{
    cs_status st = cs_request_check(r);
    if (st != CS_OK)
        return st;
    if (r->ran)
        return CS_OK;
    st = cs_req_steps_run(r);
    if (st != CS_OK)
        r->refused = true;
    r->ran = st == CS_OK;
    return st;
}

int cs_request_tables(const cs_request *r)
{
    return r->ran ? r->n_tables : 0;
}

cs_table *cs_request_table(cs_request *r, int i)
{
    return r->ran && i >= 0 && i < r->n_tables ? &r->tables[i] : NULL;
}

cs_table *cs_request_named_table(cs_request *r, const char *name)
{
    return r->ran && r->has_dist && strcmp(name, "dist") == 0 ? &r->dist : NULL;
}

bool cs_request_column_at(cs_request *r, int i, int col, cs_request_column *out)
{
    const cs_table *t = cs_request_table(r, i);
    if (!t || col < 0 || col >= t->ncols)
        return false;
    const cs_colmeta *m = &t->meta[col];
    bool exact = strcmp(r->method, "exact") == 0;
    *out = (cs_request_column){t->header[col], t->desc[col] ? t->desc[col] : "",
                               m->unit ? m->unit : "",
                               m->kind == CS_COL_VALUE ? (exact ? "exact" : "estimate")
                                                       : cs_colkind_name(m->kind),
                               t->label[col] ? t->label[col] : ""};
    return true;
}

const char *cs_request_method(const cs_request *r)
{
    return r->method;
}

const char *cs_request_note(const cs_request *r)
{
    return r->note;
}

bool cs_request_seed(const cs_request *r, uint64_t *seed)
{
    if (!r->method[0] || strcmp(r->method, "exact") == 0)
        return false;
    if (strcmp(r->cmd, "dice") == 0)
        *seed = r->seed;
    else if (r->made.exp)
        *seed = r->made.exp->seed;
    else
        return false;
    return true;
}

const char *cs_request_verdict(const cs_request *r)
{
    return r->verdict;
}

const char *cs_request_warning(const cs_request *r)
{
    return r->warning[0] ? r->warning : NULL;
}

const cs_error *cs_request_error(const cs_request *r)
{
    return &r->err;
}

int cs_request_fault(const cs_request *r)
{
    return r->fault;
}

const char *cs_request_fault_key(const cs_request *r)
{
    return r->fault_key;
}

bool cs_request_grid(const cs_request *r, double g[8])
{
    if (!r->has_grid)
        return false;
    memcpy(g, r->grid, sizeof r->grid);
    return true;
}

/* Appends " WORD" to the command line in buf, quoted as the shell reads it. */
static void word(char *buf, size_t cap, const char *a)
{
    size_t used = strlen(buf);
    snprintf(buf + used, cap - used, " ");
    cs_cmdline_word(buf, cap, a);
}

/* The equivalent command line: each key as the option that sets it, an
 * override as --set (compare's B as --b), the operand first. */
void cs_request_command_line(const cs_request *r, char *buf, size_t cap)
{
    const cs_opt_table *t = r->opts_table;
    bool dice = strcmp(r->cmd, "dice") == 0;
    int operand_slot = t->operand ? slot_of(t->operand) : -1;
    const char *operand_text =
        operand_slot >= 0 ? cs_req_slot(r, (cs_req_slot_id)operand_slot) : NULL;
    snprintf(buf, cap, "chargesim %s", r->cmd);
    if (!dice && operand_text)
        word(buf, cap, operand_text);
    for (int i = r->rerun_read ? r->recorded_from : 0; i < r->n; i++) {
        const cs_opt *o = cs_opt_by_key(t, r->key[i]);
        bool operand = t->operand && strcmp(r->key[i], t->operand) == 0;
        const char *v = r->value[i] ? r->value[i] : "";
        if (operand && !dice)
            continue;
        if (operand) {
            word(buf, cap, v);
        } else if (o && o->type == CS_OPT_SET) {
            word(buf, cap, o->name);
            word(buf, cap, v);
        } else if (o) {
            word(buf, cap, o->name);
            if (o->type != CS_OPT_FLAG)
                word(buf, cap, v);
        } else {
            bool b = strcmp(r->cmd, "compare") == 0 && strncmp(r->key[i], "b.", 2) == 0;
            word(buf, cap, b ? "--b" : "--set");
            word(buf, cap, r->text[i] ? r->text[i] : r->key[i]);
        }
    }
}

struct cs_experiment *cs_request_experiment(cs_request *r)
{
    return r->has_a ? &r->ea : NULL;
}

const struct cs_run_result *cs_request_run_result(const cs_request *r)
{
    return r->ran ? &r->made : NULL;
}

const struct cs_map_result *cs_request_map(const cs_request *r)
{
    return r->ran && r->has_map ? &r->map : NULL;
}

struct cs_run_opts *cs_request_run_opts(cs_request *r)
{
    return r->checked ? &r->opts : NULL;
}

const char *cs_request_identity_extra(cs_request *r)
{
    return r->extra;
}

cs_status cs_request_recorded(cs_request *r, int *argc, char *const **argv,
                              const struct cs_csvw_remade **remade)
{
    if (strcmp(r->cmd, "rerun") != 0 && !r->rerun_read)
        return refuse(r, -1, CS_EINPUT, "'%s' records no command", r->cmd);
    if (!r->refused && cs_req_rerun_read(r) != CS_OK)
        r->refused = true;
    if (r->refused)
        return r->err.status;
    *argc = r->rerun_argc;
    *argv = r->rerun_argv;
    *remade = &r->remade;
    return CS_OK;
}
