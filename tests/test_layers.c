/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `make layers` (scripts/layers.sh, issue 16): run on a scratch copy of the
 * tree, it passes on the tree as it is and fails, naming file, line and
 * both layers, when an include points up or a header has no layer.
 * `make archdoc` (scripts/archdoc.sh, issue 29) likewise: it passes on the
 * tree and lists exactly the files docs/ARCHITECTURE.md misses or names in
 * vain. `make headers` (scripts/headers.sh, issue 33) passes on the tree
 * and names a header whose function lives in a file it does not name.
 * The loop check of `make layers` (issue 43) names files whose objects call
 * each other in a loop. `make headers` also reads the objects' exported
 * names (scripts/prefixes.sh, issue 51): a name that is not its file's, its
 * family's or kept in docs/ARCHITECTURE.md is named, and so is a kept one no
 * longer needed. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "support/helpers.h"

static char dir[512];
static char *out;

static void cleanup(void)
{
    free(out);
    out = NULL;
    if (dir[0]) {
        char cmd[600];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        cr_expect_eq(system(cmd), 0);
        dir[0] = '\0';
    }
}

TestSuite(layers, .fini = cleanup);

/* A copy of what `make layers` and `make archdoc` read: the Makefile, the
 * scripts, src/, include/, tests/ (archdoc's bare names) and the doc; the
 * repository's other folders and files, which comments name, linked. */
static void copy_tree(void)
{
    const char *tmp = th_tmpdir();
    cr_assert(tmp);
    snprintf(dir, sizeof dir, "%s", tmp);
    const char *root = th_root();
    char cmd[8192];
    snprintf(cmd, sizeof cmd,
             "cp -R '%s/Makefile' '%s/src' '%s/include' '%s/tests' '%s/' && mkdir '%s/scripts' "
             "'%s/docs' && cp '%s/scripts/layers.sh' '%s/scripts/archdoc.sh' "
             "'%s/scripts/headers.sh' '%s/scripts/' && cp '%s/docs/ARCHITECTURE.md' '%s/docs/' && "
             "cd '%s' && for f in data web experiments scripts/* docs/*; do "
             "[ -e '%s'/\"$f\" ] || ln -s '%s'/\"$f\" '%s'/\"$f\"; done",
             root, root, root, root, dir, dir, dir, root, root, root, dir, root, dir, root, dir,
             root, dir);
    cr_assert_eq(system(cmd), 0, "%s", cmd);
}

/* `make TARGET` in the copy (outside the calling make's jobserver); its
 * exit status, stdout and stderr in `out`. The copy has no objects: its
 * `make layers` checks the includes only (LAYERS_OBJ empty), and the loop
 * check is run on objects compiled here (layers.loop_*). */
static int make_target(const char *target)
{
    char log[1100], cmd[3000], name[64];
    snprintf(name, sizeof name, "%s", target);
    name[strcspn(name, " ")] = '\0';
    snprintf(log, sizeof log, "%s/%s.log", dir, name);
    snprintf(cmd, sizeof cmd,
             "env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -s -C '%s' %s >'%s' 2>&1", dir,
             target, log);
    int st = system(cmd);
    out = th_slurp(log, NULL);
    cr_assert(out);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static int make_layers(void)
{
    return make_target("layers LAYERS_OBJ=");
}

Test(layers, clean_tree_passes)
{
    copy_tree();
    cr_expect_eq(make_layers(), 0, "%s", out);
    cr_expect(strstr(out, "every include points down"), "%s", out);
}

Test(layers, upward_include_fails_with_file_line_and_layers)
{
    copy_tree();
    /* A core file reaching into sim, and a rules header reaching into io. */
    th_write_file(dir, "src/core/upward.c", "/* planted */\n#include \"chargesim/sched.h\"\n");
    th_write_file(dir, "src/rules/upward2.c", "#include \"chargesim/upward2.h\"\n");
    th_write_file(dir, "include/chargesim/upward2.h",
                  "/* planted */\n\n#include \"chargesim/csvw.h\"\n");
    cr_expect_neq(make_layers(), 0, "%s", out);
    cr_expect(strstr(out, "src/core/upward.c:2: upward.c (core) includes sched.h (sim:sched)\n"), "%s",
              out);
    cr_expect(strstr(out, "include/chargesim/upward2.h:3: upward2.h (rules) includes csvw.h "
                          "(io:write)\n"),
              "%s", out);
    /* The including .c is fine: a rules file including a rules header. */
    cr_expect(!strstr(out, "src/rules/upward2.c:"), "%s", out);
}

Test(layers, sideways_and_down_pass)
{
    copy_tree();
    th_write_file(dir, "src/io/write/down.c",
                  "#include \"chargesim/dice.h\"\n#include \"chargesim/table.h\"\n");
    th_write_file(dir, "src/sim/model/down2.c", "#include \"chargesim/ruleset.h\"\n");
    make_layers();
    cr_expect(!strstr(out, "down.c"), "%s", out);
    cr_expect(!strstr(out, "down2.c"), "%s", out);
}

Test(layers, header_without_a_layer_fails)
{
    copy_tree();
    th_write_file(dir, "include/chargesim/orphan.h", "/* no .c, not listed */\n");
    cr_expect_neq(make_layers(), 0, "%s", out);
    cr_expect(strstr(out, "include/chargesim/orphan.h: no layer"), "%s", out);
}

Test(layers, archdoc_clean_tree_passes)
{
    copy_tree();
    cr_expect_eq(make_target("archdoc"), 0, "%s", out);
    cr_expect(strstr(out, "names every file under src/ and include/"), "%s", out);
}

/* A comment naming a path that does not exist (left from before a move) is
 * listed with its file and line; a pattern or a placeholder in capitals is
 * not a path. */
Test(layers, archdoc_lists_a_comment_naming_a_gone_path)
{
    copy_tree();
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "cd '%s' && printf '%%s\\n' '/* see src/io/units_gone.c, tests/nope.py */' "
             "'/* experiments/mappings/NAME.ini and src/core/geom*.c name no file */' "
             ">>src/core/rng.c",
             dir);
    cr_assert_eq(system(cmd), 0, "%s", cmd);
    cr_expect_neq(make_target("archdoc"), 0, "%s", out);
    cr_expect(strstr(out, "comments name paths that do not exist"), "%s", out);
    cr_expect(strstr(out, "src/io/units_gone.c (src/core/rng.c:"), "%s", out);
    cr_expect(strstr(out, "tests/nope.py (src/core/rng.c:"), "%s", out);
    cr_expect_null(strstr(out, "NAME.ini"), "%s", out);
    cr_expect_null(strstr(out, "geom*.c (src"), "%s", out);
}

/* A new file the doc does not name, a file the doc names that is gone, a
 * bare name and a glob that name nothing: each is listed, and only those. */
Test(layers, archdoc_lists_missing_and_extra_files)
{
    copy_tree();
    th_write_file(dir, "src/sim/newmod.c", "/* planted */\n");
    th_write_file(dir, "include/chargesim/newmod.h", "/* planted */\n");
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "cd '%s' && rm src/core/parse.c && "
             "printf '%%s\\n' '' 'The gone `geom.c`, `src/io/gone.c` and `src/core/geom*.c`.' "
             "'A system header <stdio.h> and the folder `src/gone/` are not ours.' "
             ">>docs/ARCHITECTURE.md",
             dir);
    cr_assert_eq(system(cmd), 0, "%s", cmd);
    cr_expect_neq(make_target("archdoc"), 0, "%s", out);
    const char *missing = strstr(out, "docs/ARCHITECTURE.md: missing:");
    const char *extra = strstr(out, "docs/ARCHITECTURE.md: extra:");
    cr_assert(missing && extra && missing < extra, "%s", out);
    cr_expect(strstr(missing, "\n  include/chargesim/newmod.h\n  src/sim/newmod.c\n"
                              "docs/ARCHITECTURE.md: extra:"),
              "%s", out);
    cr_expect(strstr(extra, "\n  src/core/parse.c (line "), "%s", out);
    cr_expect(strstr(extra, "\n  src/io/gone.c (line "), "%s", out);
    cr_expect(strstr(extra, "\n  src/core/geom*.c (line "), "%s", out);
    cr_expect(strstr(extra, "\n  src/gone/ (line "), "%s", out);
    cr_expect(strstr(extra, "\n  geom.c (docs/ARCHITECTURE.md line "), "%s", out);
    cr_expect(!strstr(out, "stdio.h"), "%s", out);
    /* parse.c is named but gone: extra, never missing. */
    cr_expect(!strstr(missing, "parse.c") || strstr(missing, "parse.c") > extra, "%s", out);
}

Test(layers, headers_clean_tree_passes)
{
    copy_tree();
    cr_expect_eq(make_target("headers LAYERS_OBJ="), 0, "%s", out);
    cr_expect(strstr(out, "every header holds its own .c"), "%s", out);
}

/* A function declared in one module's header but defined in another file
 * that the header does not name, and one defined nowhere: both named. A
 * header that names the file, or whose own .c holds it, passes. */
Test(layers, headers_name_where_their_code_lives)
{
    copy_tree();
    th_write_file(dir, "include/chargesim/stray.h",
                  "/* planted */\nint cs_stray_here(void);\n"
                  "int cs_stray_away(void);\nint cs_stray_nowhere(void);\n");
    th_write_file(dir, "src/sim/stray.c",
                  "#include \"chargesim/stray.h\"\nint cs_stray_here(void)\n"
                  "{\n    return 1;\n}\n");
    th_write_file(dir, "src/sim/elsewhere.c",
                  "#include \"chargesim/stray.h\"\nint cs_stray_away(void)\n"
                  "{\n    return 2;\n}\n");
    cr_expect_neq(make_target("headers LAYERS_OBJ="), 0, "%s", out);
    cr_expect(strstr(out, "include/chargesim/stray.h: cs_stray_away is defined in "
                          "src/sim/elsewhere.c, which it does not name\n"),
              "%s", out);
    cr_expect(strstr(out, "include/chargesim/stray.h: cs_stray_nowhere is declared but defined "
                          "nowhere under src/\n"),
              "%s", out);
    cr_expect(!strstr(out, "cs_stray_here"), "%s", out);
    free(out);
    out = NULL;
    th_write_file(dir, "include/chargesim/stray.h",
                  "/* cs_stray_away: src/sim/elsewhere.c */\n"
                  "int cs_stray_here(void);\nint cs_stray_away(void);\n");
    cr_expect_eq(make_target("headers LAYERS_OBJ="), 0, "%s", out);
}

/* The web edition's layer (src/web/, issue 31) stands beside cli: it may
 * include io's readers and builders (src/io/read/, src/io/units/), never
 * io's writers (src/io/write/, src/io/draw/) nor cli, and nothing but web
 * includes it (issue 43). A reader includes no writer either. */
Test(layers, web_stands_on_sim_and_io_readers_never_writers)
{
    copy_tree();
    th_write_file(dir, "src/web/fine.c",
                  "#include \"chargesim/sched.h\"\n#include \"chargesim/web.h\"\n"
                  "#include \"chargesim/expfile.h\"\n#include \"chargesim/unitsrc.h\"\n");
    th_write_file(dir, "src/web/bad.c",
                  "/* planted */\n#include \"chargesim/output.h\"\n"
                  "#include \"chargesim/cli.h\"\n#include \"chargesim/heatmap.h\"\n");
    th_write_file(dir, "src/cli/usesweb.c", "#include \"chargesim/web.h\"\n");
    th_write_file(dir, "src/io/read/usesweb2.c", "#include \"chargesim/webjson.h\"\n");
    th_write_file(dir, "src/io/units/writes.c", "#include \"chargesim/csvw.h\"\n");
    th_write_file(dir, "src/io/stray.c", "/* in no folder of io */\n");
    cr_expect_neq(make_layers(), 0, "%s", out);
    cr_expect(strstr(out, "src/web/bad.c:2: bad.c (web) includes output.h (io:write)\n"), "%s",
              out);
    cr_expect(strstr(out, "src/web/bad.c:3: bad.c (web) includes cli.h (cli)\n"), "%s", out);
    cr_expect(strstr(out, "src/web/bad.c:4: bad.c (web) includes heatmap.h (io:write)\n"), "%s",
              out);
    cr_expect(strstr(out, "src/cli/usesweb.c:1: usesweb.c (cli) includes web.h (web)\n"), "%s",
              out);
    cr_expect(strstr(out, "src/io/read/usesweb2.c:1: usesweb2.c (io:read) includes webjson.h "
                          "(web)\n"),
              "%s", out);
    cr_expect(strstr(out, "src/io/units/writes.c:1: writes.c (io:read) includes csvw.h "
                          "(io:write)\n"),
              "%s", out);
    cr_expect(strstr(out, "src/io/stray.c: not in a folder of src/"), "%s", out);
    cr_expect(!strstr(out, "fine.c"), "%s", out);
}

/* Compiles plant/NAME.c of the copy to build/src/core/NAME.o, as the build
 * names an object of src/core/NAME.c. */
static void compile_planted(const char *name, const char *text)
{
    char rel[256], cmd[2048];
    snprintf(rel, sizeof rel, "plant/%s.c", name);
    th_write_file(dir, rel, text);
    snprintf(cmd, sizeof cmd, "cd '%s' && cc -c plant/%s.c -o build/src/core/%s.o", dir, name,
             name);
    cr_assert_eq(system(cmd), 0, "%s", cmd);
}

/* scripts/layers.sh on the objects given: its exit status and output. */
static int layers_on_objects(const char *objects)
{
    char log[1100], cmd[3000];
    snprintf(log, sizeof log, "%s/loops.log", dir);
    snprintf(cmd, sizeof cmd, "cd '%s' && scripts/layers.sh '%s' %s >'%s' 2>&1", dir, dir,
             objects, log);
    int st = system(cmd);
    free(out);
    out = th_slurp(log, NULL);
    cr_assert(out);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

/* make layers reads the objects' symbols with nm (issue 43): three files
 * that call each other round (a -> b -> c -> a) and two that call each
 * other directly (e <-> f) are two loops, each named with the symbol of
 * every call and the whole set of its files; a file that only calls into a
 * loop (d) is in none. With c's call back gone, no loop is left. */
Test(layers, loop_of_objects_fails_naming_it)
{
    copy_tree();
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s/plant' '%s/build/src/core'", dir, dir);
    cr_assert_eq(system(cmd), 0);
    compile_planted("loop_a", "int cs_loop_b(int);\nint cs_loop_a(int n) { return n ? cs_loop_b(n - 1) : 0; }\n");
    compile_planted("loop_b", "int cs_loop_c(int);\nint cs_loop_b(int n) { return n ? cs_loop_c(n - 1) : 1; }\n");
    compile_planted("loop_c", "int cs_loop_a(int);\nint cs_loop_c(int n) { return n ? cs_loop_a(n - 1) : 2; }\n");
    compile_planted("loop_d", "int cs_loop_a(int);\nint cs_loop_d(int n) { return cs_loop_a(n); }\n");
    compile_planted("loop_e", "int cs_loop_f(int);\nint cs_loop_e(int n) { return n ? cs_loop_f(n - 1) : 3; }\n");
    compile_planted("loop_f", "int cs_loop_e(int);\nint cs_loop_f(int n) { return n ? cs_loop_e(n - 1) : 4; }\n");
    cr_expect_eq(layers_on_objects("build/src/core/*.o"), 1, "%s", out);
    cr_expect(strstr(out, "loop: src/core/loop_a.c -> src/core/loop_b.c (cs_loop_b) -> "
                          "src/core/loop_c.c (cs_loop_c) -> src/core/loop_a.c (cs_loop_a)\n"
                          "  the files that call each other: src/core/loop_a.c, "
                          "src/core/loop_b.c, src/core/loop_c.c\n"),
              "%s", out);
    cr_expect(strstr(out, "loop: src/core/loop_e.c -> src/core/loop_f.c (cs_loop_f) -> "
                          "src/core/loop_e.c (cs_loop_e)\n"),
              "%s", out);
    cr_expect(!strstr(out, "loop_d"), "%s", out);
    cr_expect(strstr(out, "layers: files of src/ call each other in a loop"), "%s", out);

    compile_planted("loop_c", "int cs_loop_c(int n) { return n; }\n");
    cr_expect_eq(layers_on_objects("build/src/core/loop_[a-d].o"), 0, "%s", out);
    cr_expect(strstr(out, "layers: no files of src/ call each other in a loop"), "%s", out);
}

/* make headers reads each object's exported names (issue 51): a file
 * src/core/badname.c exports its own (cs_badname, cs_badname_ok) and one
 * badly named (cs_wrong_name), which is named with its file. Kept in the
 * doc's "Exported names" table, it passes; a prefix the table keeps that no
 * name needs (cs_gone_), and a row naming no file, are named in turn. */
Test(layers, prefixes_name_a_badly_named_export)
{
    copy_tree();
    th_write_file(dir, "src/core/badname.c",
                  "int cs_badname(void);\nint cs_badname_ok(void);\nint cs_wrong_name(void);\n"
                  "int cs_badname(void) { return 0; }\nint cs_badname_ok(void) { return 1; }\n"
                  "int cs_wrong_name(void) { return 2; }\n");
    char cmd[1200];
    snprintf(cmd, sizeof cmd,
             "cd '%s' && mkdir -p build/src/core && cc -c src/core/badname.c "
             "-o build/src/core/badname.o",
             dir);
    cr_assert_eq(system(cmd), 0, "%s", cmd);
    const char *target = "headers LAYERS_OBJ=build/src/core/badname.o";
    cr_expect_neq(make_target(target), 0, "%s", out);
    cr_expect(strstr(out, "src/core/badname.c: cs_wrong_name is not cs_STEM_..., a family STEM "
                          "begins, or kept in docs/ARCHITECTURE.md\n"),
              "%s", out);
    cr_expect(!strstr(out, "cs_badname"), "%s", out);
    cr_expect(!strstr(out, "which no name of it needs"), "%s", out);
    free(out);
    out = NULL;

    snprintf(cmd, sizeof cmd,
             "cd '%s' && printf '%%s\\n' '' '## Exported names' '' '| file | prefixes kept | why |' "
             "'|---|---|---|' '| `src/core/badname.c` | `cs_wrong_`, `cs_gone_` | planted |' "
             "'| `src/core/nofile.c` | `cs_x_` | planted |' >>docs/ARCHITECTURE.md",
             dir);
    cr_assert_eq(system(cmd), 0, "%s", cmd);
    cr_expect_neq(make_target(target), 0, "%s", out);
    cr_expect(!strstr(out, "cs_wrong_name"), "%s", out);
    cr_expect(strstr(out, "docs/ARCHITECTURE.md: Exported names: src/core/badname.c keeps "
                          "cs_gone_, which no name of it needs\n"),
              "%s", out);
    cr_expect(strstr(out, "docs/ARCHITECTURE.md: Exported names: src/core/nofile.c is no file or "
                          "folder\n"),
              "%s", out);
    cr_expect(!strstr(out, "cs_wrong_,"), "%s", out);
    free(out);
    out = NULL;

    snprintf(cmd, sizeof cmd,
             "cd '%s' && sed -i '/cs_gone_/s/, `cs_gone_`//; /nofile/d' docs/ARCHITECTURE.md", dir);
    cr_assert_eq(system(cmd), 0, "%s", cmd);
    cr_expect_eq(make_target(target), 0, "%s", out);
    cr_expect(strstr(out, "prefixes: every exported name names its file"), "%s", out);
}
