/*
 * h_html.c — what `gpmc report html` needs from outside the results store:
 * Graphviz to draw the witnesses, and writing the page to its file.
 *
 * The witnesses go to a few `dot -Tsvg` processes running at once, each
 * given a run of consecutive graphs of about equal total size (DOT takes
 * several graphs in one input and writes one SVG document per graph, in
 * order), through temporary files rather than pipes so that neither side
 * can block the other. Without Graphviz the page shows the DOT text
 * instead.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness/harness.h"

/* A temporary file opened for reading and writing, unlinked at once. */
static int temp_file(void)
{
    const char *dir = getenv("TMPDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/gpmc-dot-XXXXXX",
             dir && *dir ? dir : "/tmp");
    int fd = mkstemp(path);
    if (fd >= 0)
        unlink(path);
    return fd;
}

/* Starts dot -Tsvg with stdin from in and stdout to out: its pid, or -1
   when it could not start. */
static pid_t start_dot(int in, int out)
{
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || null < 0 || dup2(null, 2) < 0)
            _exit(127);
        execlp("dot", "dot", "-Tsvg", (char *)NULL);
        _exit(127);
    }
    return pid;
}

/* dot's exit status, or -1 when it did not exit. */
static int wait_dot(pid_t pid)
{
    int st;
    if (pid < 0)
        return -1;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int write_all(int fd, const char *s, size_t n)
{
    while (n) {
        ssize_t w = write(fd, s, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        s += w;
        n -= (size_t)w;
    }
    return 0;
}

/* The whole of fd from its start, NUL-terminated (base_malloc'd). */
static char *read_all(int fd)
{
    BaseStr s = {0};
    char buf[65536];
    ssize_t n = 0;
    if (lseek(fd, 0, SEEK_SET) < 0)
        return NULL;
    while ((n = read(fd, buf, sizeof buf)) > 0 ||
           (n < 0 && errno == EINTR))
        if (n > 0)
            base_str_putn(&s, buf, (size_t)n);
    if (n < 0 || s.failed || !s.s) {
        base_str_free(&s);
        return NULL;
    }
    return s.s;
}

/* The dot processes of one report: at least 2 (the suite's witnesses took
   40 s on one), at most one per processor and H_DOT_MAX, never more than
   graphs. */
#define H_DOT_MAX 8

static int dot_procs(int n)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int p = cpus > H_DOT_MAX ? H_DOT_MAX : cpus < 2 ? 2 : (int)cpus;
    return p < n ? p : n;
}

/* One dot process: the graphs [first, end) in, their SVG documents out. */
typedef struct {
    int first, end;
    int in, out;
    pid_t pid;
    int rc;
} Dot;

/* Splits the output of d into the SVG documents of its graphs (one per
   graph, each starting with "<?xml"). */
static void split_svgs(const Dot *d, const char *const *dots, char **svgs)
{
    char *all = d->rc == 0 ? read_all(d->out) : NULL;
    const char *p = all;
    for (int i = d->first; p && i < d->end; i++) {
        if (!dots[i])
            continue;
        const char *start = strstr(p, "<?xml");
        if (!start)
            break;
        const char *end = strstr(start + 5, "<?xml");
        size_t len = end ? (size_t)(end - start) : strlen(start);
        svgs[i] = h_strndup(start, len);
        p = start + len;
    }
    base_free(all);
}

void h_svg_render(void *ctx, const char *const *dots, int n, char **svgs)
{
    (void)ctx;
    int np = dot_procs(n), failed = 0, missing = 0;
    Dot *d = base_calloc((size_t)np + 1, sizeof *d);
    size_t total = 0, sum = 0;
    if (!d || n <= 0) {
        base_free(d);
        return;
    }
    for (int i = 0; i < n; i++)
        total += dots[i] ? strlen(dots[i]) : 0;
    /* Runs of consecutive graphs of about total/np bytes each. */
    for (int k = 0, i = 0; k < np; k++) {
        d[k].first = i;
        while (i < n &&
               (k == np - 1 || sum * (size_t)np < total * (size_t)(k + 1))) {
            sum += dots[i] ? strlen(dots[i]) : 0;
            i++;
        }
        d[k].end = i;
        d[k].in = temp_file();
        d[k].out = temp_file();
        int ok = d[k].in >= 0 && d[k].out >= 0;
        for (int j = d[k].first; ok && j < d[k].end; j++)
            if (dots[j])
                ok = !write_all(d[k].in, dots[j], strlen(dots[j]));
        ok = ok && lseek(d[k].in, 0, SEEK_SET) == 0;
        d[k].pid = ok && d[k].first < d[k].end ? start_dot(d[k].in, d[k].out)
                                               : -1;
    }
    for (int k = 0; k < np; k++) {
        d[k].rc = d[k].first < d[k].end ? wait_dot(d[k].pid) : 0;
        failed |= d[k].rc != 0;
        missing |= d[k].rc == 127;
        split_svgs(&d[k], dots, svgs);
        if (d[k].in >= 0)
            close(d[k].in);
        if (d[k].out >= 0)
            close(d[k].out);
    }
    if (failed)
        fprintf(stderr, "gpmc: note: Graphviz's dot %s: the witnesses are"
                " shown as DOT text (apt-get install graphviz)\n",
                missing ? "is not installed" : "failed");
    base_free(d);
}

/* The file h_write_file replaces for path: path itself, or the file a
   symbolic link names (so the link stays), in real; H_USAGE after printing
   why when that is not a regular file or a file still to be made. */
static int output_target(const char *path, char *real, size_t len)
{
    struct stat sb;
    const char *why = NULL;
    if (lstat(path, &sb) != 0) {
        if (errno != ENOENT)
            why = strerror(errno);
    } else if (S_ISLNK(sb.st_mode)) {
        char *r = realpath(path, NULL);
        if (!r)
            why = errno == ENOENT ? "is a symbolic link to nothing"
                                  : strerror(errno);
        else if (stat(r, &sb) != 0 || !S_ISREG(sb.st_mode))
            why = "is a symbolic link to something not a regular file";
        else if (strlen(r) >= len)
            why = strerror(ENAMETOOLONG);
        if (!why) {
            memcpy(real, r, strlen(r) + 1);
            free(r);
            return H_OK;
        }
        free(r);
    } else if (!S_ISREG(sb.st_mode)) {
        why = h_file_kind(sb.st_mode);
    }
    if (!why && strlen(path) >= len)
        why = strerror(ENAMETOOLONG);
    if (why) {
        fprintf(stderr, "gpmc: error: %s: %s\n", path, why);
        return H_USAGE;
    }
    memcpy(real, path, strlen(path) + 1);
    return H_OK;
}

int h_output_check(const char *path)
{
    char real[4096];
    return output_target(path, real, sizeof real);
}

int h_write_file(const char *path, const char *data, size_t len)
{
    char real[4096], tmp[4096 + 16];
    if (output_target(path, real, sizeof real))
        return H_USAGE;
    snprintf(tmp, sizeof tmp, "%s.tmp-XXXXXX", real);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        fprintf(stderr, "gpmc: error: %s: %s\n", path, strerror(errno));
        return H_USAGE;
    }
    /* mkstemp makes the file 0600; a report is for sharing. */
    mode_t mask = umask(0);
    umask(mask);
    int bad = fchmod(fd, 0666 & ~mask) || write_all(fd, data, len);
    bad |= close(fd) != 0;
    if (bad || rename(tmp, real)) {
        fprintf(stderr, "gpmc: error: %s: %s\n", path, strerror(errno));
        unlink(tmp);
        return H_USAGE;
    }
    return H_OK;
}
