/* SPDX-License-Identifier: GPL-3.0-or-later */
/* CSVW metadata beside each CSV; see include/chargesim/csvw.h. */
#include "chargesim/csvw.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/cmdline.h"
#include "chargesim/grow.h"
#include "chargesim/infile.h"
#include "chargesim/sha256.h"

#ifndef CS_VERSION
#define CS_VERSION "unknown"
#endif

/* Reals with 15 significant digits: 0.95 reads 0.95, and reads back as the
 * same double a user's short decimal gave. */
#define DUMP_FLAGS (JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15))

/* jansson does not report every allocation that fails: a member that
 * json_object_set_new or json_array_append_new could not add is dropped
 * (their -1 is out of reach inside one json_pack expression), and 2.14's
 * reader drops a character it could not save and parses on, so a value
 * read back one letter short. A document touched by a failed allocation is
 * therefore refused whole: jansson allocates through json_alloc, which
 * remembers the failure. jansson's allocator is one for the process: each
 * public function here sets it as it starts (watch_json_allocations) and
 * reads the flag only for its own document; the roster reader
 * (src/io/units/roster_json.c) parses its JSON with whatever allocator is
 * set, and checks jansson's own result. Both run on a command's main thread. */
static bool json_alloc_failed;

static void *json_alloc(size_t n)
{
    void *p = malloc(n);
    if (!p)
        json_alloc_failed = true;
    return p;
}

/* Called as each public function here starts using jansson. */
static void watch_json_allocations(void)
{
    json_set_alloc_funcs(json_alloc, free);
    json_alloc_failed = false;
}

char *cs_csvw_path(const char *csv_path)
{
    size_t n = strlen(csv_path);
    char *p = malloc(n + sizeof "-metadata.json");
    if (p)
        snprintf(p, n + sizeof "-metadata.json", "%s-metadata.json", csv_path);
    return p;
}

/* The input's digest, taken as the experiment file was read (so it names
 * the bytes the table came from, read once: under MPI, rank 0's); "" when
 * the table has no input. */
static const char *input_sha256(const cs_csvw_source *src)
{
    return src->input && src->run ? src->run->exp->sha256 : "";
}

static void command_line(const cs_csvw_source *src, char *buf, size_t cap)
{
    cs_cmdline_join(buf, cap, src->command, src->argc, src->argv);
}

/* A column's CSVW name: its title with every character a URI template
 * variable may not hold percent-encoded (CSVW 5.6, `name`). */
static void column_name(const char *title, char *buf, size_t cap)
{
    size_t used = 0;
    for (const unsigned char *p = (const unsigned char *)title; *p && used + 4 < cap; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
            *p == '_' || (*p == '.' && used > 0))
            buf[used++] = (char)*p;
        else
            used += (size_t)snprintf(buf + used, cap - used, "%%%02X", *p);
    }
    buf[used] = '\0';
    if (buf[0] == '_' && used + 2 < cap) { /* a leading _ is reserved */
        memmove(buf + 3, buf + 1, used);
        memcpy(buf, "%5F", 3);
    }
}

/* Each column as its producer defined it (columns.h, through
 * cs_table_describe); else text described by its name. */
static json_t *columns(const cs_table *t)
{
    json_t *cols = json_array();
    for (int c = 0; c < t->ncols; c++) {
        const char *title = t->header[c] ? t->header[c] : "";
        const char *desc = t->desc && t->desc[c] ? t->desc[c] : title;
        const char *type = cs_datatype_name(t->desc && t->desc[c] ? t->type[c] : CS_DT_STRING);
        char name[512];
        column_name(title, name, sizeof name);
        json_array_append_new(cols, json_pack("{s:s, s:s, s:s, s:s}", "name", name, "titles",
                                              title, "datatype", type, "dc:description", desc));
    }
    return cols;
}

static const char *const kind_names[] = {"value", "sweep", "uniform", "normal"};

/* Every parameter as resolved: its value as written, what kind it is, the
 * values a sweep takes, where it came from. Swept ones first, in sweep
 * order (the order that makes the rows), then the rest in table order. */
static json_t *parameters(const cs_experiment *e)
{
    json_t *arr = json_array();
    bool done[CS_MAX_PARAMS] = {false};
    for (int pass = 0; pass < 2; pass++)
        for (int j = 0; j < (pass ? e->rs->n_params : e->n_sweep); j++) {
            int i = pass ? j : e->sweep[j];
            if (done[i])
                continue;
            done[i] = true;
            const cs_value_spec *v = &e->param[i];
            char origin[600];
            if (v->line > 0)
                snprintf(origin, sizeof origin, "%s:%d", v->origin, v->line);
            else
                snprintf(origin, sizeof origin, "%s", v->origin);
            json_t *p = json_pack("{s:s, s:s, s:s, s:s}", "key", e->rs->params[i].key, "value",
                                  v->raw, "kind", kind_names[v->kind], "origin", origin);
            if (v->kind == CS_VAL_SWEEP) {
                json_t *vals = json_array();
                for (int k = 0; k < v->n; k++)
                    json_array_append_new(vals, json_string(v->text[k]));
                json_object_set_new(p, "values", vals);
            }
            /* [labels] name the values in the table: rerun gives them back. */
            if (e->label[i].n > 0) {
                json_t *labs = json_array();
                for (int k = 0; k < e->label[i].n; k++)
                    json_array_append_new(labs, json_string(e->label[i].text[k]));
                json_object_set_new(p, "labels", labs);
            }
            json_array_append_new(arr, p);
        }
    return arr;
}

static json_t *experiment_json(const cs_csvw_source *src)
{
    const cs_run_result *r = src->run;
    const cs_experiment *e = r->exp;
    char seed[32], trials[32];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)e->seed);
    snprintf(trials, sizeof trials, "%llu", (unsigned long long)e->trials);
    json_t *outs = json_array(), *succ = json_array();
    for (int o = 0; o < e->rs->n_outcomes; o++) {
        json_array_append_new(outs, json_string(e->rs->outcomes[o]));
        if (e->rs->success_mask & (1u << o))
            json_array_append_new(succ, json_string(e->rs->outcomes[o]));
    }
    /* Seed and trials as text: 64-bit values beyond JSON's safe integers. */
    json_t *x = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:f, s:f, s:o, s:o, s:o}", "name",
                          e->name, "description", e->description ? e->description : "",
                          "ruleset", e->rs->name, "trials", trials, "seed", seed, "method",
                          cs_method_name(e->method), "confidence", e->confidence, "precision",
                          e->precision, "outcomes", outs, "success_outcomes", succ,
                          "parameters", parameters(e));
    json_object_set_new(x, "method_run", json_string(cs_method_name(r->method)));
    /* The replicates decide rqmc's numbers; rerun passes them on. */
    if (r->method == CS_METHOD_RQMC)
        json_object_set_new(x, "replicates", json_integer((json_int_t)e->replicates));
    if (src->pivot)
        json_object_set_new(x, "pivot", json_string(src->pivot));
    return x;
}

cs_status cs_csvw_write(FILE *f, const cs_csvw_source *src, const cs_table *t, cs_error *err)
{
    static const char *const tables[] = {"summary", "pivot", "dist", "dice", "compare", "map", "units"};
    char cmd[8192], version[64];
    const char *hex = input_sha256(src);
    command_line(src, cmd, sizeof cmd);
    snprintf(version, sizeof version, "chargesim %s", CS_VERSION);
    watch_json_allocations();
    const char *slash = strrchr(src->csv_path, '/');
    json_t *argv = json_array();
    json_array_append_new(argv, json_string("chargesim"));
    json_array_append_new(argv, json_string(src->command));
    for (int i = 0; i < src->argc; i++)
        json_array_append_new(argv, json_string(src->argv[i]));
    json_t *activity = json_pack("{s:s, s:s, s:{s:s, s:s}}", "@type", "prov:Activity",
                                 "rdfs:label", cmd, "prov:wasAssociatedWith", "@type",
                                 "prov:SoftwareAgent", "rdfs:label", version);
    if (src->input)
        json_object_set_new(activity, "prov:used",
                            json_pack("{s:s, s:s, s:s}", "@type", "prov:Entity", "prov:location",
                                      src->input, "chargesim:sha256", hex));
    /* The local context may hold only @base and @language (CSVW metadata
     * 5.2); dc:, prov: and rdfs: are prefixes CSVW's own context defines,
     * and chargesim:NAME properties read as absolute URLs of the scheme
     * chargesim, which common properties may be. */
    json_t *root = json_pack(
        "{s:[s, {s:s}], s:s, s:s, s:o, s:{s:b, s:s}, s:{s:o}, s:s, s:o, s:s, s:s}",
        "@context", "http://www.w3.org/ns/csvw", "@language", "en", "url",
        slash ? slash + 1 : src->csv_path, "dc:creator", version, "prov:wasGeneratedBy",
        activity, "dialect", "header", 1, "delimiter", ",", "tableSchema", "columns",
        columns(t), "chargesim:version", CS_VERSION, "chargesim:command", argv,
        "chargesim:command_line", cmd, "chargesim:table", tables[src->kind]);
    if (!root) /* it took activity, argv and the columns, even then */
        return cs_error_set(err, CS_ENOMEM, "out of memory");
    if (src->input)
        json_object_set_new(root, "chargesim:input",
                            json_pack("{s:s, s:s}", "path", src->input, "sha256", hex));
    if (src->run)
        json_object_set_new(root, "chargesim:experiment", experiment_json(src));
    if (src->about || src->n_files > 0) {
        json_t *files = json_array();
        for (int i = 0; i < src->n_files; i++)
            json_array_append_new(files, json_pack("{s:s, s:s}", "path", src->files[i].path,
                                                   "sha256", src->files[i].sha256));
        json_object_set_new(root, "chargesim:units",
                            json_pack("{s:s, s:o}", "rulesets", src->about ? src->about : "",
                                      "inputs", files));
    }
    if (src->remade)
        json_object_set_new(
            root, "chargesim:remade_from",
            json_pack("{s:s, s:s, s:s, s:s}", "metadata", src->remade->meta_path, "sha256",
                      src->remade->meta_sha256, "command_line", src->remade->command_line,
                      "note", "made again by chargesim rerun from the recorded values alone; "
                              "the input above was not read again"));
    if (src->kind == CS_CSVW_DICE) {
        char seed[32], trials[32];
        snprintf(seed, sizeof seed, "%llu", (unsigned long long)src->dice_seed);
        snprintf(trials, sizeof trials, "%llu", (unsigned long long)src->dice_trials);
        json_object_set_new(root, "chargesim:dice",
                            json_pack("{s:s, s:s, s:s, s:s, s:f}", "expression", src->dice_expr,
                                      "method", src->dice_trials ? "mc" : "exact", "trials",
                                      trials, "seed", seed, "confidence",
                                      src->dice_confidence));
    }
    if (json_alloc_failed) {
        json_decref(root);
        return cs_error_set(err, CS_ENOMEM, "out of memory");
    }
    errno = 0;
    int bad = json_dumpf(root, f, DUMP_FLAGS);
    json_decref(root);
    if (bad != 0 || fputc('\n', f) == EOF)
        return cs_error_set(err, json_alloc_failed ? CS_ENOMEM : CS_ERUNTIME,
                            "writing the metadata failed: %s",
                            json_alloc_failed ? "out of memory" : strerror(errno ? errno : EIO));
    return CS_OK;
}

void cs_csvw_note(const cs_csvw_source *src, char *buf, size_t cap)
{
    char cmd[4096];
    const char *hex = input_sha256(src);
    command_line(src, cmd, sizeof cmd);
    /* A code span; one holding a backquote is fenced by two (CommonMark). */
    const char *fence = strchr(cmd, '`') ? "`` " : "`";
    int n = snprintf(buf, cap, "Made by chargesim %s: %s%s%s", CS_VERSION, fence, cmd,
                     strchr(cmd, '`') ? " ``" : "`");
    if (src->input && n >= 0 && (size_t)n < cap)
        n += snprintf(buf + n, cap - (size_t)n, "; %s SHA-256 %s", src->input, hex);
    if (src->run && n >= 0 && (size_t)n < cap) {
        const cs_experiment *e = src->run->exp;
        char succ[256] = "";
        for (int o = 0; o < e->rs->n_outcomes; o++)
            if (e->rs->success_mask & (1u << o)) {
                size_t used = strlen(succ);
                snprintf(succ + used, sizeof succ - used, "%s%s", used ? ", " : "",
                         e->rs->outcomes[o]);
            }
        char prec[32] = "off";
        if (e->precision > 0.0)
            snprintf(prec, sizeof prec, "%g", e->precision);
        snprintf(buf + n, cap - (size_t)n,
                 "; ruleset %s, method %s, trials %llu, seed %llu, confidence %g, precision %s, "
                 "success: %s.",
                 e->rs->name, cs_method_name(src->run->method), (unsigned long long)e->trials,
                 (unsigned long long)e->seed, e->confidence, prec, succ);
    } else if (n >= 0 && (size_t)n < cap) {
        snprintf(buf + n, cap - (size_t)n, ".");
    }
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

/* The provenance a table made again keeps (csvw.h, cs_csvw_remade): the
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

cs_status cs_csvw_rerun_args(const char *meta_path, char ***argv, int *argc,
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
    watch_json_allocations();
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
        cs_csvw_free_args(a.v, a.n);
        cs_csvw_remade_free(remade);
        return st;
    }
    *argv = a.v;
    *argc = a.n;
    return CS_OK;
}

void cs_csvw_remade_free(cs_csvw_remade *r)
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

cs_status cs_csvw_remade_apply(const cs_csvw_remade *r, cs_experiment *e, cs_error *err)
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

void cs_csvw_free_args(char **argv, int argc)
{
    for (int i = 0; i < argc; i++)
        free(argv[i]);
    free(argv);
}
