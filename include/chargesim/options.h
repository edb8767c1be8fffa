/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_OPTIONS_H
#define CHARGESIM_OPTIONS_H
/* The options of each command as data (issue 51): one table per command,
 * each option's name, type, default, allowed values, help and the request
 * key it sets (request.h). The table drives the command line's parsing
 * (getopt_long, src/cli/args.c), its --help text, its "did you mean", the
 * bash completion (`chargesim --options CMD`, read by
 * scripts/chargesim-completion.bash), the man page check (tests) and the
 * page's form fields (webinfo.h). No option name is read out of a text. */
#include <stddef.h>

#include "chargesim/grow.h"

typedef enum cs_opt_type {
    CS_OPT_FLAG,    /* no value */
    CS_OPT_TEXT,    /* a text the request reads */
    CS_OPT_SET,     /* K=V, repeatable: an override */
    CS_OPT_COUNT,   /* a whole number */
    CS_OPT_NUMBER,  /* a real number */
    CS_OPT_CHOICE,  /* one of `allowed` */
    CS_OPT_FILE,    /* a file name */
    CS_OPT_RULESET, /* a ruleset's name (chargesim rules) */
} cs_opt_type;

typedef struct cs_opt {
    const char *name;    /* "--trials", "-o" */
    const char *alias;   /* a second spelling ("-h" of --help), or NULL */
    const char *arg;     /* the value's placeholder in --help ("N"); NULL for a flag */
    cs_opt_type type;
    const char *key;     /* the request key it sets; NULL: the front end's own (-o, --quiet) */
    const char *allowed; /* the values it takes, "csv|md|tex"; NULL: any of its type */
    const char *def;     /* its default as text; NULL: none, or the experiment's (the key's) */
    const char *field;   /* the page's one-line help when it is a field of the page's form */
    const char *label;   /* a field's name in a player's words ("number of trials"); the
                          * page shows it beside the key, --help lists it with field */
    const char *needs;   /* a missing value's refusal, "NAME needs NEEDS"; NULL: read as "" */
    const char *help;    /* --help's text, lines joined by \n; a leading \n puts it below */
} cs_opt;

typedef struct cs_opt_table {
    const char *cmd;
    const char *operand; /* the request key of the command's operand ("input"), or NULL */
    const char *operand_field; /* the page's help when the operand is a field of its form */
    const char *operand_label; /* its name in a player's words ("dice"), with operand_field */
    const char *head;    /* --help before the options */
    const char *tail;    /* --help after them */
    int width;           /* the column of the options' help, less the indent */
    const cs_opt *opt;
    int n;
} cs_opt_table;

/* The commands' tables, in the order of `chargesim --help`. */
int cs_opt_tables(void);
const cs_opt_table *cs_opt_table_at(int i);
/* The table of command cmd, or NULL. */
const cs_opt_table *cs_opt_table_of(const char *cmd);
/* The option spelled `name` (its name or alias), or NULL. */
const cs_opt *cs_opt_find(const cs_opt_table *t, const char *name);
/* The option that sets request key `key`, or NULL. */
const cs_opt *cs_opt_by_key(const cs_opt_table *t, const char *key);
/* The nearest option name to `word` (its text up to any '='), or NULL when
 * none is near ("did you mean"). */
const char *cs_opt_suggest(const cs_opt_table *t, const char *word);
/* The command's --help text appended to out. */
void cs_opt_help(const cs_opt_table *t, cs_text *out);
/* One line per spelling of each option appended to out, for the
 * completion: the spelling, the type's word (flag, text, set, count,
 * number, choice, file, ruleset), then the allowed values, blank-separated. */
void cs_opt_list(const cs_opt_table *t, cs_text *out);
/* The type's word. */
const char *cs_opt_type_name(cs_opt_type type);

#endif
