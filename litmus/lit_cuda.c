/*
 * lit_cuda.c — a .cu file as PTX (DESIGN section 7): clang compiles it
 * with the pinned flags and gpmc.cuh included first; the PTX is kept under
 * the content hash of everything that decides it (the flags, gpmc.cuh and
 * the .cu), so a second run reads it back without clang:
 *
 *   1. FILE.ptx beside FILE.cu, when its first line names that hash (the
 *      bundled CUDA files ship theirs, so `make run` needs no clang);
 *   2. HASH.ptx in the cache: $GPMC_CACHE, else $XDG_CACHE_HOME/gpmc, else
 *      ~/.cache/gpmc;
 *   3. else clang ($GPMC_CLANG, else `clang` on PATH) writes HASH.ptx there.
 *
 * Every PTX file written starts with "// gpmc: sha256 HASH from NAME.cu".
 * Files the .cu includes are not part of the hash: edit one, and the
 * cache must be cleared by hand (specs/ptx.md).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "litmus/litmus_int.h"

static const char *const flags[] = {
    "-x", "cuda", "--cuda-device-only", "-nocudainc", "-nocudalib", "-S",
    "-O2", "-g", "-fdebug-compilation-dir=.",
};
#define NFLAGS (sizeof flags / sizeof flags[0])

/* The whole file at path into s; 0 ok. */
static int slurp(const char *path, BaseStr *s)
{
    char buf[65536];
    size_t n;
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        base_str_putn(s, buf, n);
    int bad = ferror(f);
    fclose(f);
    return bad || s->failed ? -1 : 0;
}

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* gpmc.cuh: $GPMC_CUH, else beside the running binary, else in the
   install prefix's share/gpmc. */
static int find_cuh(char *out, size_t len)
{
    const char *env = getenv("GPMC_CUH");
    char exe[2048];
    ssize_t n;
    if (env && *env) {
        snprintf(out, len, "%s", env);
        return exists(out) ? 0 : -1;
    }
    n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return -1;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash)
        return -1;
    *slash = '\0';
    snprintf(out, len, "%s/gpmc.cuh", exe);
    if (exists(out))
        return 0;
    snprintf(out, len, "%s/../share/gpmc/gpmc.cuh", exe);
    return exists(out) ? 0 : -1;
}

static void cache_dir(char *out, size_t len)
{
    const char *v = getenv("GPMC_CACHE");
    if (v && *v) {
        snprintf(out, len, "%s", v);
        return;
    }
    v = getenv("XDG_CACHE_HOME");
    if (v && *v) {
        snprintf(out, len, "%s/gpmc", v);
        return;
    }
    v = getenv("HOME");
    snprintf(out, len, "%s/.cache/gpmc", v && *v ? v : "/tmp");
}

/* mkdir -p */
static int make_dirs(const char *dir)
{
    char p[4096];
    snprintf(p, sizeof p, "%s", dir);
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = '\0';
            if (mkdir(p, 0777) && errno != EEXIST)
                return -1;
            *s = '/';
        }
    return mkdir(p, 0777) && errno != EEXIST ? -1 : 0;
}

/* clang: $GPMC_CLANG, else the first `clang` on PATH. */
static int find_clang(char *out, size_t len)
{
    const char *env = getenv("GPMC_CLANG"), *path = getenv("PATH");
    if (env && *env) {
        snprintf(out, len, "%s", env);
        return access(out, X_OK);
    }
    while (path && *path) {
        const char *colon = strchr(path, ':');
        size_t n = colon ? (size_t)(colon - path) : strlen(path);
        snprintf(out, len, "%.*s/clang", (int)n, n ? path : ".");
        if (!access(out, X_OK))
            return 0;
        path = colon ? colon + 1 : NULL;
    }
    return -1;
}

/* Whether the PTX at path starts with the header line for hash. */
static int matches(const char *path, const char *hash)
{
    char line[256], want[128];
    FILE *f = fopen(path, "rb");
    int ok = 0;
    if (!f)
        return 0;
    snprintf(want, sizeof want, "// gpmc: sha256 %s ", hash);
    if (fgets(line, sizeof line, f))
        ok = !strncmp(line, want, strlen(want));
    fclose(f);
    return ok;
}

/* path made absolute in place (clang runs in another directory). */
static void absolute(char *path, size_t len)
{
    char cwd[4096];
    size_t c, n = strlen(path);
    if (path[0] == '/' || !getcwd(cwd, sizeof cwd))
        return;
    c = strlen(cwd);
    if (c + 1 + n >= len)
        return;                         /* clang will name it */
    memmove(path + c + 1, path, n + 1);
    memcpy(path, cwd, c);
    path[c] = '/';
}

/* Runs clang on cu (in its directory, so that debug paths are relative)
   into out; 0 ok, else a message (clang's first error lines) in err. */
static int compile(const char *clang, const char *cuh, const char *cu,
                   const char *incdir, const char *out, char *err,
                   size_t errlen)
{
    char logp[] = "/tmp/gpmc-clang-XXXXXX";
    int logfd = mkstemp(logp);
    const char *slash = strrchr(cu, '/');
    char dir[4096];
    const char *argv[NFLAGS + 10];
    size_t a = 0;
    pid_t pid;
    int st = -1;
    if (logfd < 0) {
        snprintf(err, errlen, "cannot create a temporary file: %s",
                 strerror(errno));
        return -1;
    }
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - cu) : 1,
             slash ? cu : ".");
    argv[a++] = clang;
    for (size_t k = 0; k < NFLAGS; k++)
        argv[a++] = flags[k];
    argv[a++] = "-include";
    argv[a++] = cuh;
    if (incdir) {
        argv[a++] = "-I";
        argv[a++] = incdir;
    }
    argv[a++] = "-o";
    argv[a++] = out;
    argv[a++] = slash ? slash + 1 : cu;
    argv[a] = NULL;
    fflush(NULL);
    pid = fork();
    if (pid == 0) {
        dup2(logfd, 2);
        dup2(logfd, 1);
        if (chdir(dir) == 0)
            execv(clang, (char *const *)argv);
        _exit(127);
    }
    if (pid > 0)
        while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
            ;
    close(logfd);
    if (pid > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0) {
        unlink(logp);
        return 0;
    }
    /* the first lines that are not the CUDA-version warning */
    BaseStr log = {0}, msg = {0};
    slurp(logp, &log);
    unlink(logp);
    int lines = 0;
    for (const char *p = log.s ? log.s : ""; *p && lines < 6;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        char line[512];
        snprintf(line, sizeof line, "%.*s", (int)n, p);
        if (n && !strstr(line, "-Wunknown-cuda-version"))
            base_str_printf(&msg, "%s%s", lines++ ? "\n    " : "", line);
        p += n + (nl != NULL);
    }
    if (pid < 0)
        snprintf(err, errlen, "cannot run %s: %s", clang, strerror(errno));
    else
        snprintf(err, errlen, "clang could not compile '%s'%s%s", cu,
                 msg.len ? ":\n    " : "", msg.len ? msg.s : "");
    base_str_free(&log);
    base_str_free(&msg);
    return -1;
}

/* An overriding text of cu (lit_parse_sources): written under its own
   name into a fresh directory and compiled there, so that the PTX names
   the same file; cu's directory is on the include path. */
static int compile_source(const char *clang, const char *cuh, const char *cu,
                          const LitSource *src, const char *out, char *err,
                          size_t errlen)
{
    char dir[] = "/tmp/gpmc-cu-XXXXXX", path[4096], inc[4096];
    const char *slash = strrchr(cu, '/');
    snprintf(path, sizeof path, "%.*s", slash ? (int)(slash - cu) : 1,
             slash ? cu : ".");
    if (!mkdtemp(dir) || !realpath(path, inc)) {
        snprintf(err, errlen, "cannot compile an edited '%s': %s", cu,
                 strerror(errno));
        return -1;
    }
    snprintf(path, sizeof path, "%s/%s", dir, slash ? slash + 1 : cu);
    FILE *f = fopen(path, "wb");
    int rc = -1, bad = !f;
    if (f) {
        bad = fwrite(src->text, 1, src->len, f) != src->len;
        bad |= fclose(f) != 0;
    }
    if (!bad)
        rc = compile(clang, cuh, path, inc, out, err, errlen);
    else
        snprintf(err, errlen, "cannot write '%s': %s", path,
                 strerror(errno));
    unlink(path);
    rmdir(dir);
    return rc;
}

const char *lit_cuda_ptx(LitParser *P, const char *cu, char *err,
                         size_t errlen)
{
    BaseStr key = {0}, ptx = {0};
    char cuh[4096], dir[4096], hash[65], clang[4096], path[4352];
    char tmp[4400];
    const char *base = strrchr(cu, '/');
    base = base ? base + 1 : cu;
    if (find_cuh(cuh, sizeof cuh)) {
        snprintf(err, errlen, "gpmc.cuh not found beside the gpmc binary or "
                 "in its share/gpmc (set GPMC_CUH to its path)");
        return NULL;
    }
    base_str_printf(&key, "gpmc-cuda-1");
    for (size_t k = 0; k < NFLAGS; k++)
        base_str_printf(&key, " %s", flags[k]);
    base_str_putn(&key, "\n", 1);
    if (slurp(cuh, &key)) {
        snprintf(err, errlen, "cannot read '%s'", cuh);
        base_str_free(&key);
        return NULL;
    }
    base_str_putn(&key, "\n", 1);
    const LitSource *src = NULL;
    for (int i = 0; i < P->nsources; i++)
        if (!strcmp(P->sources[i].path, cu))
            src = &P->sources[i];
    if (src)
        base_str_putn(&key, src->text, src->len);
    else if (slurp(cu, &key)) {
        snprintf(err, errlen, "cannot read '%s': %s", cu, strerror(errno));
        base_str_free(&key);
        return NULL;
    }
    base_sha256(key.s, key.len, hash);
    base_str_free(&key);

    snprintf(path, sizeof path, "%.*s.ptx", (int)(strlen(cu) - 3), cu);
    if (matches(path, hash))
        return lit_parse_strndup(P, path, strlen(path));
    cache_dir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/%s.ptx", dir, hash);
    if (matches(path, hash))
        return lit_parse_strndup(P, path, strlen(path));

    if (find_clang(clang, sizeof clang)) {
        const char *env = getenv("GPMC_CLANG");
        if (env && *env)
            snprintf(err, errlen, "'%s' needs clang to compile CUDA to PTX, "
                     "and GPMC_CLANG='%s' is not an executable", cu, env);
        else
            snprintf(err, errlen, "'%s' needs clang to compile CUDA to PTX, "
                     "and there is none on PATH: install it (Debian, "
                     "Ubuntu: apt-get install clang) or set GPMC_CLANG", cu);
        return NULL;
    }
    if (make_dirs(dir)) {
        snprintf(err, errlen, "cannot create the PTX cache '%s': %s (set "
                 "GPMC_CACHE)", dir, strerror(errno));
        return NULL;
    }
    absolute(clang, sizeof clang);
    absolute(cuh, sizeof cuh);
    absolute(dir, sizeof dir);
    snprintf(tmp, sizeof tmp, "%s/%s.%ld.tmp", dir, hash, (long)getpid());
    if (src ? compile_source(clang, cuh, cu, src, tmp, err, errlen)
            : compile(clang, cuh, cu, NULL, tmp, err, errlen))
        return NULL;
    if (slurp(tmp, &ptx)) {
        snprintf(err, errlen, "cannot read clang's output '%s'", tmp);
        unlink(tmp);
        base_str_free(&ptx);
        return NULL;
    }
    FILE *f = fopen(tmp, "wb");
    int bad = !f;
    if (f) {
        fprintf(f, "// gpmc: sha256 %s from %s\n", hash, base);
        bad = fwrite(ptx.s, 1, ptx.len, f) != ptx.len;
        bad |= fclose(f) != 0;
    }
    base_str_free(&ptx);
    if (bad || rename(tmp, path)) {
        snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
        unlink(tmp);
        return NULL;
    }
    return lit_parse_strndup(P, path, strlen(path));
}
