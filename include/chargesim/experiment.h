/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_EXPERIMENT_H
#define CHARGESIM_EXPERIMENT_H
/* The experiment model: a ruleset, its parameter values (fixed, swept or
 * drawn per trial), trials, seed and method. Built from (section, key,
 * value) entries, so the INI reader and --set overrides share one parser,
 * and every error names where the value came from (file:line or --set).
 *
 * Value syntax, per parameter:
 *   5              a fixed value (numbers, true/false, a choice, a dice expression)
 *   1..24          a sweep of whole steps; 1..24:0.5 with a step; 3,5,8 a list
 *                  (lists work for every type but free text)
 *   uniform(a,b)   drawn per trial, uniformly in [a, b)   (layout parameters only)
 *   normal(m,s)    drawn per trial from N(m, s^2)         (layout parameters only)
 * Swept parameters form the cartesian product of sweep points, the first
 * swept key in the file outermost.
 *
 * [labels] names the values of a swept key for tables and charts:
 *   KEY = label 1, label 2, ...   one label per sweep value, in order
 * (labels contain no commas). The summary gets a KEY_label column beside
 * KEY and charts name their curves by it. A file's labels are dropped when
 * --set replaces the key's values (they named the file's values). */
#include <stdbool.h>
#include <stdint.h>

#include "chargesim/error.h"
#include "chargesim/ruleset.h"

/* Trials per sweep point at most: far beyond any run's patience, and well
 * inside the 64-bit block arithmetic. */
#define CS_EXPERIMENT_MAX_TRIALS 1000000000000ULL

typedef enum cs_method {
    CS_METHOD_AUTO,        /* the best the scenario allows */
    CS_METHOD_MC,          /* sample layouts and dice */
    CS_METHOD_CONDITIONAL, /* sample layouts, exact dice given each */
    CS_METHOD_EXACT,       /* a fixed layout, exact dice */
    CS_METHOD_RQMC,        /* randomised quasi-Monte Carlo layouts, exact dice */
} cs_method;

/* RQMC replicates (independent scrambles): 16 by default, 2 to 64. */
#define CS_EXPERIMENT_REPLICATES 16u
#define CS_EXPERIMENT_MAX_REPLICATES 64u

const char *cs_method_name(cs_method m);
/* Parses "auto", "mc", "conditional", "exact", "rqmc"; false if none. */
bool cs_method_parse(const char *s, cs_method *out);

typedef enum cs_val_kind { CS_VAL_FIXED, CS_VAL_SWEEP, CS_VAL_UNIFORM, CS_VAL_NORMAL } cs_val_kind;

typedef struct cs_value_spec {
    cs_val_kind kind;
    int n;           /* values: 1 when fixed or drawn, the sweep's length when swept */
    double *num;     /* n numeric values (CHOICE: index, BOOL: 0/1; 0 for text) */
    char **text;     /* n values as written, trimmed */
    double a, b;     /* uniform(a, b) bounds, or normal(a = mean, b = sd) */
    char *raw;       /* the whole value as written */
    char *origin;    /* file name, "--set" or "default" */
    int line;        /* line in origin, 0 if none */
    int order;       /* position of first appearance, for the sweep order */
} cs_value_spec;

/* [labels] KEY = a, b, c: the display names of a swept key's values. */
typedef struct cs_label_spec {
    int n;        /* labels given; 0 when the key has none */
    char **text;  /* n labels, trimmed */
    char *origin; /* file name or "command line" */
    int line;     /* line in origin, 0 if none */
} cs_label_spec;

typedef struct cs_experiment {
    char *origin;        /* the experiment file, or "" */
    char sha256[65];     /* the SHA-256 (hex) of the file's bytes as they were read, for
                            the provenance of the tables (csvw.h); "" without a file */
    char *name;          /* [experiment] name; defaults to the file's base name */
    char *description;
    const cs_ruleset *rs;
    uint64_t trials;     /* per sweep point; 100000 by default */
    uint64_t seed;       /* 1 by default */
    cs_method method;
    char *method_origin; /* where method was set: file name or "command line"; NULL: default */
    int method_line;     /* line in method_origin, 0 if none */
    double confidence;   /* 0.95 by default */
    double precision;    /* target interval half-width; 0 = off */
    unsigned replicates; /* rqmc: independent scrambles, the interval's R */
    cs_value_spec param[CS_MAX_PARAMS];
    cs_label_spec label[CS_MAX_PARAMS]; /* [labels], checked against the sweep */
    int sweep[CS_MAX_PARAMS]; /* swept parameter indices, outermost first */
    int n_sweep;
    int n_drawn;
    uint64_t n_points;   /* product of the sweep lengths */
    bool layout_random;  /* some point's layout varies between trials */
    int next_order;
    bool finished;
} cs_experiment;

void cs_experiment_init(cs_experiment *e, const char *origin);
void cs_experiment_free(cs_experiment *e);

/* Applies one entry. [experiment] entries must all be applied before
 * [params] ones (the ruleset decides what the parameters are): the INI reader
 * and the CLI do that. A later entry for the same key replaces the earlier
 * one, which is how --set overrides the file. */
cs_status cs_experiment_set(cs_experiment *e, const char *section, const char *key,
                            const char *value, const char *origin, int line, cs_error *err);

/* Fills defaults, orders the sweep, checks the method against the scenario
 * and runs the ruleset's prepare on every sweep point, so a bad combination
 * is reported before any trial runs. */
cs_status cs_experiment_finish(cs_experiment *e, cs_error *err);

/* The parameter values of sweep point k (0 <= k < n_points). Texts point
 * into e. Drawn parameters hold their centre and are flagged. */
void cs_experiment_point(const cs_experiment *e, uint64_t k, cs_params *out);

/* Runs the ruleset's prepare into ctx (rs->ctx_size bytes) on p: the values
 * of sweep point k (cs_experiment_point), or a point placed from them
 * (cs_sched_points). A refusal names the key, its file and line, and point
 * k. The one place a refusal is worded: finish prepares every sweep point
 * this way, so on a finished experiment it refuses only a placed point the
 * ruleset's map_place should not have placed. */
cs_status cs_experiment_prepare(const cs_experiment *e, uint64_t k, const cs_params *p,
                                void *ctx, cs_error *err);

/* The label of value j of parameter i ([labels]), or NULL when it has none. */
const char *cs_experiment_label(const cs_experiment *e, int i, int j);

/* The one sweep-index decoder: choice[i] is the index of parameter i's
 * value at point k (0 for unswept ones; CS_MAX_PARAMS entries); the last
 * swept key varies fastest. */
void cs_experiment_point_choices(const cs_experiment *e, uint64_t k, int *choice);

/* "key=value" of every swept parameter at point k, for messages. */
void cs_experiment_point_label(const cs_experiment *e, uint64_t k, char *buf, int cap);

/* Whether method m can run e: CS_EINPUT, with a message, for exact on a
 * random layout, exact, conditional or rqmc for a ruleset without
 * outcome_probabilities (and rqmc in the web edition); CS_OK for mc and
 * auto. Which method auto picks is the estimators' registry's
 * (cs_est_method, estimator.h), which calls this for the others. */
cs_status cs_experiment_method_check(const cs_experiment *e, cs_method m, cs_error *err);

#endif
