/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The web edition's C side: a link's pairs to the command line's table;
 * see include/chargesim/web.h. Each request runs as the command it
 * shows would: the same entries (entries.h), checks in the same order, the
 * same scheduler, the same table (report.h, cmpreport.h, dicereport.h) and
 * the same refusals. */
#include "chargesim/web.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/cmdline.h"
#include "chargesim/webinfo.h"
#include "chargesim/webjson.h"
#include "chargesim/webjob.h"
#include "chargesim/webmap.h"

#define MAX_PAIRS (2 * CS_ENTRIES_MAX_SETS)

/* The request being built: the command and the link's pairs, in order. */
static struct {
    char cmd[16];
    char *key[MAX_PAIRS], *value[MAX_PAIRS]; /* value NULL: the piece had no '=' */
    int n;
    bool too_many, oom;
    cs_webjson out;
} req;

void cs_web_begin(const char *cmd)
{
    for (int i = 0; i < req.n; i++) {
        free(req.key[i]);
        free(req.value[i]);
    }
    req.n = 0;
    req.too_many = req.oom = false;
    snprintf(req.cmd, sizeof req.cmd, "%s", cmd ? cmd : "");
}

void cs_web_pair(const char *key, const char *value)
{
    if (req.n == MAX_PAIRS) {
        req.too_many = true;
        return;
    }
    req.key[req.n] = strdup(key ? key : "");
    req.value[req.n] = value ? strdup(value) : NULL;
    if (!req.key[req.n] || (value && !req.value[req.n])) {
        free(req.key[req.n]);
        free(req.value[req.n]);
        req.oom = true;
        return;
    }
    req.n++;
}

/* Adds a formatted word to the job's command line. */
static void word(cs_webjob *j, const char *fmt, const char *a, const char *b)
{
    size_t len = strlen(fmt) + strlen(a) + (b ? strlen(b) : 0) + 1;
    char *w = malloc(len);
    if (w)
        snprintf(w, len, fmt, a, b ? b : "");
    if (!w || !cs_webjob_word(j, w))
        j->oom = true;
    free(w);
}

/* A pair as `--set KEY=VALUE` (or compare's `--b`): its text "KEY=VALUE",
 * or "KEY" when the link's piece had no '=' (refused as --set refuses it). */
static void add_set(cs_webjob *j, int pair, bool b)
{
    cs_websets *s = b ? &j->b : &j->a;
    const char *key = req.key[pair] + (b ? 2 : 0);
    if (s->n == CS_ENTRIES_MAX_SETS) {
        j->too_many = true;
        return;
    }
    word(j, "%s", b ? "--b" : "--set", NULL);
    if (req.value[pair])
        word(j, "%s=%s", key, req.value[pair]);
    else
        word(j, "%s", key, NULL);
    if (j->oom)
        return;
    s->text[s->n] = j->argv[j->argc - 1];
    s->pair[s->n++] = pair;
}

/* An option the link's key stands for, with its value (and its pair, to
 * name the field a refusal belongs to). */
static void add_option(cs_webjob *j, int pair, const char *opt, cs_webopt *dst)
{
    word(j, "%s", opt, NULL);
    word(j, "%s", req.value[pair] ? req.value[pair] : "", NULL);
    dst->value = req.value[pair] ? req.value[pair] : "";
    dst->pair = pair;
}

/* Sorts the pairs into the command's options and overrides, building its
 * command line as it goes: false (j->err set) for a key the command does
 * not take. */
static bool collect(cs_webjob *j)
{
    bool dice = strcmp(j->cmd, "dice") == 0, map = strcmp(j->cmd, "map") == 0;
    if (!dice)
        word(j, "%s", "-", NULL);
    for (int i = 0; i < req.n && !j->oom && !j->too_many; i++) {
        const char *k = req.key[i];
        if (dice && strcmp(k, "expr") == 0) {
            j->expr.value = req.value[i] ? req.value[i] : "";
            j->expr.pair = i;
            word(j, "%s", j->expr.value, NULL);
        } else if (dice && strcmp(k, "trials") == 0)
            add_option(j, i, "--trials", &j->trials);
        else if (dice && strcmp(k, "seed") == 0)
            add_option(j, i, "--seed", &j->seed);
        else if (dice) {
            j->field = i;
            cs_error_set(&j->err, CS_EINPUT,
                         "'%s' is not a key of a dice link; expected expr, trials or seed", k);
            return false;
        } else if (strcmp(k, "success") == 0)
            add_option(j, i, "--success", &j->success);
        else if (map && strcmp(k, "x") == 0)
            add_option(j, i, "--x", &j->x);
        else if (map && strcmp(k, "y") == 0)
            add_option(j, i, "--y", &j->y);
        else
            add_set(j, i, strcmp(j->cmd, "compare") == 0 && strncmp(k, "b.", 2) == 0);
    }
    if (j->oom) {
        cs_error_set(&j->err, CS_ENOMEM, "out of memory");
        return false;
    }
    if (j->too_many || req.too_many) {
        cs_error_set(&j->err, CS_EINPUT, "too many overrides");
        return false;
    }
    return true;
}

/* The key of pair i as it names a field of the page's form. */
static const char *field_key(int i)
{
    return i < 0 ? NULL : req.key[i];
}

static void write_error(cs_webjson *o, const cs_webjob *j, const char *command)
{
    char cli[1200];
    if (cs_webjob_known(j->cmd))
        snprintf(cli, sizeof cli, "chargesim %s: %s", j->cmd, j->err.msg);
    else
        snprintf(cli, sizeof cli, "chargesim: %s", j->err.msg);
    cs_webjson_open(o, '{');
    cs_webjson_kbool(o, "ok", false);
    cs_webjson_kstring(o, "cmd", j->cmd);
    cs_webjson_kstring(o, "command", command);
    /* Beside its field the message is the detail alone: the field says where. */
    cs_webjson_kstring(o, "message", j->err.msg + j->err.detail);
    cs_webjson_kstring(o, "cli", cli);
    cs_webjson_knumber(o, "exit", cs_status_exit_code(j->err.status));
    cs_webjson_kstring(o, "field", j->field_name ? j->field_name : field_key(j->field));
    cs_webjson_close(o, '}');
}

static void write_result(cs_webjson *o, const cs_webjob *j, const char *command)
{
    const cs_table *t = &j->table;
    cs_webjson_open(o, '{');
    cs_webjson_kbool(o, "ok", true);
    cs_webjson_kstring(o, "cmd", j->cmd);
    cs_webjson_kstring(o, "command", command);
    cs_webjson_kstring(o, "method", j->method);
    cs_webjson_kstring(o, "note", j->note);
    cs_webjson_kstring(o, "notice", j->notice[0] ? j->notice : NULL);
    cs_webjson_kstring(o, "warning", j->warning[0] ? j->warning : NULL);
    cs_webjson_table(o, t);
    if (j->has_map)
        cs_webmap_write(o, &j->map);
    cs_webjson_close(o, '}');
}

const char *cs_web_exec(void)
{
    static cs_webjob j;
    cs_webjob_init(&j, req.cmd);
    cs_status st = CS_OK;
    if (req.oom) {
        st = cs_error_set(&j.err, CS_ENOMEM, "out of memory");
    } else if (!cs_webjob_known(j.cmd)) {
        st = cs_error_set(&j.err, CS_EINPUT,
                          "unknown command '%s': expected run, map, compare or dice", j.cmd);
    } else if (!collect(&j)) {
        st = j.err.status;
    } else {
        st = cs_webjob_run(&j);
    }
    if (j.oom && st == CS_OK)
        st = cs_error_set(&j.err, CS_ENOMEM, "out of memory");
    static char command[16384];
    cs_cmdline_join(command, sizeof command, j.cmd, j.argc, j.argv);
    cs_webjson_clear(&req.out);
    if (st == CS_OK)
        write_result(&req.out, &j, command);
    else
        write_error(&req.out, &j, command);
    cs_webjob_free(&j);
    if (req.out.text.oom)
        return "{\"ok\":false,\"cmd\":\"\",\"command\":\"\",\"message\":\"out of memory\","
               "\"cli\":\"out of memory\",\"exit\":1,\"field\":null}";
    return req.out.text.s;
}

const char *cs_web_rulesets(void)
{
    cs_webjson_clear(&req.out);
    cs_webinfo_write(&req.out);
    return req.out.text.oom ? "null" : req.out.text.s;
}
