// SPDX-License-Identifier: GPL-2.0
/*
 * tfib_util.c - preconditions, shell commands, capabilities and module
 * parameters of the tfib test programs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/capability.h>

#include "tfib_util.h"

void tfu_require(int argc, char **argv)
{
	struct twt c;
	int err;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (listing_only(argc, argv))
		return;
	if (geteuid() != 0)
		ksft_exit_skip("needs root\n");
	err = tfc_open(&c);
	if (err == -ENOENT)
		ksft_exit_skip("generic netlink family '%s' not registered (module not loaded)\n",
			       TFIB_FAMILY_NAME);
	if (err)
		ksft_exit_fail_msg("cannot open a netlink socket: %s\n",
				   twt_errname(err));
	twt_close(&c);
	if (tfu_sh("ip -V"))
		ksft_exit_skip("needs ip(8) from iproute2\n");
}

void tfu_open(struct twt *c)
{
	int err = tfc_open(c);

	if (err) {
		ksft_print_msg("tfc_open: %s\n", twt_errname(err));
		exit(KSFT_FAIL);
	}
}

int tfu_sh(const char *fmt, ...)
{
	char cmd[512];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd) - 16, fmt, ap);
	va_end(ap);
	strcat(cmd, " >/dev/null 2>&1");
	rc = system(cmd);
	return rc == -1 ? -1 : WEXITSTATUS(rc);
}

int tfu_drop_net_admin(void)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[2];
	int i = CAP_TO_INDEX(CAP_NET_ADMIN);

	if (syscall(SYS_capget, &h, d))
		return -errno;
	d[i].effective &= ~CAP_TO_MASK(CAP_NET_ADMIN);
	d[i].permitted &= ~CAP_TO_MASK(CAP_NET_ADMIN);
	d[i].inheritable &= ~CAP_TO_MASK(CAP_NET_ADMIN);
	return syscall(SYS_capset, &h, d) ? -errno : 0;
}

long tfu_param(const char *name)
{
	char buf[32], *end;
	long v;

	if (param_read("tfib", name, buf, sizeof(buf)))
		return -1;
	v = strtol(buf, &end, 10);
	return end == buf ? -1 : v;
}

int tfu_set_param(const char *name, unsigned long v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%lu\n", v);
	return param_write("tfib", name, buf) ? -EIO : 0;
}

void tfu_mac(uint8_t mac[6], uint32_t seed)
{
	mac[0] = 0x02;
	mac[1] = 0x7f;
	mac[2] = seed >> 24;
	mac[3] = seed >> 16;
	mac[4] = seed >> 8;
	mac[5] = seed;
}

struct tfc_entry tfu_entry(uint32_t user_id, uint32_t seed)
{
	struct tfc_entry e = {
		.user_id = user_id,
		.ts_ns = 1000000000ULL * seed + user_id,
		.seq = seed * 7 + 1,
		.has_ts = true,
		.has_seq = true,
	};

	tfu_mac(e.mac, seed);
	return e;
}

uint64_t tfu_now(int clockid)
{
	struct timespec ts;

	clock_gettime(clockid, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

void tfu_show(const char *what, const struct twt_ack *a)
{
	ksft_print_msg("%s: %s, msg \"%s\"%s%s\n", what, twt_errname(a->err),
		       a->has_msg ? a->msg : "", a->has_offs ? ", offs" : "",
		       a->has_miss ? ", missing attribute named" : "");
}
