/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bin/chargesim: dispatches to the commands. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/cli.h"
#include "chargesim/options.h"
#include "chargesim/output.h"
#include "chargesim/parse.h"
#ifdef CS_MPI
#include "chargesim/sched_mpi.h"
#include "chargesim/supervise.h"
#endif

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
    "  draw EXPERIMENT.ini  one trial's battlefield as an SVG, PNG or PDF picture\n"
    "  rerun FILE.csv-metadata.json\n"
    "                       a CSV made again from its CSVW metadata alone\n"
    "  map EXPERIMENT.ini   threat map: p_success for every target position, CSV and picture\n"
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
    {"map", cs_cli_map},
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

/* `chargesim --options [CMD]`: the commands, or CMD's options one a line
 * (options.h, cs_opt_list), what the bash completion reads. */
static int list_options(const char *cmd)
{
    if (!cmd) {
        for (int i = 0; i < cs_opt_tables(); i++)
            printf("%s\n", cs_opt_table_at(i)->cmd);
        return 0;
    }
    const cs_opt_table *t = cs_opt_table_of(cmd);
    if (!t) {
        fprintf(stderr, "chargesim: unknown command '%s'\n", cmd);
        return 2;
    }
    cs_text out = {0};
    cs_opt_list(t, &out);
    if (out.s)
        fputs(out.s, stdout);
    free(out.s);
    return out.oom ? 1 : 0;
}

static int dispatch(int argc, char **argv)
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
    if (strcmp(argv[1], "--options") == 0)
        return checked_exit(list_options(argc > 2 ? argv[2] : NULL));
    cs_outfile_install_signal_cleanup();
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return checked_exit(commands[i].fn(argc - 2, argv + 2));
    cs_parse_suggest sg = {argv[1], NULL, 0};
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        cs_parse_suggest_offer(&sg, commands[i].name);
    if (sg.best)
        fprintf(stderr, "chargesim: unknown command '%s'; did you mean %s?\n\n%s", argv[1],
                sg.best, usage);
    else
        fprintf(stderr, "chargesim: unknown command '%s'\n\n%s", argv[1], usage);
    return 2;
}

#ifdef CS_MPI
/* bin/chargesim-mpi: every rank runs the command on the same arguments and
 * computes its share of the blocks (src/sim/sched/sched_mpi.c); rank 0 alone
 * reads the input files, whose bytes every rank parses (src/io/read/infile.c),
 * and alone speaks and writes (issue 22). The other ranks' standard output
 * and error go to /dev/null, and their output options to standard output:
 * they check the same bytes, so they reach the same verdict, but never
 * print it nor touch a file. A new option that names an output file belongs
 * in this list (map's --plot is dropped). */
static void silence_worker(int *argc, char **argv)
{
    static const char *const opts[] = {"-o", "--dist"};
    static const char *const to_stdout[] = {"-o=-", "--dist=-"};
    for (int i = 2; i < *argc; i++) {
        /* map's picture: a worker draws none (a picture cannot go to
         * standard output), so the option and its value are dropped. */
        if (strcmp(argv[i], "--plot") == 0 && i + 1 < *argc) {
            memmove(&argv[i], &argv[i + 2], (size_t)(*argc - i - 2 + 1) * sizeof *argv);
            *argc -= 2;
            i--;
            continue;
        }
        for (size_t k = 0; k < sizeof opts / sizeof opts[0]; k++) {
            size_t n = strlen(opts[k]);
            if (strcmp(argv[i], opts[k]) == 0 && i + 1 < *argc) {
                argv[++i] = (char *)"-";
                break;
            }
            if (strncmp(argv[i], opts[k], n) == 0 && argv[i][n] == '=') {
                argv[i] = (char *)to_stdout[k];
                break;
            }
        }
    }
    if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))
        return; /* then a worker's words are seen too, harmless */
}

/* The supervisor's word when its rank was killed by a signal it did not
 * pass on: the one line that says why the job ended with status 1. */
static int supervised(const cs_supervision *sv)
{
    if (sv->signal && !sv->asked) {
        char rank[32] = "an MPI rank not yet started";
        if (sv->rank >= 0)
            snprintf(rank, sizeof rank, "MPI rank %d", sv->rank);
        fprintf(stderr,
                "chargesim: %s was killed by signal %d (%s); the job ends with exit status "
                "1%s\n",
                rank, sv->signal, strsignal(sv->signal),
                sv->removed ? ", its temporary files removed" : "");
    }
    return sv->status;
}

/* A rank is a child of the launched process (src/cli/supervise.c), so that
 * a rank killed by a signal still ends the job with status 1 and leaves no
 * temporary file. */
int main(int argc, char **argv)
{
    cs_supervision sv;
    if (!cs_supervise(&sv))
        return supervised(&sv);
    int rank = cs_sched_mpi_start(&argc, &argv);
    cs_supervise_rank(rank);
    if (rank != 0)
        silence_worker(&argc, argv);
    return cs_sched_mpi_end(dispatch(argc, argv));
}
#else
/* A run that a signal stopped after its checkpoint (--checkpoint) ends by
 * that signal, as it would have without one. */
int main(int argc, char **argv)
{
    int rc = dispatch(argc, argv);
    cs_outfile_raise_deferred();
    return rc;
}
#endif
