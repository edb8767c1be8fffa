/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_RULESET_H
#define CHARGESIM_RULESET_H
/* The ruleset interface: one constant struct of metadata and pure functions
 * per game. The scheduler, the estimators, the statistics and the writers only ever see this
 * struct, so adding a game is one file under src/rules/ plus one line in the
 * registry (CS_RULESETS, registry.h); nothing else changes. The helpers
 * declared at the end are src/rules/ruleset.c's.
 *
 * One trial of a ruleset is split in two, so that conditional Monte Carlo
 * can replace the dice by their exact distribution (issue 4):
 *   layout  = draw_layout(ctx, num, rng)      positions, angles, misjudged
 *                                             distances: everything but dice
 *   outcome = resolve(ctx, layout, rng)        samples the dice
 *   probs   = outcome_probabilities(ctx, layout)   exact given the layout
 * Every function here is pure: no I/O, no globals, no allocation. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "chargesim/rng.h"
#include "chargesim/status.h"

struct cs_drawing; /* chargesim/drawing.h */

#define CS_MAX_PARAMS     64
#define CS_MAX_OUTCOMES   12
#define CS_MAX_METRICS    16
#define CS_PROBS_MAX_VALUES 48  /* support of one exact metric distribution */

typedef enum cs_param_type {
    CS_PARAM_REAL,   /* a number, e.g. a distance in inches */
    CS_PARAM_INT,    /* a whole number */
    CS_PARAM_BOOL,   /* true/false, yes/no, 1/0 */
    CS_PARAM_CHOICE, /* one of `choices`; its index is the numeric value */
    CS_PARAM_DICE,   /* a dice expression (dice.h), validated by the loader */
    CS_PARAM_TEXT,   /* free text the ruleset parses itself in prepare */
    CS_PARAM_POLYGON, /* convex pieces "kind: x,y x,y x,y; ..." (poly_parse.h), kinds in
                         `choices`: checked by the loader, read by cs_poly_parse in prepare */
} cs_param_type;

enum {
    CS_PF_LAYOUT = 1u << 0,     /* may be drawn per trial: uniform(a,b), normal(m,s) */
    CS_PF_ASSUMPTION = 1u << 1, /* a reading chosen where the source is silent */
};

typedef struct cs_param_def {
    const char *key;            /* as written in experiment files */
    cs_param_type type;
    const char *def;            /* default, written as a user would write it */
    const char *unit;           /* "in", "deg", "" ... */
    const char *help;           /* one line; cite the rule where it applies */
    double min, max;            /* accepted range for REAL and INT */
    const char *const *choices; /* NULL-terminated, for CHOICE; POLYGON: the kind
                                   labels, the first for unlabelled pieces (NULL: none) */
    unsigned flags;             /* CS_PF_* */
} cs_param_def;

/* The parameter values of one sweep point, indexed like the ruleset's table. */
typedef struct cs_params {
    double num[CS_MAX_PARAMS];       /* REAL, INT, BOOL (0/1), CHOICE (index) */
    const char *text[CS_MAX_PARAMS]; /* DICE, TEXT and POLYGON values as written; else NULL */
    bool drawn[CS_MAX_PARAMS];       /* drawn per trial; num holds its centre here */
} cs_params;

/* How a metric is reported; every ruleset declares it for every metric.
 * Both kinds have their mean_<name> column. A DIST metric also has its
 * distribution in --dist: under mc from the trials, under the exact methods
 * from the values outcome_probabilities lists (cs_probs n[m] >= 1 where it
 * is measured; past CS_PROBS_MAX_VALUES values its mean only goes on). A
 * MEAN metric has no --dist rows, and outcome_probabilities gives at most
 * its exact mean (n[m] = 0, mean[m], pdef[m]). */
typedef enum cs_metric_kind {
    CS_METRIC_UNDECLARED = 0, /* an entry that forgot to say: the tests refuse it */
    CS_METRIC_MEAN,           /* mean only */
    CS_METRIC_DIST,           /* mean and distribution */
} cs_metric_kind;

typedef struct cs_metric_def {
    const char *name;  /* CSV name: mean_<name>, and the metric of --dist */
    const char *unit;
    const char *help;
    double resolution; /* histogram bin width (1 for counts, 0.1 for inches) */
    double lo, hi;     /* histogram range; values outside go to the end bins */
    cs_metric_kind kind; /* mean only, or the distribution too */
} cs_metric_def;

/* One sampled trial. resolve sets `outcome` and every metric of the ruleset:
 * a metric that does not apply to this trial (a final gap on a success) is
 * NAN and is left out of that metric's mean and distribution. */
typedef struct cs_trial {
    int outcome;
    double m[CS_MAX_METRICS];
} cs_trial;

/* The exact answer given one layout. outcome_probabilities sets p of its
 * outcomes (the estimator clears them to 0 first; they must sum to 1). For each metric it may give nothing (n[i] = 0 and
 * mean[i] = NAN, as the estimator clears them), the exact mean only (mean[i] =
 * E[metric; defined], pdef[i] = P(defined)), or the whole distribution
 * (n[i] values in value[i][], prob[i][] unconditional, and pdef[i]). */
typedef struct cs_probs {
    double p[CS_MAX_OUTCOMES];
    double mean[CS_MAX_METRICS];  /* E[X * 1{defined}] */
    double pdef[CS_MAX_METRICS];  /* P(defined) */
    int n[CS_MAX_METRICS];        /* values listed; -1: too many, mean only */
    double value[CS_MAX_METRICS][CS_PROBS_MAX_VALUES];
    double prob[CS_MAX_METRICS][CS_PROBS_MAX_VALUES];
} cs_probs;

/* Integer tallies and metric sums of a run of trials (resolve_batch). */
typedef struct cs_tally {
    uint64_t count[CS_MAX_OUTCOMES]; /* trials per outcome */
    uint64_t mdef[CS_MAX_METRICS];   /* trials where the metric was measured */
    double msum[CS_MAX_METRICS];     /* sum of its values, added in trial order */
} cs_tally;

/* Where a threat map put the target (map_place, issue 20). */
typedef struct cs_map_spot {
    bool placed;                  /* false: the target cannot stand there */
    double charger_w, charger_d;  /* the charger's footprint, for the picture */
} cs_map_spot;

/* A game a player knows by name, as one ruleset plays it (issue 45): the
 * page lists games, not implementation names. */
typedef struct cs_game {
    const char *title;  /* the game's name, as players say it */
    const char *preset; /* the value of the ruleset's `preset` that plays it; NULL: the ruleset as is */
    /* The web page's first Run of the game (issue 52: a preset's defaults
     * alone, Move 0 at 8", said nothing): link pairs "key=value&..." of a
     * usual unit and a distance sweep that shows the curve. The page's
     * only; the command line's defaults stay as they are. A pointer to
     * the text, so that generic's games can point into its preset table
     * (a row's optional `.example`); NULL, or pointing at NULL: none. */
    const char *const *example;
} cs_game;

typedef struct cs_ruleset {
    const char *name;     /* as in `ruleset = NAME` */
    const char *summary;  /* one line for `chargesim rules` */
    const char *doc;      /* the readings taken, cited; printed by `chargesim rules NAME` */
    const cs_param_def *params;
    int n_params;
    const char *const *outcomes; /* exclusive and exhaustive */
    /* What each outcome means at the table, one line each in the order of
     * outcomes, in a player's words ("may not be declared: beyond the
     * maximum charge range"); printed by `chargesim rules NAME`, shown by
     * the page beside the table. */
    const char *const *outcome_help;
    int n_outcomes;
    const cs_game *games; /* the games it plays, n_games of them, first the likeliest */
    int n_games;
    /* The parameters map_place sets from the cell (NULL-terminated; NULL
     * without map_place): a threat map's form does not offer them. */
    const char *const *map_keys;
    unsigned success_mask;       /* bit i: outcome i ends in base contact */
    const cs_metric_def *metrics;
    int n_metrics;
    size_t ctx_size;     /* bytes of the per-sweep-point context prepare fills */
    size_t layout_size;  /* bytes of one layout */

    /* Validates one sweep point's values and precomputes what every trial
     * shares (dice distributions, unit geometry). On bad values returns
     * CS_EINPUT and names the key in diag (whose `what` may point into ctx,
     * as long as the caller reads it before ctx is prepared again or freed:
     * generic names the presets of its table there). Called once per sweep
     * point.
     * Each value has been checked against its definition already (the
     * experiment loader): REAL and INT within min..max, INT whole, CHOICE
     * an index of its choices, DICE and POLYGON parsed, and only
     * CS_PF_LAYOUT parameters drawn. prepare checks what those cannot: the
     * values together (units that overlap, a climb beyond the target). */
    cs_status (*prepare)(const cs_params *p, void *ctx, cs_diag *diag);

    /* True when layouts vary between trials even though no parameter is
     * drawn (interceptors placed at random, a misjudged distance...). NULL:
     * the layout is a function of the parameters alone. */
    bool (*layout_is_random)(const void *ctx);

    /* Builds one trial's layout. `num` is the point's numeric values with
     * this trial's draws in place; rng is the trial's stream, for layout
     * randomness only (never dice). */
    void (*draw_layout)(const void *ctx, const double *num, cs_rng *rng, void *layout);

    /* Samples the dice of one trial on that layout. */
    void (*resolve)(const void *ctx, const void *layout, cs_rng *rng, cs_trial *out);

    /* Exact outcome probabilities given the layout; NULL if only sampling. */
    void (*outcome_probabilities)(const void *ctx, const void *layout, cs_probs *out);

    /* Optional fast path for a fixed layout: n trials tallied into t. Each
     * trial draws from the stream cs_rng_trials_next(trials) gives it (one
     * per trial, in order, as the estimator's loop takes them), exactly as
     * resolve would, and adds its metric values in trial order, so no
     * number depends on which path ran. NULL: the estimator calls resolve per
     * trial. */
    void (*resolve_batch)(const void *ctx, const void *layout, cs_rng_trials *trials,
                          uint64_t n, cs_tally *t);

    /* The picture of one trial for `chargesim draw` (chargesim/drawing.h):
     * num and layout as draw_layout got and built them; layout_rng and
     * dice_rng copies of the streams as draw_layout and resolve started (to
     * replay randomness the layout and the trial do not keep); trial as
     * resolve gave it. Data only; it never changes a number. NULL: the
     * ruleset has no geometry to draw. */
    void (*draw)(const void *ctx, const double *num, const cs_rng *layout_rng,
                 const void *layout, const cs_rng *dice_rng, const cs_trial *trial,
                 struct cs_drawing *out);
    /* Threat maps (issue 20); NULL: no table geometry, no map. Sets p's
     * values so that the target's front-edge centre stands at (x, y) of the
     * scenario frame (the charger's front-edge centre at the origin, facing
     * +y), the target facing the charger unless the experiment turns it,
     * and gives the charger's footprint. spot->placed is false where the
     * target cannot stand (touching or overlapping the charger, on another
     * unit). CS_EINPUT with diag when the experiment cannot be mapped at
     * all (a value the map sets is drawn per trial). */
    cs_status (*map_place)(cs_params *p, double x, double y, cs_map_spot *spot, cs_diag *diag);
} cs_ruleset;

/* Adds probability q of value v to metric m's exact distribution in pr,
 * merging equal values, and q v to mean[m], q to pdef[m] (start those at 0
 * to use them). A NAN value (not measured) is skipped. Past
 * CS_PROBS_MAX_VALUES distinct values the distribution is given up (n[m] =
 * -1) and only the mean goes on: the estimator then uses mean and pdef. */
void cs_probs_add(cs_probs *pr, int m, double v, double q);

/* A parameter type's name as `chargesim rules` and the web edition show
 * it: real, int, bool, choice, dice, text, polygon. */
const char *cs_ruleset_type_name(cs_param_type t);

/* Index of a parameter, outcome or metric by name; -1 if absent. */
int cs_ruleset_param_index(const cs_ruleset *rs, const char *key);
int cs_ruleset_outcome_index(const cs_ruleset *rs, const char *name);
int cs_ruleset_metric_index(const cs_ruleset *rs, const char *name);

/* The exact answer given one layout: clears pr as the interface promises
 * (p 0, n 0, mean and pdef NAN), fills it with rs->outcome_probabilities
 * and returns the p_success share of the outcomes in success_mask. The one
 * exact evaluation the estimators, units and the other commands share. */
double cs_ruleset_eval_layout(const cs_ruleset *rs, const void *ctx, const void *layout,
                              unsigned success_mask, cs_probs *pr);

#endif
