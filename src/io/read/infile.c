/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Input files, read by rank 0 alone under MPI; see include/chargesim/infile.h. */
#define _GNU_SOURCE /* fopencookie */
#include "chargesim/infile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "chargesim/backend.h"

/* What the reader found, as it travels to the other ranks. */
typedef struct answer {
    int err;    /* 0, or the errno of the failure */
    int found;  /* a file: it opened (a failure is then in reading); a name: a directory */
    char *data; /* bytes (malloc'ed), NULL when len is 0 */
    size_t len;
} answer;

/* The backend that shares rank 0's answers, or NULL (one process). */
static const cs_backend *sharing(void)
{
    const cs_backend *b = cs_backend_get();
    return b && b->share ? b : NULL;
}

bool cs_infile_reader(void)
{
    const cs_backend *b = sharing();
    return !b || b->rank == 0;
}

/* look(arg) on the reader; every rank ends with the reader's answer. When
 * another rank has ended instead, the answer is ECANCELED: this rank then
 * fails too, and says nothing (only rank 0 speaks, and it is the one that
 * ended). */
static void ask(void (*look)(const char *arg, answer *a), const char *arg, answer *a)
{
    memset(a, 0, sizeof *a);
    const cs_backend *b = sharing();
    if (!b || b->rank == 0)
        look(arg, a);
    if (!b)
        return;
    int head[2] = {a->err, a->found};
    if (!b->share(head, &a->data, &a->len)) {
        free(a->data);
        *a = (answer){.err = ECANCELED};
        return;
    }
    a->err = head[0];
    a->found = head[1];
}

/* a->data enlarged to `want` bytes; false (a->err = ENOMEM) when it cannot
 * be, the bytes so far kept. */
static bool grow(answer *a, size_t *cap, size_t want)
{
    char *more = realloc(a->data, want);
    if (!more) {
        a->err = ENOMEM;
        return false;
    }
    a->data = more;
    *cap = want;
    return true;
}

/* The whole file, or as much as could be read before an error (kept: the
 * other ranks read those bytes, then meet the same error). */
static void read_whole(const char *path, answer *a)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        a->err = errno;
        return;
    }
    a->found = 1;
    size_t cap = 0;
    for (;;) {
        if (a->len == cap) {
            size_t want = cap ? 2 * cap : 65536;
            if (cap == CS_INFILE_MAX) {
                a->err = EFBIG;
                break;
            }
            if (want > CS_INFILE_MAX)
                want = CS_INFILE_MAX;
            if (!grow(a, &cap, want))
                break;
        }
        ssize_t n = read(fd, a->data + a->len, cap - a->len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            a->err = n < 0 ? errno : 0;
            break;
        }
        a->len += (size_t)n;
    }
    close(fd);
}

/* A stream over bytes already read: they come out, then the error the
 * reader met, if any, as fread would have met it on the file itself. */
typedef struct replay {
    answer a;
    size_t at;
} replay;

static ssize_t replay_read(void *cookie, char *buf, size_t size)
{
    replay *r = cookie;
    if (r->at == r->a.len) {
        if (r->a.err) {
            errno = r->a.err;
            return -1;
        }
        return 0;
    }
    size_t n = r->a.len - r->at < size ? r->a.len - r->at : size;
    memcpy(buf, r->a.data + r->at, n);
    r->at += n;
    return (ssize_t)n;
}

static int replay_close(void *cookie)
{
    replay *r = cookie;
    free(r->a.data);
    free(r);
    return 0;
}

FILE *cs_infile_open(const char *path)
{
    if (!sharing())
        return fopen(path, "rb");
    replay *r = malloc(sizeof *r);
    answer a;
    ask(read_whole, path, &a);
    if (!a.found || !r) {
        free(a.data);
        free(r);
        errno = !a.found ? a.err : ENOMEM;
        return NULL;
    }
    *r = (replay){a, 0};
    FILE *f = fopencookie(r, "rb", (cookie_io_functions_t){.read = replay_read,
                                                            .close = replay_close});
    if (!f)
        replay_close(r);
    return f;
}

static void look_dir(const char *path, answer *a)
{
    struct stat sb;
    a->found = stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

bool cs_infile_is_dir(const char *path)
{
    answer a;
    ask(look_dir, path, &a);
    free(a.data);
    return a.found != 0;
}

static void list_dir(const char *dir, answer *a)
{
    DIR *d = opendir(dir);
    if (!d) {
        a->err = errno;
        return;
    }
    size_t cap = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        size_t n = strlen(e->d_name) + 1;
        if (a->len + n > cap) {
            if (!grow(a, &cap, 2 * cap + n + 256))
                break;
        }
        memcpy(a->data + a->len, e->d_name, n);
        a->len += n;
    }
    closedir(d);
    if (a->err) {
        free(a->data);
        a->data = NULL;
        a->len = 0;
    }
}

int cs_infile_list(const char *dir, char **names, size_t *len)
{
    answer a;
    ask(list_dir, dir, &a);
    *names = a.data;
    *len = a.len;
    return a.err;
}

static void copy_text(const char *text, answer *a)
{
    a->len = strlen(text);
    a->data = malloc(a->len + 1);
    if (!a->data)
        a->len = 0; /* the others keep their own choice; rank 0 keeps its */
    else
        memcpy(a->data, text, a->len + 1);
}

void cs_infile_share_text(char *buf, size_t cap)
{
    if (!sharing() || cap == 0)
        return;
    answer a;
    ask(copy_text, buf, &a);
    if (a.data && !cs_infile_reader())
        snprintf(buf, cap, "%s", a.data);
    free(a.data);
}

const char *cs_infile_packed(const unsigned char *b, size_t n)
{
    /* The formats' magic numbers: RFC 1952 (gzip), PKWARE's APPNOTE (zip,
     * BattleScribe's .catz and .gstz), the xz, bzip2 and zstd formats. */
    static const struct {
        const char *name, *magic;
        size_t len;
    } kinds[] = {
        {"gzip", "\x1f\x8b", 2},
        {"zip", "PK\x03\x04", 4},
        {"xz", "\xfd" "7zXZ", 5},
        {"bzip2", "BZh", 3},
        {"zstd", "\x28\xb5\x2f\xfd", 4},
    };
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (n >= kinds[i].len && memcmp(b, kinds[i].magic, kinds[i].len) == 0)
            return kinds[i].name;
    return NULL;
}
