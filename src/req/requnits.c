/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `units` as a request: the five stages of unitsrc.h in order, written once
 * for the command line and the page (issue 51): the distances, the
 * mappings, the source read, resolved and mapped, the notes, --set checked,
 * every unit analysed exactly, the table. See include/chargesim/reqsteps.h. */
#include "chargesim/reqsteps.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Keeps one line of what the stages say (a note, then the count). */
static void say(cs_req_units *u, const char *line)
{
    char **more = realloc(u->line, (size_t)(u->n_lines + 1) * sizeof *more);
    if (!more)
        return; /* a note lost to memory: the table stands */
    u->line = more;
    if ((u->line[u->n_lines] = strdup(line)) != NULL)
        u->n_lines++;
}

/* The notes, each as the command line prints it, then the count line. */
static void notes(cs_req_units *u)
{
    char line[CS_UNITS_PATH + CS_UNITS_NAME + CS_UNITS_NOTE + 96];
    for (int i = 0; i < u->units.n_notes; i++) {
        cs_units_note_text(&u->units.note[i], line, sizeof line);
        say(u, line);
    }
    cs_units_notes_count(&u->units, line, sizeof line);
    say(u, line);
}

/* --set K=V texts cut into the request's copies, in order. */
static void cut_sets(cs_request *r)
{
    cs_req_units *u = &r->u;
    for (int i = 0; i < r->a.n && u->sets.n < CS_UNITS_MAX_SETS; i++) {
        char *text = r->text[r->a.pair[i]], *eq = strchr(text, '=');
        *eq = '\0'; /* checked when set: there is one, after a key */
        u->sets.key[u->sets.n] = text;
        u->sets.val[u->sets.n++] = eq + 1;
    }
}

/* Stages 1 to 3: the mappings, the source read and resolved, its units'
 * values mapped; then the notes, --set checked against the units and the
 * distances. A bad --distance is reported before any catalogue is read. */
static cs_status read_units(cs_request *r)
{
    cs_req_units *u = &r->u;
    cs_error *err = &r->err;
    const char *distance = cs_req_slot(r, CS_REQ_DISTANCE), *source = cs_req_slot(r, CS_REQ_SOURCE);
    const char *catalogue = cs_req_slot(r, CS_REQ_CATALOGUE), *rules = cs_req_slot(r, CS_REQ_RULES);
    cs_status st = CS_OK;
    if (distance) {
        cs_error gerr;
        if ((st = cs_units_grid_parse(distance, &u->g, &gerr)) != CS_OK) {
            cs_error_set(err, st, "--distance %s", gerr.msg);
            r->fault = r->slot[CS_REQ_DISTANCE]; /* the parameter at fault (issue 53) */
        }
    }
    /* The front end names the mapping folder (the command line's default,
     * the Python module's, the page's); a program of the C API may not. */
    if (st == CS_OK && !cs_req_slot(r, CS_REQ_MAPPING)) {
        r->fault_key = "mapping";
        st = cs_error_set(err, CS_EINPUT, "no mapping folder: name one (mapping=DIR, the "
                                          "command line's --mapping), e.g. experiments/mappings");
    }
    if (st == CS_OK)
        st = cs_units_mapping_load_path(cs_req_slot(r, CS_REQ_MAPPING), &u->maps, &u->n_maps, err);
    u->units.sets = &u->sets;
    const bool roster = cs_roster_is(source);
    if (st == CS_OK && catalogue && !roster)
        st = cs_error_set(err, CS_EINPUT, "--catalogue %s: only a roster (.ros, .rosz, .json) "
                          "looks its entries up in a catalogue", catalogue);
    const char *data = cs_req_slot(r, CS_REQ_DATA);
    if (st == CS_OK && roster)
        st = cs_roster_read(source, u->maps, u->n_maps, rules, catalogue,
                            data && data[0] ? data : NULL, &u->units, &u->roster, err);
    else if (st == CS_OK)
        st = cs_units_read_source(source, u->maps, u->n_maps, rules, &u->units, err);
    if (st == CS_OK) {
        u->read = true;
        notes(u);
        st = cs_units_check_sets(&u->units, &u->sets, err);
    }
    if (st == CS_OK && !distance) {
        /* The first unit's mapping's range, checked when the mapping was
         * loaded, or the default. */
        cs_error gerr;
        st = cs_units_grid_parse(u->units.n > 0 ? u->units.unit[0].map->range : "1..24", &u->g,
                                 &gerr);
        if (st != CS_OK)
            *err = gerr;
    }
    return st;
}

/* A mapping as the table names it: its file name. The default directory
 * lies wherever the binary was installed; a path there would make the same
 * table differ between two clones (its SHA-256 in the metadata pins it). */
static const char *mapping_name(const cs_units_mapping *m)
{
    const char *slash = strrchr(m->path, '/');
    return slash ? slash + 1 : m->path;
}

/* What the table was made with, for its heading and metadata: each
 * ruleset with its edition or preset (the mapping's variant parameter, as
 * the analysis resolved it) and the mapping, once each, in the order met. */
static void about(cs_req_units *u)
{
    char *buf = u->about;
    size_t cap = sizeof u->about;
    buf[0] = '\0';
    for (int i = 0; i < u->units.n; i++) {
        const cs_units_mapping *m = u->units.unit[i].map;
        char one[CS_UNITS_PATH + 4 * CS_UNITS_TEXT];
        snprintf(one, sizeof one, "%s%s%s%s%s, mapping %s", m->rs->name, m->variant[0] ? " " : "",
                 m->variant, m->variant[0] ? " " : "", u->res[i].variant, mapping_name(m));
        if (strstr(buf, one))
            continue;
        size_t n = strlen(buf);
        snprintf(buf + n, cap - n, "%s%s", n ? "; " : "", one);
    }
}

/* Stage 5: the table (src/io/units/units_table.c) in format fmt, titled
 * by the source or, for a roster, by the list: its three forms give the
 * same bytes. */
cs_status cs_req_units_table(cs_request *r, cs_format fmt, cs_table *out)
{
    cs_req_units *u = &r->u;
    const cs_units_grid *g = &u->g;
    const cs_roster_info *ro = &u->roster;
    char title[24576], list[2 * CS_UNITS_NAME + CS_UNITS_TEXT + 64];
    char pts[CS_UNITS_TEXT + 32] = "";
    if (ro->has_points)
        snprintf(pts, sizeof pts, ", %g %s", ro->points, ro->cost);
    if (ro->system_id[0])
        snprintf(list, sizeof list, "list `%s`, %s%s", ro->name, ro->system, pts);
    /* A hand-written file without BattleScribe's XML namespace is read,
     * and the heading says which (issue 50). */
    char plain[4096] = "";
    for (int i = 0; i < u->units.n_inputs; i++) {
        const char *path = u->units.input[i].path, *slash = strrchr(path, '/');
        size_t n = strlen(plain);
        if (u->units.input[i].no_namespace)
            snprintf(plain + n, sizeof plain - n, "%s%s", n ? ", " : "; without BattleScribe's XML "
                     "namespace: ", slash ? slash + 1 : path);
    }
    snprintf(title, sizeof title,
             "Charge odds per unit, %s (%s; method exact, head-on; distances %g to %g by %g in%s)",
             ro->system_id[0] ? list : cs_req_slot(r, CS_REQ_SOURCE), u->about, g->lo,
             cs_units_grid_at(g, cs_units_grid_count(g) - 1), g->step, plain);
    cs_status st = cs_units_table(&u->units, u->res, g, fmt, title, out);
    return st == CS_OK ? st : cs_error_set(&r->err, st, "out of memory");
}

static cs_status tabulate(cs_request *r)
{
    r->tables = calloc(1, sizeof *r->tables);
    r->n_tables = r->tables ? 1 : 0;
    cs_status st = r->tables ? cs_req_units_table(r, r->fmt, &r->tables[0])
                             : cs_error_set(&r->err, CS_ENOMEM, "out of memory");
    if (st != CS_OK)
        return st;
    /* A table with no row is refused, as a file with none would be. */
    if (r->tables[0].nrows == 0)
        return cs_error_set(&r->err, CS_EINPUT, "no rows to write; nothing written");
    return CS_OK;
}

cs_status cs_req_units_run(cs_request *r)
{
    cut_sets(r);
    cs_status st = read_units(r);
    if (st == CS_OK)
        st = cs_units_analyse_all(&r->u.units, &r->u.sets, &r->u.g, &r->u.res, &r->u.p, &r->err);
    if (st == CS_OK) {
        about(&r->u);
        st = tabulate(r);
    }
    snprintf(r->method, sizeof r->method, "exact");
    return st;
}

void cs_req_units_free(cs_request *r)
{
    cs_req_units *u = &r->u;
    free(u->p);
    free(u->res);
    cs_units_free(&u->units);
    free(u->maps);
    for (int i = 0; i < u->n_lines; i++)
        free(u->line[i]);
    free(u->line);
}

int cs_request_said(const cs_request *r)
{
    return r->u.read ? r->u.n_lines : 0;
}

const char *cs_request_said_line(const cs_request *r, int i)
{
    return i >= 0 && i < cs_request_said(r) ? r->u.line[i] : NULL;
}

bool cs_request_input(const cs_request *r, int i, const char **path, const char **sha256)
{
    const cs_req_units *u = &r->u;
    if (i >= 0 && i < u->units.n_inputs) {
        *path = u->units.input[i].path;
        *sha256 = u->units.input[i].sha256;
        return true;
    }
    /* Then each mapping a unit used, in the mappings' order. */
    i -= u->units.n_inputs;
    for (int k = 0; k < u->n_maps; k++)
        for (int j = 0; j < u->units.n; j++)
            if (u->units.unit[j].map == &u->maps[k]) {
                if (i-- == 0) {
                    *path = mapping_name(&u->maps[k]);
                    *sha256 = u->maps[k].sha256;
                    return true;
                }
                break;
            }
    return false;
}

const char *cs_request_about(const cs_request *r)
{
    return r->u.about;
}

const struct cs_units *cs_request_units(const cs_request *r)
{
    return &r->u.units;
}

const char *cs_request_catalogue_wanted(const cs_request *r)
{
    return r->u.roster.catalogue_wanted;
}

const char *cs_request_mapping_game(const cs_request *r, int i)
{
    return i >= 0 && i < r->u.n_maps ? r->u.maps[i].game_system : NULL;
}

const char *cs_request_list_game(const cs_request *r)
{
    return r->u.roster.system;
}
