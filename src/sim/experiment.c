/* The experiment model and its value syntax; see include/chargesim/experiment.h. */
#include "chargesim/experiment.h"
#include "chargesim/parse.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/dice.h"
#include "chargesim/poly_parse.h"
#include "chargesim/qmc.h"

#define MAX_SWEEP_VALUES 100000

static const char *const method_names[] = {"auto", "mc", "conditional", "exact", "rqmc"};

const char *cs_method_name(cs_method m)
{
    return method_names[m];
}

bool cs_method_parse(const char *s, cs_method *out)
{
    for (int i = 0; i < (int)(sizeof method_names / sizeof *method_names); i++)
        if (strcmp(s, method_names[i]) == 0) {
            *out = (cs_method)i;
            return true;
        }
    return false;
}

static char *dup_trimmed(const char *s, size_t len)
{
    while (len > 0 && isspace((unsigned char)*s)) {
        s++;
        len--;
    }
    while (len > 0 && isspace((unsigned char)s[len - 1]))
        len--;
    char *d = malloc(len + 1);
    if (d) {
        memcpy(d, s, len);
        d[len] = '\0';
    }
    return d;
}

static void spec_clear(cs_value_spec *v)
{
    for (int i = 0; v->text && i < v->n; i++)
        free(v->text[i]);
    free(v->text);
    free(v->num);
    free(v->raw);
    free(v->origin);
    memset(v, 0, sizeof *v);
}

void cs_experiment_init(cs_experiment *e, const char *origin)
{
    memset(e, 0, sizeof *e);
    e->origin = strdup(origin ? origin : "");
    e->trials = 100000;
    e->seed = 1;
    e->method = CS_METHOD_AUTO;
    e->confidence = 0.95;
    e->replicates = CS_EXPERIMENT_REPLICATES;
}

static void label_clear(cs_label_spec *l)
{
    for (int i = 0; l->text && i < l->n; i++)
        free(l->text[i]);
    free(l->text);
    free(l->origin);
    memset(l, 0, sizeof *l);
}

void cs_experiment_free(cs_experiment *e)
{
    for (int i = 0; i < CS_MAX_PARAMS; i++) {
        spec_clear(&e->param[i]);
        label_clear(&e->label[i]);
    }
    free(e->origin);
    free(e->name);
    free(e->description);
    memset(e, 0, sizeof *e);
}

/* "FILE:LINE: " or "--set: " prefix of a message. */
static void where(char *buf, size_t cap, const char *origin, int line)
{
    if (line > 0)
        snprintf(buf, cap, "%s:%d", origin, line);
    else
        snprintf(buf, cap, "%s", origin);
}

static bool parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    while (isspace((unsigned char)*s))
        s++;
    if (*s == '\0')
        return false;
    double v = strtod(s, &end);
    while (isspace((unsigned char)*end))
        end++;
    if (*end != '\0' || errno == ERANGE || !isfinite(v))
        return false;
    *out = v;
    return true;
}

/* Integers go through the one parser (chargesim/parse.h): digits only,
 * never through a double. */
static bool parse_u64(const char *s, uint64_t *out)
{
    return cs_parse_u64(s, out, NULL);
}

/* Checks one element of a parameter's value and gives its numeric form. */
static cs_status parse_element(const cs_param_def *def, const char *text, double *num,
                               const char *at, cs_error *err)
{
    switch (def->type) {
    case CS_PARAM_REAL:
    case CS_PARAM_INT:
        if (!parse_double(text, num))
            return cs_error_set(err, CS_EINPUT, "%s: %s = '%s': expected a number%s", at,
                                def->key, text,
                                (def->flags & CS_PF_LAYOUT)
                                    ? ", a sweep (a..b, a..b:step, a,b,c) or uniform(a,b) / normal(m,s)"
                                    : " or a sweep (a..b, a..b:step, a,b,c)");
        if (def->type == CS_PARAM_INT && *num != floor(*num))
            return cs_error_set(err, CS_EINPUT, "%s: %s = '%s': expected a whole number", at,
                                def->key, text);
        if (*num < def->min || *num > def->max)
            return cs_error_set(err, CS_EINPUT, "%s: %s = '%s': expected a value from %g to %g",
                                at, def->key, text, def->min, def->max);
        return CS_OK;
    case CS_PARAM_BOOL: {
        static const char *const yes[] = {"true", "yes", "on", "1"};
        static const char *const no[] = {"false", "no", "off", "0"};
        for (int i = 0; i < 4; i++) {
            if (strcmp(text, yes[i]) == 0) {
                *num = 1.0;
                return CS_OK;
            }
            if (strcmp(text, no[i]) == 0) {
                *num = 0.0;
                return CS_OK;
            }
        }
        return cs_error_set(err, CS_EINPUT, "%s: %s = '%s': expected true or false", at,
                            def->key, text);
    }
    case CS_PARAM_CHOICE: {
        char list[512] = "";
        for (int i = 0; def->choices[i]; i++) {
            if (strcmp(text, def->choices[i]) == 0) {
                *num = (double)i;
                return CS_OK;
            }
            size_t used = strlen(list);
            snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", def->choices[i]);
        }
        return cs_error_set(err, CS_EINPUT, "%s: %s = '%s': expected one of: %s", at, def->key,
                            text, list);
    }
    case CS_PARAM_DICE: {
        cs_dice d;
        cs_diag diag = {0};
        *num = 0.0;
        if (text[0] == '\0')
            return CS_OK; /* empty: the ruleset's own default dice */
        if (cs_dice_parse(text, &d, &diag) != CS_OK)
            return cs_error_set(err, CS_EINPUT, "%s: %s = '%s': column %d: %s", at, def->key,
                                text, diag.column, diag.what ? diag.what : "invalid dice");
        return CS_OK;
    }
    case CS_PARAM_TEXT:
        *num = 0.0;
        return CS_OK;
    case CS_PARAM_POLYGON: {
        /* Checked here, once, by the parser prepare reads it with. */
        cs_poly_list pl;
        cs_diag diag = {0};
        *num = 0.0;
        if (cs_poly_parse(text, strlen(text), def->choices, &pl, &diag) != CS_OK)
            return cs_error_set(err, CS_EINPUT, "%s: %s = '%s': column %d: %s", at, def->key,
                                text, diag.column, diag.what ? diag.what : "invalid polygon");
        return CS_OK;
    }
    }
    return CS_OK;
}

static cs_status add_value(cs_value_spec *v, const char *text, double num, cs_error *err)
{
    if (v->n >= MAX_SWEEP_VALUES)
        return cs_error_set(err, CS_ELIMIT, "a sweep may have at most %d values",
                            MAX_SWEEP_VALUES);
    double *nn = realloc(v->num, (size_t)(v->n + 1) * sizeof *nn);
    if (!nn)
        return cs_error_set(err, CS_ENOMEM, "out of memory");
    v->num = nn;
    char **nt = realloc(v->text, (size_t)(v->n + 1) * sizeof *nt);
    if (!nt)
        return cs_error_set(err, CS_ENOMEM, "out of memory");
    v->text = nt;
    v->text[v->n] = strdup(text);
    if (!v->text[v->n])
        return cs_error_set(err, CS_ENOMEM, "out of memory");
    v->num[v->n] = num;
    v->n++;
    return CS_OK;
}

/* Formats a sweep element the way a user would write it: 1, 1.5, 0.25. */
static void format_number(char *buf, size_t cap, double x)
{
    snprintf(buf, cap, "%.10g", x);
}

/* uniform(a,b) / normal(m,s) */
static bool parse_draw(const char *s, const char *name, double *a, double *b)
{
    size_t n = strlen(name);
    if (strncmp(s, name, n) != 0 || s[n] != '(')
        return false;
    const char *close = strrchr(s, ')');
    const char *comma = strchr(s, ',');
    if (!close || !comma || comma > close || close[1] != '\0')
        return false;
    char left[128], right[128];
    size_t la = (size_t)(comma - (s + n + 1)), lb = (size_t)(close - comma - 1);
    if (la >= sizeof left || lb >= sizeof right)
        return false;
    memcpy(left, s + n + 1, la);
    left[la] = '\0';
    memcpy(right, comma + 1, lb);
    right[lb] = '\0';
    return parse_double(left, a) && parse_double(right, b);
}

/* uniform(a,b) or normal(m,s): drawn per trial, checked against the
 * parameter's range; its centre stands as the point's value. */
static cs_status parse_draw_value(const cs_param_def *def, const char *raw, cs_value_spec *v,
                                  const char *at, cs_error *err)
{
    bool uni = raw[0] == 'u';
    if (!(def->flags & CS_PF_LAYOUT))
        return cs_error_set(err, CS_EINPUT,
                            "%s: %s = '%s': only layout parameters can be drawn per trial; "
                            "%s is not one (see `chargesim rules %s`)",
                            at, def->key, raw, def->key, "RULESET");
    if (!parse_draw(raw, uni ? "uniform" : "normal", &v->a, &v->b))
        return cs_error_set(err, CS_EINPUT, "%s: %s = '%s': expected %s", at, def->key, raw,
                            uni ? "uniform(a,b) with numbers a < b"
                                : "normal(mean,sd) with numbers, sd >= 0");
    if (uni ? !(v->a < v->b) : !(v->b >= 0.0))
        return cs_error_set(err, CS_EINPUT, "%s: %s = '%s': expected %s", at, def->key, raw,
                            uni ? "a < b in uniform(a,b)" : "sd >= 0 in normal(mean,sd)");
    if (uni && (v->a < def->min || v->b > def->max))
        return cs_error_set(err, CS_EINPUT,
                            "%s: %s = '%s': the range must lie within %g to %g", at,
                            def->key, raw, def->min, def->max);
    /* A normal draw is clamped to [min, max]: its mean must lie there and
     * its spread must not exceed the range, or most draws would be the
     * clamp's edges rather than the distribution the user wrote. */
    if (!uni && (v->a < def->min || v->a > def->max || v->b > def->max - def->min))
        return cs_error_set(err, CS_EINPUT,
                            "%s: %s = '%s': the mean must lie within %g to %g and the sd be "
                            "at most %g",
                            at, def->key, raw, def->min, def->max, def->max - def->min);
    v->kind = uni ? CS_VAL_UNIFORM : CS_VAL_NORMAL;
    char centre[64];
    format_number(centre, sizeof centre, uni ? 0.5 * (v->a + v->b) : v->a);
    return add_value(v, centre, uni ? 0.5 * (v->a + v->b) : v->a, err);
}

/* a..b or a..b:step: the values a + i*step. */
static cs_status parse_range(const cs_param_def *def, const char *raw, const char *dots,
                             cs_value_spec *v, const char *at, cs_error *err)
{
    cs_status st;
    double num;
    char left[128], right[128];
    size_t la = (size_t)(dots - raw);
    const char *colon = strchr(dots + 2, ':');
    size_t lb = colon ? (size_t)(colon - dots - 2) : strlen(dots + 2);
    double a, b, step = 1.0;
    if (la >= sizeof left || lb >= sizeof right)
        return cs_error_set(err, CS_EINPUT, "%s: %s: value too long", at, def->key);
    memcpy(left, raw, la);
    left[la] = '\0';
    memcpy(right, dots + 2, lb);
    right[lb] = '\0';
    if (!parse_double(left, &a) || !parse_double(right, &b) ||
        (colon && !parse_double(colon + 1, &step)))
        return cs_error_set(err, CS_EINPUT,
                            "%s: %s = '%s': expected a sweep a..b or a..b:step with numbers",
                            at, def->key, raw);
    if (!(step > 0.0) || b < a)
        return cs_error_set(err, CS_EINPUT,
                            "%s: %s = '%s': a sweep a..b:step needs a <= b and step > 0", at,
                            def->key, raw);
    if ((b - a) / step > MAX_SWEEP_VALUES)
        return cs_error_set(err, CS_ELIMIT, "%s: %s = '%s': more than %d sweep values", at,
                            def->key, raw, MAX_SWEEP_VALUES);
    v->kind = CS_VAL_SWEEP;
    /* Values a + i*step, computed from i to avoid accumulating error. */
    for (long i = 0;; i++) {
        double x = a + (double)i * step;
        if (x > b + 1e-9 * step)
            break;
        x = x > b ? b : x; /* the last value is b itself, never past it */
        char buf[64];
        format_number(buf, sizeof buf, x);
        if ((st = parse_element(def, buf, &num, at, err)) != CS_OK)
            return st;
        /* The value is a + i*step itself, not its 10-digit text read back
         * (issue 18.3); the text is what tables show. */
        if (def->type == CS_PARAM_REAL)
            num = x;
        if ((st = add_value(v, buf, num, err)) != CS_OK)
            return st;
    }
    return CS_OK;
}

/* a,b,c: a list of values of any type but free text. */
static cs_status parse_list(const cs_param_def *def, const char *raw, cs_value_spec *v,
                            const char *at, cs_error *err)
{
    cs_status st;
    double num;
    const char *s = raw;
    v->kind = CS_VAL_SWEEP;
    for (;;) {
        const char *c = strchr(s, ',');
        size_t len = c ? (size_t)(c - s) : strlen(s);
        char *item = dup_trimmed(s, len);
        if (!item)
            return cs_error_set(err, CS_ENOMEM, "out of memory");
        if (item[0] == '\0') {
            free(item);
            return cs_error_set(err, CS_EINPUT, "%s: %s = '%s': empty element in a list",
                                at, def->key, raw);
        }
        st = parse_element(def, item, &num, at, err);
        if (st == CS_OK)
            st = add_value(v, item, num, err);
        free(item);
        if (st != CS_OK)
            return st;
        if (!c)
            break;
        s = c + 1;
    }
    return CS_OK;
}

static cs_status parse_param_value(const cs_param_def *def, const char *raw, cs_value_spec *v,
                                   const char *at, cs_error *err)
{
    cs_status st;
    double num;
    bool numeric = def->type == CS_PARAM_REAL || def->type == CS_PARAM_INT;

    if (def->type == CS_PARAM_TEXT || def->type == CS_PARAM_POLYGON) {
        v->kind = CS_VAL_FIXED; /* taken whole: its commas are no sweep */
        st = parse_element(def, raw, &num, at, err);
        return st != CS_OK ? st : add_value(v, raw, 0.0, err);
    }
    if (strncmp(raw, "uniform(", 8) == 0 || strncmp(raw, "normal(", 7) == 0)
        return parse_draw_value(def, raw, v, at, err);
    const char *dots = strstr(raw, "..");
    if (numeric && dots)
        return parse_range(def, raw, dots, v, at, err);
    if (strchr(raw, ','))
        return parse_list(def, raw, v, at, err);
    v->kind = CS_VAL_FIXED;
    if ((st = parse_element(def, raw, &num, at, err)) != CS_OK)
        return st;
    return add_value(v, raw, num, err);
}

static cs_status set_param(cs_experiment *e, int idx, const char *value, const char *origin,
                           int line, cs_error *err)
{
    const cs_param_def *def = &e->rs->params[idx];
    cs_value_spec fresh = {0};
    char at[512];
    where(at, sizeof at, origin, line);
    fresh.raw = dup_trimmed(value, strlen(value));
    fresh.origin = strdup(origin);
    fresh.line = line;
    if (!fresh.raw || !fresh.origin) {
        spec_clear(&fresh);
        return cs_error_set(err, CS_ENOMEM, "out of memory");
    }
    cs_status st = parse_param_value(def, fresh.raw, &fresh, at, err);
    if (st != CS_OK) {
        /* The placeholder in the "not a layout parameter" message. */
        char *r = strstr(err->msg, "RULESET");
        if (r) {
            char tail[1024];
            snprintf(tail, sizeof tail, "%s%s", e->rs->name, r + 7);
            snprintf(r, sizeof err->msg - (size_t)(r - err->msg), "%s", tail);
        }
        spec_clear(&fresh);
        return st;
    }
    /* An override keeps the key's place in the sweep order. */
    fresh.order = e->param[idx].raw ? e->param[idx].order : e->next_order++;
    spec_clear(&e->param[idx]);
    e->param[idx] = fresh;
    return CS_OK;
}

/* [labels] KEY = a, b, c: kept as given; cs_experiment_finish checks them
 * against KEY's sweep, which may come later in the file or by --set. */
static cs_status set_labels(cs_experiment *e, int idx, const char *value, const char *origin,
                            int line, const char *at, cs_error *err)
{
    cs_label_spec fresh = {0};
    fresh.origin = strdup(origin);
    fresh.line = line;
    if (!fresh.origin)
        return cs_error_set(err, CS_ENOMEM, "out of memory");
    for (const char *s = value;;) {
        const char *c = strchr(s, ',');
        char *item = dup_trimmed(s, c ? (size_t)(c - s) : strlen(s));
        char **nt = item ? realloc(fresh.text, (size_t)(fresh.n + 1) * sizeof *nt) : NULL;
        if (!nt) {
            free(item);
            label_clear(&fresh);
            return cs_error_set(err, CS_ENOMEM, "out of memory");
        }
        fresh.text = nt;
        fresh.text[fresh.n++] = item;
        if (item[0] == '\0') {
            label_clear(&fresh);
            return cs_error_set(err, CS_EINPUT,
                                "%s: [labels] %s = '%s': empty label; give one label per "
                                "value of %s, separated by commas",
                                at, e->rs->params[idx].key, value, e->rs->params[idx].key);
        }
        if (!c)
            break;
        s = c + 1;
    }
    label_clear(&e->label[idx]);
    e->label[idx] = fresh;
    return CS_OK;
}

/* Each [labels] key names a swept key's values, one label per value. A
 * file's labels name the file's values: when --set replaces the values
 * (and not the labels) they no longer apply and are dropped. */
static cs_status check_labels(cs_experiment *e, cs_error *err)
{
    for (int i = 0; i < e->rs->n_params; i++) {
        cs_label_spec *l = &e->label[i];
        const cs_value_spec *v = &e->param[i];
        const char *key = e->rs->params[i].key;
        char at[512];
        if (l->n > 0 && l->line > 0 && v->line == 0 && strcmp(v->origin, "default") != 0)
            label_clear(l);
        if (l->n == 0)
            continue;
        where(at, sizeof at, l->origin, l->line);
        if (v->kind != CS_VAL_SWEEP)
            return cs_error_set(err, CS_EINPUT,
                                "%s: [labels] %s: %s is not swept (%s = %s); labels name the "
                                "values of a swept key",
                                at, key, key, key, v->raw);
        if (l->n != v->n)
            return cs_error_set(err, CS_EINPUT,
                                "%s: [labels] %s: %d label%s for %d values (%s = %s); give one "
                                "per value, in order",
                                at, key, l->n, l->n == 1 ? "" : "s", v->n, key, v->raw);
    }
    return CS_OK;
}

const char *cs_experiment_label(const cs_experiment *e, int i, int j)
{
    return e->label[i].n > j ? e->label[i].text[j] : NULL;
}

static const char *const experiment_keys =
    "name, description, ruleset, trials, seed, method, confidence, precision, replicates";

/* [experiment] ruleset = NAME: a known ruleset, chosen before its parameters. */
static cs_status set_ruleset(cs_experiment *e, const char *v, const char *at, cs_error *err)
{
    cs_status st = CS_OK;
    const cs_ruleset *rs = cs_ruleset_find(v);
    if (!rs) {
        char list[512] = "";
        for (int i = 0; i < cs_ruleset_count(); i++) {
            size_t used = strlen(list);
            snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "",
                     cs_ruleset_at(i)->name);
        }
        st = cs_error_set(err, CS_EINPUT, "%s: ruleset = '%s': expected one of: %s", at,
                          v, list);
    } else if (e->rs && e->rs != rs) {
        for (int i = 0; i < CS_MAX_PARAMS; i++)
            if (e->param[i].raw)
                st = cs_error_set(err, CS_EINPUT,
                                  "%s: ruleset = '%s': set the ruleset before its "
                                  "parameters",
                                  at, v);
        if (st == CS_OK)
            e->rs = rs;
    } else {
        e->rs = rs;
    }
    return st;
}

/* The numeric [experiment] keys (v is a trimmed copy the caller owns):
 * CS_OK, an error, or -1 when key is none of them. */
static int set_number_key(cs_experiment *e, const char *key, char *v, const char *value,
                          const char *at, cs_error *err)
{
    cs_status st = CS_OK;
    if (strcmp(key, "trials") == 0) {
        if (!parse_u64(v, &e->trials) || e->trials < 1 || e->trials > CS_EXPERIMENT_MAX_TRIALS)
            st = cs_error_set(err, CS_EINPUT,
                              "%s: trials = '%s': expected a whole number from 1 to 10^12",
                              at, v);
    } else if (strcmp(key, "seed") == 0) {
        if (!parse_u64(v, &e->seed))
            st = cs_error_set(err, CS_EINPUT,
                              "%s: seed = '%s': expected a whole number from 0 to 2^64-1", at,
                              v);
    } else if (strcmp(key, "method") == 0) {
        if (!cs_method_parse(v, &e->method))
            st = cs_error_set(err, CS_EINPUT,
                              "%s: method = '%s': expected auto, mc, conditional, exact or rqmc",
                              at, v);
    } else if (strcmp(key, "confidence") == 0) {
        if (!parse_double(v, &e->confidence) || !(e->confidence > 0.0) ||
            !(e->confidence < 1.0))
            st = cs_error_set(err, CS_EINPUT,
                              "%s: confidence = '%s': expected a number between 0 and 1 "
                              "(e.g. 0.95)",
                              at, v);
    } else if (strcmp(key, "precision") == 0) {
        size_t n = strlen(v);
        bool percent = n > 0 && v[n - 1] == '%';
        if (percent)
            v[n - 1] = '\0';
        if (!parse_double(v, &e->precision) || e->precision < 0.0 ||
            (percent ? e->precision >= 100.0 : e->precision >= 1.0))
            st = cs_error_set(err, CS_EINPUT,
                              "%s: precision = '%s': expected an interval half-width "
                              "such as 0.001 or 0.1%% (0 = off)",
                              at, value);
        else if (percent)
            e->precision /= 100.0;
    } else if (strcmp(key, "replicates") == 0) {
        uint64_t r;
        if (!parse_u64(v, &r) || r < 2 || r > CS_EXPERIMENT_MAX_REPLICATES)
            st = cs_error_set(err, CS_EINPUT,
                              "%s: replicates = '%s': expected a whole number from 2 to %u",
                              at, v, CS_EXPERIMENT_MAX_REPLICATES);
        else
            e->replicates = (unsigned)r;
    } else {
        return -1;
    }
    return (int)st;
}

cs_status cs_experiment_set(cs_experiment *e, const char *section, const char *key,
                            const char *value, const char *origin, int line, cs_error *err)
{
    char at[512];
    where(at, sizeof at, origin, line);
    if (strcmp(section, "experiment") == 0) {
        char *v = dup_trimmed(value, strlen(value));
        cs_status st = CS_OK;
        if (!v)
            return cs_error_set(err, CS_ENOMEM, "out of memory");
        if (strcmp(key, "name") == 0) {
            free(e->name);
            e->name = v;
            return CS_OK;
        } else if (strcmp(key, "description") == 0) {
            free(e->description);
            e->description = v;
            return CS_OK;
        } else if (strcmp(key, "ruleset") == 0) {
            st = set_ruleset(e, v, at, err);
        } else {
            int r = set_number_key(e, key, v, value, at, err);
            st = r >= 0 ? (cs_status)r
                        : cs_error_set(err, CS_EINPUT,
                                       "%s: [experiment] unknown key '%s'; expected one of: %s",
                                       at, key, experiment_keys);
        }
        free(v);
        return st;
    }
    if (strcmp(section, "params") == 0) {
        if (!e->rs)
            return cs_error_set(err, CS_EINPUT,
                                "%s: [params] %s: no ruleset chosen; set [experiment] ruleset "
                                "first",
                                at, key);
        int idx = cs_ruleset_param_index(e->rs, key);
        if (idx < 0) {
            char list[1024] = "";
            for (int i = 0; i < e->rs->n_params; i++) {
                size_t used = strlen(list);
                snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "",
                         e->rs->params[i].key);
            }
            return cs_error_set(err, CS_EINPUT,
                                "%s: [params] unknown key '%s' for ruleset %s; expected one of: %s",
                                at, key, e->rs->name, list);
        }
        return set_param(e, idx, value, origin, line, err);
    }
    if (strcmp(section, "labels") == 0) {
        int idx = e->rs ? cs_ruleset_param_index(e->rs, key) : -1;
        if (idx < 0)
            return cs_error_set(err, CS_EINPUT,
                                "%s: [labels] unknown key '%s'; a label list names the values "
                                "of one of the ruleset's swept [params] keys",
                                at, key);
        return set_labels(e, idx, value, origin, line, at, err);
    }
    return cs_error_set(err, CS_EINPUT,
                        "%s: unknown section [%s]; expected [experiment], [params] or [labels]", at,
                        section);
}

void cs_experiment_point_choices(const cs_experiment *e, uint64_t k, int *choice)
{
    uint64_t rest = k;
    memset(choice, 0, CS_MAX_PARAMS * sizeof *choice);
    for (int s = e->n_sweep - 1; s >= 0; s--) {
        const cs_value_spec *v = &e->param[e->sweep[s]];
        choice[e->sweep[s]] = (int)(rest % (uint64_t)v->n);
        rest /= (uint64_t)v->n;
    }
}

void cs_experiment_point(const cs_experiment *e, uint64_t k, cs_params *out)
{
    int choice[CS_MAX_PARAMS];
    cs_experiment_point_choices(e, k, choice);
    memset(out, 0, sizeof *out);
    for (int i = 0; i < e->rs->n_params; i++) {
        const cs_value_spec *v = &e->param[i];
        const cs_param_type t = e->rs->params[i].type;
        out->num[i] = v->num[choice[i]];
        out->drawn[i] = v->kind == CS_VAL_UNIFORM || v->kind == CS_VAL_NORMAL;
        if (t == CS_PARAM_DICE || t == CS_PARAM_TEXT || t == CS_PARAM_POLYGON)
            out->text[i] = v->text[choice[i]];
    }
}

void cs_experiment_point_label(const cs_experiment *e, uint64_t k, char *buf, int cap)
{
    int choice[CS_MAX_PARAMS];
    cs_experiment_point_choices(e, k, choice);
    buf[0] = '\0';
    for (int s = 0; s < e->n_sweep; s++) {
        int i = e->sweep[s];
        size_t used = strlen(buf);
        snprintf(buf + used, (size_t)cap - used, "%s%s=%s", s ? ", " : "", e->rs->params[i].key,
                 e->param[i].text[choice[i]]);
    }
}

cs_status cs_experiment_method(const cs_experiment *e, cs_method *out, cs_error *err)
{
    bool exact_ok = e->rs->outcome_probabilities != NULL;
    switch (e->method) {
    case CS_METHOD_AUTO:
        /* RQMC needs layouts made of drawn parameters (its point set's
         * dimensions); a layout random only through the ruleset's own
         * draws gains nothing from it (issue 21). */
        *out = !exact_ok               ? CS_METHOD_MC
               : !e->layout_random    ? CS_METHOD_EXACT
               : e->n_drawn >= 1 && e->n_drawn <= CS_QMC_MAX_DIM ? CS_METHOD_RQMC
                                      : CS_METHOD_CONDITIONAL;
        return CS_OK;
    case CS_METHOD_MC:
        *out = CS_METHOD_MC;
        return CS_OK;
    case CS_METHOD_CONDITIONAL:
    case CS_METHOD_EXACT:
    case CS_METHOD_RQMC:
        if (!exact_ok)
            return cs_error_set(err, CS_EINPUT,
                                "method %s: ruleset %s has no exact outcome probabilities; use "
                                "--method mc",
                                cs_method_name(e->method), e->rs->name);
        if (e->method == CS_METHOD_EXACT && e->layout_random)
            return cs_error_set(err, CS_EINPUT,
                                "method exact: the layout is drawn at random each trial; use "
                                "--method conditional (exact dice, sampled layouts) or mc");
#ifdef CS_NO_RQMC /* the web edition: no GSL, so no Sobol points (src/web/) */
        if (e->method == CS_METHOD_RQMC)
            return cs_error_set(err, CS_EINPUT,
                                "method rqmc: the web edition has no rqmc (GSL's Sobol points "
                                "have no WebAssembly build); use conditional here, or rqmc "
                                "with bin/chargesim");
#endif
        *out = e->method;
        return CS_OK;
    }
    return CS_OK;
}

cs_status cs_experiment_prepare(const cs_experiment *e, uint64_t k, const cs_params *p,
                                void *ctx, cs_error *err)
{
    cs_diag diag = {0};
    cs_status st = e->rs->prepare(p, ctx, &diag);
    if (st == CS_OK)
        return CS_OK;
    int idx = diag.key ? cs_ruleset_param_index(e->rs, diag.key) : -1;
    char label[512], kat[512];
    cs_experiment_point_label(e, k, label, sizeof label);
    if (idx >= 0)
        where(kat, sizeof kat, e->param[idx].origin, e->param[idx].line);
    else
        where(kat, sizeof kat, e->origin, 0);
    return cs_error_set(err, st, "%s: %s%s%s: %s%s%s%s", kat, diag.key ? diag.key : "",
                        idx >= 0 ? " = " : "", idx >= 0 ? e->param[idx].raw : "",
                        diag.what ? diag.what : "invalid parameters", label[0] ? " (at " : "",
                        label, label[0] ? ")" : "");
}

cs_status cs_experiment_finish(cs_experiment *e, cs_error *err)
{
    char at[512];
    /* cs_experiment_init cannot report its strdup failing: it shows here. */
    if (!e->origin)
        return cs_error_set(err, CS_ENOMEM, "out of memory");
    where(at, sizeof at, e->origin, 0);
    if (!e->rs)
        return cs_error_set(err, CS_EINPUT, "%s: no ruleset: add `ruleset = NAME` under [experiment]",
                            at);
    if (!e->name) {
        const char *base = strrchr(e->origin, '/');
        base = base ? base + 1 : e->origin;
        if (!(e->name = strdup(base)))
            return cs_error_set(err, CS_ENOMEM, "out of memory");
        char *dot = strrchr(e->name, '.');
        if (dot)
            *dot = '\0';
    }
    cs_status st;
    for (int i = 0; i < e->rs->n_params; i++) {
        if (e->param[i].raw)
            continue;
        /* Defaults are declared like user input, so one parser checks both. */
        if ((st = set_param(e, i, e->rs->params[i].def, "default", 0, err)) != CS_OK)
            return st;
        e->param[i].order = 1 << 30; /* never swept, but keep a stable order */
    }
    /* Sweep order: the order keys first appeared. */
    e->n_sweep = 0;
    e->n_drawn = 0;
    e->n_points = 1;
    for (int pass = 0; pass < e->next_order; pass++)
        for (int i = 0; i < e->rs->n_params; i++)
            if (e->param[i].order == pass && e->param[i].kind == CS_VAL_SWEEP) {
                e->sweep[e->n_sweep++] = i;
                if (e->n_points > UINT64_MAX / (uint64_t)e->param[i].n)
                    return cs_error_set(err, CS_ELIMIT, "%s: too many sweep points", at);
                e->n_points *= (uint64_t)e->param[i].n;
            }
    for (int i = 0; i < e->rs->n_params; i++)
        if (e->param[i].kind == CS_VAL_UNIFORM || e->param[i].kind == CS_VAL_NORMAL)
            e->n_drawn++;
    if (e->n_points > 1000000)
        return cs_error_set(err, CS_ELIMIT, "%s: %llu sweep points; at most 1000000", at,
                            (unsigned long long)e->n_points);
    if ((st = check_labels(e, err)) != CS_OK)
        return st;

    /* Every point is prepared once here, so an impossible combination is
     * reported before a run starts, with the key's file and line. */
    void *ctx = calloc(1, e->rs->ctx_size ? e->rs->ctx_size : 1);
    if (!ctx)
        return cs_error_set(err, CS_ENOMEM, "out of memory");
    e->layout_random = e->n_drawn > 0;
    for (uint64_t k = 0; k < e->n_points; k++) {
        cs_params p;
        cs_experiment_point(e, k, &p);
        if ((st = cs_experiment_prepare(e, k, &p, ctx, err)) != CS_OK) {
            free(ctx);
            return st;
        }
        if (e->rs->layout_is_random && e->rs->layout_is_random(ctx))
            e->layout_random = true;
    }
    free(ctx);
    cs_method m;
    if ((st = cs_experiment_method(e, &m, err)) != CS_OK)
        return st;
    e->finished = true;
    return CS_OK;
}
