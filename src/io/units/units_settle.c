/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Units, stage 3 of 5: map characteristics (see unitsrc.h for the stages).
 *
 * What stage 2 found for each characteristic a mapping names (the texts of
 * a unit's profiles and options in a catalogue, or a CSV row's cells) is
 * read in the characteristic's format, checked against its parameter and
 * settled into the unit's values; a unit is kept, or left out, with a note
 * naming what is missing, unreadable or contradictory. Both readers share
 * it, and the unit and note lists. Stage 4 (src/sim/runs/units.c) analyses the
 * units kept. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "chargesim/grow.h"
#include "chargesim/unitsrc.h"

/* Copies at most cap-1 bytes and says whether all of src fitted. */
static bool copy(char *dst, size_t cap, const char *src)
{
    int n = snprintf(dst, cap, "%s", src);
    return n >= 0 && (size_t)n < cap;
}

/* ---- the unit and note lists ------------------------------------------- */

static cs_status push_unit(cs_units *out, const cs_unit *u)
{
    cs_unit *q = cs_grow(out->unit, out->n, &out->cap, sizeof *q, 64);
    if (!q)
        return CS_ENOMEM;
    out->unit = q;
    out->unit[out->n++] = *u;
    return CS_OK;
}

/* Appends a note about u, placed at file:line. */
static cs_status add_note(cs_units *out, cs_unit_note_kind kind, cs_unit_problem problem,
                          const cs_unit *u, const char *file, int line, const char *what)
{
    cs_unit_note *q = cs_grow(out->note, out->n_notes, &out->cap_notes, sizeof *q, 64);
    if (!q)
        return CS_ENOMEM;
    out->note = q;
    cs_unit_note *n = &out->note[out->n_notes++];
    n->kind = kind;
    n->problem = problem;
    copy(n->name, sizeof n->name, u->name);
    copy(n->id, sizeof n->id, u->id);
    copy(n->file, sizeof n->file, file);
    n->line = line;
    copy(n->what, sizeof n->what, what);
    return CS_OK;
}

/* ---- reading a characteristic's text ----------------------------------- */

/* Reads a non-negative decimal number at *s, moving *s past it. */
static bool number(const char **s, double *v)
{
    const char *p = *s;
    if (!isdigit((unsigned char)*p) && !(*p == '.' && isdigit((unsigned char)p[1])))
        return false;
    char *end;
    errno = 0;
    double x = strtod(p, &end);
    if (errno != 0 || !isfinite(x))
        return false;
    *v = x;
    *s = end;
    return true;
}

static const char *skip_space(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

/* A distance: N or N" (the inch mark optional). */
static bool inches(const char **s, double *v)
{
    if (!number(s, v))
        return false;
    if (**s == '"')
        (*s)++;
    return true;
}

/* The case-insensitive word w at *s, moving past it. */
static bool word(const char **s, const char *w)
{
    size_t n = strlen(w);
    if (strncasecmp(*s, w, n) != 0)
        return false;
    *s += n;
    return true;
}

/* A distance in any of its written forms: `4"`, and a flier's ground and
 * fly rates, which T9A prints as `2" (9")` and at least one catalogue as
 * `Ground 2", Fly 9"`: the ground rate, or with `alternate` the fly rate. */
static bool read_forms(const char *s, double *first_out, double *second_out, bool *has)
{
    double first, second = 0.0;
    bool has_second = false;
    if (word(&s, "ground")) {
        s = skip_space(s);
        if (!inches(&s, &first))
            return false;
        s = skip_space(s);
        if (*s != ',')
            return false;
        s = skip_space(s + 1);
        if (!word(&s, "fly"))
            return false;
        s = skip_space(s);
        if (!inches(&s, &second))
            return false;
        has_second = true;
    } else {
        if (!inches(&s, &first))
            return false;
        s = skip_space(s);
        if (*s == '(') {
            s = skip_space(s + 1);
            if (!inches(&s, &second))
                return false;
            s = skip_space(s);
            if (*s != ')')
                return false;
            s++;
            has_second = true;
        }
    }
    if (*skip_space(s) != '\0')
        return false;
    *first_out = first;
    *second_out = second;
    *has = has_second;
    return true;
}

static bool read_inches(const char *s, bool alternate, double *num)
{
    double first, second;
    bool has_second;
    if (!read_forms(s, &first, &second, &has_second))
        return false;
    *num = alternate && has_second ? second : first;
    return true;
}

bool cs_units_alternate_text(const char *text, char *buf, size_t cap)
{
    double first, second;
    bool has_second;
    if (!read_forms(text, &first, &second, &has_second) || !has_second)
        return false;
    snprintf(buf, cap, "%.10g\"", second);
    return true;
}

/* A plain number, with `plus` one that may end in + (a D6 score: 3+). */
static bool read_number(const char *s, bool plus, double *num)
{
    double v;
    if (!number(&s, &v))
        return false;
    if (plus && *s == '+')
        s++;
    if (*skip_space(s) != '\0')
        return false;
    *num = v;
    return true;
}

bool cs_units_parse_value(const char *text, cs_units_format format, bool alternate, double *num,
                          bool *absent, const char **why)
{
    const char *s = skip_space(text);
    *absent = false;
    if (*s == '\0' || ((*s == '-' || *s == '*') && *skip_space(s + 1) == '\0')) {
        *absent = true;
        *why = "no value";
        return false;
    }
    switch (format) {
    case CS_UNITS_INCHES:
        if (read_inches(s, alternate, num))
            return true;
        break;
    case CS_UNITS_TARGET:
    case CS_UNITS_NUMBER:
        if (read_number(s, format == CS_UNITS_TARGET, num))
            return true;
        break;
    case CS_UNITS_TEXT_AS_IS: *num = 0.0; return true;
    }
    /* A dice speed (Briar Beast `3D6"`) is a roll, not a plain speed. */
    const char *t = skip_space(text);
    while (isdigit((unsigned char)*t))
        t++;
    if (format == CS_UNITS_INCHES && (*t == 'D' || *t == 'd') && isdigit((unsigned char)t[1])) {
        *why = "is a dice roll, not a plain speed (a distance: 4\" or 2\" (9\"))";
        return false;
    }
    *why = format == CS_UNITS_INCHES   ? "is not a distance (4\" or 2\" (9\"))"
           : format == CS_UNITS_TARGET ? "is not a D6 score (3+)"
                                       : "is not a number";
    return false;
}

/* ---- settling a unit --------------------------------------------------- */

static void note_part(char *note, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

void cs_units_found_add(cs_units_found *f, const char *text, const char *file, int line)
{
    char t[CS_UNITS_TEXT];
    const char *s = skip_space(text);
    copy(t, sizeof t, s);
    size_t n = strlen(t);
    while (n > 0 && isspace((unsigned char)t[n - 1]))
        t[--n] = '\0';
    const int kept = f->n < CS_UNITS_FOUND ? f->n : CS_UNITS_FOUND;
    for (int i = 0; i < kept; i++)
        if (strcmp(f->text[i], t) == 0)
            return;
    if (f->n < CS_UNITS_FOUND) {
        copy(f->text[f->n], sizeof f->text[f->n], t);
        f->file[f->n] = file;
        f->line[f->n] = line;
    }
    /* Past CS_UNITS_FOUND a repeat may count twice: still a conflict. */
    if (f->n <= CS_UNITS_FOUND)
        f->n++;
}

bool cs_units_found_has_digit(const cs_units_found *f)
{
    const int kept = f->n < CS_UNITS_FOUND ? f->n : CS_UNITS_FOUND;
    for (int i = 0; i < kept; i++)
        if (strpbrk(f->text[i], "0123456789"))
            return true;
    return false;
}

void cs_units_found_drop_words(cs_units_found *f)
{
    if (!cs_units_found_has_digit(f) || f->n > CS_UNITS_FOUND)
        return;
    int k = 0;
    for (int i = 0; i < f->n; i++)
        if (strpbrk(f->text[i], "0123456789")) {
            if (k != i) {
                memcpy(f->text[k], f->text[i], sizeof f->text[k]);
                f->file[k] = f->file[i];
                f->line[k] = f->line[i];
            }
            k++;
        }
    f->n = k;
}

/* The one text among several that holds a digit, when the others are words
 * (no digit: `Standard`, `-`); -1 when none or several hold one, or when
 * more texts were seen than kept. */
static int only_numeric(const cs_units_found *f)
{
    if (f->n < 2 || f->n > CS_UNITS_FOUND)
        return -1;
    int pick = -1;
    for (int i = 0; i < f->n; i++) {
        if (strpbrk(f->text[i], "0123456789") == NULL)
            continue;
        if (pick >= 0)
            return -1;
        pick = i;
    }
    return pick;
}

/* The warning for a unit whose characteristic gave words beside the one
 * value taken: every text with its file:line. */
static void word_warning(char *note, size_t cap, const char *label, const cs_units_found *f,
                         int pick, const char *own_file)
{
    note_part(note, cap, "%s given %s: `%s` (%s:%d) taken", label,
              f->n == 2 ? "twice" : "more than twice", f->text[pick],
              f->file[pick] ? f->file[pick] : own_file, f->line[pick]);
    for (int i = 0; i < f->n; i++)
        if (i != pick)
            note_part(note, cap, "`%s` (%s:%d) is a word, not a value, and is ignored",
                      f->text[i], f->file[i] ? f->file[i] : own_file, f->line[i]);
}

/* Where a text was found: `line N` in the unit's own file, else file:line. */
static void where(char *buf, size_t cap, const cs_units_found *f, int i, const char *own_file)
{
    if (!f->file[i] || strcmp(f->file[i], own_file) == 0)
        snprintf(buf, cap, "line %d", f->line[i]);
    else
        snprintf(buf, cap, "%s:%d", f->file[i], f->line[i]);
}

/* Appends to a note (NULL: only counts) the option texts holding a digit,
 * other than `skip`, each with where it is; returns how many. */
static int option_list(char *note, size_t cap, const cs_units_found *o, const char *skip,
                       const char *own_file)
{
    int listed = 0;
    const int kept = o->n < CS_UNITS_FOUND ? o->n : CS_UNITS_FOUND;
    for (int i = 0; i < kept; i++) {
        if (!strpbrk(o->text[i], "0123456789") || (skip && strcmp(o->text[i], skip) == 0))
            continue;
        if (note) {
            char w[CS_UNITS_PATH + 16];
            where(w, sizeof w, o, i, own_file);
            size_t len = strlen(note);
            snprintf(note + len, cap - len, "%s`%s` (%s)", listed ? ", " : "", o->text[i], w);
        }
        listed++;
    }
    if (note && o->n > CS_UNITS_FOUND)
        snprintf(note + strlen(note), cap - strlen(note), " and more");
    return listed;
}

/* A characteristic's number against its parameter: the range of REAL and
 * INT (whole for INT), 0/1 for BOOL, an index for CHOICE; DICE and TEXT
 * parameters take text (format = text). */
static bool in_range(const cs_param_def *d, double v, const char **why)
{
    switch (d->type) {
    case CS_PARAM_INT:
        if (v != floor(v)) {
            *why = "is not a whole number";
            return false;
        }
        /* fall through */
    case CS_PARAM_REAL:
        if (v < d->min || v > d->max) {
            *why = "is out of the parameter's range";
            return false;
        }
        return true;
    case CS_PARAM_BOOL:
        if (v != 0.0 && v != 1.0) {
            *why = "is not 0 or 1";
            return false;
        }
        return true;
    case CS_PARAM_CHOICE:
        for (int i = 0; d->choices[i]; i++)
            if (v == (double)i)
                return true;
        *why = "is not the index of one of the parameter's choices";
        return false;
    case CS_PARAM_DICE:
    case CS_PARAM_TEXT:
    case CS_PARAM_POLYGON: break;
    }
    *why = "is a number but the parameter takes text (map it with format = text)";
    return false;
}

/* Formats one part of a note; long file names are cut rather than refused. */
static void set_part(char *part, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(part, cap, fmt, ap);
    va_end(ap);
}

/* Appends "; " and a formatted part to a note being built. */
static void note_part(char *note, size_t cap, const char *fmt, ...)
{
    size_t len = strlen(note);
    if (len > 0 && len + 2 < cap) {
        memcpy(note + len, "; ", 3);
        len += 2;
    }
    if (len + 1 >= cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(note + len, cap - len, fmt, ap);
    va_end(ap);
}

/* One characteristic's found texts for u: stores its value in u (*ok) or
 * describes the problem in part (problem, file, line). The CSV's unreadable
 * value is an error (CS_EINPUT) instead. */
typedef struct verdict {
    bool ok;
    cs_unit_problem problem;
    const char *file;
    int line;
    char part[CS_UNITS_NOTE];
} verdict;

static cs_status settle_one(cs_unit *u, int i, const cs_units_found *f, bool csv, verdict *v,
                            cs_error *err)
{
    const cs_units_mapping *m = u->map;
    const cs_units_char *c = &m->chars[i];
    const cs_param_def *d = &m->rs->params[m->char_param[i]];
    const char *label = csv ? c->param : c->name;
    double num = 0.0;
    bool absent = false;
    const char *why = NULL;
    v->ok = false;
    v->line = f->n > 0 ? f->line[0] : u->line;
    v->file = f->n > 0 && f->file[0] ? f->file[0] : u->file;
    if (f->n == 0) {
        v->problem = CS_UNIT_MISSING;
        set_part(v->part, sizeof v->part, "lacks %s", label);
    } else if (f->n > 1) {
        v->problem = CS_UNIT_CONFLICT;
        set_part(v->part, sizeof v->part, "%s given %s: `%s` (%s:%d) and `%s` (%s:%d)", label,
                 f->n == 2 ? "twice" : "more than twice", f->text[0],
                 f->file[0] ? f->file[0] : u->file, f->line[0], f->text[1],
                 f->file[1] ? f->file[1] : u->file, f->line[1]);
    } else if (!cs_units_parse_value(f->text[0], c->format, c->alternate, &num, &absent, &why) ||
               (c->format != CS_UNITS_TEXT_AS_IS && !in_range(d, num, &why))) {
        v->problem = absent ? CS_UNIT_MISSING : CS_UNIT_INVALID;
        if (absent)
            set_part(v->part, sizeof v->part, "lacks %s (`%s`)", label, f->text[0]);
        else
            set_part(v->part, sizeof v->part, "%s `%s` %s", label, f->text[0], why);
        if (csv && !absent)
            return cs_error_set(err, CS_EINPUT, "%s:%d: column `%s`: `%s` %s", v->file, v->line,
                                label, f->text[0], why);
    } else {
        if (u->n_values == CS_UNITS_MAX_VALUES)
            return cs_error_set(err, CS_ELIMIT, "%s:%d: unit `%s` carries more than %d values",
                                u->file, u->line, u->name, CS_UNITS_MAX_VALUES);
        cs_unit_value *uv = &u->value[u->n_values++];
        uv->param = m->char_param[i];
        /* Text values go to the experiment model as written (it checks
         * them); numbers in the plain form it reads. */
        if (c->format == CS_UNITS_TEXT_AS_IS)
            copy(uv->text, sizeof uv->text, f->text[0]);
        else
            snprintf(uv->text, sizeof uv->text, "%.10g", num);
        copy(uv->raw, sizeof uv->raw, f->text[0]);
        v->ok = true;
    }
    return CS_OK;
}

void cs_units_note_text(const cs_unit_note *n, char *buf, size_t cap)
{
    /* A roster's JSON form has no lines: its notes name the file. */
    char where[CS_UNITS_PATH + 16];
    snprintf(where, sizeof where, n->line > 0 ? "%s:%d" : "%s", n->file, n->line);
    if (n->kind == CS_UNIT_OPTION)
        snprintf(buf, cap, "%s: option `%s`: %s", where, n->name, n->what);
    else
        snprintf(buf, cap, "%s: unit `%s` %s: %s", where, n->name,
                 n->kind == CS_UNIT_SKIPPED      ? "left out"
                 : n->kind == CS_UNIT_INCOMPLETE ? "kept without metrics"
                 : n->kind == CS_UNIT_WARNED     ? "kept, warning"
                                                 : "kept, note",
                 n->what);
}

void cs_units_notes_count(const cs_units *u, char *buf, size_t cap)
{
    int count[CS_UNIT_OPTION + 1] = {0};
    for (int i = 0; i < u->n_notes; i++)
        count[u->note[i].kind]++;
    size_t len = 0;
    int n = snprintf(buf, cap, "%d units in the table, %d left out, %d without metrics", u->n,
                     count[CS_UNIT_SKIPPED], count[CS_UNIT_INCOMPLETE]);
    len = n < 0 ? 0 : (size_t)n;
    if (count[CS_UNIT_WARNED] > 0 && len < cap)
        len += (size_t)snprintf(buf + len, cap - len, ", %d with a warning",
                                count[CS_UNIT_WARNED]);
    if (count[CS_UNIT_NOTED] > 0 && len < cap)
        len += (size_t)snprintf(buf + len, cap - len, ", %d with a note", count[CS_UNIT_NOTED]);
    if (count[CS_UNIT_OPTION] > 0 && len < cap)
        snprintf(buf + len, cap - len, ", %d option%s noted", count[CS_UNIT_OPTION],
                 count[CS_UNIT_OPTION] == 1 ? "" : "s");
}

cs_status cs_units_note_option(cs_units *out, const char *name, const char *file, int line,
                               const char *what)
{
    for (int i = 0; i < out->n_notes; i++)
        if (out->note[i].kind == CS_UNIT_OPTION && out->note[i].line == line &&
            strcmp(out->note[i].file, file) == 0)
            return CS_OK;
    cs_unit_note *q = cs_grow(out->note, out->n_notes, &out->cap_notes, sizeof *q, 64);
    if (!q)
        return CS_ENOMEM;
    out->note = q;
    cs_unit_note *n = &out->note[out->n_notes++];
    *n = (cs_unit_note){.kind = CS_UNIT_OPTION, .problem = CS_UNIT_MISSING, .line = line};
    copy(n->name, sizeof n->name, name);
    copy(n->file, sizeof n->file, file);
    copy(n->what, sizeof n->what, what);
    return CS_OK;
}

/* A note being gathered: its parts, and where its first part points. */
typedef struct pending {
    char what[CS_UNITS_NOTE];
    cs_unit_problem problem;
    const char *file;
    int line;
} pending;

static void pending_add(pending *p, const verdict *v)
{
    if (p->what[0] == '\0') {
        p->problem = v->problem;
        p->file = v->file;
        p->line = v->line;
    }
    note_part(p->what, sizeof p->what, "%s", v->part);
}

/* Places a warning note at file:line, unless an earlier part placed it. */
static void warn_at(pending *w, cs_unit_problem problem, const char *file, int line)
{
    if (w->what[0] != '\0')
        return;
    w->problem = problem;
    w->file = file;
    w->line = line;
}

/* The one text to settle for characteristic `label` of u (*one when one
 * of several is taken, with a warning), or NULL when the unit's options give
 * several values and its own profiles none (*refused says so). */
static const cs_units_found *pick_text(const cs_unit *u, const char *label,
                                       const cs_units_found *f, pending *warned,
                                       verdict *refused, cs_units_found *one)
{
    const cs_units_found *o = f->options;
    /* Own profiles without it: one value its options (a mount, an upgrade)
     * give is the unit's; several are the list-builder's choice, not ours. */
    const bool from_options = f->n == 0 && o && option_list(NULL, 0, o, NULL, u->file) > 0;
    if (from_options)
        f = o;
    const int pick = from_options && f->n == 1 ? 0 : only_numeric(f);
    if (from_options && pick < 0) {
        *refused = (verdict){.problem = CS_UNIT_CONFLICT, .file = u->file, .line = u->line};
        set_part(refused->part, sizeof refused->part,
                 "lacks %s in its own profiles, and its options give several: ", label);
        option_list(refused->part, sizeof refused->part, o, NULL, u->file);
        return NULL;
    }
    if (pick < 0)
        return f;
    if (from_options) {
        /* Placed at the unit; the note names the value's line. */
        char w[CS_UNITS_PATH + 16];
        where(w, sizeof w, f, pick, u->file);
        warn_at(warned, CS_UNIT_MISSING, u->file, u->line);
        note_part(warned->what, sizeof warned->what,
                  "%s is in no profile of the unit itself: `%s` (%s), the one value its "
                  "options (mounts, upgrades) give, is taken",
                  label, f->text[pick], w);
    } else {
        /* Words beside one value: take it, and say so. */
        warn_at(warned, CS_UNIT_CONFLICT, f->file[pick] ? f->file[pick] : u->file,
                f->line[pick]);
        word_warning(warned->what, sizeof warned->what, label, f, pick, u->file);
    }
    *one = (cs_units_found){.n = 1, .file = {f->file[pick]}, .line = {f->line[pick]}};
    copy(one->text[0], sizeof one->text[0], f->text[pick]);
    return one;
}

/* A character's own (on foot) value is its row; its mounts' are named. */
static void other_values(const cs_unit *u, const char *label, const cs_units_found *o,
                         pending *warned)
{
    const char *own = u->value[u->n_values - 1].raw;
    char others[CS_UNITS_NOTE] = "";
    if (!o || option_list(others, sizeof others, o, own, u->file) == 0)
        return;
    warn_at(warned, CS_UNIT_CONFLICT, u->file, u->line);
    note_part(warned->what, sizeof warned->what,
              "%s `%s` is the unit's own (on foot); its options give other values, not in the "
              "table: %s",
              label, own, others);
}

/* The value parameter k has for unit u, as the analysis will read it: the
 * unit's own, else --set, the mapping's fixed value, the ruleset's default;
 * *origin says which. */
static const char *value_for(const cs_units *out, const cs_unit *u, int k, const char **origin)
{
    const cs_units_mapping *m = u->map;
    const char *key = m->rs->params[k].key;
    for (int j = 0; j < u->n_values; j++)
        if (u->value[j].param == k) {
            *origin = "the unit's own";
            return u->value[j].text;
        }
    for (int j = out->sets ? out->sets->n - 1 : -1; j >= 0; j--)
        if (strcmp(out->sets->key[j], key) == 0) {
            *origin = "--set";
            return out->sets->val[j];
        }
    for (int j = 0; j < m->n_fixed; j++)
        if (m->fixed_param[j] == k) {
            *origin = "the mapping's";
            return m->fixed_val[j];
        }
    *origin = "the ruleset's default";
    return m->rs->params[k].def;
}

/* Characteristic i's `when` for u: true when it applies. A value given
 * where it does not is an error in a CSV (its user wrote a number the
 * table would ignore) and a warning for a catalogue. */
static cs_status applies(const cs_units *out, const cs_unit *u, int i, const cs_units_found *f,
                         bool csv, pending *warned, bool *yes, cs_error *err)
{
    const cs_units_mapping *m = u->map;
    const cs_units_char *c = &m->chars[i];
    *yes = true;
    if (m->when_param[i] < 0)
        return CS_OK;
    const char *origin, *v = value_for(out, u, m->when_param[i], &origin);
    *yes = cs_units_same_value(v, c->when_value);
    if (*yes || f->n == 0)
        return CS_OK;
    const char *label = csv ? c->param : c->name;
    const char *file = f->file[0] ? f->file[0] : u->file;
    if (csv)
        return cs_error_set(err, CS_EINPUT,
                            "%s:%d: column `%s` applies only when %s = %s; here %s = %s (%s)",
                            file, f->line[0], label, c->when_param, c->when_value, c->when_param,
                            v, origin);
    warn_at(warned, CS_UNIT_INVALID, file, f->line[0]);
    note_part(warned->what, sizeof warned->what,
              "%s `%s` is not used: it applies only when %s = %s, and %s = %s (%s)", label,
              f->text[0], c->when_param, c->when_value, c->when_param, v, origin);
    return CS_OK;
}

/* One value a rule gives the unit. Two rules giving one parameter add up,
 * as The Old World's modifiers do: dice joined with '+' (roll_bonus 1 and
 * 1d3: 1+1d3), numbers summed (range_bonus); any other kind keeps the
 * first value, and the note says so. */
static cs_status rule_value(cs_unit *u, const cs_units_rule *rule, int k, const char *value,
                            pending *noted, cs_error *err)
{
    const cs_param_def *d = &u->map->rs->params[k];
    for (int j = 0; j < u->n_values; j++) {
        cs_unit_value *uv = &u->value[j];
        if (uv->param != k)
            continue;
        char sum[2 * CS_UNITS_TEXT + 2];
        if (d->type == CS_PARAM_DICE) {
            snprintf(sum, sizeof sum, "%s+%s", uv->text, value);
        } else if (d->type == CS_PARAM_REAL || d->type == CS_PARAM_INT) {
            snprintf(sum, sizeof sum, "%g", atof(uv->text) + atof(value));
        } else {
            warn_at(noted, CS_UNIT_MISSING, u->file, u->line);
            note_part(noted->what, sizeof noted->what, "%s and %s both set %s: %s kept",
                      uv->raw, rule->name, d->key, uv->text);
            return CS_OK;
        }
        size_t n = strlen(sum);
        if (n >= sizeof uv->text)
            return cs_error_set(err, CS_ELIMIT, "%s:%d: unit `%s`: %s summed is too long",
                                u->file, u->line, u->name, d->key);
        memcpy(uv->text, sum, n + 1);
        return CS_OK;
    }
    if (u->n_values == CS_UNITS_MAX_VALUES)
        return cs_error_set(err, CS_ELIMIT, "%s:%d: unit `%s` carries more than %d values",
                            u->file, u->line, u->name, CS_UNITS_MAX_VALUES);
    cs_unit_value *uv = &u->value[u->n_values++];
    uv->param = k;
    copy(uv->text, sizeof uv->text, value);
    copy(uv->raw, sizeof uv->raw, rule->name);
    return CS_OK;
}

/* The mapping's rules the unit has: their values join the unit's, their
 * notes are gathered in `noted`. */
static cs_status rule_values(cs_unit *u, pending *noted, cs_error *err)
{
    const cs_units_mapping *m = u->map;
    for (int r = 0; r < m->n_rules; r++) {
        const cs_units_rule *rule = &m->rules[r];
        const bool has = u->rules & (1u << r);
        if (!has && !(rule->otherwise[0] && m->rule_param[r] >= 0))
            continue;
        if (has && rule->note[0] && !rule->no_declare) { /* noted first: type_and_declare */
            warn_at(noted, CS_UNIT_MISSING, u->file, u->line);
            note_part(noted->what, sizeof noted->what, "%s", rule->note);
        }
        if (m->rule_param[r] < 0)
            continue;
        char param[CS_UNITS_TEXT], value[CS_UNITS_TEXT];
        for (int i = 0; cs_units_rule_item(rule, i, !has, param, sizeof param, value,
                                           sizeof value); i++) {
            cs_status st = rule_value(u, rule, cs_ruleset_param_index(m->rs, param), value,
                                      noted, err);
            if (st != CS_OK)
                return st;
        }
    }
    return CS_OK;
}

/* Writes each run of words of `type` that equals one of `names` (comma
 * separated), case aside, as `names` spells it, the longest first: the
 * data's "War machine" is the table's "War Machine", "Regular infantry
 * (character)" its "Regular Infantry (character)". A run starts and ends
 * at a non-letter, so "War Beast" is not respelled inside "War beasts". */
static void respell_type(const char *names, char *type)
{
    for (char *at = type; *at; at++) {
        if (at > type && isalpha((unsigned char)at[-1]))
            continue;
        const char *best = NULL;
        size_t best_n = 0;
        for (const char *a = names; *a;) {
            while (*a == ' ' || *a == ',')
                a++;
            const char *b = a;
            while (*b && *b != ',')
                b++;
            size_t n = (size_t)(b - a);
            while (n > 0 && a[n - 1] == ' ')
                n--;
            if (n > best_n && strncasecmp(at, a, n) == 0 && !isalpha((unsigned char)at[n])) {
                best = a;
                best_n = n;
            }
            a = b;
        }
        if (best)
            memcpy(at, best, best_n);
    }
}

/* The mapping's [type NAME] of u (case aside) and the rules of u that
 * forbid a charge: sets u->no_declare and gathers their notes in `noted`.
 * The index of the type that leaves u out (omit), else -1. */
static int type_and_declare(cs_unit *u, pending *noted)
{
    const cs_units_mapping *m = u->map;
    u->no_declare = false;
    for (int i = 0; i < m->n_types; i++) {
        if (!u->type[0] || strcasecmp(u->type, m->type_name[i]) != 0)
            continue;
        if (m->type_omit[i])
            return i;
        warn_at(noted, CS_UNIT_TYPED, u->file, u->line);
        note_part(noted->what, sizeof noted->what, "%s", m->type_text[i]);
        u->no_declare = u->no_declare || m->type_no_declare[i];
    }
    for (int r = 0; r < m->n_rules; r++)
        if ((u->rules & (1u << r)) && m->rules[r].no_declare) {
            u->no_declare = true;
            warn_at(noted, CS_UNIT_MISSING, u->file, u->line);
            note_part(noted->what, sizeof noted->what, "%s", m->rules[r].note);
        }
    return -1;
}

/* The notes of a unit kept, in the order skipped < incomplete < warned < noted. */
static cs_status kept_notes(cs_units *out, const cs_unit *u, const pending *incomplete,
                            const pending *warned, const pending *noted)
{
    cs_status st = CS_OK;
    if (incomplete->what[0] != '\0')
        st = add_note(out, CS_UNIT_INCOMPLETE, incomplete->problem, u, incomplete->file,
                      incomplete->line, incomplete->what);
    if (st == CS_OK && warned->what[0] != '\0')
        st = add_note(out, CS_UNIT_WARNED, warned->problem, u, warned->file, warned->line,
                      warned->what);
    if (st == CS_OK && noted->what[0] != '\0')
        st = add_note(out, CS_UNIT_NOTED, noted->problem, u, noted->file, noted->line,
                      noted->what);
    return st;
}

cs_status cs_units_settle(cs_units *out, cs_unit *u, const cs_units_found *found, bool csv,
                          bool *kept, cs_error *err)
{
    const cs_units_mapping *m = u->map;
    pending skipped = {.file = u->file}, incomplete = {.file = u->file},
            warned = {.file = u->file}, noted = {.file = u->file};
    u->complete = true;
    *kept = false;
    respell_type(m->type_names, u->type);
    int omit = type_and_declare(u, &noted);
    if (omit >= 0)
        return add_note(out, CS_UNIT_SKIPPED, CS_UNIT_OMITTED, u, u->file, u->line,
                        m->type_text[omit]);
    for (int i = 0; i < m->n_chars; i++) {
        const char *label = csv ? m->chars[i].param : m->chars[i].name;
        bool yes;
        cs_status st = applies(out, u, i, &found[i], csv, &warned, &yes, err);
        if (st != CS_OK)
            return st;
        if (!yes)
            continue;
        cs_units_found one;
        verdict v;
        const cs_units_found *f = pick_text(u, label, &found[i], &warned, &v, &one);
        if (f) {
            st = settle_one(u, i, f, csv, &v, err);
            if (st != CS_OK)
                return st;
            if (v.ok && found[i].n > 0)
                other_values(u, label, found[i].options, &warned);
            if (v.ok)
                continue;
        }
        /* A unit that cannot declare a charge keeps its row whatever its
         * speed: the value is never used, and the note says why it is
         * empty. */
        size_t len = strlen(v.part);
        if (u->no_declare)
            snprintf(v.part + len, sizeof v.part - len, ": not needed, as it cannot declare a "
                                                        "charge");
        pending_add(u->no_declare           ? &noted
                    : m->chars[i].required ? &skipped
                                           : &incomplete,
                    &v);
        u->complete = false;
    }
    /* A unit left out is named for what it lacks among the required
     * values; its optional ones no longer matter. */
    if (skipped.what[0] != '\0')
        return add_note(out, CS_UNIT_SKIPPED, skipped.problem, u, skipped.file, skipped.line,
                        skipped.what);
    /* A catalogue unit whose costs are all 0 has no points of its own
     * (ASOIAF's Grey Wind and Summer come with Robb and Bran Stark): its
     * points are unknown, never 0, which would read as the best buy. */
    if (!csv && u->has_points && u->points == 0.0) {
        u->has_points = false;
        warn_at(&noted, CS_UNIT_MISSING, u->file, u->line);
        note_part(noted.what, sizeof noted.what,
                  "points unknown: its costs in the catalogue are 0 (it comes with another "
                  "unit, or its cost is not in the data)");
    }
    if (u->note[0]) {
        warn_at(&noted, CS_UNIT_MISSING, u->file, u->line);
        note_part(noted.what, sizeof noted.what, "%s", u->note);
    }
    cs_status st = rule_values(u, &noted, err);
    if (st == CS_OK)
        st = kept_notes(out, u, &incomplete, &warned, &noted);
    if (st != CS_OK)
        return st;
    *kept = true;
    return push_unit(out, u);
}
