/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_UNITS_H
#define CHARGESIM_UNITS_H
/* Units for list-builders (issue 9), the simulation side: the unit model
 * and its analysis. Real unit profiles in, per-unit charge odds out.
 *
 *   model    a bound mapping (which characteristic feeds which ruleset
 *            parameter, fixed parameters), units with their values, and
 *            the notes about units left out or kept with a warning
 *   analysis (src/sim/runs/units.c, stage 4 of the five unitsrc.h lists) per
 *            unit, through the ruleset interface at the exact head-on
 *            layout: p_success per distance, reach by exact inversion,
 *            +1 speed, metric means, points per inch
 *
 * Reading mappings, BattleScribe catalogues and units CSV files, and writing
 * the table, are file formats: the io layer's unitsrc.h (src/io/units_*.c)
 * fills these structs. This header includes nothing above sim. */
#include <stdbool.h>
#include <stddef.h>

#include "chargesim/error.h"
#include "chargesim/ruleset.h"
#include "chargesim/status.h"

#define CS_UNITS_MAX_CHARS 16  /* characteristic sections in one mapping */
#define CS_UNITS_MAX_FIXED 16  /* fixed parameters in one mapping */
#define CS_UNITS_MAX_METRICS 4 /* metrics a mapping reports per unit */
#define CS_UNITS_MAX_VALUES 24 /* parameter values one unit carries */
#define CS_UNITS_MAX_SETS 32   /* --set K=V pairs */
#define CS_UNITS_MAX_SPEEDS 4  /* parameters [units] speed lists */
#define CS_UNITS_MAX_RULES 32  /* [rule NAME] sections in one mapping (bits of cs_unit.rules) */
#define CS_UNITS_MAX_TYPES 8   /* [type NAME] sections in one mapping */
#define CS_UNITS_NAME 128      /* unit, catalogue and characteristic names */
#define CS_UNITS_TEXT 64       /* one value as written */
#define CS_UNITS_PATH 512
#define CS_UNITS_NOTE 320
#define CS_UNITS_MAX_GRID 400 /* distances in one table */

/* How a characteristic's text is read (mapping key `format`). */
typedef enum cs_units_format {
    CS_UNITS_INCHES,     /* 4"  4  4.5"  and the alternate forms 2" (9")  Ground 2", Fly 9" */
    CS_UNITS_TARGET,     /* a D6 score: 3+ or 3 */
    CS_UNITS_NUMBER,     /* a plain number: 8 */
    CS_UNITS_TEXT_AS_IS, /* handed to the parameter as written (dice, choices) */
} cs_units_format;

/* One `[characteristic NAME]` section: where a parameter's value comes from. */
typedef struct cs_units_char {
    char name[CS_UNITS_NAME];  /* the characteristic's name in the catalogue */
    char param[CS_UNITS_TEXT]; /* the ruleset parameter it feeds */
    cs_units_format format;
    bool required;                   /* a unit without it is skipped (else: incomplete) */
    bool alternate;                  /* take the bracketed value of `2" (9")` */
    /* `alternate_row = LABEL`: a unit whose text has the alternate form
     * (`2" (9")`, `Ground 5", Fly 9"`) gets a second row, `Name (LABEL)`,
     * reading the bracketed value (T9A 2nd edition: a flier's Fly Adv).
     * "" = none. */
    char alternate_row[CS_UNITS_TEXT];
    char where_name[CS_UNITS_NAME];  /* only profiles whose characteristic where_name */
    char where_value[CS_UNITS_TEXT]; /* ... reads where_value ("" = every profile) */
    /* `when = PARAM = VALUE`: the characteristic applies only to a unit
     * whose PARAM is VALUE (its own value, else --set, the mapping's fixed
     * value or the ruleset's default): T9A's Charge Speed in edition 3,
     * Advance Rate in edition 2. when_param "" = always. */
    char when_param[CS_UNITS_TEXT];
    char when_value[CS_UNITS_TEXT];
    /* `mount = yes`: with a mount (mount_type), the value is the mount's
     * (recursively: a chariot's, its steeds'); the rider's own only
     * without one (The Old World: a cavalry model's M is `-`, a character
     * on a horse moves at the horse's M). */
    bool mount;
} cs_units_char;

/* One `[rule NAME]` section: a special rule by name. A unit that has it
 * (a profile so named, or `NAME (...)`, among its own, its models' or its
 * mount's) gets param = value, and the note in its notes; one without it
 * gets param = otherwise, when the mapping gives one. */
typedef struct cs_units_rule {
    char name[CS_UNITS_NAME];
    char param[CS_UNITS_TEXT]; /* "" = none */
    char value[CS_UNITS_TEXT];     /* default "true" */
    char otherwise[CS_UNITS_TEXT]; /* a unit without it gets param = this ("" = nothing) */
    char note[CS_UNITS_NOTE];      /* "" = none */
    /* `row = LABEL`, `row_param = PARAM`: a unit with the rule gets a
     * second row, `Name (LABEL)` (`Duke (on Royal Pegasus, LABEL)`), in
     * which PARAM takes the rule's own number, the X of `Fly (X)` (The Old
     * World: a flier charges at its Fly Movement); an optional upgrade
     * named after the rule (`Fly (9)`) gives a row that names it. PARAM
     * must be fed by one of the mapping's characteristics. "" = none. */
    char row[CS_UNITS_TEXT];
    char row_param[CS_UNITS_TEXT];
    /* `declare = no`: a unit with the rule cannot declare a charge (The
     * Old World's Random Movement: "cannot march or declare a charge"). It
     * keeps its row, p_success 0 at every distance and no reach (see
     * cs_units_analyse); the note, which must quote the rule, says why. */
    bool no_declare;
    /* `option = row`: an optional upgrade that gives the rule (named after
     * it, `Unit - NAME` included, or holding it as a rule, a rule link or a
     * profile) gives the row a twin of its own, `Name (with UPGRADE)`, its
     * cost added (T9A's Favour of Kuulima, The Old World's Virtue of The
     * Impetuous Knight); one that gives a mapped characteristic (a mount)
     * does not. false (`option = no`, the default): upgrades are not read.
     * `only_type = WORD`: only a row whose type holds WORD (case aside:
     * Battle Hunger is for "infantry" only); another is named in a note. */
    bool option_row;
    char only_type[CS_UNITS_TEXT];
    /* `option_note = TEXT`: an optional upgrade named after the rule, or
     * holding its profile (a lore and its spell, through info links and
     * groups: 'Ere We Go!), is named once in an option note with TEXT, and
     * tabled in no row: what only another unit's model can use. */
    char option_note[CS_UNITS_NOTE];
} cs_units_rule;

/* One mapping file. Texts are kept as written; cs_units_mapping_bind
 * (unitsrc.h) checks them against the ruleset when the mapping is used. */
typedef struct cs_units_mapping {
    char path[CS_UNITS_PATH];
    char ruleset[CS_UNITS_TEXT];        /* [units] ruleset */
    char game_system_id[CS_UNITS_TEXT]; /* [units] game_system_id ("" = CSV only) */
    char game_system[CS_UNITS_NAME];    /* [units] game_system: its name, for messages */
    char cost[CS_UNITS_TEXT];           /* [units] cost: the cost type's name */
    int n_speeds; /* [units] speed: the parameters +1 is tried on, the first a unit carries */
    char speed[CS_UNITS_MAX_SPEEDS][CS_UNITS_TEXT];
    char distance[CS_UNITS_TEXT];       /* [units] distance: the head-on gap parameter */
    char base[CS_UNITS_NAME];           /* [units] base: the base size characteristic */
    char range[CS_UNITS_TEXT];          /* [units] range: default distances, a..b[:step] */
    char variant[CS_UNITS_TEXT];        /* [units] variant: the edition or preset parameter,
                                           named with the table ("" = none) */
    char type[CS_UNITS_NAME];           /* [units] type: the characteristic shown as the
                                           unit's type (The Old World's Troop Type) */
    char mount_type[CS_UNITS_TEXT];     /* [units] mount_type: the BattleScribe subType of
                                           mounts ("" = mounts are models like any other) */
    /* [units] type_categories: the categories, comma separated, that name a
     * troop type: a chosen mount with no type of its own takes the first of
     * them its choice is filed under (The Old World's Royal Pegasus:
     * Monstrous Creature). "" = none. */
    char type_categories[CS_UNITS_NOTE];
    char mount_group[CS_UNITS_TEXT];    /* [units] mount_group: a group whose model entries
                                           are mounts, whatever their subType (The Old
                                           World's "Mount" group: chariots, monsters) */
    int n_metrics;
    char metric[CS_UNITS_MAX_METRICS][CS_UNITS_TEXT]; /* [units] metrics, comma separated */
    int n_fixed;
    char fixed_key[CS_UNITS_MAX_FIXED][CS_UNITS_TEXT]; /* [fixed] key = value */
    char fixed_val[CS_UNITS_MAX_FIXED][CS_UNITS_TEXT];
    /* [locked] key = reason: a fixed value that neither --set nor a unit's
     * own column may change, and why ("" = not locked). */
    char fixed_why[CS_UNITS_MAX_FIXED][CS_UNITS_NOTE];
    int n_chars;
    cs_units_char chars[CS_UNITS_MAX_CHARS];
    int n_rules;
    cs_units_rule rules[CS_UNITS_MAX_RULES];
    /* [type NAME]: units whose type (the [units] type characteristic)
     * reads NAME are left out with the reason (omit = reason), or kept with
     * a note (note = text: The Old World's war machines, tabled at their
     * crew's M since their own is `-`). */
    int n_types;
    char type_name[CS_UNITS_MAX_TYPES][CS_UNITS_NAME]; /* compared case aside */
    char type_text[CS_UNITS_MAX_TYPES][CS_UNITS_NOTE];
    bool type_omit[CS_UNITS_MAX_TYPES];
    /* declare = no: units of that type cannot declare a charge, as a
     * [rule NAME]'s (The Old World's war machines: Weapon of War). */
    bool type_no_declare[CS_UNITS_MAX_TYPES];
    /* [units] type_names: the types as the table spells them, comma
     * separated: a run of words in a unit's type equal to one of them, case
     * aside, is written as here (The Old World's data writes both "War
     * machine" and "War Machine"). "" = as the data writes them. */
    char type_names[CS_UNITS_NOTE];
    char sha256[65]; /* of the file's bytes as read */
    /* Filled by cs_units_mapping_bind: */
    const cs_ruleset *rs;
    int speed_param[CS_UNITS_MAX_SPEEDS], distance_param, variant_param; /* -1: none */
    int when_param[CS_UNITS_MAX_CHARS];
    int rule_param[CS_UNITS_MAX_RULES];
    int metric_index[CS_UNITS_MAX_METRICS];
    int char_param[CS_UNITS_MAX_CHARS];
    int fixed_param[CS_UNITS_MAX_FIXED];
} cs_units_mapping;

/* One value of a unit: a ruleset parameter and the text it came from. */
typedef struct cs_unit_value {
    int param;                /* index in the unit's ruleset parameter table */
    char text[CS_UNITS_TEXT]; /* the value as the experiment model reads it: 4 */
    char raw[CS_UNITS_TEXT];  /* as the source wrote it: 4" */
} cs_unit_value;

typedef struct cs_unit {
    char name[CS_UNITS_NAME];
    char id[CS_UNITS_TEXT];        /* the BattleScribe entry's id; "" for a CSV row */
    char catalogue[CS_UNITS_NAME]; /* catalogue name, or the CSV file's base name */
    char file[CS_UNITS_PATH];      /* where the unit is defined */
    int line;
    const cs_units_mapping *map; /* bound; gives the ruleset */
    bool has_points;
    double points;            /* BattleScribe: the smallest legal unit */
    char base[CS_UNITS_TEXT]; /* base size as written, "" if unknown */
    char type[CS_UNITS_TEXT]; /* the mapping's type characteristic, "" if none or unknown */
    char mount[CS_UNITS_NAME]; /* the mount of this row, "" on foot or without mounts */
    /* A second row's label, the mapping's `row` or `alternate_row` (`flying`):
     * "" for the unit's own row. The CSV shows it only in the name. */
    char row[CS_UNITS_TEXT];
    int models;               /* a roster's count of models (0: not given, no column) */
    unsigned rules;           /* bit r: the unit has the mapping's rule r */
    /* It cannot declare a charge (a [rule NAME] or [type NAME] with
     * declare = no; set by cs_units_settle): p_success is 0 at every
     * distance, exactly, and it has no reach. */
    bool no_declare;
    /* What the reader says of this row that no mapped value shows (a
     * flying row's rule or option, a mount with no troop type): joined to
     * the unit's CS_UNIT_NOTED note by cs_units_settle. "" = nothing. */
    char note[CS_UNITS_NOTE];
    bool complete;            /* every mapped characteristic present */
    int n_values;
    cs_unit_value value[CS_UNITS_MAX_VALUES];
} cs_unit;

typedef enum cs_unit_note_kind {
    CS_UNIT_SKIPPED,    /* left out: a required value is missing, invalid or contradictory */
    CS_UNIT_INCOMPLETE, /* kept: an optional value is missing, invalid or contradictory */
    CS_UNIT_WARNED,     /* kept whole: one of several texts taken, the others words */
    CS_UNIT_NOTED,      /* kept whole: a note the mapping gives a rule or type, or the reader's */
    CS_UNIT_OPTION,     /* not a unit: an option (an item) the reader noted and did not read */
} cs_unit_note_kind;

typedef enum cs_unit_problem {
    CS_UNIT_MISSING,  /* the characteristic (column) is absent or `-` */
    CS_UNIT_INVALID,  /* present but not readable in its format or range */
    CS_UNIT_CONFLICT, /* several profiles give different values */
    CS_UNIT_OMITTED,  /* its type is one the mapping leaves out ([type NAME] omit) */
    CS_UNIT_TYPED,    /* kept: its type carries a note ([type NAME] note) */
} cs_unit_problem;

typedef struct cs_unit_note {
    cs_unit_note_kind kind;
    cs_unit_problem problem;
    char name[CS_UNITS_NAME];
    char id[CS_UNITS_TEXT];   /* as in cs_unit */
    char file[CS_UNITS_PATH]; /* of the offending element or row */
    int line;
    char what[CS_UNITS_NOTE]; /* "lacks Adv", "Adv `3D6` is not a distance" */
} cs_unit_note;

/* A file the units were read from, with the SHA-256 (hex) of its bytes as
 * read: the provenance of the table (csvw.h). */
typedef struct cs_units_input {
    char path[CS_UNITS_PATH];
    char sha256[65];
    bool no_namespace; /* XML without BattleScribe's namespace (hand-written): read, and the
                        * table's heading says so */
} cs_units_input;

/* A growing list of units and notes. Zero-initialise, then cs_units_free. */
typedef struct cs_units {
    cs_unit *unit;
    int n, cap;
    cs_unit_note *note;
    int n_notes, cap_notes;
    cs_units_input *input; /* every file read, once each, in the order read */
    int n_inputs, cap_inputs;
    /* --set pairs, which a mapping's `when` conditions read (NULL: none);
     * set before reading. */
    const struct cs_units_sets *sets;
} cs_units;

void cs_units_free(cs_units *u);

/* Records a file read (a second record of a path is ignored). */
cs_status cs_units_add_input(cs_units *u, const char *path, const char *sha256);
/* Marks the recorded file `path` as XML without BattleScribe's namespace. */
void cs_units_input_no_namespace(cs_units *u, const char *path);

/* Do two texts give the same value? Numbers compare as numbers (2 = 2.0),
 * anything else as written, blanks around it aside. */
bool cs_units_same_value(const char *a, const char *b);

/* ---- analysis (src/sim/runs/units.c) ---------------------------------------- */

/* The distances of a table: lo, lo + step, ..., up to hi (inclusive). */
typedef struct cs_units_grid {
    double lo, hi, step;
} cs_units_grid;

/* Parses "a..b" or "a..b:step" (step 1 by default), or one distance "a". */
cs_status cs_units_grid_parse(const char *text, cs_units_grid *g, cs_error *err);
int cs_units_grid_count(const cs_units_grid *g);
double cs_units_grid_at(const cs_units_grid *g, int i);

/* --set K=V pairs, applied to every unit whose ruleset has K. */
typedef struct cs_units_sets {
    int n;
    const char *key[CS_UNITS_MAX_SETS];
    const char *val[CS_UNITS_MAX_SETS];
} cs_units_sets;

#define CS_UNITS_N_REACH 3
extern const double cs_units_reach_levels[CS_UNITS_N_REACH]; /* 0.50, 0.75, 0.90 */

typedef struct cs_unit_result {
    double *p; /* p_success per grid distance (caller's array) */
    bool has_reach[CS_UNITS_N_REACH];
    double reach[CS_UNITS_N_REACH]; /* inches; see cs_units_analyse */
    bool has_plus1;
    double plus1; /* inches of reach_75 gained with speed + 1 */
    bool has_metric[CS_UNITS_MAX_METRICS];
    double metric[CS_UNITS_MAX_METRICS]; /* E[metric | defined] just beyond contact */
    bool has_ppi;
    double points_per_inch; /* points / reach at 75% */
    char variant[CS_UNITS_TEXT]; /* the mapping's variant parameter as resolved ("" = none) */
} cs_unit_result;

/* Analyses one unit exactly at the head-on layout of its ruleset. Its
 * parameters are read by the experiment model (experiment.h, the parser of
 * `chargesim run`): ruleset defaults < mapping [fixed] < `sets` < the unit's
 * values, method exact. p[i] = p_success at grid distance i.
 * reach[k] = the farthest distance d at which p_success is still >= level
 * k, found by exact inversion of p_success(d) = P(range reaches d), a
 * non-increasing step function at the head-on layout: bisection closes on
 * the range's atom, whatever the grid (a property of the unit, issue 15.6),
 * given to 1e-5 in; absent when p_success just beyond base contact is below
 * the level; the distance parameter's maximum when p_success never falls
 * below it there. plus1 = reach_75 with speed + 1 less reach_75: the inches
 * of 75% reach one more inch of speed buys (1 wherever the speed is added
 * to the roll); absent without a speed parameter, when speed + 1 is out of
 * its range or reach_75 is absent. Metrics: E[metric | defined] just beyond
 * base contact (the reach search's nearest distance), where every roll
 * reaches, for a complete unit only: properties of the unit, as the reach.
 * variant: the mapping's variant parameter as resolved.
 * A unit that cannot declare a charge (u->no_declare) is not evaluated:
 * every p is 0 (the charge is never declared, so never reached: exact),
 * and reach, plus1, metrics and points per inch are absent.
 * out->p must hold cs_units_grid_count(g) doubles. CS_EINPUT (err names the
 * unit's file:line and the key) when a value does not read, the ruleset
 * rejects it, a --set sweeps or draws, or the layout is not fixed. */
cs_status cs_units_analyse(const cs_unit *u, const cs_units_sets *sets, const cs_units_grid *g,
                           cs_unit_result *out, cs_error *err);

/* Every unit of u analysed (cs_units_analyse) on grid g: *res, one result
 * per unit, and *p, their p_success per distance (row-major, unit i's at
 * *p + i * the grid's count), malloc'ed here (free() both, also on
 * failure). The first failure stops it and is returned. */
cs_status cs_units_analyse_all(const cs_units *u, const cs_units_sets *sets,
                               const cs_units_grid *g, cs_unit_result **res, double **p,
                               cs_error *err);

/* Checks --set pairs against the units before any analysis: each key must
 * be a parameter of at least one unit's ruleset, neither its distance nor a
 * value a unit carries itself, nor a change of a value the unit's mapping
 * locks ([locked]: T9A 2nd edition's edition = 2, as its catalogue has no
 * Charge Speed). CS_EINPUT naming the key (and the lock's reason) otherwise.
 * cs_units_analyse refuses a unit's own value for a locked key alike. */
cs_status cs_units_check_sets(const cs_units *u, const cs_units_sets *sets, cs_error *err);

#endif
