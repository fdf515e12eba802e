// SPDX-License-Identifier: GPL-2.0
/*
 * "timewire qaware load" and "unload".  The module registers its
 * schedulers without the kernel's unexported registration function: it
 * needs the addresses of mptcp_sched_list and mptcp_sched_list_lock,
 * read here from /proc/kallsyms and handed in as module parameters (the
 * module checks them itself).  This is the one loader: the modprobe.d
 * rule mptcp-qaware.conf makes "modprobe mptcp_qaware" run it.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "qaware_cli.h"

#define QA_MODULE	"mptcp_qaware"

struct load_opts {
	const char *ko;		/* NULL: the installed module, by modprobe */
	const char *params;	/* more module parameters, blank separated */
};

/* Accepts an empty string: modprobe.d hands over $CMDLINE_OPTS as is. */
static int parse_params(void *dst, int argc, char **argv)
{
	(void)argc;
	*(const char **)dst = argv[0];
	return 1;
}

static const struct tw_arg load_args[] = {
	{ .name = "ko", .type = TW_ARG_STR, .off = offsetof(struct load_opts, ko),
	  .meta = "FILE",
	  .help = "load this module file instead of the installed module" },
	{ .name = "params", .type = TW_ARG_CUSTOM,
	  .off = offsetof(struct load_opts, params), .meta = "\"NAME=VALUE ...\"",
	  .parse = parse_params, .help = "more module parameters" },
	{ .name = NULL },
};

/* The address of a kernel (not module) symbol: 0 when absent. */
static unsigned long long kallsyms_addr(FILE *f, const char *name)
{
	char line[512], sym[256], type;
	unsigned long long addr;
	int n;

	rewind(f);
	while (fgets(line, sizeof(line), f)) {
		/* A module's symbol has a fourth column, [module]. */
		n = sscanf(line, "%llx %c %255s %*s", &addr, &type, sym);
		if (n == 3 && !strchr(line, '[') && !strcmp(sym, name))
			return addr ? addr : 1;	/* 1: present, hidden */
	}
	return 0;
}

static int no_mptcp(void)
{
	if (access("/proc/sys/net/mptcp/enabled", F_OK))
		tw_err("this kernel has no MPTCP (CONFIG_MPTCP): there is nothing to schedule");
	else
		tw_err("mptcp_sched_list is not in /proc/kallsyms: the kernel needs CONFIG_KALLSYMS_ALL and an MPTCP scheduler API (Linux 6.6 or later)");
	return TW_EXIT_FAIL;
}

/* "sched_list=0x... [sched_list_lock=0x...]" into buf; an exit code. */
static int addr_params(char *buf, size_t len)
{
	unsigned long long list, lock;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f) {
		tw_err("cannot read /proc/kallsyms: %s (CONFIG_KALLSYMS)",
		       strerror(errno));
		return TW_EXIT_SYS;
	}
	list = kallsyms_addr(f, "mptcp_sched_list");
	lock = list ? kallsyms_addr(f, "mptcp_sched_list_lock") : 0;
	fclose(f);
	if (!list)
		return no_mptcp();
	if (list == 1 || lock == 1) {
		tw_err("/proc/kallsyms hides the addresses: run as root, with sysctl kernel.kptr_restrict below 2");
		return TW_EXIT_FAIL;
	}
	/*
	 * A uniprocessor kernel's lock may have no bytes and no symbol: the
	 * module knows whether its kernel's has and refuses a missing one.
	 */
	if (!lock)
		snprintf(buf, len, "sched_list=0x%llx", list);
	else
		snprintf(buf, len, "sched_list=0x%llx sched_list_lock=0x%llx",
			 list, lock);
	return TW_EXIT_OK;
}

/*
 * The decompressor of a compressed module file (DKMS installs .ko.xz on
 * Debian), or NULL.  Decompressed here, not by the kernel: its own
 * decompressor takes only its build's format and options (a 1 MiB xz
 * dictionary; DKMS's files have 8 MiB), and 6.1 has none.
 */
static const char *decompressor(const char *ko)
{
	static const char *const tools[][2] = {
		{ ".xz", "xz" }, { ".gz", "gzip" }, { ".zst", "zstd" },
	};
	size_t len = strlen(ko), n, i;

	for (i = 0; i < ARRAY_SIZE(tools); i++) {
		n = strlen(tools[i][0]);
		if (len > n && !strcmp(ko + len - n, tools[i][0]))
			return tools[i][1];
	}
	return NULL;
}

/* Larger is no module: a bound on what a decompressor may write. */
#define QA_MAX_MODULE_BYTES	(256UL << 20)

/* What run_and_wait() gives its child besides the arguments. */
struct child_setup {
	int in, out;		/* its stdin and stdout; -1: ours */
	int (*prepare)(void);	/* run before exec; nonzero: fail (126) */
};

/* In the child: fd as fd to, if given; dup2() onto itself keeps CLOEXEC. */
static int child_fd(int fd, int to)
{
	if (fd < 0)
		return 0;
	return (fd == to ? fcntl(fd, F_SETFD, 0) : dup2(fd, to)) < 0;
}

/* In the child: file with args, set up as cs says.  Never returns. */
static void exec_child(const char *file, char *const *args,
		       const struct child_setup *cs)
{
	/* in < out (opened first): dup2() onto stdin cannot close out. */
	if (child_fd(cs->in, STDIN_FILENO) ||
	    child_fd(cs->out, STDOUT_FILENO) ||
	    (cs->prepare && cs->prepare()))
		_exit(126);
	execvp(file, args);
	_exit(127);
}

/*
 * Run file with args and wait: its exit status (127: it was not found),
 * or -1 when it did not start or was killed.  SIGCHLD is ours while it
 * runs: a parent's SIG_IGN would have the child reaped before waitpid()
 * sees it.
 */
static int run_and_wait(const char *file, char *const *args,
			const struct child_setup *cs)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL }, old;
	int status = -1, ret;
	pid_t pid;

	sigaction(SIGCHLD, &dfl, &old);
	fflush(NULL);
	pid = fork();
	if (pid == 0)
		exec_child(file, args, cs);
	if (pid > 0) {
		while ((ret = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
			;
		status = ret == pid && WIFEXITED(status) ?
			 WEXITSTATUS(status) : -1;
	}
	sigaction(SIGCHLD, &old, NULL);
	return status;
}

static int limit_output_size(void)
{
	const struct rlimit fsize = { QA_MAX_MODULE_BYTES, QA_MAX_MODULE_BYTES };

	return setrlimit(RLIMIT_FSIZE, &fsize);
}

/* The exit status of tool -dc run on fd into out, within the bound, or -1. */
static int run_decompressor(int fd, int out, const char *tool)
{
	char *const args[] = { (char *)tool, "-dc", NULL };
	const struct child_setup cs = {
		.in = fd, .out = out, .prepare = limit_output_size,
	};

	return run_and_wait(tool, args, &cs);
}

/* fd's content decompressed by tool into an anonymous file; its fd or -1. */
static int decompressed(int fd, const char *tool, const char *ko)
{
	int out = memfd_create(QA_MODULE ".ko", MFD_CLOEXEC);
	int status;

	if (out < 0) {
		tw_err("cannot decompress %s: %s", ko, strerror(errno));
		return -1;
	}
	status = run_decompressor(fd, out, tool);
	if (status == 0 && lseek(out, 0, SEEK_SET) == 0)
		return out;
	if (status == 127)
		tw_err("cannot decompress %s: %s is not installed", ko, tool);
	else
		tw_err("cannot decompress %s with %s -dc (a module, at most %lu MiB?)",
		       ko, tool, QA_MAX_MODULE_BYTES >> 20);
	close(out);
	return -1;
}

/* The module file ready for finit_module(), decompressed if need be. */
static int open_module(const char *ko)
{
	int fd = open(ko, O_RDONLY | O_CLOEXEC), plain;
	const char *tool = decompressor(ko);

	if (fd < 0) {
		tw_err("cannot open %s: %s", ko, strerror(errno));
		return -1;
	}
	if (!tool)
		return fd;
	plain = decompressed(fd, tool, ko);
	close(fd);
	return plain;
}

static int load_file(const char *ko, const char *params)
{
	int fd = open_module(ko);
	int err;

	if (fd < 0)
		return TW_EXIT_SYS;
	err = syscall(SYS_finit_module, fd, params, 0) ? errno : 0;
	close(fd);
	if (!err)
		return TW_EXIT_OK;
	if (err == EEXIST)
		tw_err("%s is loaded already", QA_MODULE);
	else
		tw_err("the kernel refused %s: %s (its reason is in the kernel log: dmesg)",
		       ko, strerror(err));
	return TW_EXIT_FAIL;
}

/* Run modprobe with args; its exit status, or -1 when it did not run. */
static int modprobe(char *const *args)
{
	const struct child_setup cs = { .in = -1, .out = -1 };
	int status = run_and_wait("modprobe", args, &cs);

	return status == 127 ? -1 : status;
}

/*
 * The installed module through modprobe, which finds it and what it needs;
 * --ignore-install, or the modprobe.d rule would call us again.
 */
static int load_installed(char *params)
{
	char *args[16] = { "modprobe", "--ignore-install", "--dry-run",
			   "--quiet", QA_MODULE };
	int n = 2, rc;
	char *p;

	rc = modprobe(args);
	if (rc) {
		tw_err(rc < 0 ? "cannot run modprobe (kmod)" :
		       "%s is not installed for this kernel: install it (make modules_install) or give its file (timewire qaware load ko FILE)",
		       QA_MODULE);
		return rc < 0 ? TW_EXIT_SYS : TW_EXIT_FAIL;
	}
	args[n++] = QA_MODULE;
	for (p = strtok(params, " \t"); p && n < 15; p = strtok(NULL, " \t"))
		args[n++] = p;
	args[n] = NULL;
	if (p) {
		tw_err("too many module parameters");
		return TW_EXIT_FAIL;
	}
	return modprobe(args) ? TW_EXIT_FAIL : TW_EXIT_OK;
}

static int load_run(void *p, uint64_t seen)
{
	struct load_opts *o = p;
	char params[512];
	size_t len;
	int ret;

	(void)seen;
	if (geteuid()) {
		tw_err("loading a module needs root: run \"sudo timewire qaware load\"");
		return TW_EXIT_FAIL;
	}
	ret = addr_params(params, sizeof(params));
	if (ret)
		return ret;
	len = strlen(params);
	if (o->params && *o->params)
		snprintf(params + len, sizeof(params) - len, " %s", o->params);
	return o->ko ? load_file(o->ko, params) : load_installed(params);
}

const struct tw_cmd qaware_load_cmd = {
	.name = "load",
	.help = "load the module with the kernel addresses it needs (root)",
	.notes = "The addresses of mptcp_sched_list and mptcp_sched_list_lock are\n"
		 "read from /proc/kallsyms (CONFIG_KALLSYMS_ALL, root) and given to\n"
		 "the module, which checks them.  Without ko, the installed module\n"
		 "is loaded with modprobe.\n",
	.args = load_args,
	.opts_size = sizeof(struct load_opts),
	.run = load_run,
};

static int unload_run(void *p, uint64_t seen)
{
	(void)p;
	(void)seen;
	if (!syscall(SYS_delete_module, QA_MODULE, O_NONBLOCK))
		return TW_EXIT_OK;
	switch (errno) {
	case ENOENT:
		tw_err("%s is not loaded", QA_MODULE);
		return TW_EXIT_NOMOD;
	case EWOULDBLOCK:
	case EBUSY:
		tw_err("%s is in use by MPTCP sockets: close them first", QA_MODULE);
		return TW_EXIT_FAIL;
	case EPERM:
		tw_err("unloading a module needs root: run \"sudo timewire qaware unload\"");
		return TW_EXIT_FAIL;
	}
	tw_err("cannot unload %s: %s", QA_MODULE, strerror(errno));
	return TW_EXIT_SYS;
}

const struct tw_cmd qaware_unload_cmd = {
	.name = "unload",
	.help = "unload the module (root); refused while sockets use it",
	.run = unload_run,
};
