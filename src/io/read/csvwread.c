/* SPDX-License-Identifier: GPL-3.0-or-later */
/* CSVW metadata read back: the command that makes its CSV again; see
 * include/chargesim/csvwread.h. The metadata is written by
 * src/io/write/csvw.c. */
#include "chargesim/csvwread.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/grow.h"
#include "chargesim/infile.h"
#include "chargesim/sha256.h"

/* jansson does not report every allocation that fails: a member that
 * json_object_set_new or json_array_append_new could not add is dropped
 * (their -1 is out of reach inside one json_pack expression), and 2.14's
 * reader drops a character it could not save and parses on, so a value
 * read back one letter short. A document touched by a failed allocation is
 * therefore refused whole: jansson allocates through json_alloc, which
 * remembers the failure. jansson's allocator is one for the process: each
 * public function that uses jansson here and in the writer (csvw.c) sets
 * it as it starts (cs_csvwread_json_watch) and reads the flag only for its
 * own document; the roster reader (src/io/units/roster_json.c) parses its
 * JSON with whatever allocator is set, and checks jansson's own result.
 * All run on a command's main thread. */
static bool json_alloc_failed;

static void *json_alloc(size_t n)
{
    void *p = malloc(n);
    if (!p)
        json_alloc_failed = true;
    return p;
}

void cs_csvwread_json_watch(void)
{
    json_set_alloc_funcs(json_alloc, free);
    json_alloc_failed = false;
}

bool cs_csvwread_json_failed(void)
{
    return json_alloc_failed;
}

/* An argument list under construction. */
typedef struct args {
    char **v;
    int n, cap;
    bool oom;
} args;

static void add(args *a, const char *fmt, const char *x, const char *y)
{
    char **nv = cs_grow(a->v, a->n, &a->cap, sizeof *nv, 32);
    if (!nv) {
        a->oom = true;
        return;
    }
    a->v = nv;
    size_t len = strlen(fmt) + strlen(x) + (y ? strlen(y) : 0) + 1;
    char *s = malloc(len);
    if (!s) {
        a->oom = true;
        return;
    }
    snprintf(s, len, fmt, x, y ? y : "");
    a->v[a->n++] = s;
}

static const char *str_of(json_t *o, const char *key)
{
    return json_string_value(json_object_get(o, key));
}

/* --set labels.KEY=a,b,c from a parameter's recorded labels, if any. */
static void add_labels(args *a, const char *key, json_t *labs)
{
    size_t len = 1, i;
    json_t *l;
    json_array_foreach(labs, i, l) len += strlen(json_string_value(l) ? json_string_value(l) : "") + 1;
    if (len == 1)
        return;
    char *joined = malloc(len);
    if (!joined) {
        a->oom = true;
        return;
    }
    joined[0] = '\0';
    json_array_foreach(labs, i, l)
    {
        strcat(joined, i ? "," : "");
        strcat(joined, json_string_value(l) ? json_string_value(l) : "");
    }
    add(a, "%s", "--set", NULL);
    add(a, "labels.%s=%s", key, joined);
    free(joined);
}

/* The run again from the recorded experiment: no file ("-"), every value as a --set, [experiment] keys first, swept
 * parameters in their recorded order so the rows come in the same order. */
/* `at`, the metadata file, is where every error here was found. */
static cs_status run_args(json_t *root, const char *at, args *a, cs_csvw_remade *remade,
                          cs_error *err)
{
    json_t *x = json_object_get(root, "chargesim:experiment");
    static const char *const keys[] = {"ruleset", "name", "description", "trials", "seed",
                                       "method"};
    if (!json_is_object(x))
        return cs_error_set_at(err, CS_EINPUT, at, "no chargesim:experiment object");
    add(a, "%s", "run", NULL);
    add(a, "%s", "-", NULL);
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const char *v = str_of(x, keys[i]);
        if (!v)
            return cs_error_set_at(err, CS_EINPUT, at, "chargesim:experiment has no text '%s'",
                                   keys[i]);
        if (strcmp(keys[i], "description") == 0 && !v[0])
            continue;
        add(a, "%s", "--set", NULL);
        add(a, "experiment.%s=%s", keys[i], v);
    }
    static const char *const reals[] = {"confidence", "precision"};
    for (int i = 0; i < 2; i++) {
        json_t *v = json_object_get(x, reals[i]);
        if (!json_is_number(v))
            return cs_error_set_at(err, CS_EINPUT, at, "chargesim:experiment has no number '%s'",
                                   reals[i]);
        char num[64];
        snprintf(num, sizeof num, "%.15g", json_number_value(v));
        add(a, "%s", "--set", NULL);
        add(a, "experiment.%s=%s", reals[i], num);
    }
    json_t *rep = json_object_get(x, "replicates");
    if (json_is_integer(rep)) {
        char num[32];
        snprintf(num, sizeof num, "%lld", (long long)json_integer_value(rep));
        add(a, "%s", "--set", NULL);
        add(a, "experiment.replicates=%s", num, NULL);
    }
    json_t *ps = json_object_get(x, "parameters"), *p;
    size_t i;
    if (!json_is_array(ps))
        return cs_error_set_at(err, CS_EINPUT, at, "chargesim:experiment has no parameters");
    json_array_foreach(ps, i, p)
    {
        const char *k = str_of(p, "key"), *v = str_of(p, "value"), *o = str_of(p, "origin");
        if (!k || !v)
            return cs_error_set_at(err, CS_EINPUT, at, "parameter %zu has no key or value", i);
        add(a, "%s", "--set", NULL);
        add(a, "%s=%s", k, v);
        add_labels(a, k, json_object_get(p, "labels"));
        if (remade && o && remade->n < CS_MAX_PARAMS) {
            remade->key[remade->n] = strdup(k);
            remade->origin[remade->n] = strdup(o);
            a->oom |= !remade->key[remade->n] || !remade->origin[remade->n];
            remade->n++;
        }
    }
    add(a, "%s", "--quiet", NULL);
    add(a, "%s", "--format", NULL);
    add(a, "%s", "csv", NULL);
    if (str_of(x, "pivot")) {
        add(a, "%s", "--pivot", NULL);
        add(a, "%s", str_of(x, "pivot"), NULL);
    }
    return CS_OK;
}

static cs_status dice_args(json_t *root, const char *at, args *a, cs_error *err)
{
    json_t *d = json_object_get(root, "chargesim:dice");
    const char *expr = str_of(d, "expression"), *method = str_of(d, "method");
    if (!expr || !method)
        return cs_error_set_at(err, CS_EINPUT, at, "no chargesim:dice expression and method");
    add(a, "%s", "dice", NULL);
    add(a, "%s", expr, NULL);
    if (strcmp(method, "exact") == 0) {
        add(a, "%s", "--exact", NULL);
    } else {
        const char *trials = str_of(d, "trials"), *seed = str_of(d, "seed");
        json_t *conf = json_object_get(d, "confidence");
        if (!trials || !seed || !json_is_number(conf))
            return cs_error_set_at(err, CS_EINPUT, at,
                                   "chargesim:dice lacks trials, seed or confidence");
        char num[64];
        snprintf(num, sizeof num, "%.15g", json_number_value(conf));
        add(a, "--trials=%s", trials, NULL);
        add(a, "--seed=%s", seed, NULL);
        add(a, "--confidence=%s", num, NULL);
    }
    add(a, "%s", "--format", NULL);
    add(a, "%s", "csv", NULL);
    return CS_OK;
}

/* The whole of f (read to its end) as a malloc'd buffer of *n bytes; NULL
 * with errno when it cannot be read or memory runs out. */
static char *read_all(FILE *f, size_t *n)
{
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        len += fread(buf + len, 1, cap - len, f);
        if (ferror(f)) {
            int e = errno ? errno : EIO;
            free(buf);
            errno = e;
            return NULL;
        }
        if (len < cap)
            break;
        char *nb = cap > CS_INFILE_MAX ? NULL : realloc(buf, cap * 2);
        if (!nb) {
            free(buf);
            errno = cap > CS_INFILE_MAX ? EFBIG : ENOMEM;
            return NULL;
        }
        buf = nb;
        cap *= 2;
    }
    *n = len;
    return buf;
}

/* The provenance a table made again keeps (csvwread.h, cs_csvw_remade): the
 * first command (a table remade before keeps its first one) and input. */
static cs_status remade_fill(json_t *root, const char *meta_path, const char *bytes, size_t n,
                             cs_csvw_remade *r, cs_error *err)
{
    json_t *from = json_object_get(root, "chargesim:remade_from");
    json_t *in = json_object_get(root, "chargesim:input");
    const char *cmd = str_of(from, "command_line");
    cmd = cmd ? cmd : str_of(root, "chargesim:command_line");
    r->meta_path = strdup(meta_path);
    r->command_line = strdup(cmd ? cmd : "");
    cs_sha256_hex(bytes, n, r->meta_sha256);
    if (str_of(in, "path")) {
        r->input = strdup(str_of(in, "path"));
        snprintf(r->input_sha256, sizeof r->input_sha256, "%s",
                 str_of(in, "sha256") ? str_of(in, "sha256") : "");
        if (!r->input)
            return cs_error_set_at(err, CS_ENOMEM, meta_path, "out of memory");
    }
    if (!r->meta_path || !r->command_line)
        return cs_error_set_at(err, CS_ENOMEM, meta_path, "out of memory");
    return CS_OK;
}

cs_status cs_csvwread_args(const char *meta_path, char ***argv, int *argc,
                             cs_csvw_remade *remade, cs_error *err)
{
    json_error_t je;
    *argv = NULL;
    *argc = 0;
    if (remade)
        memset(remade, 0, sizeof *remade);
    /* Opened through infile.h (under MPI, rank 0's bytes); read whole, for
     * the digest the new metadata records. */
    FILE *f = cs_infile_open(meta_path);
    size_t len = 0;
    char *bytes = f ? read_all(f, &len) : NULL;
    int e = errno;
    if (f)
        fclose(f);
    if (!bytes)
        return cs_error_set_at(err, e == ENOMEM ? CS_ENOMEM : CS_EINPUT, meta_path,
                               "cannot %s: %s", f ? "read it" : "open it", strerror(e));
    cs_csvwread_json_watch();
    json_t *root = json_loadb(bytes, len, 0, &je);
    if (json_alloc_failed) { /* NULL, "invalid token", or a value cut short */
        json_decref(root);
        free(bytes);
        return cs_error_set_at(err, CS_ENOMEM, meta_path, "out of memory");
    }
    if (!root) {
        free(bytes);
        char at[sizeof err->msg];
        snprintf(at, sizeof at, "%s:%d", meta_path, je.line);
        return cs_error_set_at(err, CS_EINPUT, at, "not JSON: %s", je.text);
    }
    args a = {0};
    const char *table = str_of(root, "chargesim:table");
    cs_status st;
    if (!table)
        st = cs_error_set_at(err, CS_EINPUT, meta_path, "no chargesim:table");
    else if (strcmp(table, "dice") == 0)
        st = dice_args(root, meta_path, &a, err);
    else if (strcmp(table, "summary") == 0 || strcmp(table, "pivot") == 0 ||
             strcmp(table, "dist") == 0)
        st = run_args(root, meta_path, &a, remade, err);
    else
        st = cs_error_set_at(err, CS_EINPUT, meta_path,
                             "chargesim:table '%s': rerun makes summary, pivot, dist and dice "
                             "tables again; run the metadata's chargesim:command_line for the "
                             "others", table);
    if (st == CS_OK && remade && strcmp(table, "dice") != 0)
        st = remade_fill(root, meta_path, bytes, len, remade, err);
    free(bytes);
    if (st == CS_OK && table && strcmp(table, "dist") == 0) {
        /* The distributions go where the caller points --dist. */
        add(&a, "%s", "--dist", NULL);
    }
    json_decref(root);
    if (st == CS_OK && a.oom)
        st = cs_error_set_at(err, CS_ENOMEM, meta_path, "out of memory");
    if (st != CS_OK) {
        cs_csvwread_free_args(a.v, a.n);
        cs_csvwread_remade_free(remade);
        return st;
    }
    *argv = a.v;
    *argc = a.n;
    return CS_OK;
}

void cs_csvwread_remade_free(cs_csvw_remade *r)
{
    if (!r)
        return;
    free(r->meta_path);
    free(r->command_line);
    free(r->input);
    for (int i = 0; i < r->n; i++) {
        free(r->key[i]);
        free(r->origin[i]);
    }
    memset(r, 0, sizeof *r);
}

cs_status cs_csvwread_remade_apply(const cs_csvw_remade *r, cs_experiment *e, cs_error *err)
{
    snprintf(e->sha256, sizeof e->sha256, "%s", r->input ? r->input_sha256 : "");
    for (int k = 0; k < r->n; k++) {
        int i = cs_ruleset_param_index(e->rs, r->key[k]);
        if (i < 0)
            continue; /* refused already by the run's own --set */
        /* "FILE:LINE" back into the file and its line. */
        const char *colon = strrchr(r->origin[k], ':');
        size_t digits = colon ? strspn(colon + 1, "0123456789") : 0;
        bool at_line = colon && digits > 0 && colon[1 + digits] == '\0';
        char *o = at_line ? strndup(r->origin[k], (size_t)(colon - r->origin[k]))
                          : strdup(r->origin[k]);
        if (!o)
            return cs_error_set(err, CS_ENOMEM, "out of memory");
        free(e->param[i].origin);
        e->param[i].origin = o;
        e->param[i].line = at_line ? atoi(colon + 1) : 0;
    }
    return CS_OK;
}

void cs_csvwread_free_args(char **argv, int argc)
{
    for (int i = 0; i < argc; i++)
        free(argv[i]);
    free(argv);
}
