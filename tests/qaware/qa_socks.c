// SPDX-License-Identifier: GPL-2.0
/*
 * MPTCP sockets for the qaware suite's memory tests (qaware_mem.sh).
 *
 *   qa_socks idle N LISTENERS UID   N sockets that never connect, of them
 *                                   LISTENERS listening, opened as UID;
 *                                   prints "ready", holds them until stdin
 *                                   closes
 *   qa_socks conns K                K connections over 127.0.0.1, one byte
 *                                   sent on each; prints "ready K", holds
 *                                   them until stdin closes
 *   qa_socks relisten               a connection sends a byte, is
 *                                   disconnected (connect(AF_UNSPEC)) and
 *                                   listens; the socket it accepts sends a
 *                                   byte back; prints "ready", holds them
 *                                   until stdin closes
 *   qa_socks refuse CGROUP N        attaches a cgroup sock_create program
 *                                   that refuses every socket (r0 = 0;
 *                                   exit) to CGROUP, joins it and asks for
 *                                   N IPv4 and N IPv6 MPTCP sockets;
 *                                   prints "refused R" (R of 2N)
 *
 * Exit status: 0, or 1 with a message on stderr.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef IPPROTO_MPTCP
#define IPPROTO_MPTCP 262
#endif

static int fail(const char *what)
{
	fprintf(stderr, "qa_socks: %s: %s\n", what, strerror(errno));
	return 1;
}

static int mptcp_socket(int family)
{
	return socket(family, SOCK_STREAM, IPPROTO_MPTCP);
}

/* Hold everything open until the caller closes our stdin. */
static void hold(void)
{
	char c;

	while (read(0, &c, 1) > 0)
		;
}

static int raise_nofile(unsigned long n)
{
	struct rlimit rl = { .rlim_cur = n + 64, .rlim_max = n + 64 };

	return setrlimit(RLIMIT_NOFILE, &rl);
}

static int listen_on(int fd, unsigned short port, int backlog)
{
	struct sockaddr_in a = {
		.sin_family = AF_INET,
		.sin_port = htons(port),
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};

	if (bind(fd, (struct sockaddr *)&a, sizeof(a)))
		return -1;
	return listen(fd, backlog);
}

static int idle(unsigned long n, unsigned long listeners, uid_t uid)
{
	unsigned long i;
	int fd;

	if (raise_nofile(n))
		return fail("setrlimit");
	if (setgid(uid) || setuid(uid))
		return fail("setuid");
	for (i = 0; i < n; i++) {
		fd = mptcp_socket(AF_INET);
		if (fd < 0)
			return fail("socket");
		/* ports from 20000 on: unprivileged, below the ephemeral range */
		if (i < listeners && listen_on(fd, 20000 + i, 1))
			return fail("listen");
	}
	printf("ready\n");
	fflush(stdout);
	hold();
	return 0;
}

static int conns(unsigned long k)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);
	unsigned long i;
	int lfd, fd;

	if (raise_nofile(3 * k))
		return fail("setrlimit");
	lfd = mptcp_socket(AF_INET);
	if (lfd < 0 || listen_on(lfd, 0, k) ||
	    getsockname(lfd, (struct sockaddr *)&a, &len))
		return fail("listener");
	for (i = 0; i < k; i++) {
		fd = mptcp_socket(AF_INET);
		if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a)))
			return fail("connect");
		/* the first send asks the scheduler for a subflow */
		if (send(fd, "x", 1, 0) != 1)
			return fail("send");
		if (accept(lfd, NULL, NULL) < 0)
			return fail("accept");
	}
	printf("ready %lu\n", k);
	fflush(stdout);
	hold();
	return 0;
}

/* A socket connected to @lfd's address; with one byte read on @lfd's side. */
static int connect_to(int lfd, int *afd)
{
	struct sockaddr_in a;
	socklen_t len = sizeof(a);
	int fd;

	if (getsockname(lfd, (struct sockaddr *)&a, &len))
		return -1;
	fd = mptcp_socket(AF_INET);
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a)))
		return -1;
	*afd = accept(lfd, NULL, NULL);
	return *afd < 0 ? -1 : fd;
}

static int relisten(void)
{
	struct sockaddr unspec = { .sa_family = AF_UNSPEC };
	int lfd, fd, afd, cfd, pfd;
	char c;

	lfd = mptcp_socket(AF_INET);
	if (lfd < 0 || listen_on(lfd, 0, 4))
		return fail("listener");
	fd = connect_to(lfd, &afd);
	if (fd < 0 || send(fd, "x", 1, 0) != 1 || recv(afd, &c, 1, 0) != 1)
		return fail("first connection");
	if (connect(fd, &unspec, sizeof(unspec)))
		return fail("disconnect");
	/* the port the connection had was given back: any one */
	if (listen(fd, 4))
		return fail("listen after disconnect");
	cfd = connect_to(fd, &pfd);
	if (cfd < 0)
		return fail("connection to the socket that listens again");
	if (send(pfd, "y", 1, 0) != 1 || recv(cfd, &c, 1, 0) != 1)
		return fail("the accepted socket's byte");
	printf("ready\n");
	fflush(stdout);
	hold();
	return 0;
}

static int bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

/* r0 = 0; exit: a sock_create program that refuses every socket. */
static int refusing_prog(void)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_CGROUP_SOCK;
	attr.expected_attach_type = BPF_CGROUP_INET_SOCK_CREATE;
	attr.insns = (unsigned long)insns;
	attr.insn_cnt = 2;
	attr.license = (unsigned long)"GPL";
	return bpf(BPF_PROG_LOAD, &attr);
}

static int join(const char *cgroup)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/cgroup.procs", cgroup);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "%d\n", getpid());
	return fclose(f);
}

static int refuse(const char *cgroup, unsigned long n)
{
	unsigned long i, refused = 0;
	union bpf_attr attr;
	int prog, cg, fd;

	prog = refusing_prog();
	if (prog < 0)
		return fail("BPF_PROG_LOAD");
	cg = open(cgroup, O_RDONLY | O_DIRECTORY);
	if (cg < 0)
		return fail(cgroup);
	memset(&attr, 0, sizeof(attr));
	attr.target_fd = cg;
	attr.attach_bpf_fd = prog;
	attr.attach_type = BPF_CGROUP_INET_SOCK_CREATE;
	if (bpf(BPF_PROG_ATTACH, &attr))
		return fail("BPF_PROG_ATTACH");
	if (join(cgroup))
		return fail("joining the cgroup");
	for (i = 0; i < 2 * n; i++) {
		fd = mptcp_socket(i < n ? AF_INET : AF_INET6);
		if (fd >= 0)
			close(fd);
		else if (errno == EPERM)
			refused++;
	}
	printf("refused %lu\n", refused);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "idle"))
		return idle(strtoul(argv[2], NULL, 0), strtoul(argv[3], NULL, 0),
			    strtoul(argv[4], NULL, 0));
	if (argc == 3 && !strcmp(argv[1], "conns"))
		return conns(strtoul(argv[2], NULL, 0));
	if (argc == 2 && !strcmp(argv[1], "relisten"))
		return relisten();
	if (argc == 4 && !strcmp(argv[1], "refuse"))
		return refuse(argv[2], strtoul(argv[3], NULL, 0));
	fprintf(stderr, "usage: qa_socks idle N LISTENERS UID | conns K | relisten | refuse CGROUP N\n");
	return 1;
}
