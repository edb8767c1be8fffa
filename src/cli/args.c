/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A command's arguments read through its option table (options.h) with
 * getopt_long; see cs_cli_args in include/chargesim/cli.h. */
#define _GNU_SOURCE
#include "chargesim/cli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/options.h"

/* Table t's --help text on `to`. */
static void usage(const cs_opt_table *table, FILE *to)
{
    cs_text t = {0};
    cs_opt_help(table, &t);
    if (t.s)
        fputs(t.s, to);
    free(t.s);
}

void cs_cli_usage(const char *cmd, FILE *to)
{
    usage(cs_opt_table_of(cmd), to);
}

/* An unknown option of table t's command: its message and exit status. */
static int unknown_option(const cs_opt_table *t, const char *arg)
{
    const char *cmd = t->cmd, *best = cs_opt_suggest(t, arg);
    if (best)
        return cs_cli_fail(cmd, CS_EINPUT,
                           "unknown option '%s'; did you mean %s? (see chargesim %s --help)", arg,
                           best, cmd);
    return cs_cli_fail(cmd, CS_EINPUT, "unknown option '%s' (see chargesim %s --help)", arg, cmd);
}

/* Whether word w spells option o in full: getopt_long takes a prefix of a
 * long name too, which the command line never has. */
static bool spelled(const cs_opt *o, const char *w)
{
    size_t n = strlen(o->name);
    if (o->alias && strncmp(w, o->alias, strlen(o->alias)) == 0)
        return true;
    return strncmp(w, o->name, n) == 0 && (w[n] == '\0' || w[n] == '=' || o->name[1] != '-');
}

/* getopt_long's tables from t: the long options (val 256 + index) and the
 * short ones ("-:" first: operands in order, a missing value as ':'). */
static void tables_of(const cs_opt_table *t, struct option *lo, char *shorts)
{
    int n = 0;
    strcpy(shorts, "-:");
    for (int i = 0; i < t->n; i++) {
        const cs_opt *o = &t->opt[i];
        int has = o->arg ? required_argument : no_argument;
        if (o->name[1] == '-')
            lo[n++] = (struct option){o->name + 2, has, NULL, 256 + i};
        const char *s = o->name[1] != '-' ? o->name : o->alias;
        if (s && s[1] != '-') {
            size_t u = strlen(shorts);
            shorts[u] = s[1];
            shorts[u + 1] = '\0';
            if (o->arg)
                strcat(shorts, ":");
        }
    }
    lo[n] = (struct option){NULL, 0, NULL, 0};
}

static const cs_opt *short_opt(const cs_opt_table *t, int c)
{
    for (int i = 0; i < t->n; i++) {
        const char *s = t->opt[i].name[1] != '-' ? t->opt[i].name : t->opt[i].alias;
        if (s && s[1] == c && s[2] == '\0')
            return &t->opt[i];
    }
    return NULL;
}

int cs_cli_args(const char *cmd, int argc, char **argv, bool (*operand)(const char *w),
                int (*each)(void *user, const cs_opt *o, const char *value), void *user)
{
    return cs_cli_args_table(cs_opt_table_of(cmd), argc, argv, operand, each, user);
}

int cs_cli_args_table(const cs_opt_table *t, int argc, char **argv, bool (*operand)(const char *w),
                      int (*each)(void *user, const cs_opt *o, const char *value), void *user)
{
    const char *cmd = t->cmd;
    struct option lo[64];
    char shorts[64];
    tables_of(t, lo, shorts);
    /* getopt's copy: argv[0] first, and an operand that starts with '-'
     * (dice's -1d6) masked, read back from argv. */
    char **args = malloc(((size_t)argc + 2) * sizeof *args);
    if (!args)
        return cs_cli_fail(cmd, CS_ENOMEM, "out of memory");
    args[0] = "chargesim";
    for (int i = 0; i < argc; i++)
        args[i + 1] = argv[i][0] == '-' && argv[i][1] && operand && operand(argv[i]) ? "operand"
                                                                                     : argv[i];
    args[argc + 1] = NULL;
    optind = 0; /* GNU: start afresh (rerun parses a second command line) */
    opterr = 0;
    int rc = 0;
    for (;;) {
        int at = optind ? optind : 1, li = -1;
        int c = getopt_long(argc + 1, args, shorts, lo, &li);
        if (c == -1)
            break;
        const char *w = args[at < argc + 1 ? at : argc];
        const cs_opt *o = c >= 256                           ? &t->opt[c - 256]
                          : c == 1 || c == '?' || c == ':' ? NULL
                                                           : short_opt(t, c);
        if (c == 1) {
            rc = each(user, NULL, argv[optind - 2]);
        } else if (c == '?' || (o && !spelled(o, w))) {
            rc = unknown_option(t, w);
        } else if (c == ':') {
            o = optopt >= 256 ? &t->opt[optopt - 256] : short_opt(t, optopt);
            if (o && o->needs)
                rc = cs_cli_fail(cmd, CS_EINPUT, "%s needs %s", o->name, o->needs);
            else
                rc = o ? each(user, o, "") : unknown_option(t, w);
        } else if (strcmp(o->name, "--help") == 0) {
            usage(t, stdout);
            rc = -1;
        } else {
            /* -o=FILE: the text after '=' (as MPI's workers are given it). */
            const char *v = optarg && o->name[1] != '-' && optarg[0] == '=' ? optarg + 1 : optarg;
            rc = each(user, o, o->arg ? v : NULL);
        }
        if (rc)
            break;
    }
    /* After "--" every word is an operand, as getopt leaves it. */
    for (int k = optind; !rc && k > 0 && k <= argc; k++)
        rc = each(user, NULL, argv[k - 1]);
    free(args);
    return rc;
}
