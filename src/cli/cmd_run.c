/* `chargesim run`: an experiment file to summary, distribution and pivot tables. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "chargesim/output.h"
#include "chargesim/cli.h"
#include "chargesim/csvw.h"
#include "chargesim/expfile.h"
#include "chargesim/report.h"
#include "chargesim/sim.h"

static const char usage[] =
    "usage: chargesim run EXPERIMENT.ini [options]\n"
    "       chargesim run - --set experiment.ruleset=NAME [options]   (no file)\n"
    "\n"
    "Runs every sweep point of the experiment and writes one row per point:\n"
    "the swept keys, trials, successes, p_success, ci_low, ci_high, p_<outcome>\n"
    "for each outcome, mean_<metric> for each measured quantity, and method.\n"
    "\n"
    "options:\n"
    "  --set K=V          override a key: section.key=value, or key=value for [params]\n"
    "                     (repeatable; values take the file's syntax, e.g. distance=1..12)\n"
    "  --trials N         trials (or sampled layouts) per sweep point\n"
    "  --seed S           the seed; the same seed gives the same bytes on any thread count\n"
    "  --threads T        worker threads (default: all cores)\n"
    "  --method M         auto (default: the best the scenario allows), mc, conditional\n"
    "                     (exact dice averaged over sampled layouts) or exact (fixed layout)\n"
    "  --confidence C     interval confidence, default 0.95\n"
    "  --precision H      add blocks until every point's interval half-width is at most H\n"
    "                     (a proportion, e.g. 0.001, or a percentage, e.g. 0.1%)\n"
    "  --format F         csv (default), md or tex\n"
    "  --pivot ROW:COL[:COLUMN]\n"
    "                     a table of COLUMN (default p_success; probabilities in %):\n"
    "                     rows one swept key, columns another\n"
    "  -o FILE            write to FILE (default: standard output); a CSV gets\n"
    "                     FILE-metadata.json beside it (CSVW: columns, provenance)\n"
    "  --dist FILE        also write distributions in long form (CSV): swept keys,\n"
    "                     metric, value, count, p, method\n"
    "  --quiet            no progress bar (it shows only on a terminal, after 1 s)\n"
    "  -h, --help         this text\n"
    "\n"
    "Exit status: 0 done, 2 bad input or usage, 1 runtime failure. Output files are\n"
    "written under a temporary name and renamed, never left half-written.\n";

#define MAX_SETS 256

/* Whether two output paths name one file (then one output would overwrite
 * the other after both were written). */
static bool same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (strcmp(a, b) == 0)
        return true;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

int cs_cli_run(int argc, char **argv)
{
    const char *path = NULL, *out = NULL, *dist = NULL, *pivot = NULL, *v;
    const char *sets[MAX_SETS];
    char *owned[MAX_SETS];
    int n_sets = 0, n_owned = 0, threads = 0, rc = 0;
    bool quiet = false;
    cs_format fmt = CS_FORMAT_CSV;
    static const char *const exp_opts[] = {"--trials", "--seed", "--method", "--confidence",
                                           "--precision"};

    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        bool matched = false;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(usage, stdout);
            return 0;
        }
        for (int k = 0; k < 5 && !matched; k++) {
            if (!cs_cli_opt(argc, argv, &i, exp_opts[k], &v))
                continue;
            matched = true;
            if (!v)
                return cs_cli_fail("run", CS_EINPUT, "%s needs a value", exp_opts[k]);
            if (n_sets >= MAX_SETS)
                return cs_cli_fail("run", CS_EINPUT, "too many overrides");
            size_t len = strlen(v) + 32;
            char *s = malloc(len);
            if (!s)
                return cs_cli_fail("run", CS_ENOMEM, "out of memory");
            snprintf(s, len, "experiment.%s=%s", exp_opts[k] + 2, v);
            owned[n_owned++] = s;
            sets[n_sets++] = s;
        }
        if (matched)
            continue;
        if (cs_cli_opt(argc, argv, &i, "--set", &v)) {
            if (!v) {
                rc = cs_cli_fail("run", CS_EINPUT, "--set needs K=V");
                goto done;
            }
            if (n_sets >= MAX_SETS) {
                rc = cs_cli_fail("run", CS_EINPUT, "too many overrides");
                goto done;
            }
            sets[n_sets++] = v;
        } else if (cs_cli_opt(argc, argv, &i, "--threads", &v)) {
            uint64_t t;
            if (!v || !cs_cli_parse_u64(v, &t) || t < 1 || t > 1024) {
                rc = cs_cli_fail("run", CS_EINPUT, "--threads '%s': expected 1 to 1024",
                                 v ? v : "");
                goto done;
            }
            threads = (int)t;
        } else if (cs_cli_opt(argc, argv, &i, "--format", &v)) {
            if (!v || !cs_format_parse(v, &fmt)) {
                rc = cs_cli_fail("run", CS_EINPUT, "--format '%s': expected csv, md or tex",
                                 v ? v : "");
                goto done;
            }
        } else if (cs_cli_opt(argc, argv, &i, "--pivot", &v)) {
            if (!v || !strchr(v, ':')) {
                rc = cs_cli_fail("run", CS_EINPUT, "--pivot '%s': expected ROW:COL[:COLUMN]",
                                 v ? v : "");
                goto done;
            }
            pivot = v;
        } else if (cs_cli_opt(argc, argv, &i, "-o", &v)) {
            if (!v) {
                rc = cs_cli_fail("run", CS_EINPUT, "-o needs a file name");
                goto done;
            }
            out = v;
        } else if (cs_cli_opt(argc, argv, &i, "--dist", &v)) {
            if (!v) {
                rc = cs_cli_fail("run", CS_EINPUT, "--dist needs a file name");
                goto done;
            }
            dist = v;
        } else if (strcmp(a, "--quiet") == 0) {
            quiet = true;
        } else if (a[0] == '-' && a[1] != '\0') {
            rc = cs_cli_fail("run", CS_EINPUT, "unknown option '%s' (see chargesim run --help)",
                             a);
            goto done;
        } else if (path) {
            rc = cs_cli_fail("run", CS_EINPUT, "one experiment file at a time ('%s' and '%s')",
                             path, a);
            goto done;
        } else {
            path = a;
        }
    }
    if (!path) {
        fputs(usage, stderr);
        rc = 2;
        goto done;
    }
    if (out && dist && strcmp(out, "-") != 0 && same_file(out, dist)) {
        rc = cs_cli_fail("run", CS_EINPUT, "-o and --dist name the same file '%s'", dist);
        goto done;
    }

    cs_experiment e;
    cs_error err;
    cs_status st;
    if ((st = cs_output_check_inputs(out, "-o", &path, 1, &err)) != CS_OK ||
        (st = cs_output_check_inputs(dist, "--dist", &path, 1, &err)) != CS_OK) {
        rc = cs_cli_fail_err("run", &err);
        goto done;
    }
    st = cs_expfile_load(path, sets, n_sets, &e, &err);
    if (st != CS_OK) {
        rc = cs_cli_fail_err("run", &err);
        goto done;
    }
    /* Outputs are opened before the run: an unwritable path fails at once. */
    cs_outfile of, df = {0}, mf = {0}, dmf = {0};
    char *mpath = NULL, *dmpath = NULL;
    if ((st = cs_outfile_open(&of, out, &err)) != CS_OK) {
        rc = cs_cli_fail_err("run", &err);
        cs_experiment_free(&e);
        goto done;
    }
    if (dist)
        st = cs_outfile_open(&df, dist, &err);
    /* A CSV file gets its CSVW metadata beside it, committed with it. */
    if (st == CS_OK && fmt == CS_FORMAT_CSV && cs_outfile_is_regular(&of))
        st = (mpath = cs_csvw_path(out)) ? cs_outfile_open(&mf, mpath, &err)
                                         : cs_error_set(&err, CS_ENOMEM, "out of memory");
    if (st == CS_OK && dist && cs_outfile_is_regular(&df))
        st = (dmpath = cs_csvw_path(dist)) ? cs_outfile_open(&dmf, dmpath, &err)
                                           : cs_error_set(&err, CS_ENOMEM, "out of memory");
    if (st != CS_OK) {
        rc = cs_cli_fail_err("run", &err);
        cs_outfile_abort(&of);
        cs_outfile_abort(&df);
        cs_outfile_abort(&mf);
        free(mpath);
        free(dmpath);
        cs_experiment_free(&e);
        goto done;
    }
    cs_progress prog;
    cs_progress_init(&prog, quiet);
    cs_run_opts opts = {threads, dist != NULL, cs_progress_update, &prog};
    cs_run_result res;
    st = cs_sim_run(&e, &opts, &res, &err);
    cs_progress_finish(&prog);
    cs_table *tables = NULL;
    int n_tables = 0;
    if (st == CS_OK) {
        if (pivot) {
            char row[256], col[256];
            const char *colon = strchr(pivot, ':'), *what = strchr(colon + 1, ':');
            snprintf(row, sizeof row, "%.*s", (int)(colon - pivot), pivot);
            snprintf(col, sizeof col, "%.*s", (int)(what ? what - colon - 1 : 255), colon + 1);
            st = cs_report_pivot_column(&res, row, col, what ? what + 1 : "p_success", fmt,
                                        &tables, &n_tables, &err);
        } else {
            tables = calloc(1, sizeof *tables);
            n_tables = 1;
            st = tables ? cs_report_summary(&res, fmt, tables) : CS_ENOMEM;
            if (st != CS_OK)
                cs_error_set(&err, st, "out of memory");
        }
    }
    cs_csvw_source meta = {pivot ? CS_CSVW_PIVOT : CS_CSVW_SUMMARY, "run", argc, argv, out,
                           strcmp(path, "-") ? path : NULL, &res, pivot, NULL, 0, 0, 0.0};
    bool no_rows = true;
    for (int t = 0; t < n_tables; t++)
        no_rows &= tables[t].nrows == 0;
    if (st == CS_OK && no_rows)
        st = cs_error_set(&err, CS_EINPUT, "%s: the run has no rows to write; nothing written",
                          path);
    for (int t = 0; st == CS_OK && fmt != CS_FORMAT_CSV && t < n_tables; t++) {
        char line[8192];
        if ((st = cs_csvw_note(&meta, line, sizeof line, &err)) == CS_OK &&
            cs_table_set_note(&tables[t], "%s%s%s", tables[t].note ? tables[t].note : "",
                              tables[t].note ? " " : "", line))
            st = cs_error_set(&err, CS_ENOMEM, "out of memory");
    }
    if (st == CS_OK && mpath)
        st = cs_csvw_write(mf.f, &meta, &tables[0], &err);
    for (int t = 0; st == CS_OK && t < n_tables; t++) {
        if (t && fmt != CS_FORMAT_CSV)
            fputc('\n', of.f);
        if (cs_table_write(&tables[t], fmt, of.f) != CS_OK)
            st = cs_outfile_write_error(&of, &err);
    }
    if (st == CS_OK && dist) {
        cs_table dt;
        st = cs_report_dist(&res, &dt);
        if (st == CS_OK && cs_table_write(&dt, CS_FORMAT_CSV, df.f) != CS_OK)
            st = cs_outfile_write_error(&df, &err);
        else if (st != CS_OK)
            cs_error_set(&err, st, "out of memory");
        cs_csvw_source dmeta = meta;
        dmeta.kind = CS_CSVW_DIST;
        dmeta.csv_path = dist;
        dmeta.pivot = NULL;
        if (st == CS_OK && dmpath)
            st = cs_csvw_write(dmf.f, &dmeta, &dt, &err);
        cs_table_free(&dt);
    }
    /* Every file of the run, or none (output.h). */
    cs_outfile *const all[] = {&of, &mf, &df, &dmf};
    if (st == CS_OK)
        st = cs_outfile_commit_all(all, 4, &err);
    free(mpath);
    free(dmpath);
    if (st != CS_OK) {
        for (int k = 0; k < 4; k++)
            cs_outfile_abort(all[k]);
        rc = cs_cli_fail_err("run", &err);
    } else if (e.precision > 0.0 && !res.precision_met) {
        fprintf(stderr,
                "chargesim run: warning: some points stopped at %llu trials before reaching "
                "the requested precision\n",
                (unsigned long long)CS_SIM_MAX_TRIALS);
    }
    for (int t = 0; t < n_tables; t++)
        cs_table_free(&tables[t]);
    free(tables);
    if (res.point)
        cs_run_result_free(&res);
    cs_experiment_free(&e);
done:
    for (int k = 0; k < n_owned; k++)
        free(owned[k]);
    return rc;
}
