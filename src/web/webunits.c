/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Units tab: `chargesim units` in the page; see
 * include/chargesim/webunits.h. The stages run as src/cli/cmd_units.c runs
 * them, in the same order with the same checks: the distances, the
 * mappings, the source read, resolved and mapped, the notes, every unit
 * analysed exactly, the table. */
#include "chargesim/webunits.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/cmdline.h"
#include "chargesim/roster.h"
#include "chargesim/webjson.h"
#include "chargesim/unitsrc.h"

/* What the stages make, freed together. */
typedef struct pipeline {
    cs_units_mapping *maps;
    int n_maps;
    cs_units_sets sets;
    cs_units units;
    cs_units_grid g;
    cs_unit_result *res;
    double *p;
    cs_table table;
    bool read; /* the source was read: its notes are printed */
} pipeline;

static bool given(const char *s)
{
    return s && s[0];
}

/* Stages 1 to 3 and the default distances (cmd_units.c: read_units). */
static cs_status read_units(const char *source, const char *distance, const char *rules,
                            pipeline *pl, cs_error *err)
{
    cs_status st = CS_OK;
    if (given(distance)) {
        cs_error gerr;
        if ((st = cs_units_grid_parse(distance, &pl->g, &gerr)) != CS_OK)
            cs_error_set(err, st, "--distance %s", gerr.msg);
    }
    if (st == CS_OK)
        st = cs_units_mapping_load_path(CS_WEB_MAPPINGS, &pl->maps, &pl->n_maps, err);
    pl->units.sets = &pl->sets;
    /* A roster (a dropped list: .ros, .rosz, New Recruit's .json) is read
     * as the command line reads it, its catalogue found beside it. */
    cs_roster_info roster;
    if (st == CS_OK && cs_roster_is(source))
        st = cs_roster_read(source, pl->maps, pl->n_maps, given(rules) ? rules : NULL, NULL,
                            &pl->units, &roster, err);
    else if (st == CS_OK)
        st = cs_units_read_source(source, pl->maps, pl->n_maps, given(rules) ? rules : NULL,
                                  &pl->units, err);
    if (st == CS_OK) {
        pl->read = true;
        st = cs_units_check_sets(&pl->units, &pl->sets, err);
    }
    if (st == CS_OK && !given(distance)) {
        cs_error gerr;
        const cs_units *u = &pl->units;
        st = cs_units_grid_parse(u->n > 0 ? u->unit[0].map->range : "1..24", &pl->g, &gerr);
        if (st != CS_OK)
            *err = gerr;
    }
    return st;
}

/* The notes, each as the command line prints it on standard error, then
 * its count line (cmd_units.c: print_notes). */
static void put_notes(json_t *o, const cs_units *u, bool *oom)
{
    char text[CS_UNITS_PATH + CS_UNITS_NAME + CS_UNITS_NOTE + 96];
    char line[sizeof text + 32];
    json_t *notes = json_array();
    for (int i = 0; i < u->n_notes; i++) {
        cs_units_note_text(&u->note[i], text, sizeof text);
        snprintf(line, sizeof line, "chargesim units: %s", text);
        cs_webjson_add(notes, json_string_nocheck(line), oom);
    }
    cs_webjson_set(o, "notes", notes, oom);
    cs_units_notes_count(u, text, sizeof text);
    snprintf(line, sizeof line, "chargesim units: %s", text);
    cs_webjson_set(o, "summary", json_string_nocheck(line), oom);
}

/* The equivalent command line. */
static void command_line(char *buf, size_t cap, const char *source, const char *distance,
                         const char *rules)
{
    char *argv[5];
    int argc = 0;
    argv[argc++] = (char *)source;
    if (given(distance)) {
        argv[argc++] = "--distance";
        argv[argc++] = (char *)distance;
    }
    if (given(rules)) {
        argv[argc++] = "--rules";
        argv[argc++] = (char *)rules;
    }
    cs_cmdline_join(buf, cap, "units", argc, argv);
}

static void pipeline_free(pipeline *pl)
{
    cs_table_free(&pl->table);
    free(pl->p);
    free(pl->res);
    cs_units_free(&pl->units);
    free(pl->maps);
    memset(pl, 0, sizeof *pl);
}

const char *cs_web_units(const char *source, const char *distance, const char *rules)
{
    static char *out; /* the last answer, owned until the next call */
    static char command[8192];
    pipeline pl = {0};
    cs_error err = {0};
    source = source ? source : "";
    command_line(command, sizeof command, source, distance, rules);
    cs_status st = read_units(source, distance, rules, &pl, &err);
    if (st == CS_OK)
        st = cs_units_analyse_all(&pl.units, &pl.sets, &pl.g, &pl.res, &pl.p, &err);
    if (st == CS_OK &&
        (st = cs_units_table(&pl.units, pl.res, &pl.g, CS_FORMAT_CSV, NULL, &pl.table)) != CS_OK)
        cs_error_set(&err, st, "out of memory");
    /* A table with no row is refused, as the command line refuses to write
     * one (src/cli/common.c), after the notes saying why. */
    if (st == CS_OK && pl.table.nrows == 0)
        st = cs_error_set(&err, CS_EINPUT, "no rows to write; nothing written");
    bool oom = false;
    json_t *o = json_object();
    cs_webjson_set(o, "ok", json_boolean(st == CS_OK), &oom);
    cs_webjson_set(o, "cmd", json_string("units"), &oom);
    cs_webjson_set(o, "command", json_string_nocheck(command), &oom);
    if (pl.read)
        put_notes(o, &pl.units, &oom);
    if (st == CS_OK) {
        cs_webjson_table(o, &pl.table, &oom);
    } else {
        char cli[sizeof err.msg + 32];
        snprintf(cli, sizeof cli, "chargesim units: %s", err.msg);
        cs_webjson_set(o, "message", json_string_nocheck(err.msg), &oom);
        cs_webjson_set(o, "cli", json_string_nocheck(cli), &oom);
        cs_webjson_set(o, "exit", json_integer(cs_status_exit_code(st)), &oom);
    }
    pipeline_free(&pl);
    free(out);
    out = cs_webjson_dump(o, &oom);
    json_decref(o);
    if (!out)
        return "{\"ok\":false,\"cmd\":\"units\",\"command\":\"\",\"message\":\"out of memory\","
               "\"cli\":\"chargesim units: out of memory\",\"exit\":1,\"notes\":[]}";
    return out;
}
