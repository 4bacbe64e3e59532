/* Tests of the compile step's second wall: what a confined tool sees
 * (sandbox views), what a compile whose checks were bypassed can read,
 * verdicts that no compiler message can forge, escaped logs, and the
 * judge's private files. */
#include <criterion/criterion.h>
#include <criterion/redirect.h>
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "judge/compile/compile.h"
#include "judge/store/store.h"
#include "sandbox/sandbox.h"

#define MIB (1024ULL * 1024)
#define SEC 1000000000ULL
#define TOOL_UID 61064 /* the default config's compiler uid */
#define SECRET "judge-secret-3f1c9a-never-in-a-log"

static struct {
	char dir[32];     /* /tmp/confine-XXXXXX: the test's, removed after */
	char root[64];    /* an empty directory for a view */
	char work[64];    /* the view's writable directory */
	char secret[64];  /* a world-readable file, like an old queue */
	struct cfg_compile cfg;
} fx;

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	remove(path);
	return 0;
}

static void setup(void)
{
	signal(SIGPIPE, SIG_IGN);
	strcpy(fx.dir, "/tmp/confine-XXXXXX");
	cr_assert_not_null(mkdtemp(fx.dir));
	chmod(fx.dir, 0755);
	snprintf(fx.root, sizeof fx.root, "%s/root", fx.dir);
	snprintf(fx.work, sizeof fx.work, "%s/work", fx.dir);
	snprintf(fx.secret, sizeof fx.secret, "%s/jobs.sqlite", fx.dir);
	cr_assert_eq(mkdir(fx.root, 0755), 0);
	cr_assert_eq(mkdir(fx.work, 0777), 0);
	chmod(fx.work, 0777);
	FILE *f = fopen(fx.secret, "w");
	cr_assert_not_null(f);
	fputs(SECRET "\n", f);
	fclose(f);
	chmod(fx.secret, 0644);
	struct judge_config all;
	cfg_defaults(&all);
	fx.cfg = all.compile;
	fx.cfg.cpu_ns = 10 * SEC;
	fx.cfg.wall_ns = 30 * SEC;
	fx.cfg.memory_bytes = 512 * MIB;
	snprintf(fx.cfg.cache_dir, sizeof fx.cfg.cache_dir, "%s/cache", fx.dir);
	char tmp[64];
	snprintf(tmp, sizeof tmp, "%s/tmp", fx.dir);
	mkdir(tmp, 0755);
	setenv("TMPDIR", tmp, 1);
}

static void teardown(void)
{
	nftw(fx.dir, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
}

TestSuite(confine, .init = setup, .fini = teardown, .timeout = 60);

/* ---- the view ---------------------------------------------------------------- */

/* Runs `sh -c script` confined to the toolchain's view, as uid; its stdout
 * and stderr together. */
static char *run_confined(const char *script, uid_t uid)
{
	static char out[16384];
	static const char *const ro[] = { "/usr/bin", "/usr/lib", "/usr/lib64", "/bin",
					  "/lib", "/lib64", NULL };
	struct sbx_view view = { .root = fx.root, .readonly = ro, .writable = fx.work };
	const char *argv[] = { "sh", "-c", script, NULL };
	const char *envp[] = { "PATH=/usr/bin:/bin", NULL };
	int pipefd[2];
	cr_assert_eq(pipe2(pipefd, O_CLOEXEC), 0);
	int in = open("/dev/null", O_RDONLY | O_CLOEXEC);
	struct sbx_limits lim = { .cpu_ns = 5 * SEC, .wall_ns = 10 * SEC,
				  .memory_bytes = 256 * MIB, .output_bytes = MIB,
				  .stderr_bytes = 4096, .open_files = 64 };
	err_t err;
	struct sbx_policy *pol = sbx_policy_new(SBX_TOOL, &lim, err);
	cr_assert_not_null(pol, "%s", err);
	struct sbx_spec spec = { .path = "/bin/sh", .argv = argv, .envp = envp,
				 .workdir = fx.work, .stdin_fd = in, .stdout_fd = pipefd[1],
				 .uid = uid, .gid = uid, .view = &view };
	struct sbx_proc *p = sbx_start(pol, &spec, err);
	cr_assert_not_null(p, "%s", err);
	close(pipefd[1]);
	size_t n = 0;
	ssize_t r;
	while (n < sizeof out - 1 && (r = read(pipefd[0], out + n, sizeof out - 1 - n)) > 0)
		n += (size_t)r;
	out[n] = '\0';
	const struct sbx_result *res = sbx_finish(p);
	cr_assert_eq(res->verdict, SBX_EXITED, "%s", res->message);
	snprintf(out + n, sizeof out - n, "%s", res->log ? res->log : "");
	sbx_free(p);
	sbx_policy_free(pol);
	close(pipefd[0]);
	close(in);
	return out;
}

Test(confine, a_tool_sees_only_the_toolchain)
{
	char *out = run_confined("ls /; echo ---; ls /usr", TOOL_UID);
	cr_expect_str_eq(out, "bin\ndev\nlib\nlib64\ntmp\nusr\n---\nbin\nlib\nlib64\n", "%s", out);
}

Test(confine, host_files_are_not_there)
{
	char script[512];
	snprintf(script, sizeof script,
		 "cat /etc/passwd /etc/shadow %s /proc/self/status /sys/kernel/hostname 2>&1;"
		 " ls /home /var /root /usr/local /usr/share 2>&1; true", fx.secret);
	char *out = run_confined(script, 0);
	cr_expect(!strstr(out, "root:"), "%s", out);
	cr_expect(!strstr(out, SECRET), "%s", out);
	cr_expect(!strstr(out, "VmPeak"), "%s", out);
	cr_expect(strstr(out, "No such file"), "%s", out);
}

Test(confine, only_the_work_directory_is_writable)
{
	char script[512];
	snprintf(script, sizeof script,
		 "echo x > /usr/bin/planted 2>&1; echo x > /planted 2>&1; mkdir /tmp/x 2>&1;"
		 " echo kept > %s/f && cat %s/f", fx.work, fx.work);
	char *out = run_confined(script, TOOL_UID);
	cr_expect(strstr(out, "Read-only file system") || strstr(out, "Permission denied"),
		  "%s", out);
	cr_expect(strstr(out, "kept\n"), "%s", out);
	struct stat st;
	cr_expect_neq(stat("/usr/bin/planted", &st), 0);
	cr_expect_neq(stat("/planted", &st), 0);
}

Test(confine, own_pid_space_and_no_network)
{
	/* a listener on the host's loopback that the tool must not reach */
	int ls = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t alen = sizeof a;
	cr_assert_eq(bind(ls, (struct sockaddr *)&a, sizeof a), 0);
	cr_assert_eq(listen(ls, 4), 0);
	cr_assert_eq(getsockname(ls, (struct sockaddr *)&a, &alen), 0);
	char script[512];
	snprintf(script, sizeof script,
		 "echo pid $$; python3 -c \"import socket\n"
		 "try:\n socket.create_connection(('127.0.0.1', %d), 2); print('connected')\n"
		 "except OSError as e: print('refused', e.errno)\" 2>&1",
		 ntohs(a.sin_port));
	char *out = run_confined(script, TOOL_UID);
	cr_expect_eq(strncmp(out, "pid 1\n", 6), 0, "%s", out);
	cr_expect(strstr(out, "refused"), "%s", out);
	cr_expect(!strstr(out, "connected"), "%s", out);
	cr_expect_lt(accept(ls, NULL, NULL), 0, "nothing reached the host's loopback");
	close(ls);
}

/* ---- compiles whose checks were bypassed ---------------------------------------- */

static char *write_source(const char *name, const char *text)
{
	static char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/%s", fx.dir, name);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

static struct cmp_result compile_unchecked(const char *path, uid_t uid)
{
	struct cmp_request req = { .source = path, .uid = uid, .gid = uid };
	struct cmp_result r;
	err_t err = {0};
	cr_assert_eq(cmp_compile_unchecked(&fx.cfg, &req, &r, err), 0, "%s", err->msg);
	return r;
}

static bool file_has(const char *path, const char *needle)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return false;
	static char buf[4 << 20];
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	return memmem(buf, n, needle, strlen(needle)) != NULL;
}

/* The .incbin the assembly check exists to stop, with the check off. */
static char *incbin_source(const char *file)
{
	static char text[1024];
	snprintf(text, sizeof text,
		 "__asm__(\".section .rodata\\n.globl stolen\\nstolen:\\n.incbin \\\"%s\\\"\\n"
		 ".byte 0\\n.text\\n\");\n"
		 "extern const char stolen[];\n"
		 "int main(void) { return stolen[0]; }\n", file);
	return text;
}

Test(confine, incbin_past_a_disabled_check_reads_nothing)
{
	const char *files[] = { fx.secret, "/etc/shadow", "/etc/passwd", NULL };
	for (int i = 0; files[i]; i++) {
		char *src = write_source("AIThief.c", incbin_source(files[i]));
		struct cmp_result r = compile_unchecked(src, geteuid() == 0 ? TOOL_UID : 0);
		cr_expect(!r.ok, "%s was read into the binary", files[i]);
		cr_expect(strstr(r.log, "file not found"), "%s: %s", files[i], r.log);
		cr_expect(!strstr(r.log, SECRET) && !strstr(r.log, "root:"), "%s", r.log);
		cmp_result_free(&r);
	}
}

Test(confine, the_same_probe_unconfined_does_read)
{
	/* What the confinement stops, for this test to be able to fail; the
	 * warning every unconfined compile prints goes to a captured stderr. */
	cr_redirect_stderr();
	fx.cfg.unconfined = true;
	char *src = write_source("AIThief.c", incbin_source(fx.secret));
	struct cmp_result r = compile_unchecked(src, 0);
	cr_assert(r.ok, "%s", r.log);
	cr_expect(file_has(r.binary, SECRET));
	cmp_result_free(&r);
}

Test(confine, include_of_a_host_file_past_a_disabled_check)
{
	char text[256];
	snprintf(text, sizeof text, "#include \"%s\"\n#include \"/etc/passwd\"\n", fx.secret);
	char *src = write_source("AIPeek.c", text);
	struct cmp_result r = compile_unchecked(src, 0);
	cr_expect(!r.ok);
	cr_expect(!strstr(r.log, SECRET) && !strstr(r.log, "root:"), "%s", r.log);
	cmp_result_free(&r);
}

/* ---- verdicts and logs ------------------------------------------------------------ */

static bool cached_error(const struct cmp_result *r)
{
	char path[PATH_MAX + 80];
	snprintf(path, sizeof path, "%s/%s.err", fx.cfg.cache_dir, r->key);
	return access(path, F_OK) == 0;
}

Test(confine, messages_cannot_forge_a_verdict)
{
	/* Line markers (refused by the checks, bypassed here) and pragmas
	 * make gcc print whatever a contestant likes at a line's start. */
	const char *forgeries[] = {
		"# 1 \"cc1: out of memory allocating 99 bytes\"\n#error memory exhausted\n",
		"# 1 \"gcc: fatal error: cannot execute 'cc1'\"\n#error x\n",
		"#pragma message \"CPU time limit exceeded\"\n#error File size limit exceeded\n",
		"# 1 \"collect2\"\n#warning Killed signal terminated program cc1\nint x = ;\n",
	};
	for (size_t i = 0; i < sizeof forgeries / sizeof *forgeries; i++) {
		char name[32];
		snprintf(name, sizeof name, "AIForge%zu.c", i);
		struct cmp_result r = compile_unchecked(write_source(name, forgeries[i]), 0);
		cr_expect(!r.ok);
		cr_expect(!strstr(r.log, "compilation stopped"), "%s", r.log);
		cr_expect(cached_error(&r), "an ordinary, cached compile error: %s", r.log);
		cmp_result_free(&r);
	}
}

Test(confine, control_characters_are_escaped)
{
	/* ESC and an 8-bit CSI inside literals gcc quotes back */
	char *src = write_source("AITerm.c", "#pragma message \"\x1b[2J\x9b" "31m ok \xc3\xa9\"\n"
					     "#warning \x1b]0;title\x07\n");
	struct cmp_result r = compile_unchecked(src, 0);
	for (const char *c = r.log; *c; c++) {
		unsigned char u = (unsigned char)*c;
		cr_expect(u >= 0x20 || u == '\n' || u == '\t', "raw byte %02x in: %s", u, r.log);
		cr_expect(u != 0x9b && u != 0x7f, "raw byte %02x in: %s", u, r.log);
	}
	cr_expect(strstr(r.log, "\\x1b[2J\\x9b31m ok \xc3\xa9"), "%s", r.log);
	cr_expect(strstr(r.log, "\\x1b]0;title\\x07"), "%s", r.log);
	cmp_result_free(&r);
}

/* ---- private files ---------------------------------------------------------------- */

Test(confine, cache_and_binaries_are_private)
{
	umask(022);
	char *src = write_source("AIPlain.c", "int main(void) { return 0; }\n");
	struct cmp_result r = compile_unchecked(src, geteuid() == 0 ? TOOL_UID : 0);
	cr_assert(r.ok, "%s", r.log);
	struct stat st;
	cr_assert_eq(stat(fx.cfg.cache_dir, &st), 0);
	cr_expect_eq(st.st_mode & 077, 0, "cache directory mode %o", st.st_mode & 0777);
	cr_assert_eq(stat(r.binary, &st), 0);
	cr_expect_eq(st.st_mode & 044, 0, "binary mode %o", st.st_mode & 0777);
	char log[PATH_MAX + 80];
	snprintf(log, sizeof log, "%s.log", r.binary);
	cr_assert_eq(stat(log, &st), 0);
	cr_expect_eq(st.st_mode & 077, 0, "log mode %o", st.st_mode & 0777);
	cmp_result_free(&r);
	/* an open cache left by an older judge is closed */
	chmod(fx.cfg.cache_dir, 0755);
	r = compile_unchecked(src, 0);
	cr_assert_eq(stat(fx.cfg.cache_dir, &st), 0);
	cr_expect_eq(st.st_mode & 077, 0, "cache directory mode %o", st.st_mode & 0777);
	cmp_result_free(&r);
}

Test(confine, the_queue_is_private)
{
	umask(022);
	char path[PATH_MAX];
	err_t err;
	snprintf(path, sizeof path, "%s/queue.sqlite", fx.dir);
	struct store *s = store_open(path, true, err);
	cr_assert_not_null(s, "%s", err->msg);
	store_close(s);
	struct stat st;
	cr_assert_eq(stat(path, &st), 0);
	cr_expect_eq(st.st_mode & 077, 0, "queue mode %o", st.st_mode & 0777);
	chmod(path, 0644);
	s = store_open(path, false, err);
	cr_assert_not_null(s, "%s", err->msg);
	store_close(s);
	cr_assert_eq(stat(path, &st), 0);
	cr_expect_eq(st.st_mode & 077, 0, "an old open queue is closed: mode %o",
		     st.st_mode & 0777);
}

/* ---- kernels that refuse namespaces -------------------------------------------- */

#include <sched.h>
#include <seccomp.h>
#include <sys/wait.h>

/* In a child: clone with a new mount namespace fails as on a kernel that
 * refuses namespaces; returns what cmp_check_confinement said. */
static int check_where_namespaces_are_refused(bool unconfined, err_t err)
{
	int pipefd[2];
	cr_assert_eq(pipe(pipefd), 0);
	pid_t pid = fork();
	cr_assert_neq(pid, -1);
	if (pid == 0) {
		scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
		seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1,
				 SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_NEWNS, CLONE_NEWNS));
		seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
		if (seccomp_load(ctx) < 0)
			_exit(3);
		fx.cfg.unconfined = unconfined;
		err_t e = {0};
		int rc = cmp_check_confinement(&fx.cfg, 0, 0, e);
		if (write(pipefd[1], e->msg, strlen(e->msg) + 1) < 0)
			_exit(4);
		_exit(rc == 0 ? 0 : 1);
	}
	close(pipefd[1]);
	ssize_t n = read(pipefd[0], err->msg, ERR_LEN - 1);
	err->msg[n > 0 ? n : 0] = '\0';
	close(pipefd[0]);
	int status;
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) <= 1, "status %d", status);
	return WEXITSTATUS(status) == 0 ? 0 : -1;
}

Test(confine, refused_namespaces_are_said_and_unconfined_is_a_choice)
{
	err_t err;
	cr_expect_eq(cmp_check_confinement(&fx.cfg, 0, 0, err), 0, "%s", err->msg);
	cr_expect_eq(check_where_namespaces_are_refused(false, err), -1);
	cr_expect(strstr(err->msg, "could not be confined"), "%s", err->msg);
	cr_expect(strstr(err->msg, "\"unconfined\": true"), "%s", err->msg);
	cr_expect_eq(check_where_namespaces_are_refused(true, err), 0, "%s", err->msg);
}
