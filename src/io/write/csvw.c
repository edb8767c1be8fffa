/* SPDX-License-Identifier: GPL-3.0-or-later */
/* CSVW metadata beside each CSV; see include/chargesim/csvw.h. Reading it
 * back, for rerun, is io's reader src/io/read/csvwread.c. */
#include "chargesim/csvw.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/cmdline.h"
#include "chargesim/reqexport.h"

#ifndef CS_VERSION
#define CS_VERSION "unknown"
#endif

/* Reals with 15 significant digits: 0.95 reads 0.95, and reads back as the
 * same double a user's short decimal gave. */
#define DUMP_FLAGS (JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15))

/* jansson does not report every allocation that fails (a member dropped
 * inside json_pack): a document touched by a failed allocation is refused
 * whole. The watch is the reader's, csvwread.h (cs_csvwread_json_watch),
 * set as each public function here starts using jansson. */

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
    cs_csvwread_json_watch();
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
    if (cs_csvwread_json_failed()) {
        json_decref(root);
        return cs_error_set(err, CS_ENOMEM, "out of memory");
    }
    errno = 0;
    int bad = json_dumpf(root, f, DUMP_FLAGS);
    json_decref(root);
    bool oom = cs_csvwread_json_failed();
    if (bad != 0 || fputc('\n', f) == EOF)
        return cs_error_set(err, oom ? CS_ENOMEM : CS_ERUNTIME, "writing the metadata failed: %s",
                            oom ? "out of memory" : strerror(errno ? errno : EIO));
    return CS_OK;
}

void cs_csvw_note(const cs_csvw_source *src, char *buf, size_t cap)
{
    char cmd[4096];
    command_line(src, cmd, sizeof cmd);
    cs_req_export_note(cmd, src->input, src->run, buf, cap);
}
