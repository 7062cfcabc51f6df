/*
 * h_html.c — what `gpmc report html` needs from outside the results store:
 * Graphviz to draw the witnesses, and writing the page to its file.
 *
 * Every witness goes to one `dot -Tsvg` process (DOT takes several graphs
 * in one input and writes one SVG document per graph, in order), through
 * temporary files rather than pipes so that neither side can block the
 * other. Without Graphviz the page shows the DOT text instead.
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

/* Runs dot -Tsvg with stdin from in and stdout to out; its exit status,
   or -1 when it could not run. */
static int run_dot(int in, int out)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || null < 0 || dup2(null, 2) < 0)
            _exit(127);
        execlp("dot", "dot", "-Tsvg", (char *)NULL);
        _exit(127);
    }
    int st;
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

void h_svg_render(void *ctx, const char *const *dots, int n, char **svgs)
{
    (void)ctx;
    int in = temp_file(), out = temp_file(), ok = in >= 0 && out >= 0;
    for (int i = 0; ok && i < n; i++)
        if (dots[i])
            ok = !write_all(in, dots[i], strlen(dots[i]));
    ok = ok && lseek(in, 0, SEEK_SET) == 0;
    int rc = ok ? run_dot(in, out) : -1;
    char *all = rc == 0 ? read_all(out) : NULL;
    if (rc != 0)
        fprintf(stderr, "gpmc: note: Graphviz's dot %s: the witnesses are"
                " shown as DOT text (apt-get install graphviz)\n",
                rc == 127 ? "is not installed" : "failed");
    /* One document per graph, in order: split at each "<?xml". */
    const char *p = all;
    for (int i = 0; p && i < n; i++) {
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
    if (in >= 0)
        close(in);
    if (out >= 0)
        close(out);
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
