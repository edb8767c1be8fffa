/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Units tab: `chargesim units` in the page; see
 * include/chargesim/webunits.h. The tab's fields become a request
 * (request.h), the same one the command line runs: its table, notes and
 * refusal as JSON. */
#include "chargesim/webunits.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/registry.h"
#include "chargesim/request.h"
#include "chargesim/webjson.h"
#include "chargesim/units.h"

/* The notes, each as the command line prints it on standard error, then
 * its count line. */
static void put_notes(json_t *o, const cs_request *r, bool *oom)
{
    char line[CS_UNITS_PATH + CS_UNITS_NAME + CS_UNITS_NOTE + 128];
    json_t *notes = json_array();
    int n = cs_request_said(r);
    for (int i = 0; i < n; i++) {
        snprintf(line, sizeof line, "chargesim units: %s", cs_request_said_line(r, i));
        if (i < n - 1)
            cs_webjson_add(notes, json_string_nocheck(line), oom);
        else
            cs_webjson_set(o, "summary", json_string_nocheck(line), oom);
    }
    cs_webjson_set(o, "notes", notes, oom);
}

/* Each row's second-row label (units.h: `flying`, "" for a unit's own
 * row), in the table's order: the chart marks the rows that fly, which the
 * CSV says only in the name. */
static void put_rows_kind(json_t *o, const cs_request *r, bool *oom)
{
    const cs_units *u = cs_request_units(r);
    json_t *kinds = json_array();
    for (int i = 0; i < u->n; i++)
        cs_webjson_add(kinds, json_string(u->unit[i].row), oom);
    cs_webjson_set(o, "row_kind", kinds, oom);
}

/* A name with letters and digits only, lower case, for "is this game one
 * a mapping covers" (`Warhammer: The Old World`, `Warhammer The Old World`). */
static void squeeze(const char *s, char *out, size_t cap)
{
    size_t n = 0;
    for (; *s && n + 1 < cap; s++)
        if ((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9'))
            out[n++] = *s;
        else if (*s >= 'A' && *s <= 'Z')
            out[n++] = (char)(*s - 'A' + 'a');
    out[n] = '\0';
}

static bool covered(const cs_request *r, const char *title)
{
    char want[256], game[256];
    squeeze(title, want, sizeof want);
    const char *g;
    for (int i = 0; (g = cs_request_mapping_game(r, i)) != NULL; i++) {
        squeeze(g, game, sizeof game);
        if (want[0] && strstr(game, want))
            return true;
    }
    return false;
}

/* A list of another game (error key "mapping"), in a player's words: the
 * games that have unit tables (the mappings'), and the Run tab's games that
 * have none (the rulesets' presets), where a unit's charge is played by
 * its move and dice. No option, no id, no path: "player", with "games" and
 * "run_games" as lists for the page to link. */
static void put_player(json_t *o, const cs_request *r, bool *oom)
{
    char text[8192], list[2048] = "", run[2048] = "";
    json_t *games = json_array(), *others = json_array();
    const char *g;
    for (int i = 0; (g = cs_request_mapping_game(r, i)) != NULL; i++) {
        size_t n = strlen(list);
        if (!g[0] || strstr(list, g))
            continue;
        snprintf(list + n, sizeof list - n, "%s%s", n ? "; " : "", g);
        cs_webjson_add(games, json_string(g), oom);
    }
    for (int k = 0; k < cs_registry_count(); k++) {
        const cs_ruleset *rs = cs_registry_at(k);
        for (int i = 0; i < rs->n_games; i++) {
            const char *t = rs->games[i].title;
            size_t n = strlen(run);
            /* Preset `none` is no game: any move and dice. */
            if (!rs->games[i].preset || strcmp(rs->games[i].preset, "none") == 0 ||
                covered(r, t) || strstr(run, t))
                continue;
            snprintf(run + n, sizeof run - n, "%s%s", n ? "; " : "", t);
            cs_webjson_add(others, json_string(t), oom);
        }
    }
    const char *mine = cs_request_list_game(r);
    snprintf(text, sizeof text,
             "%s%s%shas no unit tables here. Unit tables exist for these games only: %s. "
             "For another game%s%s%s, the Run tab's presets give a unit's charge odds from "
             "its move and the distance.", mine[0] ? "This list's game, " : "This game ", mine,
             mine[0] ? ", " : "", list[0] ? list : "none", run[0] ? " (" : "", run,
             run[0] ? ")" : "");
    cs_webjson_set(o, "player", json_string(text), oom);
    cs_webjson_set(o, "games", games, oom);
    cs_webjson_set(o, "run_games", others, oom);
}

static bool given(const char *s)
{
    return s && s[0];
}

const char cs_web_units_oom[] =
    "{\"ok\":false,\"cmd\":\"units\",\"command\":\"\",\"message\":\"out of memory\","
    "\"cli\":\"chargesim units: out of memory\",\"exit\":1,\"notes\":[]}";

const char *cs_web_units(const char *source, const char *distance, const char *rules)
{
    char command[8192];
    cs_request *r = cs_request_new("units");
    cs_status st = r ? cs_request_default(r, "mapping", CS_WEB_MAPPINGS) : CS_ENOMEM;
    /* A roster's catalogue: beside it, else among the shipped catalogues
     * the page has put in its file system. */
    if (st == CS_OK)
        st = cs_request_default(r, "data", CS_WEB_DATA);
    if (st == CS_OK)
        st = cs_request_set(r, "source", source ? source : "");
    if (st == CS_OK && given(distance))
        st = cs_request_set(r, "distance", distance);
    if (st == CS_OK && given(rules))
        st = cs_request_set(r, "rules", rules);
    if (st == CS_OK)
        st = cs_request_run(r);
    bool oom = !r;
    json_t *o = json_object();
    cs_webjson_set(o, "ok", json_boolean(st == CS_OK), &oom);
    cs_webjson_set(o, "cmd", json_string("units"), &oom);
    if (r) {
        cs_request_command_line(r, command, sizeof command);
        cs_webjson_set(o, "command", json_string_nocheck(command), &oom);
        if (cs_request_said(r) > 0)
            put_notes(o, r, &oom);
        /* A roster whose catalogue the page has not fetched: the page adds
         * that army's files and asks once more (web/js/units.js). */
        if (cs_request_catalogue_wanted(r)[0])
            cs_webjson_set(o, "catalogue_wanted", json_string(cs_request_catalogue_wanted(r)),
                           &oom);
    }
    if (st == CS_OK) {
        cs_webjson_table(o, cs_request_table(r, 0), &oom);
        cs_webjson_columns(o, r, &oom);
        put_rows_kind(o, r, &oom);
        /* Each ruleset with its edition or preset and mapping, for the
         * table's heading (the CSV's ruleset column names the ruleset only). */
        cs_webjson_set(o, "about", json_string(cs_request_about(r)), &oom);
        cs_webjson_export(o, r, "units", command, &oom);
    } else if (r) {
        const cs_error *err = cs_request_error(r);
        char cli[sizeof err->msg + 32];
        snprintf(cli, sizeof cli, "chargesim units: %s", err->msg);
        cs_webjson_set(o, "message", json_string_nocheck(err->msg), &oom);
        cs_webjson_set(o, "cli", json_string_nocheck(cli), &oom);
        cs_webjson_set(o, "exit", json_integer(cs_status_exit_code(st)), &oom);
        if (strcmp(err->key, "mapping") == 0)
            put_player(o, r, &oom);
    }
    char *out = cs_webjson_dump(o, &oom);
    json_decref(o);
    cs_request_free(r);
    return out ? out : cs_web_units_oom;
}
