#include "judge/compile/compile.h"

#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <ftw.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "judge/base/file_write.h"
#include "judge/base/safe_text.h"
#include "judge/compile/cscan.h"
#include "judge/compile/toolchain.h"
#include "sandbox/sandbox.h"

/* Part of every cache key: bump it when the checks or the flags change, so
 * binaries built under the old rules are not served under the new ones. */
#define CMP_KEY_SALT "judge compile 5"
#define CMP_TOOL_FILES 64 /* descriptors for gcc, cc1, as, ld and its plugin */
#define CMP_ARGV_MAX 16
/* a cached log written under a larger log_bytes than today's is still read */
#define CMP_CACHED_LOG_MAX ((1u << 24) + 256)

/* ---- compiler messages --------------------------------------------------- */

/* Messages for the contestant, capped at max bytes. */
struct cmp_log {
	char *buf;
	size_t len, max;
	bool dropped;
};

static int log_add(struct cmp_log *l, const char *s, size_t n)
{
	if (l->len + n > l->max) {
		n = l->max - l->len;
		l->dropped = true;
	}
	char *b = realloc(l->buf, l->len + n + 1);
	if (!b)
		return -1;
	memcpy(b + l->len, s, n);
	l->len += n;
	b[l->len] = '\0';
	l->buf = b;
	return 0;
}

/* Appends text a contestant may have shaped (a #warning, a file name in a
 * line marker) so that it cannot drive a terminal: control characters
 * other than newline and tab, DEL and bytes that are not printable UTF-8
 * are written as \xNN. */
static int log_add_escaped(struct cmp_log *l, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t plain = 0;
	for (size_t i = 0; i < n;) {
		bool printable;
		size_t len = text_char(u + i, n - i, &printable);
		if (printable || u[i] == '\n' || u[i] == '\t') {
			i += len;
			continue;
		}
		char esc[5];
		snprintf(esc, sizeof esc, "\\x%02x", u[i]);
		if (log_add(l, s + plain, i - plain) < 0 || log_add(l, esc, 4) < 0)
			return -1;
		plain = ++i;
	}
	return log_add(l, s + plain, n - plain);
}

/* Appends one line of gcc's messages with every occurrence of the temporary
 * directory (and the slash after it) removed, so "/tmp/judge-cc-x/AIName.c:3:1:"
 * reads "AIName.c:3:1:". */
static int log_add_line(struct cmp_log *l, const char *dir, const char *s, size_t n)
{
	size_t dl = strlen(dir);
	while (n) {
		const char *hit = dl ? memmem(s, n, dir, dl) : NULL;
		size_t keep = hit ? (size_t)(hit - s) : n;
		if (log_add_escaped(l, s, keep) < 0)
			return -1;
		if (!hit)
			break;
		size_t skip = dl + (keep + dl < n && s[keep + dl] == '/');
		s += keep + skip;
		n -= keep + skip;
	}
	return 0;
}

/* Appends gcc's messages, cleaned line by line.  Lines about the judge's own
 * command line ("<command-line>: warning: undefining \"_Pragma\"") go: they
 * say nothing to the contestant, who cannot name a file <command-line>. */
static int log_add_clean(struct cmp_log *l, const char *dir, const char *s, size_t n)
{
	static const char judge_own[] = "<command-line>: ";
	while (n) {
		const char *nl = memchr(s, '\n', n);
		size_t len = nl ? (size_t)(nl - s) + 1 : n;
		bool own = len >= sizeof judge_own - 1 &&
			   memcmp(s, judge_own, sizeof judge_own - 1) == 0;
		if (!own && log_add_line(l, dir, s, len) < 0)
			return -1;
		s += len;
		n -= len;
	}
	return 0;
}

static void log_reset(struct cmp_log *l)
{
	l->len = 0;
	l->dropped = false;
	if (l->buf)
		l->buf[0] = '\0';
}

/* "64 MiB", "512 KiB" or "100 bytes". */
static void size_words(uint64_t n, char *buf, size_t cap)
{
	if (n >= (1u << 20) && n % (1u << 20) == 0)
		snprintf(buf, cap, "%llu MiB", (unsigned long long)(n >> 20));
	else if (n >= 1024 && n % 1024 == 0)
		snprintf(buf, cap, "%llu KiB", (unsigned long long)(n >> 10));
	else
		snprintf(buf, cap, "%llu bytes", (unsigned long long)n);
}

/* Hands the text over (never NULL), noting a cut on a line of its own. */
static char *log_take(struct cmp_log *l)
{
	char cut[80], size[32];
	size_words(l->max, size, sizeof size);
	int cn = snprintf(cut, sizeof cut, "[compiler messages cut at %s]\n", size);
	char *b = realloc(l->buf, l->len + (size_t)cn + 2);
	if (!b)
		return NULL;
	if (l->dropped) {
		if (l->len && b[l->len - 1] != '\n')
			b[l->len++] = '\n';
		memcpy(b + l->len, cut, (size_t)cn + 1);
	} else {
		b[l->len] = '\0';
	}
	l->buf = NULL;
	l->len = 0;
	return b;
}

/* ---- one compile --------------------------------------------------------- */

/* The steps gcc runs, each in its own sandboxed process. */
enum cmp_step { CMP_PREPROCESS, CMP_TRANSLATE, CMP_ASSEMBLE, CMP_LINK, CMP_STEPS };

/* How a step ended, as far as the contestant is concerned. */
enum step_end {
	STEP_OK,
	STEP_ERROR, /* gcc said no: deterministic, cached */
	STEP_LIMIT, /* a limit stopped it: not cached (CPU and wall vary) */
};

struct cmp_job {
	const struct cfg_compile *cfg;
	const struct cmp_request *req;
	struct cmp_result *out;
	struct err *err;
	char base[PATH_MAX];         /* private temporary directory, or "" */
	char dir[PATH_MAX];          /* base/work: the compiler's, read-write */
	char root[PATH_MAX];         /* base/root: where its view is built */
	char cache[PATH_MAX];        /* cache directory, absolute */
	char name[NAME_MAX + 1];     /* "AIName.c" */
	char header[NAME_MAX + 1];   /* "dominator.h", or "" */
	char shared[NAME_MAX + 1];   /* "course.h", or "" */
	const char *runtime;         /* ".runtime.a" / ".runtime.o", or NULL */
	char files[4][NAME_MAX + 1]; /* AIName.i .s .o and the binary AIName */
	const char *argv[CMP_STEPS][CMP_ARGV_MAX];
	char *src;
	size_t src_len;
	char header_sum[HASH_HEXLEN + 1], shared_sum[HASH_HEXLEN + 1];
	char runtime_sum[HASH_HEXLEN + 1];
	struct tc_identity toolchain;
	bool unchecked;              /* cmp_compile_unchecked: tests only */
	struct timespec start;       /* the wall-clock budget runs from here */
	enum cmp_step step;          /* the one running, for messages */
	struct cmp_log log;
};

/* The contestant's answer is a sentence, not compiler output. */
__attribute__((format(printf, 2, 3)))
static int refuse(struct cmp_job *job, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(msg, sizeof msg - 1, fmt, ap);
	va_end(ap);
	n = n < 0 ? 0 : n > (int)sizeof msg - 2 ? (int)sizeof msg - 2 : n;
	msg[n++] = '\n';
	log_reset(&job->log);
	return log_add_escaped(&job->log, msg, (size_t)n) < 0 ? err_fail(job->err, "out of memory") : 0;
}

static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '-' || c == '.';
}

/* A base name gcc will not take for an option and a shell will not split:
 * letters, digits, _ - . not starting with - or . and ending in `suffix`. */
static const char *safe_base(const char *path, const char *suffix)
{
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	size_t n = strlen(b), sl = strlen(suffix);
	if (n <= sl || n > 100 || b[0] == '-' || b[0] == '.' || strcmp(b + n - sl, suffix) != 0)
		return NULL;
	for (const char *p = b; *p; p++)
		if (!name_char(*p))
			return NULL;
	return b;
}

/* The base name a header is copied under, into out: what #include names. */
static int header_name(struct cmp_job *job, const char *path, const char *what,
		       char out[NAME_MAX + 1])
{
	const char *b = safe_base(path, ".h");
	if (!b || cscan_standard_header(b))
		return err_fail(job->err, "the %s's name must end in .h, use only letters, digits, '_', "
			    "'-' and '.', and not be a standard header's", what);
	strcpy(out, b);
	return 0;
}

static int check_request(struct cmp_job *job)
{
	const struct cmp_request *req = job->req;
	const char *b = req->source ? safe_base(req->source, ".c") : NULL;
	if (!b)
		return err_fail(job->err, "the source file name must end in .c and use only letters, "
			    "digits, '_', '-' and '.'");
	strcpy(job->name, b);
	if (req->header && header_name(job, req->header, "game header", job->header) < 0)
		return -1;
	if (req->shared_header) {
		if (!req->header)
			return err_fail(job->err, "a shared header is read only through the game header "
				    "that includes it: give the game header too");
		if (header_name(job, req->shared_header, "shared header", job->shared) < 0)
			return -1;
		if (strcmp(job->shared, job->header) == 0)
			return err_fail(job->err, "the shared header and the game header have one name, %s: "
				    "the game header would include itself; rename one of them",
				    job->header);
	}
	if (req->runtime) {
		size_t n = strlen(req->runtime);
		if (n > 2 && strcmp(req->runtime + n - 2, ".a") == 0)
			job->runtime = ".runtime.a";
		else if (n > 2 && strcmp(req->runtime + n - 2, ".o") == 0)
			job->runtime = ".runtime.o";
		else
			return err_fail(job->err, "the runtime library must be a .a or .o file");
	}
	return 0;
}

const char *const cmp_code_flags[] = { "-std=gnu17", "-O2", "-fno-lto", NULL };

/* The four gcc command lines.  Files are named relative to the private
 * directory gcc runs in, so its messages name them as the contestant does. */
static void build_argv(struct cmp_job *job)
{
	size_t stem = strlen(job->name) - 2;
	static const char *const ext[] = { ".i", ".s", ".o", "" };
	for (int i = 0; i < 4; i++)
		snprintf(job->files[i], sizeof job->files[i], "%.*s%s", (int)stem, job->name, ext[i]);
	/* -fno-lto everywhere: the link never hands an object to lto1, whose
	 * input no check of ours has seen (the object check refuses LTO
	 * sections besides). */
	const char **e = job->argv[CMP_PREPROCESS], **t = job->argv[CMP_TRANSLATE];
	size_t ncc = 0;
	e[ncc++] = "gcc";
	for (const char *const *f = cmp_code_flags; *f; f++)
		e[ncc++] = *f;
	e[ncc++] = "-fmax-errors=20";
	e[ncc++] = "-fdiagnostics-color=never";
	memcpy(t, e, ncc * sizeof *e);
	/* Macros can paste _Pragma and __has_include together where the source
	 * check cannot see them; undefined, they are plain identifiers that the
	 * check of gcc -E's output refuses or #if reads as 0. */
	const char *tail_e[] = { "-U_Pragma", "-U__has_include", "-U__has_include_next",
				 "-I.", "-E", job->name, NULL };
	const char *tail_t[] = { "-S", job->files[0], "-o", job->files[1], NULL };
	memcpy(e + ncc, tail_e, sizeof tail_e);
	size_t nt = ncc;
	if (job->req->instrument)
		t[nt++] = job->req->instrument;
	memcpy(t + nt, tail_t, sizeof tail_t);
	const char *as[] = { "gcc", "-fno-lto", "-c", job->files[1], "-o", job->files[2], NULL };
	memcpy(job->argv[CMP_ASSEMBLE], as, sizeof as);
	/* -s: symbols and debug sections are never read where the binary runs
	 * (a crash is re-created from the contestant's own build, judge
	 * repro), and stored in every store they would be most of it. */
	const char *ld[] = { "gcc", "-fno-lto", "-static", "-s", "-o", job->files[3], job->files[2],
			     job->runtime ? job->runtime : "-lm", job->runtime ? "-lm" : NULL, NULL };
	memcpy(job->argv[CMP_LINK], ld, sizeof ld);
}

/* ---- files ----------------------------------------------------------------- */

/* Reads a regular file of at most max bytes.  Files in the private
 * directory are read with O_NOFOLLOW: it belongs to the compiler's user.
 * Returns 0, 1 if the file is bigger than max, -1 with errno set. */
static int read_file(const char *path, size_t max, int flags, char **buf, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | flags);
	struct stat st;
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	if ((uint64_t)st.st_size > max) {
		close(fd);
		return 1;
	}
	char *b = malloc((size_t)st.st_size + 1);
	size_t n = 0;
	ssize_t r = 0;
	while (b && n < (size_t)st.st_size &&
	       ((r = read(fd, b + n, (size_t)st.st_size - n)) > 0 || (r < 0 && errno == EINTR)))
		n += r > 0 ? (size_t)r : 0;
	int saved = errno;
	close(fd);
	if (!b || r < 0) {
		free(b);
		errno = b ? saved : ENOMEM;
		return -1;
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}

/* Copies from in to out (none when out < 0), hashing what passes. */
static int copy_fd(int in, int out, struct hash *h)
{
	char buf[65536];
	for (;;) {
		ssize_t r = read(in, buf, sizeof buf);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return (int)r;
		hash_update(h, buf, (size_t)r);
		if (out >= 0 && file_write_all(out, buf, (size_t)r) < 0)
			return -1;
	}
}

/* dir/name+suffix.  make_workdir and open_cache leave room for any name
 * and suffix used here, so it always fits. */
static void path_in(char out[PATH_MAX], const char *dir, const char *name, const char *suffix)
{
	if (snprintf(out, PATH_MAX, "%s/%s%s", dir, name, suffix) >= PATH_MAX)
		out[0] = '\0';
}

static int create_in(const struct cmp_job *job, const char *name, mode_t mode)
{
	char path[PATH_MAX];
	path_in(path, job->dir, name, "");
	return open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
}

/* Copies the organiser's file `from` into the private directory as `to`,
 * summing it for the cache key: what is summed is what is compiled.  With
 * `to` NULL, sums it alone (the key that finds a cached binary). */
static int import_file(struct cmp_job *job, const char *from, const char *to,
		       char sum[HASH_HEXLEN + 1])
{
	int in = open(from, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	if (in < 0 || fstat(in, &st) < 0 || !S_ISREG(st.st_mode)) {
		int e = in < 0 ? errno : EINVAL;
		if (in >= 0)
			close(in);
		return err_fail(job->err, "cannot read %s: %s", from, strerror(e));
	}
	int out = to ? create_in(job, to, 0644) : -1;
	struct hash h;
	int rc = (to && out < 0) || hash_init(&h) < 0 ? -1 : 0;
	if (rc == 0) {
		rc = copy_fd(in, out, &h);
		rc = hash_final(&h, sum) < 0 ? -1 : rc;
	}
	if (out >= 0 && close(out) < 0)
		rc = -1;
	close(in);
	return rc < 0 ? err_fail(job->err, "cannot copy %s for the compiler: %s", from, strerror(errno)) : 0;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

/* base (the judge's; others may pass through) holds work, the compiler's
 * own directory, and root, the empty directory its confined view of the
 * files is built on. */
static int make_workdir(struct cmp_job *job)
{
	const char *tmp = getenv("TMPDIR");
	if (!tmp || tmp[0] != '/')
		tmp = "/tmp";
	if ((size_t)snprintf(job->base, sizeof job->base, "%s/judge-cc-XXXXXX", tmp) >=
		    sizeof job->base - 8 || !mkdtemp(job->base)) {
		job->base[0] = '\0';
		return err_fail(job->err, "cannot make a temporary directory in %s: %s", tmp, strerror(errno));
	}
	if (strlen(job->base) + NAME_MAX + 24 >= PATH_MAX)
		return err_fail(job->err, "the temporary directory's path %s is too long", job->base);
	snprintf(job->dir, sizeof job->dir, "%s/work", job->base);
	snprintf(job->root, sizeof job->root, "%s/root", job->base);
	if (chmod(job->base, 0711) < 0 || mkdir(job->dir, 0700) < 0 || mkdir(job->root, 0700) < 0)
		return err_fail(job->err, "cannot make the compiler's directories in %s: %s", job->base,
			    strerror(errno));
	/* The compiler writes here as its own user; nobody else may look. */
	if (job->req->uid && chown(job->dir, job->req->uid, job->req->gid) < 0)
		return err_fail(job->err, "cannot give the temporary directory to uid %u: %s",
			    (unsigned)job->req->uid, strerror(errno));
	return 0;
}

static void remove_workdir(struct cmp_job *job)
{
	if (job->base[0])
		nftw(job->base, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
	job->base[0] = job->dir[0] = '\0';
}

/* The header, shared header and runtime, summed; copied beside the
 * source too when `copy`. */
static int import_inputs(struct cmp_job *job, bool copy)
{
	const struct cmp_request *req = job->req;
	if (req->header &&
	    import_file(job, req->header, copy ? job->header : NULL, job->header_sum) < 0)
		return -1;
	if (req->shared_header &&
	    import_file(job, req->shared_header, copy ? job->shared : NULL, job->shared_sum) < 0)
		return -1;
	if (req->runtime &&
	    import_file(job, req->runtime, copy ? job->runtime : NULL, job->runtime_sum) < 0)
		return -1;
	return 0;
}

static int stage_inputs(struct cmp_job *job)
{
	int fd = create_in(job, job->name, 0644);
	int rc = fd < 0 ? -1 : file_write_all(fd, job->src, job->src_len);
	if (fd >= 0 && close(fd) < 0)
		rc = -1;
	if (rc < 0)
		return err_fail(job->err, "cannot write the source for the compiler: %s", strerror(errno));
	return import_inputs(job, true);
}

/* ---- running gcc ------------------------------------------------------------ */

static uint64_t elapsed_ns(const struct cmp_job *job)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (uint64_t)(now.tv_sec - job->start.tv_sec) * 1000000000u +
	       (uint64_t)now.tv_nsec - (uint64_t)job->start.tv_nsec;
}

enum cmp_limit { LIM_CPU, LIM_WALL, LIM_MEMORY, LIM_OUTPUT, LIM_PART_KILLED };

static int limit_hit(struct cmp_job *job, enum cmp_limit which, enum step_end *end)
{
	const struct cfg_compile *c = job->cfg;
	bool cpp = job->step == CMP_PREPROCESS;
	char size[32];
	*end = STEP_LIMIT;
	switch (which) {
	case LIM_CPU:
		return refuse(job, "compilation stopped: it used more than %g s of CPU",
			      (double)c->cpu_ns / 1e9);
	case LIM_WALL:
		return refuse(job, "compilation stopped: it took longer than %g s",
			      (double)c->wall_ns / 1e9);
	case LIM_MEMORY:
		size_words(c->memory_bytes, size, sizeof size);
		return refuse(job, "compilation stopped: the compiler needed more than %s of "
			      "memory (%s?)", size,
			      cpp ? "a macro expansion bomb" : "a huge initialised array");
	case LIM_OUTPUT:
		size_words(c->output_bytes, size, sizeof size);
		return refuse(job, "the %s's output exceeded %s (%s?)",
			      cpp ? "preprocessor" : "compiler", size,
			      cpp ? "a macro that expands to too much text"
				  : "a huge initialised array");
	case LIM_PART_KILLED:
		size_words(c->output_bytes, size, sizeof size);
		return refuse(job, "compilation stopped: a part of the compiler was killed, most "
			      "likely because a file it wrote grew past the output limit of %s "
			      "(%s?); a crash of the compiler ends the same way", size,
			      cpp ? "a macro that expands to too much text"
				  : "a huge initialised array");
	}
	return 0;
}

/* The largest file in the compiler's directory: the step's output, or a
 * temporary file of cc1 or as. */
static uint64_t largest_output(const struct cmp_job *job)
{
	uint64_t most = 0;
	DIR *d = opendir(job->dir);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		struct stat st;
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISREG(st.st_mode) && (uint64_t)st.st_size > most)
			most = (uint64_t)st.st_size;
	}
	if (d)
		closedir(d);
	return most;
}

/* gcc's exit status when one of its parts died of a signal (or crashed). */
#define GCC_PART_KILLED 4

/* The sandbox watches gcc, not the cc1, as and ld it starts: those meet
 * their own rlimits and gcc exits with an error.  Which limit stopped them
 * is read from what the judge measured of the whole tree, never from the
 * messages, whose text a contestant can shape (#warning, line markers):
 * a file as large as the output limit, the CPU of gcc and the parts it
 * waited for, the resident peak of the largest of them, and gcc's exit
 * status.  A part that fails for want of address space has touched about
 * half of it by then (cc1 on a macro bomb: 128 of 256 MiB); two fifths is
 * never reached by a program a compile error could stop sooner.  A part
 * killed by the output limit may leave no large file behind (as writes
 * the end of an object first): gcc then exits with 4, as for a crash. */
static bool limit_measured(const struct cmp_job *job, const struct sbx_result *r,
			   enum cmp_limit *which)
{
	const struct cfg_compile *c = job->cfg;
	if (largest_output(job) >= c->output_bytes)
		*which = LIM_OUTPUT;
	else if (r->tree_cpu_ns >= c->cpu_ns)
		*which = LIM_CPU;
	else if (r->peak_memory >= c->memory_bytes / 5 * 2)
		*which = LIM_MEMORY;
	else if (r->exit_status == GCC_PART_KILLED)
		*which = LIM_PART_KILLED;
	else
		return false;
	return true;
}

static int judge_exit(struct cmp_job *job, const struct sbx_result *r, struct cmp_log *log,
		      enum step_end *end)
{
	enum cmp_limit which;
	if (r->exit_status != 0 && limit_measured(job, r, &which))
		return limit_hit(job, which, end);
	*end = r->exit_status == 0 ? STEP_OK : STEP_ERROR;
	if (log_add_clean(log, job->dir, r->log ? r->log : "", r->log_len) < 0)
		return err_fail(job->err, "out of memory");
	if (r->log_dropped)
		log->dropped = true;
	return 0;
}

static int unconfinable(struct cmp_job *job, const char *why)
{
	return err_fail(job->err, "the compiler could not be confined (%s).  This kernel refuses the "
		    "namespaces the compile step needs; an organiser who accepts the risk may "
		    "set \"unconfined\": true in the \"compile\" section of the "
		    "configuration", why);
}

static int judge_result(struct cmp_job *job, const struct sbx_result *r, struct cmp_log *log,
			enum step_end *end)
{
	char sig[16];
	switch (r->verdict) {
	case SBX_EXITED:
		return judge_exit(job, r, log, end);
	case SBX_CPU:
		return limit_hit(job, LIM_CPU, end);
	case SBX_WALL:
		return limit_hit(job, LIM_WALL, end);
	case SBX_MEMORY:
		return limit_hit(job, LIM_MEMORY, end);
	case SBX_OUTPUT:
		return limit_hit(job, LIM_OUTPUT, end);
	case SBX_SIGNALED:
		if (r->signal == SIGXFSZ)
			return limit_hit(job, LIM_OUTPUT, end);
		if (r->signal == SIGXCPU || r->signal == SIGKILL)
			return limit_hit(job, LIM_CPU, end);
		*end = STEP_LIMIT;
		return refuse(job, "the compiler crashed (%s)", sbx_signal_name(r->signal, sig));
	default:
		if (!job->cfg->unconfined && strstr(r->message, "confining"))
			return unconfinable(job, r->message);
		return err_fail(job->err, "the compiler did not run: %s", r->message);
	}
}

/* Starts gcc under a tool policy with the limits left and waits for it. */
static int sandbox_gcc(struct cmp_job *job, const struct sbx_spec *spec, uint64_t wall_left,
		       struct cmp_log *log, enum step_end *end)
{
	const struct cfg_compile *c = job->cfg;
	struct sbx_limits lim = {
		.cpu_ns = c->cpu_ns, .wall_ns = wall_left, .memory_bytes = c->memory_bytes,
		.output_bytes = c->output_bytes, .stderr_bytes = c->log_bytes,
		.open_files = CMP_TOOL_FILES,
	};
	err_t serr;
	struct sbx_policy *pol = sbx_policy_new(SBX_TOOL, &lim, serr);
	struct sbx_proc *p = pol ? sbx_start(pol, spec, serr) : NULL;
	int rc;
	if (!p) {
		rc = spec->view && strstr(serr->msg, "confine")
			     ? unconfinable(job, serr->msg)
			     : err_fail(job->err, "cannot start the compiler: %s", serr->msg);
	} else {
		rc = judge_result(job, sbx_finish(p), log, end);
		sbx_free(p);
	}
	sbx_policy_free(pol);
	return rc;
}

/* Runs one gcc command in the private directory, its stdout to out_fd (or
 * /dev/null when -1).  Messages go to log; a limit replaces job->log with
 * one sentence. */
static int run_gcc(struct cmp_job *job, const char *const *argv, int out_fd,
		   struct cmp_log *log, enum step_end *end)
{
	uint64_t spent = elapsed_ns(job);
	if (spent >= job->cfg->wall_ns)
		return limit_hit(job, LIM_WALL, end);
	char tmpdir[PATH_MAX + 8];
	snprintf(tmpdir, sizeof tmpdir, "TMPDIR=%s", job->dir);
	const char *const envp[] = { "PATH=/usr/bin:/bin", "LC_ALL=C", tmpdir, NULL };
	/* The toolchain and the C library; the header and runtime are copies
	 * in the work directory.  Not /etc, /usr/local, /usr/share, /home,
	 * /var, /tmp, the queue or the cache. */
	static const char *const toolchain[] = {
		"/usr/bin", "/usr/lib", "/usr/lib64", "/usr/libexec", "/usr/include",
		"/bin", "/lib", "/lib64", NULL,
	};
	const struct sbx_view view = { .root = job->root, .readonly = toolchain,
				       .writable = job->dir };
	int in = open("/dev/null", O_RDONLY | O_CLOEXEC);
	int null_out = out_fd < 0 ? open("/dev/null", O_WRONLY | O_CLOEXEC) : -1;
	struct sbx_spec spec = {
		.path = CMP_GCC, .argv = argv, .envp = envp, .workdir = job->dir,
		.stdin_fd = in, .stdout_fd = out_fd < 0 ? null_out : out_fd,
		.uid = job->req->uid, .gid = job->req->gid,
		.view = job->cfg->unconfined ? NULL : &view,
	};
	int rc = in < 0 || spec.stdout_fd < 0
		 ? err_fail(job->err, "cannot open /dev/null: %s", strerror(errno))
		 : sandbox_gcc(job, &spec, job->cfg->wall_ns - spent, log, end);
	if (in >= 0)
		close(in);
	if (null_out >= 0)
		close(null_out);
	return rc;
}

/* ---- the cache --------------------------------------------------------------- */

static int make_dirs(const char *path)
{
	char p[PATH_MAX];
	if (snprintf(p, sizeof p, "%s", path) >= (int)sizeof p) {
		errno = ENAMETOOLONG;
		return -1;
	}
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0755) < 0 && errno != EEXIST)
			return -1;
		*s = '/';
	}
	return mkdir(p, 0700) < 0 && errno != EEXIST ? -1 : 0;
}

/* The cache holds every contestant's binary: the judge's alone, whatever
 * the umask; one made open by an older judge is closed when it is ours.
 * The sandbox executes a binary from a descriptor the judge opened, so no
 * other user needs to reach it by its path. */
static int make_private_dir(const char *dir)
{
	struct stat st;
	if (make_dirs(dir) < 0 || stat(dir, &st) < 0)
		return -1;
	if (st.st_uid == geteuid() && (st.st_mode & 077) && chmod(dir, st.st_mode & 0700) < 0)
		return -1;
	return 0;
}

static int open_cache(struct cmp_job *job)
{
	const char *dir = job->cfg->cache_dir;
	if (make_private_dir(dir) < 0 || !realpath(dir, job->cache))
		return err_fail(job->err, "cannot use the cache directory %s: %s", dir, strerror(errno));
	/* room for "/KEY.log.XXXXXX" */
	if (strlen(job->cache) + HASH_HEXLEN + 16 >= PATH_MAX)
		return err_fail(job->err, "the cache directory's path is too long");
	return 0;
}

static void cache_path(const struct cmp_job *job, const char *suffix, char path[PATH_MAX])
{
	path_in(path, job->cache, job->out->key, suffix);
}

/* Writes one cache entry, the bytes `data` or a copy of the regular file
 * `from` (not a link: the compiler's user owns the directory it is in),
 * under a temporary name renamed into place: readers, and a concurrent
 * compile of the same source, see all of it or nothing. */
static int cache_put(struct cmp_job *job, const char *suffix, const char *data,
		     const char *from, mode_t mode)
{
	char final[PATH_MAX];
	err_t err;
	cache_path(job, suffix, final);
	int rc = from ? file_copy(from, final, mode, err)
		      : file_write_whole(final, data, strlen(data), mode, err);
	return rc < 0 ? err_fail(job->err, "cannot store in the cache: %s", err->msg) : 0;
}

/* Reads a cached log into job->log; a missing one reads as empty when
 * `optional`.  Returns 0, 1 when it is missing, -1. */
static int cache_read_log(struct cmp_job *job, const char *suffix, bool optional)
{
	char path[PATH_MAX], *buf = NULL;
	size_t len = 0;
	cache_path(job, suffix, path);
	int rc = read_file(path, CMP_CACHED_LOG_MAX, O_NOFOLLOW, &buf, &len);
	if (rc < 0 && errno == ENOENT)
		return optional ? 0 : 1;
	if (rc != 0)
		return err_fail(job->err, "cannot read %s: %s", path, rc > 0 ? "too big" : strerror(errno));
	rc = log_add(&job->log, buf, len);
	free(buf);
	return rc < 0 ? err_fail(job->err, "out of memory") : 0;
}

/* The binary's SHA-256, as publish() kept it beside the binary (or, in an
 * entry made before it did, computed and kept now, if the cache lets it). */
static int cache_read_sha(struct cmp_job *job, const char *binary)
{
	char path[PATH_MAX], *kept = NULL;
	size_t len = 0;
	cache_path(job, ".sha256", path);
	bool ok = read_file(path, HASH_HEXLEN, O_NOFOLLOW, &kept, &len) == 0 &&
		  len == HASH_HEXLEN && strspn(kept, "0123456789abcdef") == HASH_HEXLEN;
	if (ok)
		memcpy(job->out->binary_sha256, kept, HASH_HEXLEN + 1);
	free(kept);
	if (!ok && hash_file(binary, job->out->binary_sha256) < 0)
		return err_fail(job->err, "cannot read %s: %s", binary, strerror(errno));
	if (!ok)
		cache_put(job, ".sha256", job->out->binary_sha256, NULL, 0600);
	return 0;
}

/* The checked object beside the cached binary, when it was kept. */
static void cached_object(struct cmp_job *job)
{
	struct stat st;
	cache_path(job, ".o", job->out->object);
	if (lstat(job->out->object, &st) < 0 || !S_ISREG(st.st_mode))
		job->out->object[0] = '\0';
}

/* Returns 1 when the cache holds the answer (now in job->out), 0 if not. */
static int cache_get(struct cmp_job *job)
{
	char path[PATH_MAX];
	struct stat st;
	cache_path(job, "", path);
	int rc;
	if (lstat(path, &st) == 0 && S_ISREG(st.st_mode)) {
		rc = cache_read_log(job, ".log", true);
		if (rc < 0 || cache_read_sha(job, path) < 0)
			return -1;
		job->out->ok = true;
		strcpy(job->out->binary, path);
		cached_object(job);
	} else {
		rc = cache_read_log(job, ".err", false);
		if (rc != 0)
			return rc < 0 ? -1 : 0;
	}
	job->out->cached = true;
	return 1;
}

/* ---- the steps --------------------------------------------------------------- */

static int read_source(struct cmp_job *job)
{
	int rc = read_file(job->req->source, CMP_SOURCE_MAX, 0, &job->src, &job->src_len);
	if (rc < 0)
		return err_fail(job->err, "cannot read %s: %s", job->req->source,
			    errno == EINVAL ? "not a regular file" : strerror(errno));
	if (rc > 0)
		return refuse(job, "%s is larger than %d KiB", job->name,
			      CMP_SOURCE_MAX / 1024) < 0 ? -1 : 1;
	return 0;
}

static int check_source(struct cmp_job *job)
{
	if (job->unchecked)
		return 0;
	err_t err;
	int rc = cscan_source(job->name, job->src, job->src_len,
			      job->header[0] ? job->header : NULL, err);
	if (rc < 0)
		return err_fail(job->err, "%s", err->msg);
	return rc ? (refuse(job, "%s", err->msg) < 0 ? -1 : 1) : 0;
}

/* Runs `gcc arg` in the confinement (tc_ask_fn): what it printed. */
static int ask_gcc(void *ctx, const char *arg, char **out)
{
	struct cmp_job *job = ctx;
	char path[PATH_MAX];
	if (!job->base[0] && make_workdir(job) < 0)
		return -1;
	path_in(path, job->dir, ".gcc-says", "");
	unlink(path);
	int fd = create_in(job, ".gcc-says", 0644);
	if (fd < 0)
		return err_fail(job->err, "cannot write in %s: %s", job->dir, strerror(errno));
	const char *const argv[] = { "gcc", arg, NULL };
	struct cmp_log scratch = { .max = 4096 };
	enum step_end end = STEP_ERROR;
	job->step = CMP_STEPS;
	int rc = run_gcc(job, argv, fd, &scratch, &end);
	close(fd);
	free(scratch.buf);
	if (rc == 0 && end != STEP_OK)
		return err_fail(job->err, "`gcc %s` failed: is gcc installed as %s?", arg, CMP_GCC);
	size_t len;
	if (rc == 0 && read_file(path, 65536, O_NOFOLLOW, out, &len) != 0)
		return err_fail(job->err, "cannot read what `gcc %s` printed", arg);
	return rc;
}

/* The compiler's identity, from the cache's record or asked afresh. */
static int know_toolchain(struct cmp_job *job)
{
	if (tc_identity(job->cache, CMP_GCC, ask_gcc, job, &job->toolchain, job->err) < 0)
		return -1;
	const char *v = job->toolchain.version;
	snprintf(job->out->compiler, sizeof job->out->compiler, "%.*s", (int)strcspn(v, "\n"), v);
	return 0;
}

/* The cache key: SHA-256 over every input of the compile, each framed. */
static int compute_key(struct cmp_job *job)
{
	struct hash h;
	if (hash_init(&h) < 0)
		return err_fail(job->err, "cannot start a SHA-256 digest");
	hash_field(&h, "salt", CMP_KEY_SALT, strlen(CMP_KEY_SALT));
	if (job->unchecked) /* never served to a checked compile */
		hash_field(&h, "unchecked", "", 0);
	for (int s = 0; s < CMP_STEPS; s++)
		for (const char *const *a = job->argv[s]; *a; a++)
			hash_field(&h, s == CMP_LINK ? "link" : "arg", *a, strlen(*a));
	hash_field(&h, "name", job->name, strlen(job->name));
	hash_field(&h, "source", job->src, job->src_len);
	/* the header's name matters too: it is what the source may include */
	hash_field(&h, "header name", job->header, strlen(job->header));
	hash_field(&h, "header", job->header_sum, strlen(job->header_sum));
	hash_field(&h, "shared header name", job->shared, strlen(job->shared));
	hash_field(&h, "shared header", job->shared_sum, strlen(job->shared_sum));
	hash_field(&h, "runtime", job->runtime_sum, strlen(job->runtime_sum));
	if (job->req->no_writable_globals)
		hash_field(&h, "no writable globals", "", 0);
	if (job->req->asm_pass)
		hash_field(&h, "assembly pass", job->req->asm_pass_version,
			   strlen(job->req->asm_pass_version));
	hash_field(&h, "toolchain", job->toolchain.digest, strlen(job->toolchain.digest));
	if (hash_hex(job->src, job->src_len, job->out->source_sha256) < 0) {
		hash_abort(&h);
		return err_fail(job->err, "SHA-256 failed");
	}
	return hash_final(&h, job->out->key) < 0 ? err_fail(job->err, "SHA-256 failed") : 0;
}

/* The game's rewrite of the checked assembly (req->asm_pass), written
 * afresh in place of gcc's: 0, 1 refused (err says why), -1 (err set). */
static int rewrite_assembly(struct cmp_job *job, const char *s, size_t len,
			    err_t err)
{
	if (!job->req->asm_pass)
		return 0;
	char *out = NULL, path[PATH_MAX];
	size_t out_len = 0;
	int rc = job->req->asm_pass(s, len, &out, &out_len, err);
	if (rc < 0)
		err_set(err, "out of memory rewriting the assembly");
	if (rc != 0)
		return rc;
	path_in(path, job->dir, job->files[CMP_TRANSLATE], "");
	int fd = unlink(path) < 0 ? -1 : create_in(job, job->files[CMP_TRANSLATE], 0644);
	rc = fd < 0 ? -1 : file_write_all(fd, out, out_len);
	if (fd >= 0 && close(fd) < 0)
		rc = -1;
	if (rc < 0)
		err_set(err, "cannot write the rewritten assembly: %s", strerror(errno));
	free(out);
	return rc;
}

/* Checks what gcc -E, gcc -S or the assembler wrote (files[s]: the .i, .s
 * or .o).  1: refused (the log says why). */
static int check_output(struct cmp_job *job, enum cmp_step s)
{
	if (job->unchecked)
		return 0;
	char path[PATH_MAX], *buf = NULL;
	err_t err;
	size_t len = 0;
	path_in(path, job->dir, job->files[s], "");
	int rc = read_file(path, job->cfg->output_bytes, O_NOFOLLOW, &buf, &len);
	if (rc != 0)
		return err_fail(job->err, "cannot read the compiler's output %s: %s", job->files[s],
			    rc > 0 ? "too big" : strerror(errno));
	const char *hdr = job->header[0] ? job->header : NULL;
	if (s == CMP_PREPROCESS)
		rc = cscan_preprocessed(job->name, buf, len, hdr,
					job->shared[0] ? job->shared : NULL, err);
	else if (s == CMP_TRANSLATE && (rc = cscan_assembly(job->name, buf, len, err)) == 0)
		rc = rewrite_assembly(job, buf, len, err);
	else if (s != CMP_TRANSLATE)
		rc = cscan_object(job->name, buf, len, err);
	if (rc == 0 && s == CMP_ASSEMBLE && (job->req->instrument || job->req->no_writable_globals))
		rc = cscan_object_symbols(job->name, buf, len, job->src, job->src_len,
					  job->req->no_writable_globals, err);
	free(buf);
	if (rc < 0)
		return err_fail(job->err, "%s", err->msg);
	return rc ? (refuse(job, "%s", err->msg) < 0 ? -1 : 1) : 0;
}

/* Runs one step and checks its output.  Returns -1 (the judge failed), 0
 * (go on) or 1 (the compile is over; the log says why).  A limit sets
 * job->transient: CPU and wall time vary, so that answer is not cached. */
static int run_step(struct cmp_job *job, enum cmp_step s, bool *transient)
{
	int fd = -1;
	if (s == CMP_PREPROCESS && (fd = create_in(job, job->files[0], 0644)) < 0)
		return err_fail(job->err, "cannot write in %s: %s", job->dir, strerror(errno));
	/* gcc -E's messages wait until its output has passed the check: had an
	 * #include slipped past the source check, they could quote the file. */
	struct cmp_log held = { .max = job->cfg->log_bytes };
	struct cmp_log *log = s == CMP_PREPROCESS ? &held : &job->log;
	enum step_end end = STEP_ERROR;
	job->step = s;
	int rc = run_gcc(job, job->argv[s], fd, log, &end);
	if (fd >= 0)
		close(fd);
	if (rc == 0 && end == STEP_LIMIT) {
		*transient = true;
		rc = 1;
	} else if (rc == 0 && (s == CMP_PREPROCESS || (s != CMP_LINK && end == STEP_OK))) {
		rc = check_output(job, s);
	}
	if (rc == 0 && log == &held) {
		if (log_add(&job->log, held.buf ? held.buf : "", held.len) < 0)
			rc = err_fail(job->err, "out of memory");
		job->log.dropped |= held.dropped;
	}
	if (rc == 0 && end == STEP_ERROR)
		rc = 1;
	free(held.buf);
	return rc;
}

/* A compile error is the contestant's only if gcc can build a program of
 * the judge's own: when it cannot (a part missing, the machine out of
 * processes), the judge has failed and nothing is cached.  Decided by
 * what happened to that program, never by the text of gcc's messages. */
static int probe_toolchain(struct cmp_job *job)
{
	static const char probe[] = "int main(void) { return 0; }\n";
	int fd = create_in(job, ".probe.c", 0644);
	int rc = fd < 0 ? -1 : file_write_all(fd, probe, sizeof probe - 1);
	if (fd >= 0 && close(fd) < 0)
		rc = -1;
	if (rc < 0)
		return err_fail(job->err, "cannot write in %s: %s", job->dir, strerror(errno));
	const char *const argv[] = { "gcc", "-O2", "-static", "-fno-lto", "-o", ".probe",
				     ".probe.c", NULL };
	struct cmp_log said = { .max = 4096 };
	enum step_end end = STEP_ERROR;
	rc = run_gcc(job, argv, -1, &said, &end);
	if (rc == 0 && end != STEP_OK)
		rc = err_fail(job->err, "gcc cannot build even an empty program, so the judge's toolchain "
			  "is broken: %.*s", (int)strcspn(said.buf ? said.buf : "", "\n"),
			  said.buf ? said.buf : "");
	free(said.buf);
	return rc;
}

static int publish(struct cmp_job *job)
{
	char from[PATH_MAX], object[PATH_MAX];
	path_in(from, job->dir, job->files[3], "");
	path_in(object, job->dir, job->files[2], "");
	/* the log and the digest first: whoever finds the binary finds them */
	/* A player runs as another uid, which must be able to execute the
	 * binary but has no reason to read it. */
	if (hash_file(from, job->out->binary_sha256) < 0)
		return err_fail(job->err, "cannot read the compiler's output: %s", strerror(errno));
	int rc = cache_put(job, ".log", job->out->log, NULL, 0600);
	rc = rc ? rc : cache_put(job, ".sha256", job->out->binary_sha256, NULL, 0600);
	rc = rc ? rc : cache_put(job, ".o", NULL, object, 0600);
	rc = rc ? rc : cache_put(job, "", NULL, from, 0711);
	if (rc < 0)
		return -1;
	job->out->ok = true;
	cache_path(job, "", job->out->binary);
	cache_path(job, ".o", job->out->object);
	return 0;
}

static int compile_job(struct cmp_job *job)
{
	int rc = check_request(job);
	if (rc == 0)
		build_argv(job);
	rc = rc ? rc : read_source(job);
	rc = rc ? rc : check_source(job);
	/* A cached answer costs no process and no copy: the key from the
	 * organiser's files as they are and the toolchain's kept identity. */
	rc = rc ? rc : open_cache(job);
	rc = rc ? rc : know_toolchain(job);
	rc = rc ? rc : import_inputs(job, false);
	rc = rc ? rc : compute_key(job);
	rc = rc ? rc : cache_get(job);
	/* Else the key again, of the copies gcc will read. */
	if (rc == 0 && !job->base[0])
		rc = make_workdir(job);
	rc = rc ? rc : stage_inputs(job);
	rc = rc ? rc : compute_key(job);
	rc = rc ? rc : cache_get(job);
	if (rc)
		return rc < 0 ? -1 : 0;
	bool transient = false;
	for (int s = 0; s < CMP_STEPS && rc == 0; s++)
		rc = run_step(job, (enum cmp_step)s, &transient);
	if (rc < 0 || !(job->out->log = log_take(&job->log)))
		return rc < 0 ? -1 : err_fail(job->err, "out of memory");
	if (rc == 0)
		return publish(job);
	if (transient)
		return 0;
	return probe_toolchain(job) < 0 ? -1 : cache_put(job, ".err", job->out->log, NULL, 0600);
}

static int compile(const struct cfg_compile *cfg, const struct cmp_request *req,
		   struct cmp_result *out, err_t err, bool unchecked)
{
	memset(out, 0, sizeof *out);
	struct cmp_job job = {
		.cfg = cfg, .req = req, .out = out, .err = err, .unchecked = unchecked,
		.log = { .max = cfg->log_bytes },
	};
	clock_gettime(CLOCK_MONOTONIC, &job.start);
	if (cfg->unconfined)
		fprintf(stderr, "judge: WARNING: compiling %s UNCONFINED: gcc sees every file "
			"of this machine its user may read (compile.unconfined is set)\n",
			req->source ? req->source : "?");
	int rc = compile_job(&job);
	remove_workdir(&job);
	free(job.src);
	if (rc == 0 && !out->log && !(out->log = log_take(&job.log)))
		rc = err_fail(job.err, "out of memory");
	free(job.log.buf);
	if (rc < 0)
		cmp_result_free(out);
	return rc;
}

int cmp_compile(const struct cfg_compile *cfg, const struct cmp_request *req,
		struct cmp_result *out, err_t err)
{
	return compile(cfg, req, out, err, false);
}

int cmp_check_confinement(const struct cfg_compile *cfg, uid_t uid, gid_t gid,
			  err_t err)
{
	if (cfg->unconfined)
		return 0;
	struct cmp_request req = { .uid = uid, .gid = gid };
	struct cmp_result out = { 0 };
	struct cmp_job job = { .cfg = cfg, .req = &req, .out = &out, .err = err,
			       .log = { .max = 4096 } };
	clock_gettime(CLOCK_MONOTONIC, &job.start);
	const char *const argv[] = { "gcc", "--version", NULL };
	enum step_end end = STEP_ERROR;
	job.step = CMP_STEPS;
	int rc = make_workdir(&job);
	rc = rc ? rc : run_gcc(&job, argv, -1, &job.log, &end);
	if (rc == 0 && end != STEP_OK)
		rc = err_fail(job.err, "`gcc --version` failed in the confinement: %.*s",
			  (int)strcspn(job.log.buf ? job.log.buf : "", "\n"),
			  job.log.buf ? job.log.buf : "");
	remove_workdir(&job);
	free(job.log.buf);
	return rc;
}

int cmp_compile_unchecked(const struct cfg_compile *cfg, const struct cmp_request *req,
			  struct cmp_result *out, err_t err)
{
	return compile(cfg, req, out, err, true);
}

void cmp_result_free(struct cmp_result *r)
{
	free(r->log);
	r->log = NULL;
}
