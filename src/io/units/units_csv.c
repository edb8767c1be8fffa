/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Units, stages 1 and 2 for a units CSV (see unitsrc.h for the stages):
 * the file read with libcsv in strict mode (columns: see unitsrc.h), each
 * row an entry whose cells are its characteristics, handed to stage 3
 * (units_settle.c, cs_units_settle).
 *
 * The file is fed to libcsv one physical line at a time, so when a row ends
 * the reader knows the line it ended on: that is the line every message
 * names (a quoted cell spanning lines is named by its last line). */
#include <csv.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/infile.h"
#include "chargesim/sha256.h"
#include "chargesim/unitsrc.h"

#define MAX_COLUMNS 64

enum { COL_NAME = -1, COL_RULESET = -2, COL_POINTS = -3, COL_BASE = -4, COL_PARAM = 0 };

typedef struct state {
    const char *path;
    char catalogue[CS_UNITS_NAME];
    cs_units_mapping *maps;
    int n_maps;
    const char *rules;
    cs_units *out;
    cs_error *err;
    cs_status st; /* the first failure; later rows are ignored */
    int line;     /* the physical line being fed */
    int rows;     /* rows seen, the header included */
    int n_cols;
    char col[MAX_COLUMNS][CS_UNITS_TEXT];
    int kind[MAX_COLUMNS]; /* COL_* */
    int n_fields;          /* of the row being read */
    char *field[MAX_COLUMNS];
} state;

static cs_status fail(state *s, cs_status st, const char *fmt, ...)
{
    if (s->st == CS_OK) {
        char msg[sizeof s->err->msg];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        cs_error_set(s->err, st, "%s:%d: %s", s->path, s->line, msg);
        s->st = st;
    }
    return st;
}

static void on_field(void *data, size_t len, void *vs)
{
    state *s = vs;
    if (s->st != CS_OK)
        return;
    if (s->n_fields == MAX_COLUMNS) {
        fail(s, CS_ELIMIT, "more than %d columns", MAX_COLUMNS);
        return;
    }
    /* A NUL byte would end the cell's text silently where the file goes on. */
    if (data && memchr(data, '\0', len)) {
        fail(s, CS_EINPUT, "a NUL byte in column %d; a units CSV is text", s->n_fields + 1);
        return;
    }
    char *f = malloc(len + 1);
    if (!f) {
        fail(s, CS_ENOMEM, "out of memory");
        return;
    }
    memcpy(f, data ? data : "", len);
    f[len] = '\0';
    s->field[s->n_fields++] = f;
}

static void header(state *s)
{
    s->n_cols = s->n_fields;
    bool has_name = false, has_ruleset = false;
    for (int i = 0; i < s->n_fields; i++) {
        const char *h = s->field[i];
        if (h[0] == '\0') {
            fail(s, CS_EINPUT, "column %d has no name", i + 1);
            return;
        }
        if (strlen(h) >= CS_UNITS_TEXT) {
            fail(s, CS_EINPUT, "column name `%.40s...` is too long", h);
            return;
        }
        for (int j = 0; j < i; j++)
            if (strcmp(s->col[j], h) == 0) {
                fail(s, CS_EINPUT, "column `%s` appears twice", h);
                return;
            }
        strcpy(s->col[i], h);
        if (strcmp(h, "name") == 0) {
            s->kind[i] = COL_NAME;
            has_name = true;
        } else if (strcmp(h, "ruleset") == 0) {
            s->kind[i] = COL_RULESET;
            has_ruleset = true;
        } else if (strcmp(h, "points") == 0) {
            s->kind[i] = COL_POINTS;
        } else if (strcmp(h, "base") == 0) {
            s->kind[i] = COL_BASE;
        } else {
            s->kind[i] = COL_PARAM;
        }
    }
    if (!has_name)
        fail(s, CS_EINPUT, "no `name` column (columns: name, ruleset, points, base, parameters)");
    else if (!has_ruleset && !s->rules)
        fail(s, CS_EINPUT, "no `ruleset` column and no --rules");
}

static bool empty(const char *cell)
{
    while (isspace((unsigned char)*cell))
        cell++;
    return *cell == '\0' || (cell[0] == '-' && cell[1] == '\0');
}

/* The one mapping naming `ruleset`, bound on first use. A mapping with no
 * game system is written for units CSVs (t9a.ini: edition 3's Charge Speed
 * or edition 2's Advance Rate, as the row says) and is taken before one
 * written for a game system's catalogues (t9a-2nd.ini, whose catalogues
 * give only Advance Rate and lock edition 2). */
static cs_units_mapping *mapping_for(state *s, const char *ruleset)
{
    cs_units_mapping *found = NULL;
    for (int pass = 0; pass < 2 && !found; pass++)
        for (int i = 0; i < s->n_maps; i++) {
            if (strcmp(s->maps[i].ruleset, ruleset) != 0 ||
                (s->maps[i].game_system_id[0] != '\0') != (pass == 1))
                continue;
            if (found) {
                fail(s, CS_EINPUT,
                     "mappings %s and %s both name ruleset `%s`; pass one with --mapping",
                     found->path, s->maps[i].path, ruleset);
                return NULL;
            }
            found = &s->maps[i];
        }
    if (!found) {
        fail(s, CS_EINPUT,
             "no mapping names ruleset `%s` (it says which parameter is the "
             "speed and which are required)",
             ruleset);
        return NULL;
    }
    if (!found->rs) {
        cs_error why;
        if (cs_units_mapping_bind(found, &why) != CS_OK) {
            fail(s, why.status, "%s", why.msg);
            return NULL;
        }
    }
    return found;
}

/* A base size: W x D in millimetres (x, X or the multiplication sign). */
static bool base_size(const char *t)
{
    char *end;
    double w = strtod(t, &end);
    if (end == t || !(w > 0.0))
        return false;
    const char *p = end;
    if (*p == 'x' || *p == 'X')
        p++;
    else if (strncmp(p, "\xc3\x97", 2) == 0)
        p += 2;
    else
        return false;
    double d = strtod(p, &end);
    return end != p && d > 0.0 && *end == '\0';
}

/* The row's name and ruleset (--rules, else its `ruleset` cell); false
 * (failed) when either is missing or they disagree. */
static bool row_identity(state *s, cs_unit *u, const char **ruleset)
{
    *ruleset = s->rules;
    for (int i = 0; i < s->n_cols; i++) {
        if (s->kind[i] == COL_NAME)
            snprintf(u->name, sizeof u->name, "%s", s->field[i]);
        if (s->kind[i] == COL_RULESET && !empty(s->field[i])) {
            if (s->rules && strcmp(s->rules, s->field[i]) != 0) {
                fail(s, CS_EINPUT, "column `ruleset`: `%s`, but --rules says `%s`", s->field[i],
                     s->rules);
                return false;
            }
            *ruleset = s->field[i];
        }
    }
    if (empty(u->name)) {
        fail(s, CS_EINPUT, "column `name` is empty");
        return false;
    }
    if (!*ruleset) {
        fail(s, CS_EINPUT, "column `ruleset` is empty and there is no --rules");
        return false;
    }
    return true;
}

/* One parameter cell of the row: a characteristic the mapping feeds goes to
 * found (stage 3 reads it in its format), any other parameter to the unit as
 * written. False (failed) for a column that is no parameter of the row's
 * ruleset, the distance, or one value too many. */
static bool param_cell(state *s, int i, cs_unit *u, cs_units_found *found)
{
    const cs_units_mapping *m = u->map;
    const cs_ruleset *rs = m->rs;
    const char *cell = s->field[i];
    int k = cs_ruleset_param_index(rs, s->col[i]);
    if (empty(cell))
        return true;
    if (k < 0) {
        fail(s, CS_EINPUT, "column `%s` is not a parameter of ruleset %s", s->col[i], rs->name);
        return false;
    }
    if (k == m->distance_param) {
        fail(s, CS_EINPUT, "column `%s` is the table's distance, set by --distance", s->col[i]);
        return false;
    }
    for (int j = 0; j < m->n_chars; j++)
        if (m->char_param[j] == k) {
            cs_units_found_add(&found[j], cell, NULL, s->line);
            return true;
        }
    /* A parameter the mapping does not feed (a unit's own `maximised`,
     * say) goes to the experiment model as written; it reads it by the
     * parameter's type, naming this file:line. */
    if (u->n_values == CS_UNITS_MAX_VALUES) {
        fail(s, CS_ELIMIT, "more than %d parameters", CS_UNITS_MAX_VALUES);
        return false;
    }
    cs_unit_value *v = &u->value[u->n_values++];
    v->param = k;
    snprintf(v->text, sizeof v->text, "%s", cell);
    snprintf(v->raw, sizeof v->raw, "%s", cell);
    return true;
}

/* The row's points and base cells; false (failed) when one does not read. */
static bool row_cell(state *s, int i, cs_unit *u)
{
    const char *cell = s->field[i];
    if (s->kind[i] == COL_POINTS && !empty(cell)) {
        char *end;
        u->points = strtod(cell, &end);
        if (end == cell || *end != '\0' || !(u->points >= 0.0) || !isfinite(u->points)) {
            fail(s, CS_EINPUT, "column `points`: `%s` is not a number >= 0", cell);
            return false;
        }
        u->has_points = true;
    } else if (s->kind[i] == COL_BASE && !empty(cell)) {
        if (!base_size(cell)) {
            fail(s, CS_EINPUT, "column `base`: `%s` is not a base size WxD in mm (25x50)", cell);
            return false;
        }
        snprintf(u->base, sizeof u->base, "%s", cell);
    }
    return true;
}

/* One data row: a unit, handed to stage 3 (cs_units_settle). */
static void row(state *s)
{
    if (s->n_fields != s->n_cols) {
        fail(s, CS_EINPUT, "%d fields, the header has %d", s->n_fields, s->n_cols);
        return;
    }
    const char *ruleset;
    cs_unit u = {0};
    if (!row_identity(s, &u, &ruleset))
        return;
    cs_units_mapping *m = mapping_for(s, ruleset);
    if (!m)
        return;
    u.map = m;
    snprintf(u.catalogue, sizeof u.catalogue, "%s", s->catalogue);
    snprintf(u.file, sizeof u.file, "%s", s->path);
    u.line = s->line;

    cs_units_found found[CS_UNITS_MAX_CHARS];
    memset(found, 0, sizeof found);
    for (int i = 0; i < s->n_cols; i++) {
        bool ok = s->kind[i] == COL_PARAM ? param_cell(s, i, &u, found) : row_cell(s, i, &u);
        if (!ok)
            return;
    }
    bool kept;
    /* settle names file:line itself. */
    if (s->st == CS_OK)
        s->st = cs_units_settle(s->out, &u, found, true, &kept, s->err);
}

static void on_row(int c, void *vs)
{
    (void)c;
    state *s = vs;
    if (s->st == CS_OK) {
        if (s->rows++ == 0)
            header(s);
        else
            row(s);
    }
    for (int i = 0; i < s->n_fields; i++)
        free(s->field[i]);
    s->n_fields = 0;
}

cs_status cs_units_read_csv(const char *path, cs_units_mapping *maps, int n_maps, const char *rules,
                            cs_units *out, cs_error *err)
{
    state s = {
        .path = path, .maps = maps, .n_maps = n_maps, .rules = rules, .out = out, .err = err};
    const char *base = strrchr(path, '/');
    snprintf(s.catalogue, sizeof s.catalogue, "%s", base ? base + 1 : path);
    FILE *f = cs_infile_open(path);
    if (!f) {
        cs_error_set(err, CS_EINPUT, "%s: cannot open: %s", path, strerror(errno));
        return CS_EINPUT;
    }
    struct csv_parser p;
    if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0) {
        fclose(f);
        cs_error_set(err, CS_ENOMEM, "%s: out of memory", path);
        return CS_ENOMEM;
    }
    /* libcsv grows a cell's buffer with the realloc it is given: the
     * process's own, as by default, but named here so that the OOM tests'
     * wrapped realloc reaches libcsv's failure too. */
    csv_set_realloc_func(&p, realloc);
    char *buf = NULL;
    size_t cap = 0;
    ssize_t len;
    cs_sha256 sha;
    cs_sha256_init(&sha);
    while (s.st == CS_OK && (len = getline(&buf, &cap, f)) > 0) {
        s.line++;
        cs_sha256_update(&sha, buf, (size_t)len);
        /* A spreadsheet's "CSV UTF-8" starts with a byte order mark, which
         * would otherwise become part of the first column's name. */
        size_t skip = s.line == 1 && len >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
        len -= (ssize_t)skip;
        if (csv_parse(&p, buf + skip, (size_t)len, on_field, on_row, &s) != (size_t)len) {
            /* Not the file's fault: libcsv could not grow a cell's buffer
             * (CSV_ENOMEM, after halving its request down to one byte). */
            if (csv_error(&p) != CSV_EPARSE) {
                fail(&s, CS_ENOMEM, "out of memory");
                continue;
            }
            /* The cell at fault is the one after those the row has so far. */
            int col = s.n_fields;
            fail(&s, CS_EINPUT,
                 "column %d%s%s%s: malformed CSV: a quote inside an unquoted cell, or text "
                 "after a closing quote",
                 col + 1, s.rows > 0 && col < s.n_cols ? " (`" : "",
                 s.rows > 0 && col < s.n_cols ? s.col[col] : "",
                 s.rows > 0 && col < s.n_cols ? "`)" : "");
        }
    }
    /* getline stops at the end of the file, or on a read error or out of
     * memory: a file read in part must not pass for a shorter one. */
    int read_errno = errno;
    bool unread = s.st == CS_OK && !feof(f);
    if (s.st == CS_OK && csv_fini(&p, on_field, on_row, &s) != 0)
        fail(&s, CS_EINPUT, "malformed CSV: a quoted cell is never closed");
    for (int i = 0; i < s.n_fields; i++)
        free(s.field[i]);
    csv_free(&p);
    free(buf);
    fclose(f);
    if (unread)
        return cs_error_set(err, read_errno == ENOMEM ? CS_ENOMEM : CS_EINPUT,
                            "%s: cannot read: %s", path, strerror(read_errno));
    if (s.st == CS_OK && s.rows == 0) {
        cs_error_set(err, CS_EINPUT, "%s:1: empty file: expected a header row (name, ruleset, ...)",
                     path);
        return CS_EINPUT;
    }
    if (s.st == CS_OK) {
        uint8_t digest[32];
        char hex[65];
        cs_sha256_final(&sha, digest);
        cs_sha256_to_hex(digest, hex);
        if (cs_units_add_input(out, path, hex) != CS_OK)
            return cs_error_set(err, CS_ENOMEM, "%s: out of memory", path);
    }
    return s.st;
}
