/* bin/chargesim: dispatches to the commands. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "chargesim/output.h"
#include "chargesim/cli.h"

static const char usage[] =
    "chargesim — charge odds for tabletop wargames: exact where possible, Monte Carlo\n"
    "with honest intervals where not, reproducible from a seed.\n"
    "\n"
    "usage: chargesim COMMAND [ARGS]   (chargesim COMMAND --help for each)\n"
    "       chargesim --version | -V\n"
    "\n"
    "commands:\n"
    "  run EXPERIMENT.ini   run an experiment's sweep: CSV, Markdown or LaTeX tables\n"
    "  compare EXPERIMENT.ini --b K=V\n"
    "                       what a change does: paired B - A on common random numbers\n"
    "  dice EXPR            exact or sampled distribution of a dice expression\n"
    "  rules [NAME]         the rulesets, their parameters, outcomes and readings\n"
    "  units SOURCE         per-unit charge odds from a units CSV or BattleScribe data\n"
    "  draw EXPERIMENT.ini  one trial's battlefield as an SVG picture\n"
    "  rerun FILE.csv-metadata.json\n"
    "                       a CSV made again from its CSVW metadata alone\n"
    "\n"
    "exit status: 0 done, 2 bad input or usage, 1 runtime failure\n";

typedef struct command {
    const char *name;
    int (*fn)(int, char **);
} command;

static const command commands[] = {
    {"run", cs_cli_run},
    {"compare", cs_cli_compare},
    {"dice", cs_cli_dice},
    {"rules", cs_cli_rules},
    {"units", cs_cli_units},
    {"draw", cs_cli_draw},
    {"rerun", cs_cli_rerun},
};

/* A command that printed to standard output (a listing, --help) reports
 * success only if the text got out: a full disk or closed pipe is a runtime
 * failure, never a silent exit 0. */
static int checked_exit(int rc)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "chargesim: writing to standard output: %s\n", strerror(errno));
        return rc ? rc : 1;
    }
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs(usage, stderr);
        return 2;
    }
    if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0 ||
        strcmp(argv[1], "help") == 0) {
        fputs(usage, stdout);
        return checked_exit(0);
    }
    if (strcmp(argv[1], "-V") == 0 || strcmp(argv[1], "--version") == 0) {
        /* One place: the Makefile's VERSION, also in every metadata file. */
        fputs("chargesim " CS_VERSION "\n", stdout);
        return checked_exit(0);
    }
    cs_outfile_install_signal_cleanup();
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return checked_exit(commands[i].fn(argc - 2, argv + 2));
    fprintf(stderr, "chargesim: unknown command '%s'\n\n%s", argv[1], usage);
    return 2;
}
