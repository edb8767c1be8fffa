/* SPDX-License-Identifier: GPL-3.0-or-later */
/* An experiment's value syntax (experiment.h): fixed values, sweeps
 * a..b:step and lists a,b,c, draws uniform(a,b) and normal(m,s), each
 * checked against its parameter's definition. Split from experiment.c,
 * which applies the values; see experiment_internal.h. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/dice.h"
#include "chargesim/parse.h"
#include "chargesim/poly_parse.h"
#include "experiment_internal.h"

#define MAX_SWEEP_VALUES CS_EXPERIMENT_MAX_SWEEP

char *cs_experiment_trimmed(const char *s, size_t len)
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

bool cs_experiment_parse_double(const char *s, double *out)
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

/* Checks one element of a parameter's value and gives its numeric form. */
static cs_status parse_element(const cs_param_def *def, const char *text, double *num,
                               const char *at, cs_error *err)
{
    switch (def->type) {
    case CS_PARAM_REAL:
    case CS_PARAM_INT:
        if (!cs_experiment_parse_double(text, num))
            return cs_error_set_at(
                err, CS_EINPUT, at, "%s = '%s': expected a number%s", def->key, text,
                (def->flags & CS_PF_LAYOUT)
                    ? ", a sweep (a..b, a..b:step, a,b,c) or uniform(a,b) / normal(m,s)"
                    : " or a sweep (a..b, a..b:step, a,b,c)");
        if (def->type == CS_PARAM_INT && *num != floor(*num))
            return cs_error_set_at(err, CS_EINPUT, at, "%s = '%s': expected a whole number",
                                   def->key, text);
        if (*num < def->min || *num > def->max)
            return cs_error_set_at(err, CS_EINPUT, at, "%s = '%s': expected a value from %g to %g",
                                   def->key, text, def->min, def->max);
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
        return cs_error_set_at(err, CS_EINPUT, at, "%s = '%s': expected true or false", def->key,
                               text);
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
        return cs_error_set_at(err, CS_EINPUT, at, "%s = '%s': expected one of: %s", def->key, text,
                               list);
    }
    case CS_PARAM_DICE: {
        cs_dice d;
        cs_diag diag = {0};
        *num = 0.0;
        if (text[0] == '\0')
            return CS_OK; /* empty: the ruleset's own default dice */
        if (cs_dice_parse(text, &d, &diag) != CS_OK)
            return cs_error_set_at(err, CS_EINPUT, at, "%s = '%s': column %d: %s", def->key, text,
                                   diag.column, diag.what ? diag.what : "invalid dice");
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
            return cs_error_set_at(err, CS_EINPUT, at, "%s = '%s': column %d: %s", def->key, text,
                                   diag.column, diag.what ? diag.what : "invalid polygon");
        return CS_OK;
    }
    }
    return CS_OK;
}

/* Appends one value; `at` and `def` name the key in a refusal. */
static cs_status add_value(cs_value_spec *v, const char *text, double num,
                           const cs_param_def *def, const char *at, cs_error *err)
{
    if (v->n >= MAX_SWEEP_VALUES)
        return cs_error_set_at(err, CS_ELIMIT, at,
                               "%s: more than %d values; a sweep may have at most %d (split "
                               "it into several runs)",
                               def->key, MAX_SWEEP_VALUES, MAX_SWEEP_VALUES);
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

/* Formats a value the way a user would write it: 1, 1.5, 0.25. */
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
    return cs_experiment_parse_double(left, a) && cs_experiment_parse_double(right, b);
}

/* uniform(a,b) or normal(m,s): drawn per trial, checked against the
 * parameter's range; its centre stands as the point's value. */
static cs_status parse_draw_value(const cs_param_def *def, const char *ruleset, const char *raw,
                                  cs_value_spec *v, const char *at, cs_error *err)
{
    bool uni = raw[0] == 'u';
    if (!(def->flags & CS_PF_LAYOUT))
        return cs_error_set_at(err, CS_EINPUT, at,
                               "%s = '%s': only layout parameters can be drawn per trial; "
                               "%s is not one (see `chargesim rules %s`)",
                               def->key, raw, def->key, ruleset);
    if (!parse_draw(raw, uni ? "uniform" : "normal", &v->a, &v->b))
        return cs_error_set_at(err, CS_EINPUT, at, "%s = '%s': expected %s", def->key, raw,
                               uni ? "uniform(a,b) with numbers a < b"
                                   : "normal(mean,sd) with numbers, sd >= 0");
    if (uni ? !(v->a < v->b) : !(v->b >= 0.0))
        return cs_error_set_at(err, CS_EINPUT, at, "%s = '%s': expected %s", def->key, raw,
                               uni ? "a < b in uniform(a,b)" : "sd >= 0 in normal(mean,sd)");
    if (uni && (v->a < def->min || v->b > def->max))
        return cs_error_set_at(err, CS_EINPUT, at, "%s = '%s': the range must lie within %g to %g",
                               def->key, raw, def->min, def->max);
    /* A normal draw is clamped to [min, max]: its mean must lie there and
     * its spread must not exceed the range, or most draws would be the
     * clamp's edges rather than the distribution the user wrote. */
    if (!uni && (v->a < def->min || v->a > def->max || v->b > def->max - def->min))
        return cs_error_set_at(err, CS_EINPUT, at,
                               "%s = '%s': the mean must lie within %g to %g and the sd be "
                               "at most %g",
                               def->key, raw, def->min, def->max, def->max - def->min);
    v->kind = uni ? CS_VAL_UNIFORM : CS_VAL_NORMAL;
    char centre[64];
    format_number(centre, sizeof centre, uni ? 0.5 * (v->a + v->b) : v->a);
    return add_value(v, centre, uni ? 0.5 * (v->a + v->b) : v->a, def, at, err);
}

/* a..b or a..b:step: the values a + i*step, the last of them b. */
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
        return cs_error_set_at(err, CS_EINPUT, at, "%s: value too long", def->key);
    memcpy(left, raw, la);
    left[la] = '\0';
    memcpy(right, dots + 2, lb);
    right[lb] = '\0';
    if (!cs_experiment_parse_double(left, &a) || !cs_experiment_parse_double(right, &b) ||
        (colon && !cs_experiment_parse_double(colon + 1, &step)))
        return cs_error_set_at(err, CS_EINPUT, at,
                               "%s = '%s': expected a sweep a..b or a..b:step with numbers",
                               def->key, raw);
    if (!(step > 0.0) || b < a)
        return cs_error_set_at(err, CS_EINPUT, at,
                               "%s = '%s': a sweep a..b:step needs a <= b and step > 0", def->key,
                               raw);
    /* Values a + i*step while within b (to a billionth of a step). */
    double last = floor((b - a) / step + 1e-9);
    if (last >= MAX_SWEEP_VALUES)
        return cs_error_set_at(err, CS_ELIMIT, at,
                               "%s = '%s': %.0f values; a sweep may have at most %d (split it "
                               "into several runs, or take a larger step)",
                               def->key, raw, last + 1.0, MAX_SWEEP_VALUES);
    /* A step that passes b would drop b unsaid: refused, naming the end
     * the sweep would have. */
    double end = a + last * step;
    if (b - end > 1e-9 * step) {
        char e_txt[64];
        format_number(e_txt, sizeof e_txt, end);
        return cs_error_set_at(err, CS_EINPUT, at,
                               "%s = '%s': the step does not land on %s (the last value "
                               "would be %s); end the sweep at %s, or take a step that divides "
                               "%s - %s",
                               def->key, raw, right, e_txt, e_txt, right, left);
    }
    /* Each value's text has the places a and step are written with, so
     * values a step apart never print alike (parse.h). */
    int places = cs_parse_decimals(left), sp = colon ? cs_parse_decimals(colon + 1) : 0;
    places = places < 0 || sp < 0 ? -1 : places > sp ? places : sp;
    v->kind = CS_VAL_SWEEP;
    /* Values a + i*step, computed from i to avoid accumulating error. */
    for (long i = 0; i <= (long)last; i++) {
        double x = a + (double)i * step;
        x = x > b ? b : x; /* never past b */
        char buf[64];
        cs_parse_format_value(buf, sizeof buf, x, places);
        if (v->n > 0 && (x == v->num[v->n - 1] || strcmp(buf, v->text[v->n - 1]) == 0))
            return cs_error_set_at(err, CS_EINPUT, at,
                                   "%s = '%s': the step is too small for a number near %s "
                                   "to change; take a larger one",
                                   def->key, raw, buf);
        if ((st = parse_element(def, buf, &num, at, err)) != CS_OK)
            return st;
        /* The value is a + i*step itself, not its text read back
         * (issue 18.3); the text is what tables show. */
        if (def->type == CS_PARAM_REAL)
            num = x;
        if ((st = add_value(v, buf, num, def, at, err)) != CS_OK)
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
        char *item = cs_experiment_trimmed(s, len);
        if (!item)
            return cs_error_set(err, CS_ENOMEM, "out of memory");
        if (item[0] == '\0') {
            free(item);
            return cs_error_set_at(err, CS_EINPUT, at, "%s = '%s': empty element in a list",
                                   def->key, raw);
        }
        st = parse_element(def, item, &num, at, err);
        if (st == CS_OK)
            st = add_value(v, item, num, def, at, err);
        free(item);
        if (st != CS_OK)
            return st;
        if (!c)
            break;
        s = c + 1;
    }
    return CS_OK;
}

cs_status cs_experiment_parse_value(const cs_param_def *def, const char *ruleset, const char *raw,
                                    cs_value_spec *v, const char *at, cs_error *err)
{
    cs_status st;
    double num;
    bool numeric = def->type == CS_PARAM_REAL || def->type == CS_PARAM_INT;

    if (def->type == CS_PARAM_TEXT || def->type == CS_PARAM_POLYGON) {
        v->kind = CS_VAL_FIXED; /* taken whole: its commas are no sweep */
        st = parse_element(def, raw, &num, at, err);
        return st != CS_OK ? st : add_value(v, raw, 0.0, def, at, err);
    }
    if (strncmp(raw, "uniform(", 8) == 0 || strncmp(raw, "normal(", 7) == 0)
        return parse_draw_value(def, ruleset, raw, v, at, err);
    const char *dots = strstr(raw, "..");
    if (numeric && dots)
        return parse_range(def, raw, dots, v, at, err);
    if (strchr(raw, ','))
        return parse_list(def, raw, v, at, err);
    v->kind = CS_VAL_FIXED;
    if ((st = parse_element(def, raw, &num, at, err)) != CS_OK)
        return st;
    return add_value(v, raw, num, def, at, err);
}

