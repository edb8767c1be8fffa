/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Units: the mapping files (experiments/mappings/NAME.ini, libinih), which say
 * how one game system's data feeds one ruleset: the language documented in
 * experiments/mappings/README.md. Stage 1 picks a file's mapping by its game
 * system (units_source.c), stage 2 looks for the characteristics it names
 * (units_resolve.c, units_csv.c), stage 3 reads them into parameter values
 * (units_settle.c). See include/chargesim/unitsrc.h. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "chargesim/experiment.h"
#include "chargesim/infile.h"
#include "chargesim/inifile.h"
#include "chargesim/registry.h"
#include "chargesim/unitsrc.h"

/* Copies at most cap-1 bytes and says whether all of src fitted. */
static bool copy(char *dst, size_t cap, const char *src)
{
    int n = snprintf(dst, cap, "%s", src);
    return n >= 0 && (size_t)n < cap;
}

typedef struct load_state {
    cs_units_mapping *m;
    char msg[CS_UNITS_NOTE]; /* the first error, reported at inih's line */
} load_state;

static int fail(load_state *st, const char *fmt, ...)
{
    if (st->msg[0] == '\0') {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(st->msg, sizeof st->msg, fmt, ap);
        va_end(ap);
    }
    return 0;
}

static bool yes_no(const char *v, bool *out)
{
    if (strcasecmp(v, "yes") == 0 || strcasecmp(v, "true") == 0 || strcmp(v, "1") == 0)
        *out = true;
    else if (strcasecmp(v, "no") == 0 || strcasecmp(v, "false") == 0 || strcmp(v, "0") == 0)
        *out = false;
    else
        return false;
    return true;
}

/* Copies a trimmed slice [a, b) into dst. */
static bool slice(char *dst, size_t cap, const char *a, const char *b)
{
    while (a < b && isspace((unsigned char)*a))
        a++;
    while (b > a && isspace((unsigned char)b[-1]))
        b--;
    size_t n = (size_t)(b - a);
    if (n >= cap)
        return false;
    memcpy(dst, a, n);
    dst[n] = '\0';
    return true;
}

#define SET(field, value)                                                                          \
    (copy((field), sizeof(field), (value)) ? 1 : fail(st, "value of `%s` is too long", name))

/* A comma-separated list of names into list[*n] (at most max). */
static int name_list(load_state *st, const char *key, const char *value, char (*list)[CS_UNITS_TEXT],
                     int *n, int max)
{
    *n = 0;
    const char *a = value;
    while (*a) {
        const char *b = strchr(a, ',');
        if (!b)
            b = a + strlen(a);
        if (*n == max)
            return fail(st, "more than %d %s", max, key);
        if (!slice(list[*n], CS_UNITS_TEXT, a, b) || list[*n][0] == '\0')
            return fail(st, "%s: expected names separated by commas", key);
        (*n)++;
        a = *b ? b + 1 : b;
    }
    return 1;
}

static int units_key(load_state *st, const char *name, const char *value)
{
    cs_units_mapping *m = st->m;
    if (strcmp(name, "ruleset") == 0)
        return SET(m->ruleset, value);
    if (strcmp(name, "game_system_id") == 0)
        return SET(m->game_system_id, value);
    if (strcmp(name, "game_system") == 0)
        return SET(m->game_system, value);
    if (strcmp(name, "cost") == 0)
        return SET(m->cost, value);
    if (strcmp(name, "speed") == 0)
        return name_list(st, "speed", value, m->speed, &m->n_speeds, CS_UNITS_MAX_SPEEDS);
    if (strcmp(name, "distance") == 0)
        return SET(m->distance, value);
    if (strcmp(name, "base") == 0)
        return SET(m->base, value);
    if (strcmp(name, "range") == 0)
        return SET(m->range, value);
    if (strcmp(name, "variant") == 0)
        return SET(m->variant, value);
    if (strcmp(name, "type") == 0)
        return SET(m->type, value);
    if (strcmp(name, "mount_type") == 0)
        return SET(m->mount_type, value);
    if (strcmp(name, "mount_group") == 0)
        return SET(m->mount_group, value);
    if (strcmp(name, "type_categories") == 0)
        return SET(m->type_categories, value);
    if (strcmp(name, "type_names") == 0) {
        /* A long list may go on several lines, each adding to it. */
        size_t len = strlen(m->type_names);
        int n = snprintf(m->type_names + len, sizeof m->type_names - len, "%s%s",
                         len ? ", " : "", value);
        return n >= 0 && (size_t)n < sizeof m->type_names - len
                   ? 1
                   : fail(st, "type_names: the list is longer than %d characters",
                          CS_UNITS_NOTE - 1);
    }
    if (strcmp(name, "metrics") == 0)
        return name_list(st, "metrics", value, m->metric, &m->n_metrics, CS_UNITS_MAX_METRICS);
    return fail(st,
                "unknown key `%s` in [units] (ruleset, game_system_id, game_system, cost, "
                "speed, distance, base, range, variant, type, type_categories, type_names, "
                "mount_type, mount_group, metrics)",
                name);
}

/* `NAME = VALUE` into name and value, trimmed; false if malformed. */
static bool pair(const char *text, char *name, size_t ncap, char *value, size_t vcap)
{
    const char *eq = strchr(text, '=');
    return eq && slice(name, ncap, text, eq) && slice(value, vcap, eq + 1, eq + strlen(eq)) &&
           name[0] != '\0';
}

static int char_key(load_state *st, cs_units_char *c, const char *name, const char *value)
{
    if (strcmp(name, "param") == 0)
        return SET(c->param, value);
    if (strcmp(name, "format") == 0) {
        if (strcmp(value, "inches") == 0)
            c->format = CS_UNITS_INCHES;
        else if (strcmp(value, "target") == 0)
            c->format = CS_UNITS_TARGET;
        else if (strcmp(value, "number") == 0)
            c->format = CS_UNITS_NUMBER;
        else if (strcmp(value, "text") == 0)
            c->format = CS_UNITS_TEXT_AS_IS;
        else
            return fail(st, "format `%s`: expected inches, target, number or text", value);
        return 1;
    }
    if (strcmp(name, "required") == 0)
        return yes_no(value, &c->required) ? 1 : fail(st, "required: expected yes or no");
    if (strcmp(name, "alternate") == 0)
        return yes_no(value, &c->alternate) ? 1 : fail(st, "alternate: expected yes or no");
    if (strcmp(name, "where") == 0)
        return pair(value, c->where_name, sizeof c->where_name, c->where_value,
                    sizeof c->where_value)
                   ? 1
                   : fail(st, "where: expected `CHARACTERISTIC = VALUE`");
    if (strcmp(name, "when") == 0)
        return pair(value, c->when_param, sizeof c->when_param, c->when_value,
                    sizeof c->when_value)
                   ? 1
                   : fail(st, "when: expected `PARAMETER = VALUE`");
    if (strcmp(name, "mount") == 0)
        return yes_no(value, &c->mount) ? 1 : fail(st, "mount: expected yes or no");
    if (strcmp(name, "alternate_row") == 0)
        return SET(c->alternate_row, value);
    return fail(st,
                "unknown key `%s` in [characteristic %s] (param, format, required, "
                "alternate, alternate_row, where, when, mount)",
                name, c->name);
}

/* `declare = no`: the unit cannot declare a charge (`yes`, the default,
 * is accepted too). */
static int declare_key(load_state *st, const char *value, bool *no_declare)
{
    bool yes;
    if (!yes_no(value, &yes))
        return fail(st, "declare: expected yes or no");
    *no_declare = !yes;
    return 1;
}

/* A key of [rule NAME]; the section's first key creates the rule. */
static int rule_key(load_state *st, const char *rname, const char *name, const char *value)
{
    cs_units_mapping *m = st->m;
    cs_units_rule *r = NULL;
    for (int i = 0; i < m->n_rules; i++)
        if (strcmp(m->rules[i].name, rname) == 0)
            r = &m->rules[i];
    if (!r) {
        if (m->n_rules == CS_UNITS_MAX_RULES)
            return fail(st, "more than %d rules", CS_UNITS_MAX_RULES);
        r = &m->rules[m->n_rules++];
        *r = (cs_units_rule){.value = "true"};
        copy(r->name, sizeof r->name, rname); /* fits: see below */
    }
    if (strcmp(name, "param") == 0)
        return SET(r->param, value);
    if (strcmp(name, "value") == 0)
        return SET(r->value, value);
    if (strcmp(name, "otherwise") == 0)
        return SET(r->otherwise, value);
    if (strcmp(name, "note") == 0)
        return SET(r->note, value);
    if (strcmp(name, "row") == 0)
        return SET(r->row, value);
    if (strcmp(name, "row_param") == 0)
        return SET(r->row_param, value);
    if (strcmp(name, "declare") == 0)
        return declare_key(st, value, &r->no_declare);
    if (strcmp(name, "option") == 0) {
        if (strcmp(value, "row") != 0 && strcmp(value, "no") != 0)
            return fail(st, "[rule %s] option = %s: expected row or no", rname, value);
        r->option_row = strcmp(value, "row") == 0;
        return 1;
    }
    if (strcmp(name, "only_type") == 0)
        return SET(r->only_type, value);
    if (strcmp(name, "option_note") == 0)
        return SET(r->option_note, value);
    return fail(st,
                "unknown key `%s` in [rule %s] (param, value, otherwise, note, row, row_param, "
                "declare, option, only_type, option_note)",
                name, rname);
}

/* A key of [type NAME]: omit = why units of that type are left out, or
 * note = what a kept unit of that type is noted with (one of the two,
 * once), and declare = no. Names are compared case aside, as in the data. */
static int type_key(load_state *st, const char *tname, const char *name, const char *value)
{
    cs_units_mapping *m = st->m;
    bool omit = strcmp(name, "omit") == 0, declare = strcmp(name, "declare") == 0;
    if (!omit && !declare && strcmp(name, "note") != 0)
        return fail(st, "unknown key `%s` in [type %s] (omit, note, declare)", name, tname);
    int t = 0;
    while (t < m->n_types && strcasecmp(m->type_name[t], tname) != 0)
        t++;
    if (t == m->n_types) {
        if (m->n_types == CS_UNITS_MAX_TYPES)
            return fail(st, "more than %d [type] sections", CS_UNITS_MAX_TYPES);
        copy(m->type_name[t], CS_UNITS_NAME, tname); /* fits: see below */
        m->n_types++;
    }
    if (declare)
        return declare_key(st, value, &m->type_no_declare[t]);
    if (m->type_text[t][0] != '\0')
        return fail(st, "[type %s] has omit or note already: give one of them, once", tname);
    if (value[0] == '\0')
        return fail(st, "[type %s] %s: expected a text (%s)", tname, name,
                    omit ? "why units of this type are left out" : "the note");
    copy(m->type_text[t], CS_UNITS_NOTE, value);
    m->type_omit[t] = omit;
    return 1;
}

/* A value is shorter than inih's line, a section name than its buffer. */
_Static_assert(CS_UNITS_NOTE >= INI_MAX_LINE && CS_UNITS_NAME > CS_INI_MAX_SECTION, "fits");

static int handler(void *user, const char *section, const char *name, const char *value)
{
    load_state *st = user;
    cs_units_mapping *m = st->m;
    if (strcmp(section, "units") == 0)
        return units_key(st, name, value);
    if (strcmp(section, "fixed") == 0) {
        for (int i = 0; i < m->n_fixed; i++)
            if (strcmp(m->fixed_key[i], name) == 0)
                return fail(st, "[fixed] `%s` given twice", name);
        if (m->n_fixed == CS_UNITS_MAX_FIXED)
            return fail(st, "more than %d fixed parameters", CS_UNITS_MAX_FIXED);
        if (!copy(m->fixed_key[m->n_fixed], CS_UNITS_TEXT, name) ||
            !copy(m->fixed_val[m->n_fixed], CS_UNITS_TEXT, value))
            return fail(st, "[fixed] `%s` is too long", name);
        m->n_fixed++;
        return 1;
    }
    if (strcmp(section, "locked") == 0) {
        /* [fixed] comes first: a lock names a value the mapping fixes. */
        for (int i = 0; i < m->n_fixed; i++)
            if (strcmp(m->fixed_key[i], name) == 0) {
                copy(m->fixed_why[i], CS_UNITS_NOTE, value); /* fits: see above */
                return 1;
            }
        return fail(st, "[locked] `%s` is not a [fixed] parameter above it", name);
    }
    if (strncmp(section, "characteristic ", 15) == 0) {
        const char *cname = section + 15;
        cs_units_char *c = NULL;
        for (int i = 0; i < m->n_chars; i++)
            if (strcmp(m->chars[i].name, cname) == 0)
                c = &m->chars[i];
        if (!c) {
            if (m->n_chars == CS_UNITS_MAX_CHARS)
                return fail(st, "more than %d characteristics", CS_UNITS_MAX_CHARS);
            c = &m->chars[m->n_chars++];
            *c = (cs_units_char){.format = CS_UNITS_INCHES, .required = true};
            copy(c->name, sizeof c->name, cname); /* fits: see above */
        }
        return char_key(st, c, name, value);
    }
    if (strncmp(section, "rule ", 5) == 0)
        return rule_key(st, section + 5, name, value);
    if (strncmp(section, "type ", 5) == 0)
        return type_key(st, section + 5, name, value);
    return fail(st,
                "unknown section [%s] (units, fixed, locked, characteristic NAME, rule NAME, "
                "type NAME)",
                section);
}

cs_status cs_units_mapping_load(const char *path, cs_units_mapping *out, cs_error *err)
{
    *out = (cs_units_mapping){0};
    load_state st = {.m = out};
    if (!copy(out->path, sizeof out->path, path))
        return cs_error_set(err, CS_EINPUT, "%s: path too long", path);
    cs_ini_source src;
    int r = cs_inifile_parse(path, handler, &st, &src, err);
    if (r < 0)
        return err->status;
    if (r > 0)
        return cs_error_set(err, CS_EINPUT, "%s:%d: %s", path, r,
                            st.msg[0] ? st.msg : "expected [section] or key = value");
    if (out->ruleset[0] == '\0')
        return cs_error_set(err, CS_EINPUT, "%s: [units] ruleset is missing", path);
    for (int i = 0; i < out->n_chars; i++)
        if (out->chars[i].param[0] == '\0') {
            return cs_error_set(err, CS_EINPUT, "%s: [characteristic %s] has no param", path,
                                out->chars[i].name);
        }
    for (int i = 0; i < out->n_rules; i++) {
        const cs_units_rule *ru = &out->rules[i];
        if (ru->param[0] == '\0' && ru->note[0] == '\0' && ru->row[0] == '\0' &&
            ru->option_note[0] == '\0')
            return cs_error_set(err, CS_EINPUT,
                                "%s: [rule %s] has neither param, note, row nor option_note", path,
                                ru->name);
        /* A unit tabled at 0 says why: the note quotes the rule. */
        if (ru->no_declare && ru->note[0] == '\0')
            return cs_error_set(err, CS_EINPUT,
                                "%s: [rule %s] declare = no needs a note quoting the rule", path,
                                ru->name);
        if (ru->option_row && (ru->row[0] || !ru->param[0]))
            return cs_error_set(err, CS_EINPUT,
                                "%s: [rule %s] option = row needs a param and no row (a rule with "
                                "a row reads its options by the number in their names)",
                                path, ru->name);
        if ((ru->only_type[0] && !ru->option_row) || (ru->option_row && ru->option_note[0]))
            return cs_error_set(err, CS_EINPUT,
                                "%s: [rule %s] only_type needs option = row, and option_note goes "
                                "without option",
                                path, ru->name);
    }
    for (int i = 0; i < out->n_types; i++) {
        if (!out->type_text[i][0])
            return cs_error_set(err, CS_EINPUT, "%s: [type %s] needs omit or note", path,
                                out->type_name[i]);
        if (out->type_no_declare[i] && out->type_omit[i])
            return cs_error_set(err, CS_EINPUT,
                                "%s: [type %s] declare = no keeps the unit: give a note quoting "
                                "the rule, not omit",
                                path, out->type_name[i]);
    }
    copy(out->sha256, sizeof out->sha256, src.sha256);
    if (out->distance[0] == '\0')
        copy(out->distance, sizeof out->distance, "distance");
    if (out->range[0] == '\0')
        copy(out->range, sizeof out->range, "1..24");
    return CS_OK;
}

/* The distance, speed, metrics and characteristics, named in the mapping,
 * against the ruleset's parameters and metrics. */
static cs_status bind_names(cs_units_mapping *m, const cs_ruleset *rs, cs_error *err)
{
    m->distance_param = cs_ruleset_param_index(rs, m->distance);
    if (m->distance_param < 0)
        return cs_error_set(err, CS_EINPUT, "%s: distance `%s` is not a parameter of %s", m->path,
                            m->distance, rs->name);
    for (int i = 0; i < CS_UNITS_MAX_SPEEDS; i++)
        m->speed_param[i] = -1;
    for (int i = 0; i < m->n_speeds; i++) {
        m->speed_param[i] = cs_ruleset_param_index(rs, m->speed[i]);
        cs_param_type t =
            m->speed_param[i] >= 0 ? rs->params[m->speed_param[i]].type : CS_PARAM_TEXT;
        if (t != CS_PARAM_REAL && t != CS_PARAM_INT)
            return cs_error_set(err, CS_EINPUT, "%s: speed `%s` is not a numeric parameter of %s",
                                m->path, m->speed[i], rs->name);
    }
    m->variant_param = -1;
    if (m->variant[0] && (m->variant_param = cs_ruleset_param_index(rs, m->variant)) < 0)
        return cs_error_set(err, CS_EINPUT, "%s: variant `%s` is not a parameter of %s", m->path,
                            m->variant, rs->name);
    for (int i = 0; i < m->n_metrics; i++) {
        m->metric_index[i] = cs_ruleset_metric_index(rs, m->metric[i]);
        if (m->metric_index[i] < 0)
            return cs_error_set(err, CS_EINPUT, "%s: metric `%s` is not a metric of %s", m->path,
                                m->metric[i], rs->name);
    }
    for (int i = 0; i < m->n_chars; i++) {
        m->char_param[i] = cs_ruleset_param_index(rs, m->chars[i].param);
        if (m->char_param[i] < 0)
            return cs_error_set(err, CS_EINPUT,
                                "%s: [characteristic %s] param `%s` is not a parameter of %s",
                                m->path, m->chars[i].name, m->chars[i].param, rs->name);
        if (m->char_param[i] == m->distance_param)
            return cs_error_set(err, CS_EINPUT,
                                "%s: [characteristic %s] feeds the table's distance `%s`", m->path,
                                m->chars[i].name, m->distance);
        for (int j = 0; j < i; j++)
            if (m->char_param[j] == m->char_param[i])
                return cs_error_set(err, CS_EINPUT, "%s: characteristics %s and %s both feed `%s`",
                                    m->path, m->chars[j].name, m->chars[i].name, m->chars[i].param);
        m->when_param[i] = -1;
        if (m->chars[i].when_param[0] &&
            (m->when_param[i] = cs_ruleset_param_index(rs, m->chars[i].when_param)) < 0)
            return cs_error_set(err, CS_EINPUT,
                                "%s: [characteristic %s] when `%s` is not a parameter of %s",
                                m->path, m->chars[i].name, m->chars[i].when_param, rs->name);
    }
    return CS_OK;
}

/* The [fixed] values, read by the experiment model. */
static cs_status bind_fixed(cs_units_mapping *m, const cs_ruleset *rs, cs_error *err)
{
    /* Fixed values are read by the experiment model, as `chargesim run`
     * reads them, so a mapping accepts exactly what an experiment does. */
    cs_experiment e;
    cs_experiment_init(&e, m->path);
    cs_status st = cs_experiment_set(&e, "experiment", "ruleset", rs->name, m->path, 0, err);
    for (int i = 0; st == CS_OK && i < m->n_fixed; i++) {
        m->fixed_param[i] = cs_ruleset_param_index(rs, m->fixed_key[i]);
        if (m->fixed_param[i] < 0 || m->fixed_param[i] == m->distance_param) {
            st = cs_error_set(err, CS_EINPUT, "%s: [fixed] `%s` is not a parameter of %s%s",
                              m->path, m->fixed_key[i], rs->name,
                              m->fixed_param[i] < 0 ? ""
                                                    : " the table may fix (it is the distance)");
            break;
        }
        for (int j = 0; j < m->n_chars; j++)
            if (m->char_param[j] == m->fixed_param[i])
                st = cs_error_set(err, CS_EINPUT,
                                  "%s: `%s` is both fixed and fed by characteristic %s", m->path,
                                  m->fixed_key[i], m->chars[j].name);
        if (st == CS_OK)
            st = cs_experiment_set(&e, "params", m->fixed_key[i], m->fixed_val[i], m->path, 0, err);
        if (st == CS_OK && e.param[m->fixed_param[i]].kind != CS_VAL_FIXED)
            st = cs_error_set(err, CS_EINPUT, "%s: [fixed] %s = %s: expected one value", m->path,
                              m->fixed_key[i], m->fixed_val[i]);
    }
    cs_experiment_free(&e);
    return st;
}

/* Item i of a comma-separated list, blanks around it trimmed; false past
 * the end. */
static bool list_item(const char *list, int i, char *out, size_t cap)
{
    const char *s = list;
    for (int k = 0; k < i; k++) {
        s = strchr(s, ',');
        if (!s)
            return false;
        s++;
    }
    while (*s == ' ')
        s++;
    if (!*s && i > 0)
        return false;
    const char *e = strchr(s, ',');
    size_t n = e ? (size_t)(e - s) : strlen(s);
    while (n > 0 && s[n - 1] == ' ')
        n--;
    snprintf(out, cap, "%.*s", (int)n, s);
    return true;
}

bool cs_units_rule_item(const cs_units_rule *r, int i, bool otherwise, char *param,
                        size_t pcap, char *value, size_t vcap)
{
    if (!r->param[0] || (otherwise && !r->otherwise[0]) || !list_item(r->param, i, param, pcap))
        return false;
    return list_item(otherwise ? r->otherwise : r->value, i, value, vcap);
}

/* How many items a list has (an empty text: 0). */
static int list_count(const char *list)
{
    int n = list[0] ? 1 : 0;
    for (const char *s = list; (s = strchr(s, ',')) != NULL; s++)
        n++;
    return n;
}

/* One [rule NAME] param with its value and otherwise, checked as below. */
static cs_status bind_rule_param(const cs_units_mapping *m, const cs_ruleset *rs,
                                 const cs_units_rule *r, int i, cs_error *err)
{
    char param[CS_UNITS_TEXT], value[2][CS_UNITS_TEXT];
    (void)cs_units_rule_item(r, i, false, param, sizeof param, value[0], sizeof value[0]);
    bool other = cs_units_rule_item(r, i, true, param, sizeof param, value[1], sizeof value[1]);
    int k = cs_ruleset_param_index(rs, param);
    bool taken = k == m->distance_param;
    for (int j = 0; j < m->n_chars; j++)
        taken = taken || m->char_param[j] == k;
    for (int j = 0; j < m->n_fixed; j++)
        taken = taken || m->fixed_param[j] == k;
    if (k < 0 || taken)
        return cs_error_set(err, CS_EINPUT, "%s: [rule %s] param `%s` is %s", m->path, r->name,
                            param,
                            k < 0 ? "not a parameter of the ruleset"
                                  : "the distance, fixed or fed by a characteristic");
    cs_experiment e;
    cs_experiment_init(&e, m->path);
    cs_status st = cs_experiment_set(&e, "experiment", "ruleset", rs->name, m->path, 0, err);
    for (int w = 0; w < (other ? 2 : 1) && st == CS_OK; w++) {
        st = cs_experiment_set(&e, "params", param, value[w], m->path, 0, err);
        if (st == CS_OK && e.param[k].kind != CS_VAL_FIXED)
            st = cs_error_set(err, CS_EINPUT, "%s: [rule %s] %s = %s: expected one value",
                              m->path, r->name, param, value[w]);
    }
    cs_experiment_free(&e);
    return st;
}

/* The [rule NAME] parameters: each a parameter of the ruleset, neither the
 * distance nor one a characteristic feeds or the mapping fixes (a unit's
 * value would come from two places), its value read by the experiment
 * model as a fixed value is. */
static cs_status bind_rules(cs_units_mapping *m, const cs_ruleset *rs, cs_error *err)
{
    cs_status st = CS_OK;
    for (int i = 0; st == CS_OK && i < m->n_rules; i++) {
        const cs_units_rule *r = &m->rules[i];
        /* A second row needs its label and a parameter a characteristic
         * feeds: the rule's number replaces that characteristic's text. */
        bool fed = false;
        for (int j = 0; j < m->n_chars; j++)
            fed = fed || strcmp(m->chars[j].param, r->row_param) == 0;
        if ((r->row[0] || r->row_param[0]) && !(r->row[0] && fed))
            return cs_error_set(err, CS_EINPUT,
                                "%s: [rule %s] row and row_param go together, and row_param "
                                "must be a parameter a [characteristic] feeds",
                                m->path, r->name);
        /* param = a, b with value = x, y: each its own (issue 50:
         * Crusader's Zeal raises the roll and the range); the first's
         * index marks a rule that sets something. */
        char first[CS_UNITS_TEXT];
        m->rule_param[i] = list_item(r->param, 0, first, sizeof first) && r->param[0]
                               ? cs_ruleset_param_index(rs, first)
                               : -1;
        if (!r->param[0])
            continue;
        int n = list_count(r->param);
        if (list_count(r->value) != n || (r->otherwise[0] && list_count(r->otherwise) != n))
            return cs_error_set(err, CS_EINPUT,
                                "%s: [rule %s] lists %d param%s: value (and otherwise, if "
                                "given) must list as many",
                                m->path, r->name, n, n == 1 ? "" : "s");
        for (int j = 0; st == CS_OK && j < n; j++)
            st = bind_rule_param(m, rs, r, j, err);
    }
    return st;
}

cs_status cs_units_mapping_bind(cs_units_mapping *m, cs_error *err)
{
    const cs_ruleset *rs = cs_registry_find(m->ruleset);
    if (!rs)
        return cs_error_set(err, CS_EINPUT, "%s: ruleset `%s` is not built into this chargesim",
                            m->path, m->ruleset);
    cs_status st = bind_names(m, rs, err);
    if (st == CS_OK)
        st = bind_fixed(m, rs, err);
    if (st == CS_OK)
        st = bind_rules(m, rs, err);
    if (st != CS_OK)
        return st;
    cs_units_grid g;
    cs_error gerr;
    if (cs_units_grid_parse(m->range, &g, &gerr) != CS_OK)
        return cs_error_set(err, CS_EINPUT, "%s: range %s", m->path, gerr.msg);
    m->rs = rs;
    return CS_OK;
}

cs_status cs_units_mapping_load_dir(const char *dir, cs_units_mapping **out, int *n, cs_error *err)
{
    static const char *const ini[] = {".ini", NULL};
    char(*names)[CS_UNITS_PATH];
    int count;
    *out = NULL;
    *n = 0;
    cs_status st = cs_units_list_files(dir, ini, &names, &count, err);
    if (st != CS_OK)
        return st;
    if (count > 0) {
        *out = calloc((size_t)count, sizeof **out);
        if (!*out)
            st = cs_error_set(err, CS_ENOMEM, "%s: out of memory", dir);
    }
    for (int i = 0; st == CS_OK && i < count; i++)
        st = cs_units_mapping_load(names[i], &(*out)[i], err);
    free(names);
    if (st != CS_OK) {
        free(*out);
        *out = NULL;
        return st;
    }
    *n = count;
    return CS_OK;
}

cs_status cs_units_mapping_load_path(const char *path, cs_units_mapping **maps, int *n,
                                     cs_error *err)
{
    if (cs_infile_is_dir(path))
        return cs_units_mapping_load_dir(path, maps, n, err);
    *maps = calloc(1, sizeof **maps);
    if (!*maps)
        return cs_error_set(err, CS_ENOMEM, "out of memory");
    *n = 1;
    return cs_units_mapping_load(path, *maps, err);
}
