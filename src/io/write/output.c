/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Every file the program writes; see include/chargesim/output.h. */
#define _DEFAULT_SOURCE
#include "chargesim/output.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef CS_COVERAGE
#include <gcov.h>
#endif

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif
#ifndef NAME_MAX
#define NAME_MAX 255
#endif

/* Temporary names alive now, for the signal handler: it may only call
 * async-signal-safe functions, so the names sit in fixed buffers and a slot
 * is published (flag set) after its name is complete. */
#define MAX_LIVE 32
static char live[MAX_LIVE][PATH_MAX];
static volatile sig_atomic_t live_used[MAX_LIVE];

/* Told of every temporary name as it comes and goes (cs_outfile_observe). */
static void (*observer)(const char *name, bool live);

void cs_outfile_observe(void (*fn)(const char *name, bool live))
{
    observer = fn;
}

static void track(const char *name, bool on)
{
    if (observer)
        observer(name, on);
    for (int i = 0; i < MAX_LIVE; i++) {
        if (on && !live_used[i] && strlen(name) < sizeof live[i]) {
            strcpy(live[i], name);
            live_used[i] = 1;
            return;
        }
        if (!on && live_used[i] && strcmp(live[i], name) == 0) {
            live_used[i] = 0;
            return;
        }
    }
}

/* While deferring (cs_outfile_defer_signals), the first SIGINT or SIGTERM
 * caught, which the run answers at its next safe point; 0 when none. Lock-
 * free atomics, not volatile sig_atomic_t: the run's worker threads read
 * the flag while the handler, on whichever thread the signal lands, writes
 * it (C17 7.14.1.1 allows a handler lock-free atomics). */
static atomic_int deferring, deferred;
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "a signal handler may touch only lock-free atomics");

static void die_of(int sig)
{
    for (int i = 0; i < MAX_LIVE; i++)
        if (live_used[i])
            unlink(live[i]);
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Before dying of a deferred signal, outside any handler: under `make
 * coverage` (CS_COVERAGE) the counters are written out, as a normal exit
 * would, so that the words said on the way (the checkpoint's "stopped by")
 * count as reached; a process a signal kills never writes them. Never in
 * the handler itself, where libgcov's file writing is not safe. */
static void die_of_deferred(int sig)
{
#ifdef CS_COVERAGE
    __gcov_dump();
#endif
    die_of(sig);
}

static void on_signal(int sig)
{
    if (atomic_load_explicit(&deferring, memory_order_relaxed) && sig != SIGHUP) {
        int none = 0;
        atomic_compare_exchange_strong(&deferred, &none, sig);
        return;
    }
    die_of(sig);
}

void cs_outfile_defer_signals(bool on)
{
    atomic_store(&deferring, on);
    int sig = atomic_load(&deferred);
    if (!on && sig)
        die_of_deferred(sig);
}

int cs_outfile_deferred_signal(void)
{
    return atomic_load_explicit(&deferred, memory_order_relaxed);
}

void cs_outfile_raise_deferred(void)
{
    int sig = atomic_load(&deferred);
    if (sig)
        die_of_deferred(sig);
}

void cs_outfile_install_signal_cleanup(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigfillset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

static char *dup_n(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

/* The descriptor a name stands for: /dev/stdout, /dev/stderr, /dev/fd/N
 * and /proc/self/fd/N, met at any step of the link chain, are that
 * descriptor (written at its offset, as a shell redirection set it: `-o
 * /dev/stdout >>log` appends to log, never replaces it). -1 otherwise. */
static int fd_name(const char *path)
{
    if (strcmp(path, "/dev/stdout") == 0)
        return 1;
    if (strcmp(path, "/dev/stderr") == 0)
        return 2;
    static const char *const dirs[] = {"/dev/fd/", "/proc/self/fd/"};
    for (int i = 0; i < 2; i++) {
        size_t n = strlen(dirs[i]);
        if (strncmp(path, dirs[i], n) != 0 || !path[n])
            continue;
        char *end;
        long fd = strtol(path + n, &end, 10);
        if (*end == '\0' && fd >= 0 && fd < 1024)
            return (int)fd;
    }
    return -1;
}

/* Follows symbolic links from `path` to the file they end at (which may not
 * exist yet): the file to replace. Relative links resolve against the
 * directory of the link. NULL with errno set on a loop or a read error. */
static char *follow_links(const char *path)
{
    char *cur = dup_n(path, strlen(path));
    for (int hops = 0; cur && hops < 40; hops++) {
        struct stat sb;
        if (fd_name(cur) >= 0 || lstat(cur, &sb) != 0 || !S_ISLNK(sb.st_mode))
            return cur;
        char link[PATH_MAX];
        ssize_t n = readlink(cur, link, sizeof link - 1);
        if (n < 0) {
            free(cur);
            return NULL;
        }
        link[n] = '\0';
        const char *slash = strrchr(cur, '/');
        size_t dir = link[0] == '/' || !slash ? 0 : (size_t)(slash - cur) + 1;
        char *next = malloc(dir + (size_t)n + 1);
        if (next) {
            memcpy(next, cur, dir);
            memcpy(next + dir, link, (size_t)n + 1);
        }
        free(cur);
        cur = next;
    }
    if (cur) {
        free(cur);
        errno = ELOOP;
    }
    return NULL;
}

/* "dir/.base.XXXXXX" beside target, or NULL when a component would be longer
 * than the file system allows (errno ENAMETOOLONG). */
static char *temp_name(const char *target, const char *suffix)
{
    const char *slash = strrchr(target, '/');
    size_t dir = slash ? (size_t)(slash - target) + 1 : 0;
    const char *base = target + dir;
    size_t nb = strlen(base), ns = strlen(suffix);
    if (1 + nb + ns > NAME_MAX || dir + 1 + nb + ns >= PATH_MAX) {
        errno = ENAMETOOLONG;
        return NULL;
    }
    char *t = malloc(dir + 1 + nb + ns + 1);
    if (t)
        snprintf(t, dir + 1 + nb + ns + 1, "%.*s.%s%s", (int)dir, target, base, suffix);
    return t;
}

/* Whether this process may replace the file at target (rename over it
 * removes its entry): in a sticky directory (mode 1777, as /tmp) only the
 * file's owner, the directory's owner or root may. Asked before anything
 * is written or renamed, so that a commit never stops half-way on it and
 * never leaves a backup it could not remove (a link to another user's
 * file in such a directory would be that user's to delete). */
static bool may_replace(const char *target)
{
    struct stat sf, sd;
    if (lstat(target, &sf) != 0 || geteuid() == 0 || sf.st_uid == geteuid())
        return true;
    const char *slash = strrchr(target, '/');
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - target) + (slash == target) : 1,
             slash ? target : ".");
    return stat(dir, &sd) != 0 || !(sd.st_mode & S_ISVTX) || sd.st_uid == geteuid();
}

static cs_status not_replaceable(const char *path, cs_error *err)
{
    return cs_error_set(err, CS_ERUNTIME,
                        "%s: cannot replace it: %s (it belongs to another user, in a directory "
                        "where only a file's owner may remove it, as in /tmp); nothing was "
                        "written",
                        path, strerror(EPERM));
}

static mode_t default_mode(void)
{
    mode_t mask = umask(0);
    umask(mask);
    return 0666 & ~mask;
}

/* Why a file could not be created: a wrong name is bad input (2), a
 * directory or file system that refuses it a runtime failure (1). */
static cs_status open_status(int e)
{
    if (e == ENOMEM) /* the temporary name, or the path resolved */
        return CS_ENOMEM;
    return e == EACCES || e == EPERM || e == EROFS || e == ENOSPC || e == EDQUOT || e == EIO ||
                   e == EMFILE || e == ENFILE
               ? CS_ERUNTIME
               : CS_EINPUT;
}

static cs_status fail_open(cs_outfile *o, cs_error *err, const char *path, int e,
                           const char *extra)
{
    cs_status st = open_status(e);
    if (e == ENAMETOOLONG)
        cs_error_set(err, CS_EINPUT,
                     "%s: cannot write: the name is too long to write it safely: the temporary "
                     "file beside it (the name and %zu more characters) would pass the limit "
                     "of %d characters in a name",
                     path, strlen(extra), NAME_MAX);
    else
        cs_error_set(err, st, "%s: cannot write: %s", path, strerror(e));
    cs_outfile_abort(o);
    return err->status;
}

static cs_status open_through(cs_outfile *o, const char *target, cs_error *err)
{
    /* No O_CREAT: if the device or FIFO vanished meanwhile, fail rather than
     * create a regular file in /dev. A FIFO blocks here until it has a
     * reader, as any writer would. */
    int fd = open(target, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return fail_open(o, err, o->path, errno, "");
    o->f = fdopen(fd, "w");
    if (!o->f) {
        int e = errno;
        close(fd);
        return fail_open(o, err, o->path, e, "");
    }
    o->through = true;
    return CS_OK;
}

cs_status cs_outfile_open(cs_outfile *o, const char *path, cs_error *err)
{
    memset(o, 0, sizeof *o);
    if (!path || strcmp(path, "-") == 0) {
        o->f = stdout;
        o->through = true;
        return CS_OK;
    }
    if (path[0] == '\0')
        return cs_error_set(err, CS_EINPUT, "'': an empty output file name");
    o->path = dup_n(path, strlen(path));
    o->target = follow_links(path);
    if (!o->path || !o->target) {
        int e = errno;
        if (!o->path || e == ENOMEM) {
            cs_outfile_abort(o);
            return cs_error_set(err, CS_ENOMEM, "out of memory");
        }
        return fail_open(o, err, path, e, "");
    }
    int fd = fd_name(o->target);
    if (fd >= 0) {
        int copy = dup(fd);
        if (copy < 0 || !(o->f = fdopen(copy, "w"))) {
            int e = errno;
            if (copy >= 0)
                close(copy);
            return fail_open(o, err, path, e, "");
        }
        o->through = true;
        return CS_OK;
    }
    struct stat sb;
    bool exists = stat(o->target, &sb) == 0;
    if (exists && S_ISDIR(sb.st_mode)) {
        cs_outfile_abort(o);
        return cs_error_set(err, CS_EINPUT, "%s: cannot write: is a directory", path);
    }
    if (exists && !S_ISREG(sb.st_mode))
        return open_through(o, o->target, err);
    if (!may_replace(o->target)) {
        cs_outfile_abort(o);
        return not_replaceable(path, err);
    }
    o->tmp = temp_name(o->target, ".XXXXXX");
    if (!o->tmp)
        return fail_open(o, err, path, errno, ".XXXXXX.");
    fd = mkstemp(o->tmp);
    if (fd < 0) {
        free(o->tmp);
        o->tmp = NULL;
        return fail_open(o, err, path, errno, "");
    }
    track(o->tmp, true);
    /* The replacement keeps the permissions of the file it replaces. */
    if (fchmod(fd, exists ? (sb.st_mode & 07777) : default_mode()) != 0 ||
        !(o->f = fdopen(fd, "w"))) {
        int e = errno;
        close(fd);
        return fail_open(o, err, path, e, "");
    }
    return CS_OK;
}

bool cs_outfile_is_regular(const cs_outfile *o)
{
    return o->tmp != NULL;
}

cs_status cs_outfile_write_error(const cs_outfile *o, cs_error *err)
{
    int e = errno ? errno : EIO;
    return cs_error_set(err, CS_ERUNTIME, "%s: cannot write: %s%s",
                        o->path ? o->path : "standard output", strerror(e),
                        o->tmp ? "; the old file, if any, is untouched" : "");
}

/* Flushes and syncs one file and closes it; the message names the file. */
static cs_status finish_writing(cs_outfile *o, cs_error *err)
{
    const char *name = o->path ? o->path : "standard output";
    int e = 0;
    errno = 0;
    if (fflush(o->f) != 0 || ferror(o->f))
        e = errno ? errno : EIO;
    /* Devices and FIFOs cannot be synced (EINVAL, EROFS); only the
     * replacement of a regular file must be on disk before the rename. */
    if (!e && o->tmp && fsync(fileno(o->f)) != 0)
        e = errno;
    if (o->f != stdout && fclose(o->f) != 0 && !e)
        e = errno;
    o->f = NULL;
    if (e)
        return cs_error_set(err, CS_ERUNTIME, "%s: cannot write: %s%s", name, strerror(e),
                            o->tmp && o->target ? "; the old file, if any, is untouched" : "");
    return CS_OK;
}

static void release(cs_outfile *o)
{
    if (o->tmp)
        track(o->tmp, false);
    if (o->backup) {
        track(o->backup, false);
        free(o->backup);
    }
    free(o->tmp);
    free(o->path);
    free(o->target);
    memset(o, 0, sizeof *o);
}

cs_status cs_outfile_commit(cs_outfile *o, cs_error *err)
{
    cs_outfile *one[1] = {o};
    return cs_outfile_commit_all(one, 1, err);
}

/* Hard-links the current file at o->target aside, so a failed group commit
 * can put it back. No file there (or a file system without hard links):
 * no backup, which restore() then reports. */
static void back_up(cs_outfile *o)
{
    struct stat sb;
    if (lstat(o->target, &sb) != 0)
        return;
    for (int attempt = 0; attempt < 100; attempt++) {
        char *b = temp_name(o->target, ".old.XXXXXX");
        if (!b)
            return;
        int fd = mkstemp(b);
        if (fd < 0) {
            free(b);
            return;
        }
        close(fd);
        unlink(b);
        if (link(o->target, b) == 0) {
            o->backup = b;
            track(b, true);
            return;
        }
        int e = errno;
        free(b);
        if (e != EEXIST)
            return;
    }
}

/* After the rename of o[failed] failed: the files renamed before it get
 * their old contents back (or, where there was none, are removed). */
static void restore(cs_outfile *const *o, int failed, char *note, size_t cap)
{
    size_t used = strlen(note);
    for (int i = 0; i < failed; i++) {
        if (!o[i] || !o[i]->tmp)
            continue;
        bool ok = o[i]->backup ? rename(o[i]->backup, o[i]->target) == 0
                               : unlink(o[i]->target) == 0;
        snprintf(note + used, cap - used, "; %s %s%s", o[i]->path,
                 ok ? "restored" : "could NOT be restored: it holds the new contents",
                 !ok && o[i]->backup ? ", the old one is kept as " : "");
        used = strlen(note);
        if (!ok && o[i]->backup)
            snprintf(note + used, cap - used, "%s", o[i]->backup);
        if (o[i]->backup) {
            /* Restored, or the only old copy left: either way not removed. */
            track(o[i]->backup, false);
            free(o[i]->backup);
            o[i]->backup = NULL;
        }
        used = strlen(note);
    }
}

cs_status cs_outfile_commit_all(cs_outfile *const *o, int n, cs_error *err)
{
    cs_status st = CS_OK;
    for (int i = 0; i < n && st == CS_OK; i++)
        if (o[i] && o[i]->f)
            st = finish_writing(o[i], err);
    if (st != CS_OK) {
        for (int i = 0; i < n; i++)
            if (o[i])
                cs_outfile_abort(o[i]);
        return st;
    }
    int renamed = 0;
    for (int i = 0; i < n; i++)
        if (o[i] && o[i]->tmp)
            renamed++;
    /* Every rename must be allowed before the first one happens (a file
     * may have changed hands since it was opened). */
    for (int i = 0; i < n; i++)
        if (o[i] && o[i]->tmp && !may_replace(o[i]->target)) {
            not_replaceable(o[i]->path, err);
            for (int j = 0; j < n; j++)
                if (o[j])
                    cs_outfile_abort(o[j]);
            return CS_ERUNTIME;
        }
    /* Old files are kept aside only when there is something to undo. */
    for (int i = 0; renamed > 1 && i < n; i++)
        if (o[i] && o[i]->tmp)
            back_up(o[i]);
    for (int i = 0; i < n; i++) {
        if (!o[i] || !o[i]->tmp)
            continue;
        if (rename(o[i]->tmp, o[i]->target) != 0) {
            char note[2048];
            int e = errno;
            snprintf(note, sizeof note, "%s: cannot rename into place: %s", o[i]->path,
                     strerror(e));
            restore(o, i, note, sizeof note);
            cs_error_set(err, CS_ERUNTIME, "%s", note);
            for (int j = 0; j < n; j++)
                if (o[j]) {
                    if (j < i && o[j]->tmp) {
                        track(o[j]->tmp, false);
                        free(o[j]->tmp);
                        o[j]->tmp = NULL; /* renamed already: nothing to remove */
                    }
                    cs_outfile_abort(o[j]);
                }
            return CS_ERUNTIME;
        }
    }
    for (int i = 0; i < n; i++) {
        if (!o[i])
            continue;
        if (o[i]->backup)
            unlink(o[i]->backup);
        release(o[i]);
    }
    return CS_OK;
}

void cs_outfile_abort(cs_outfile *o)
{
    if (o->f && o->f != stdout)
        fclose(o->f);
    if (o->tmp)
        unlink(o->tmp);
    if (o->backup)
        unlink(o->backup);
    release(o);
}

cs_status cs_outfile_remove(const char *path, cs_error *err)
{
    char *target = follow_links(path);
    if (!target)
        return cs_error_set(err, errno == ENOMEM ? CS_ENOMEM : CS_ERUNTIME,
                            "%s: cannot remove it: %s", path, strerror(errno));
    int e = unlink(target) == 0 || errno == ENOENT ? 0 : errno;
    free(target);
    if (e)
        return cs_error_set(err, CS_ERUNTIME, "%s: cannot remove it: %s", path, strerror(e));
    return CS_OK;
}

cs_status cs_output_check_inputs(const char *out, const char *what, const char *const *inputs,
                                 int n_inputs, cs_error *err)
{
    if (!out || strcmp(out, "-") == 0)
        return CS_OK;
    if (out[0] == '\0')
        return cs_error_set(err, CS_EINPUT, "%s '': an empty output file name", what);
    struct stat so, si;
    if (stat(out, &so) != 0)
        return CS_OK;
    /* Devices are shared by design: /dev/null as input and output is fine. */
    if (!S_ISREG(so.st_mode))
        return CS_OK;
    for (int i = 0; i < n_inputs; i++)
        if (inputs[i] && stat(inputs[i], &si) == 0 && si.st_dev == so.st_dev &&
            si.st_ino == so.st_ino)
            return cs_error_set(err, CS_EINPUT,
                                "%s %s: that is an input of this run (%s); refusing to "
                                "overwrite it",
                                what, out, inputs[i]);
    return CS_OK;
}
