/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The options as data (include/chargesim/options.h, issue 51): one table
 * per command drives the command line's parsing, its --help, its "did you
 * mean", the bash completion (`chargesim --options CMD`), the man page and
 * the page's form fields. An option added to a table shows in all of them;
 * every option of every table is in each. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/cli.h"
#include "chargesim/options.h"
#include "chargesim/webinfo.h"
#include "support/helpers.h"

/* What the parser handed over: the last option and its value. */
typedef struct seen {
    const cs_opt *opt;
    char value[64];
    int operands;
} seen;

static int each(void *user, const cs_opt *o, const char *v)
{
    seen *s = user;
    if (!o) {
        s->operands++;
        return 0;
    }
    s->opt = o;
    snprintf(s->value, sizeof s->value, "%s", v ? v : "");
    return 0;
}

static char *text_of(const cs_opt_table *t, void (*write)(const cs_opt_table *, cs_text *))
{
    cs_text out = {0};
    write(t, &out);
    cr_assert(out.s && !out.oom);
    return out.s;
}

Test(options, an_option_added_to_a_table_shows_everywhere_the_table_drives)
{
    const cs_opt_table *run = cs_opt_table_of("run");
    cr_assert(run);
    cs_opt opts[64];
    cr_assert(run->n < 64);
    memcpy(opts, run->opt, (size_t)run->n * sizeof *opts);
    opts[run->n] = (cs_opt){.name = "--frobnicate", .arg = "N", .type = CS_OPT_COUNT,
                            .key = "experiment.frobnicate", .needs = "a value",
                            .field = "how often to frobnicate", .label = "frobnications",
                            .help = "frobnicate N times\nbefore each trial"};
    cs_opt_table t = *run;
    t.opt = opts;
    t.n = run->n + 1;

    /* --help: the option's line at the table's column, its second line
     * under the first; the command's own table says nothing of it. */
    char *help = text_of(&t, cs_opt_help), *plain = text_of(run, cs_opt_help);
    cr_expect(strstr(help, "\n  --frobnicate N     frobnicate N times\n"
                           "                     before each trial\n"), "%s", help);
    cr_expect(strstr(help, "\n  frobnications (--frobnicate)\n      how often to frobnicate\n"),
              "the page's words, listed by --help: %s", help);
    cr_expect(!strstr(plain, "frobnicate"));
    cr_expect(strncmp(help, plain, strlen(run->head)) == 0, "the head is the command's");
    free(help);
    free(plain);

    /* The completion's list: its spelling and type. */
    char *list = text_of(&t, cs_opt_list);
    cr_expect(strstr(list, "\n--frobnicate count\n"), "%s", list);
    free(list);

    /* "Did you mean" offers it. */
    cr_expect_str_eq(cs_opt_suggest(&t, "--frobnicat=3"), "--frobnicate");

    /* The page's form gets the field, after the ones it had. */
    char *fields = cs_webinfo_fields(&t), *before = cs_webinfo_fields(run);
    cr_assert(fields && before);
    cr_expect(strstr(fields, "{\"key\":\"experiment.frobnicate\",\"label\":\"frobnications\","
                             "\"default\":\"\","
                             "\"help\":\"how often to frobnicate\"}]"), "%s", fields);
    cr_expect(!strstr(before, "frobnicate"));
    free(fields);
    free(before);

    /* The parser takes it, with its value either way, and refuses it
     * without a value as its table says. */
    seen s = {0};
    char *argv[] = {"x.ini", "--frobnicate", "3", "--frobnicate=4", NULL};
    cr_expect_eq(cs_cli_args_table(&t, 4, argv, NULL, each, &s), 0);
    cr_assert(s.opt);
    cr_expect_str_eq(s.opt->name, "--frobnicate");
    cr_expect_str_eq(s.value, "4");
    cr_expect_eq(s.operands, 1);
}

/* The man page's section of cmd: from its .SS line to the next .SS or .SH. */
static char *man_section(const char *man, const char *cmd)
{
    char head[64];
    snprintf(head, sizeof head, "\n.SS \"%s", cmd);
    const char *a = strstr(man, head);
    cr_assert(a, "docs/chargesim.1 has no section for %s", cmd);
    a += strlen(head);
    const char *b = strstr(a, "\n.S");
    return strndup(a, b ? (size_t)(b - a) : strlen(a));
}

/* name as the man page writes it: each '-' as "\-". */
static void roff(const char *name, char *buf, size_t cap)
{
    size_t u = 0;
    for (const char *p = name; *p && u + 3 < cap; p++) {
        if (*p == '-')
            buf[u++] = '\\';
        buf[u++] = *p;
    }
    buf[u] = '\0';
}

Test(options, every_option_is_in_help_completion_the_man_page_and_the_parser)
{
    char path[512];
    snprintf(path, sizeof path, "%s/docs/chargesim.1", th_root());
    char *man = th_slurp(path, NULL);
    cr_assert(man, "%s", path);
    for (int i = 0; i < cs_opt_tables(); i++) {
        const cs_opt_table *t = cs_opt_table_at(i);
        char args[128], *out = NULL, *err = NULL;
        snprintf(args, sizeof args, "%s --help", t->cmd);
        cr_assert_eq(th_cli(args, &out, NULL), 0, "%s", args);
        char *help = text_of(t, cs_opt_help);
        cr_expect_str_eq(out, help, "%s --help is its table's", t->cmd);
        free(out);
        free(help);
        snprintf(args, sizeof args, "--options %s", t->cmd);
        cr_assert_eq(th_cli(args, &out, NULL), 0, "%s", args);
        char *section = man_section(man, t->cmd);
        for (int k = 0; k < t->n; k++) {
            const cs_opt *o = &t->opt[k];
            char line[128], r[128];
            snprintf(line, sizeof line, "%s %s", o->name, cs_opt_type_name(o->type));
            cr_expect(strncmp(out, line, strlen(line)) == 0 || strstr(out, line),
                      "chargesim --options %s lacks %s", t->cmd, o->name);
            roff(o->name, r, sizeof r);
            cr_expect(strcmp(o->name, "--help") == 0 || strstr(section, r),
                      "docs/chargesim.1 says nothing of %s %s", t->cmd, o->name);
            if (strcmp(t->cmd, "rules") == 0)
                continue; /* its one option is --help */
            snprintf(args, sizeof args, "%s %s", t->cmd, o->name);
            th_cli(args, NULL, &err);
            cr_expect(!err || !strstr(err, "unknown option"), "%s: %s", args, err);
            free(err);
            err = NULL;
        }
        free(section);
        free(out);
    }
    free(man);
}
