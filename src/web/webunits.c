/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Units tab: `chargesim units` in the page; see
 * include/chargesim/webunits.h. The stages run as src/cli/cmd_units.c runs
 * them, in the same order with the same checks: the distances, the
 * mappings, the source read, resolved and mapped, the notes, every unit
 * analysed exactly, the table. */
#include "chargesim/webunits.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/cmdline.h"
#include "chargesim/roster.h"
#include "chargesim/unitsrc.h"
#include "chargesim/webjson.h"

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
    cs_roster_info roster; /* a roster's heading; catalogue_wanted for the page */
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
     * as the command line reads it, its catalogue found beside it, else
     * among the shipped catalogues the page has put in its file system. */
    if (st == CS_OK && cs_roster_is(source))
        st = cs_roster_read(source, pl->maps, pl->n_maps, given(rules) ? rules : NULL, NULL,
                            CS_WEB_DATA, &pl->units, &pl->roster, err);
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
static void write_notes(cs_webjson *o, const cs_units *u)
{
    char text[CS_UNITS_PATH + CS_UNITS_NAME + CS_UNITS_NOTE + 96];
    char line[sizeof text + 32];
    cs_webjson_key(o, "notes");
    cs_webjson_open(o, '[');
    for (int i = 0; i < u->n_notes; i++) {
        cs_units_note_text(&u->note[i], text, sizeof text);
        snprintf(line, sizeof line, "chargesim units: %s", text);
        cs_webjson_string(o, line);
    }
    cs_webjson_close(o, ']');
    cs_units_notes_count(u, text, sizeof text);
    snprintf(line, sizeof line, "chargesim units: %s", text);
    cs_webjson_kstring(o, "summary", line);
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
    static cs_webjson out;
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
    cs_webjson_clear(&out);
    cs_webjson_open(&out, '{');
    cs_webjson_kbool(&out, "ok", st == CS_OK);
    cs_webjson_kstring(&out, "cmd", "units");
    cs_webjson_kstring(&out, "command", command);
    if (pl.read)
        write_notes(&out, &pl.units);
    /* The roster's catalogue was not in /data: the page fetches the one it
     * ships under that id and runs once more (web/js/units.js). */
    if (pl.roster.catalogue_wanted[0])
        cs_webjson_kstring(&out, "catalogue_wanted", pl.roster.catalogue_wanted);
    if (st == CS_OK) {
        cs_webjson_table(&out, &pl.table);
    } else {
        char cli[sizeof err.msg + 32];
        snprintf(cli, sizeof cli, "chargesim units: %s", err.msg);
        cs_webjson_kstring(&out, "message", err.msg);
        cs_webjson_kstring(&out, "cli", cli);
        cs_webjson_knumber(&out, "exit", cs_status_exit_code(st));
    }
    cs_webjson_close(&out, '}');
    pipeline_free(&pl);
    if (out.text.oom)
        return "{\"ok\":false,\"cmd\":\"units\",\"command\":\"\",\"message\":\"out of memory\","
               "\"cli\":\"chargesim units: out of memory\",\"exit\":1,\"notes\":[]}";
    return out.text.s;
}
