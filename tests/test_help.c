/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Every command's --help against the options its parser accepts, both
 * ways: each option the help lists is one the command knows, and each
 * option the command knows is in its help. The parser's options are the
 * option-like string literals of src/cli/cmd_NAME.c that the binary does
 * not call unknown. Also: help texts print `%`, never `%%`,
 * --version / -V print the one version, and every ruleset's text cites its
 * page of docs/rules/. */
#include <criterion/criterion.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chargesim/registry.h"
#include "support/helpers.h"

#define MAX_OPTS 64

typedef struct opts {
    char name[MAX_OPTS][32];
    int n;
} opts;

static void add(opts *o, const char *s, size_t len)
{
    if (len >= sizeof o->name[0] || o->n == MAX_OPTS)
        return;
    for (int i = 0; i < o->n; i++)
        if (strlen(o->name[i]) == len && strncmp(o->name[i], s, len) == 0)
            return;
    memcpy(o->name[o->n], s, len);
    o->name[o->n++][len] = '\0';
}

static bool has(const opts *o, const char *s)
{
    for (int i = 0; i < o->n; i++)
        if (strcmp(o->name[i], s) == 0)
            return true;
    return false;
}

/* Options the help documents: the first words of its indented option
 * lines ("  -h, --help   this text"). */
static void documented(const char *help, opts *o)
{
    regex_t re;
    cr_assert_eq(regcomp(&re, "^ +(-[-a-zA-Z]+)(, (-[-a-zA-Z]+))?", REG_EXTENDED | REG_NEWLINE),
                 0);
    regmatch_t m[4];
    for (const char *p = help; regexec(&re, p, 4, m, 0) == 0; p += m[0].rm_eo) {
        add(o, p + m[1].rm_so, (size_t)(m[1].rm_eo - m[1].rm_so));
        if (m[3].rm_so >= 0)
            add(o, p + m[3].rm_so, (size_t)(m[3].rm_eo - m[3].rm_so));
    }
    regfree(&re);
}

/* Whether `chargesim CMD OPT` is refused as an unknown option. */
static bool unknown(const char *cmd, const char *opt)
{
    char args[256], *err = NULL;
    snprintf(args, sizeof args, "%s %s", cmd, opt);
    th_cli(args, NULL, &err);
    bool u = err && strstr(err, "unknown option");
    free(err);
    return u;
}

/* Options the parser accepts: option-like literals in the command's
 * source that the binary does not refuse. */
static void parsed(const char *cmd, opts *o)
{
    char path[512];
    snprintf(path, sizeof path, "%s/src/cli/cmd_%s.c", th_root(), cmd);
    char *src = th_slurp(path, NULL);
    cr_assert(src, "%s", path);
    regex_t re;
    cr_assert_eq(regcomp(&re, "\"(--?[a-zA-Z][-a-zA-Z]*)\"", REG_EXTENDED), 0);
    regmatch_t m[2];
    opts lit = {0};
    for (const char *p = src; regexec(&re, p, 2, m, 0) == 0; p += m[0].rm_eo)
        add(&lit, p + m[1].rm_so, (size_t)(m[1].rm_eo - m[1].rm_so));
    regfree(&re);
    free(src);
    for (int i = 0; i < lit.n; i++)
        if (!unknown(cmd, lit.name[i]))
            add(o, lit.name[i], strlen(lit.name[i]));
}

Test(help, every_commands_help_matches_its_parser)
{
    static const char *const cmds[] = {"run", "dice", "rules", "units", "draw", "rerun"};
    for (size_t c = 0; c < sizeof cmds / sizeof cmds[0]; c++) {
        char args[64], *out = NULL;
        snprintf(args, sizeof args, "%s --help", cmds[c]);
        cr_assert_eq(th_cli(args, &out, NULL), 0, "%s", args);
        cr_expect(!strstr(out, "%%"), "%s --help prints %%%%", cmds[c]);
        opts doc = {0}, par = {0};
        documented(out, &doc);
        parsed(cmds[c], &par);
        free(out);
        for (int i = 0; i < doc.n; i++)
            cr_expect(!unknown(cmds[c], doc.name[i]), "%s --help lists %s, which it refuses",
                      cmds[c], doc.name[i]);
        for (int i = 0; i < par.n; i++)
            cr_expect(has(&doc, par.name[i]), "%s accepts %s, which its --help omits", cmds[c],
                      par.name[i]);
        cr_expect(has(&doc, "--help") && has(&doc, "-h"), "%s: -h, --help", cmds[c]);
    }
}

Test(help, version_from_one_place)
{
    char *out = NULL;
    cr_assert_eq(th_cli("--version", &out, NULL), 0);
    cr_expect_str_eq(out, "chargesim " CS_VERSION "\n");
    free(out);
    cr_assert_eq(th_cli("-V", &out, NULL), 0);
    cr_expect_str_eq(out, "chargesim " CS_VERSION "\n");
    free(out);
    cr_assert_eq(th_cli("--help", &out, NULL), 0);
    cr_expect(strstr(out, "--version") && !strstr(out, "%%"), "%s", out);
    free(out);
}

/* Every ruleset's `chargesim rules NAME` text points to its page of
 * docs/rules/ (issue 29), which exists and is listed in the index; and it
 * cites nothing outside the repository. */
Test(help, every_ruleset_cites_its_docs_rules_page)
{
    char *index = NULL;
    char path[1024];
    snprintf(path, sizeof path, "%s/docs/rules/README.md", th_root());
    index = th_slurp(path, NULL);
    cr_assert(index, "%s: cannot read", path);
    for (int i = 0; i < cs_registry_count(); i++) {
        const cs_ruleset *rs = cs_registry_at(i);
        const char *at = strstr(rs->doc, "docs/rules/");
        cr_assert(at, "%s: its rules text cites no docs/rules/ page", rs->name);
        size_t n = strcspn(at, " ,;:)\n");
        snprintf(path, sizeof path, "%s/%.*s", th_root(), (int)n, at);
        cr_expect(access(path, R_OK) == 0, "%s cites %.*s, which does not exist", rs->name,
                  (int)n, at);
        char listed[64];
        snprintf(listed, sizeof listed, "`%s`", rs->name);
        cr_expect(strstr(index, listed), "docs/rules/README.md does not list %s", rs->name);
        cr_expect(!strstr(rs->doc, "shared/") && !strstr(rs->doc, "RULES.md") &&
                      !strstr(rs->doc, "reference-rules"),
                  "%s: its rules text cites a file outside the repository", rs->name);
    }
    free(index);
}

/* A preset of generic is one row of its table (src/rules/generic.c,
 * PRESETS; issue 33): each one the parameter offers has its line in the
 * table `chargesim rules generic` prints and its row in the table of
 * docs/rules/generic.md, and the swiftstride help names only presets. */
Test(help, every_generic_preset_has_its_rows)
{
    const cs_ruleset *rs = cs_registry_find("generic");
    cr_assert(rs);
    const cs_param_def *preset = &rs->params[cs_ruleset_param_index(rs, "preset")];
    char path[1024];
    snprintf(path, sizeof path, "%s/docs/rules/generic.md", th_root());
    char *page = th_slurp(path, NULL);
    cr_assert(page, "%s: cannot read", path);
    int n = 0;
    for (const char *const *c = preset->choices; *c; c++, n++) {
        char want[64];
        snprintf(want, sizeof want, "\n| `%s` |", *c);
        cr_expect(strstr(page, want), "docs/rules/generic.md: no row for preset %s", *c);
        snprintf(want, sizeof want, "\n  %-8s", *c);
        cr_expect(strstr(rs->doc, want), "rules generic: no line for preset %s", *c);
    }
    cr_expect_geq(n, 5);
    const char *swift = rs->params[cs_ruleset_param_index(rs, "swiftstride")].help;
    for (const char *p = swift; *p; p += strcspn(p, ";"), p += *p ? 2 : 0) {
        char name[32];
        snprintf(name, sizeof name, "%.*s", (int)strcspn(p, ":"), p);
        bool found = false;
        for (const char *const *c = preset->choices; *c; c++)
            found = found || strcmp(*c, name) == 0;
        cr_expect(found, "swiftstride help: '%s' is not a preset (%s)", name, swift);
    }
    free(page);
}
