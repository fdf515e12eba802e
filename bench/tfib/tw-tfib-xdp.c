// SPDX-License-Identifier: GPL-2.0
/*
 * tw-tfib-xdp - load, drive and unload the XDP peer of the tfib forwarder
 * (tfib_xdp.bpf.c, built into this program as a libbpf skeleton).
 *
 * The program stays attached when this tool exits; later commands find
 * it, and its maps, through the interface (no bpffs pin needed).
 */
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/if_link.h>

#include <linux/tfib.h>

#include "lib/netdev.h"
#include "lib/print.h"
#include "lib/util.h"
#include "tfib_xdp.h"
#include "tfib_xdp.skel.h"

struct xdp_opts {
	const char *cmd;
	int (*run)(const struct xdp_opts *o);
	const char *ifname;
	unsigned int ifindex;
	bool generic;
	bool pass;
	bool user_control;	/* attach: control packets to user space */
	bool any_cpu;		/* serve: on every online CPU */
	bool json;
	uint32_t entries;
	uint32_t first, last;	/* set, get: user IDs */
	uint8_t mac[6];
	bool has_ts;
	uint64_t ts_ns;
	uint32_t seq;
};

/* The program attached to an interface, and one of its maps. */
struct attached {
	int prog_fd;
	uint32_t prog_id;
	uint32_t mode;		/* XDP_FLAGS_SKB_MODE or XDP_FLAGS_DRV_MODE */
	bool pass;		/* tfib_xdp_pass, not the forwarder */
};

static const char *const counter_names[TFIB_XDP_COUNTERS] = {
	[TFIB_XDP_RX] = "rx",
	[TFIB_XDP_RX_CONTROL] = "rx_control",
	[TFIB_XDP_RX_DATA] = "rx_data",
	[TFIB_XDP_FORWARDED] = "forwarded",
	[TFIB_XDP_DROP_SHORT] = "drop_short",
	[TFIB_XDP_DROP_VERSION] = "drop_version",
	[TFIB_XDP_DROP_TYPE] = "drop_type",
	[TFIB_XDP_DROP_NO_ENTRY] = "drop_no_entry",
	[TFIB_XDP_DROP_HOP_LIMIT] = "drop_hop_limit",
	[TFIB_XDP_DROP_LOOP] = "drop_loop",
	[TFIB_XDP_DROP_GROUP] = "drop_group",
	[TFIB_XDP_DROP_TABLE_FULL] = "drop_table_full",
	[TFIB_XDP_DROP_BAD_MAC] = "drop_bad_mac",
	[TFIB_XDP_DROP_CONTROL_QUEUE] = "drop_control_queue",
};

static void print_mac(const char *key, const uint8_t m[6])
{
	char s[18];

	snprintf(s, sizeof(s), "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1],
		 m[2], m[3], m[4], m[5]);
	print_string(key, s);
}

/* libbpf's own messages: warnings only (the verifier's log among them). */
static int libbpf_print(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	return level == LIBBPF_WARN ? vfprintf(stderr, fmt, ap) : 0;
}

static const char *mode_name(uint32_t mode)
{
	return mode == XDP_FLAGS_SKB_MODE ? "generic" : "native";
}

/* --- attach and detach ------------------------------------------------ */

static int attach_error(const struct xdp_opts *o, int err)
{
	if (err == -EEXIST || err == -EBUSY)
		tw_err("%s has an XDP program already: tw-tfib-xdp detach %s first",
		       o->ifname, o->ifname);
	else if (err == -EOPNOTSUPP && !o->generic)
		tw_err("%s's driver has no native XDP: add --generic", o->ifname);
	else if (err == -EPERM)
		tw_err("attaching to %s: %s (needs CAP_NET_ADMIN and CAP_BPF)",
		       o->ifname, strerror(-err));
	else
		tw_err("attaching to %s: %s", o->ifname, strerror(-err));
	return TW_EXIT_FAIL;
}

static int cmd_attach(const struct xdp_opts *o)
{
	uint32_t mode = o->generic ? XDP_FLAGS_SKB_MODE : XDP_FLAGS_DRV_MODE;
	struct bpf_program *prog;
	struct tfib_xdp *skel;
	struct bpf_prog_info info = { 0 };
	uint32_t len = sizeof(info);
	int err;

	skel = tfib_xdp__open();
	if (!skel) {
		tw_err("opening the BPF object: %s", strerror(errno));
		return TW_EXIT_SYS;
	}
	skel->rodata->control_to_user = o->user_control;
	err = tw_dev_mac(o->ifname, (uint8_t *)skel->rodata->own_mac);
	if (!err)
		err = bpf_map__set_max_entries(skel->maps.tfib_tuples,
					       o->entries);
	if (err) {
		tw_err("%s: %s", o->ifname, strerror(-err));
		goto out;
	}
	err = tfib_xdp__load(skel);
	if (err) {
		tw_err("loading the XDP program: %s (needs root, or CAP_BPF and CAP_NET_ADMIN)",
		       strerror(-err));
		goto out;
	}
	prog = o->pass ? skel->progs.tfib_xdp_pass : skel->progs.tfib_xdp;
	err = bpf_xdp_attach(o->ifindex, bpf_program__fd(prog),
			     mode | XDP_FLAGS_UPDATE_IF_NOEXIST, NULL);
	if (err) {
		attach_error(o, err);
		goto out;
	}
	bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info, &len);
	print_init(o->json, false);
	print_string("interface", o->ifname);
	print_string("mode", mode_name(mode));
	print_string("program", info.name);
	print_uint("prog_id", info.id);
	if (!o->pass) {
		print_uint("entries", o->entries);
		print_string("control", o->user_control ? "user" : "program");
	}
	print_mac("mac", (const uint8_t *)skel->rodata->own_mac);
	print_finish();
out:
	/* attached through netlink: the program outlives our descriptors */
	tfib_xdp__destroy(skel);
	return err ? TW_EXIT_FAIL : TW_EXIT_OK;
}

/* Our program on o->ifname, or an error saying what is there instead. */
static int find_attached(const struct xdp_opts *o, struct attached *at)
{
	LIBBPF_OPTS(bpf_xdp_query_opts, q);
	struct bpf_prog_info info = { 0 };
	uint32_t len = sizeof(info);
	int err;

	err = bpf_xdp_query(o->ifindex, 0, &q);
	if (err) {
		tw_err("querying %s's XDP program: %s", o->ifname, strerror(-err));
		return -1;
	}
	at->mode = q.skb_prog_id ? XDP_FLAGS_SKB_MODE : XDP_FLAGS_DRV_MODE;
	at->prog_id = q.skb_prog_id ? q.skb_prog_id : q.drv_prog_id;
	if (!at->prog_id) {
		tw_err("%s has no XDP program: tw-tfib-xdp attach %s first",
		       o->ifname, o->ifname);
		return -1;
	}
	at->prog_fd = bpf_prog_get_fd_by_id(at->prog_id);
	if (at->prog_fd < 0 ||
	    bpf_obj_get_info_by_fd(at->prog_fd, &info, &len)) {
		tw_err("reading XDP program %u: %s (needs root, or CAP_BPF)",
		       at->prog_id, strerror(errno));
		return -1;
	}
	at->pass = !strcmp(info.name, TFIB_XDP_PASS_NAME);
	if (strcmp(info.name, TFIB_XDP_PROG_NAME) && !at->pass) {
		tw_err("%s runs XDP program \"%s\" (id %u), not tw-tfib-xdp's",
		       o->ifname, info.name, at->prog_id);
		close(at->prog_fd);
		return -1;
	}
	return 0;
}

/* A map of the program at->prog_fd by name: its fd, or -1. */
static int find_map(const struct attached *at, const char *name)
{
	struct bpf_prog_info info = { 0 };
	uint32_t len = sizeof(info), ids[8], i;
	int fd;

	info.nr_map_ids = ARRAY_SIZE(ids);
	info.map_ids = (uintptr_t)ids;
	if (bpf_obj_get_info_by_fd(at->prog_fd, &info, &len))
		goto fail;
	for (i = 0; i < info.nr_map_ids && i < ARRAY_SIZE(ids); i++) {
		struct bpf_map_info m = { 0 };
		uint32_t mlen = sizeof(m);

		fd = bpf_map_get_fd_by_id(ids[i]);
		if (fd < 0)
			goto fail;
		if (!bpf_obj_get_info_by_fd(fd, &m, &mlen) &&
		    !strcmp(m.name, name))
			return fd;
		close(fd);
	}
	errno = ENOENT;
fail:
	tw_err("map %s of XDP program %u: %s", name, at->prog_id,
	       strerror(errno));
	return -1;
}

static int cmd_detach(const struct xdp_opts *o)
{
	struct attached at;
	int err;

	if (find_attached(o, &at))
		return TW_EXIT_FAIL;
	close(at.prog_fd);
	err = bpf_xdp_detach(o->ifindex, at.mode, NULL);
	if (err) {
		tw_err("detaching from %s: %s", o->ifname, strerror(-err));
		return TW_EXIT_FAIL;
	}
	return TW_EXIT_OK;
}

/* The fd of a map of the program on o->ifname, or -1 after an error. */
static int open_map(const struct xdp_opts *o, const char *name)
{
	struct attached at;
	int fd;

	if (find_attached(o, &at))
		return -1;
	if (at.pass) {
		tw_err("%s runs the pass-through program: it has no map", o->ifname);
		close(at.prog_fd);
		return -1;
	}
	fd = find_map(&at, name);
	close(at.prog_fd);
	return fd;
}

/* --- counters and entries --------------------------------------------- */

static int cmd_stats(const struct xdp_opts *o)
{
	int fd = open_map(o, TFIB_XDP_COUNTERS_NAME);
	int cpus = libbpf_num_possible_cpus();
	uint64_t *v, sum;
	uint32_t i;
	int c;

	if (fd < 0)
		return TW_EXIT_FAIL;
	v = calloc(cpus > 0 ? cpus : 1, sizeof(*v));
	if (cpus <= 0 || !v) {
		tw_err("counting the CPUs: %s", strerror(cpus < 0 ? -cpus : ENOMEM));
		close(fd);
		free(v);
		return TW_EXIT_SYS;
	}
	/* "name value" lines in text: what tw-tfib-source --counters-cmd reads */
	print_init(o->json, false);
	for (i = 0; i < TFIB_XDP_COUNTERS; i++) {
		sum = 0;
		if (!bpf_map_lookup_elem(fd, &i, v))
			for (c = 0; c < cpus; c++)
				sum += v[c];
		print_u64(counter_names[i], sum);
		print_nl();
	}
	print_finish();
	free(v);
	close(fd);
	return TW_EXIT_OK;
}

static int cmd_set(const struct xdp_opts *o)
{
	int fd = open_map(o, TFIB_XDP_TUPLES_NAME);
	struct tfib_xdp_tuple tu = { .seq = o->seq };
	struct timespec now;
	uint32_t id = o->first;
	int err = 0;

	if (fd < 0)
		return TW_EXIT_FAIL;
	memcpy(tu.mac, o->mac, sizeof(tu.mac));
	/* the clock of bpf_ktime_get_ns() and of tfib's tables by default */
	clock_gettime(CLOCK_MONOTONIC, &now);
	tu.ts_ns = o->has_ts ? o->ts_ns :
		   (uint64_t)now.tv_sec * 1000000000 + now.tv_nsec;
	do {
		if (bpf_map_update_elem(fd, &id, &tu, BPF_ANY))
			err = -errno;
	} while (!err && id++ != o->last);
	close(fd);
	if (err == -E2BIG)
		tw_err("%s's map is full at user %u: attach with a larger --entries",
		       o->ifname, id);
	else if (err)
		tw_err("setting user %u: %s", id, strerror(-err));
	return err ? TW_EXIT_FAIL : TW_EXIT_OK;
}

static int cmd_get(const struct xdp_opts *o)
{
	int fd = open_map(o, TFIB_XDP_TUPLES_NAME);
	struct tfib_xdp_tuple tu;
	int err;

	if (fd < 0)
		return TW_EXIT_FAIL;
	err = bpf_map_lookup_elem(fd, &o->first, &tu) ? -errno : 0;
	close(fd);
	if (err) {
		tw_err("user %u: %s", o->first, err == -ENOENT ?
		       "not in the map" : strerror(-err));
		return TW_EXIT_FAIL;
	}
	print_init(o->json, false);
	print_uint("user", o->first);
	print_mac("mac", tu.mac);
	print_u64("ts_ns", tu.ts_ns);
	print_uint("seq", tu.seq);
	print_finish();
	return TW_EXIT_OK;
}

/* --- the control plane in user space (serve) ------------------------- */

/* Frames read a system call, and the socket's receive buffer. */
#define SERVE_BATCH	64
#define SERVE_RCVBUF	(4 << 20)
#define SERVE_FRAME	(ETH_HLEN + sizeof(struct tfib_hdr))
/* An idle server still publishes its socket's drops this often. */
#define SERVE_IDLE_NS	(50 * 1000 * 1000L)

/* The control drops the server owns: what it writes as CPU 0's values. */
static const uint32_t serve_owned[] = {
	TFIB_XDP_DROP_TABLE_FULL, TFIB_XDP_DROP_BAD_MAC,
	TFIB_XDP_DROP_CONTROL_QUEUE,
};

struct server {
	int sock, tuples, counters;
	int cpus;
	uint8_t own_mac[6];
	uint64_t count[TFIB_XDP_COUNTERS];
	uint64_t applied, ignored;
	uint64_t *percpu;	/* one counter's value on every CPU */
	sigset_t waiting;	/* the mask while waiting: SIGINT, SIGTERM in */
};

static volatile sig_atomic_t serve_stop;

static void serve_signal(int sig)
{
	(void)sig;
	serve_stop = 1;
}

/*
 * SIGINT and SIGTERM end the loop.  Blocked but while ppoll() waits, so
 * one that comes between the check and the wait is not lost.
 */
static void serve_signals(struct server *sv)
{
	struct sigaction sa = { .sa_handler = serve_signal };
	sigset_t both;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigemptyset(&both);
	sigaddset(&both, SIGINT);
	sigaddset(&both, SIGTERM);
	sigprocmask(SIG_BLOCK, &both, &sv->waiting);
	sigdelset(&sv->waiting, SIGINT);
	sigdelset(&sv->waiting, SIGTERM);
}

/*
 * Every CPU: the server is scheduled as tfib's kernel threads are.  The
 * kernel keeps the CPUs of the mask that exist.
 */
static int serve_any_cpu(void)
{
	cpu_set_t set;
	int i;

	CPU_ZERO(&set);
	for (i = 0; i < CPU_SETSIZE; i++)
		CPU_SET(i, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? -errno : 0;
}

/*
 * Was the program attached with --user-control?  Read from its .rodata
 * map: serving a program that sets the map itself would overwrite its
 * control drops.
 */
static int serve_check_program(const struct xdp_opts *o)
{
	struct tfib_xdp__rodata ro;
	int fd = open_map(o, "tfib_xdp.rodata");
	uint32_t zero = 0;
	int err;

	if (fd < 0)
		return -1;
	err = bpf_map_lookup_elem(fd, &zero, &ro);
	close(fd);
	if (err) {
		tw_err("reading %s's program settings: %s", o->ifname,
		       strerror(errno));
		return -1;
	}
	if (!ro.control_to_user) {
		tw_err("%s's program sets the map itself: attach it with --user-control",
		       o->ifname);
		return -1;
	}
	return 0;
}

/*
 * A packet socket on o->ifindex for tfib's EtherType, received only.
 * Opened for no protocol, so that nothing arrives before it is bound to
 * the interface.
 */
static int serve_socket(const struct xdp_opts *o)
{
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET,
		.sll_protocol = htons(TFIB_ETHERTYPE),
		.sll_ifindex = (int)o->ifindex,
	};
	int one = 1, buf = SERVE_RCVBUF;
	int fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);

	if (fd < 0 || bind(fd, (struct sockaddr *)&sll, sizeof(sll)) ||
	    setsockopt(fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one,
		       sizeof(one))) {
		tw_err("a packet socket on %s: %s (needs CAP_NET_RAW)",
		       o->ifname, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	/* FORCE passes net.core.rmem_max, as root may */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &buf, sizeof(buf)))
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &buf, sizeof(buf));
	return fd;
}

/* The frames the socket dropped since the last call (the kernel resets). */
static void serve_queue_drops(struct server *sv)
{
	struct tpacket_stats st = { 0 };
	socklen_t len = sizeof(st);

	if (!getsockopt(sv->sock, SOL_PACKET, PACKET_STATISTICS, &st, &len))
		sv->count[TFIB_XDP_DROP_CONTROL_QUEUE] += st.tp_drops;
}

/* The owned counters into the map, as CPU 0's values. */
static int serve_publish(struct server *sv)
{
	size_t i;

	serve_queue_drops(sv);
	for (i = 0; i < ARRAY_SIZE(serve_owned); i++) {
		memset(sv->percpu, 0, sizeof(*sv->percpu) * sv->cpus);
		sv->percpu[0] = sv->count[serve_owned[i]];
		if (bpf_map_update_elem(sv->counters, &serve_owned[i],
					sv->percpu, BPF_ANY)) {
			tw_err("writing the counters: %s", strerror(errno));
			return -1;
		}
	}
	return 0;
}

static bool is_group(const uint8_t *mac)
{
	return mac[0] & 1;
}

static bool is_zero(const uint8_t *mac)
{
	return !(mac[0] | mac[1] | mac[2] | mac[3] | mac[4] | mac[5]);
}

/* One frame: a control packet for this interface sets its user's tuple. */
static void serve_frame(struct server *sv, const uint8_t *f, size_t len)
{
	struct tfib_xdp_tuple tu = { 0 };
	struct tfib_hdr h;	/* a copy: the header is not aligned in f */
	uint32_t id;

	if (len < SERVE_FRAME) {
		sv->ignored++;
		return;
	}
	memcpy(&h, f + ETH_HLEN, sizeof(h));
	/* the program passed it; other frames of the EtherType pass too */
	if (h.version != TFIB_HDR_VERSION || h.type != TFIB_PKT_TYPE_CONTROL ||
	    (!is_group(f) && memcmp(f, sv->own_mac, ETH_ALEN))) {
		sv->ignored++;
		return;
	}
	if (is_group(h.mac) || is_zero(h.mac)) {
		sv->count[TFIB_XDP_DROP_BAD_MAC]++;
		return;
	}
	id = ntohl(h.user_id);
	tu.ts_ns = be64toh(h.addr_ns);
	tu.seq = ntohl(h.seq);
	memcpy(tu.mac, h.mac, ETH_ALEN);
	if (!bpf_map_update_elem(sv->tuples, &id, &tu, BPF_ANY)) {
		sv->applied++;
		return;
	}
	/* the map refused it: full, or (said once) for another reason */
	if (errno != E2BIG && !sv->count[TFIB_XDP_DROP_TABLE_FULL])
		tw_err("setting user %u: %s", id, strerror(errno));
	sv->count[TFIB_XDP_DROP_TABLE_FULL]++;
}

/*
 * Wait for frames (SIGINT and SIGTERM let in meanwhile, SERVE_IDLE_NS at
 * most), read what is there, publish.  Until a signal.
 */
static int serve_loop(struct server *sv)
{
	static uint8_t frames[SERVE_BATCH][SERVE_FRAME];
	const struct timespec idle = { .tv_nsec = SERVE_IDLE_NS };
	struct pollfd pfd = { .fd = sv->sock, .events = POLLIN };
	struct mmsghdr msgs[SERVE_BATCH];
	struct iovec iov[SERVE_BATCH];
	int i, n;

	for (i = 0; i < SERVE_BATCH; i++) {
		iov[i] = (struct iovec){ frames[i], SERVE_FRAME };
		msgs[i] = (struct mmsghdr){ .msg_hdr = {
			.msg_iov = &iov[i], .msg_iovlen = 1 } };
	}
	while (!serve_stop) {
		if (ppoll(&pfd, 1, &idle, &sv->waiting) < 0 && errno != EINTR)
			goto fail;
		do {
			n = recvmmsg(sv->sock, msgs, SERVE_BATCH, MSG_DONTWAIT,
				     NULL);
			for (i = 0; i < n; i++)
				serve_frame(sv, frames[i], msgs[i].msg_len);
		} while (n == SERVE_BATCH);
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			goto fail;
		if (serve_publish(sv))
			return TW_EXIT_SYS;
	}
	return TW_EXIT_OK;
fail:
	tw_err("reading control packets: %s", strerror(errno));
	return TW_EXIT_SYS;
}

static void serve_summary(const struct server *sv, bool json)
{
	size_t i;

	print_init(json, false);
	print_u64("applied", sv->applied);
	print_nl();
	for (i = 0; i < ARRAY_SIZE(serve_owned); i++) {
		print_u64(counter_names[serve_owned[i]],
			  sv->count[serve_owned[i]]);
		print_nl();
	}
	print_u64("ignored", sv->ignored);
	print_nl();
	print_finish();
}

static void serve_close(struct server *sv)
{
	if (sv->sock >= 0)
		close(sv->sock);
	if (sv->tuples >= 0)
		close(sv->tuples);
	if (sv->counters >= 0)
		close(sv->counters);
	free(sv->percpu);
}

/*
 * Control packets the program passed (attached with --user-control),
 * read from a packet socket and written into the map with the syscall,
 * until SIGINT or SIGTERM.  "serving IFNAME" on stdout says the socket
 * is open; the counts at the end.
 */
static int cmd_serve(const struct xdp_opts *o)
{
	struct server sv = { .sock = -1, .counters = -1 };
	int ret = TW_EXIT_FAIL, err;

	if (serve_check_program(o))
		return TW_EXIT_FAIL;
	sv.tuples = open_map(o, TFIB_XDP_TUPLES_NAME);
	if (sv.tuples < 0)
		return TW_EXIT_FAIL;
	sv.counters = open_map(o, TFIB_XDP_COUNTERS_NAME);
	sv.cpus = libbpf_num_possible_cpus();
	err = tw_dev_mac(o->ifname, sv.own_mac);
	if (err)
		tw_err("%s: %s", o->ifname, strerror(-err));
	if (err || sv.counters < 0 || sv.cpus <= 0)
		goto out;
	sv.percpu = calloc(sv.cpus, sizeof(*sv.percpu));
	if (!sv.percpu || (o->any_cpu && serve_any_cpu())) {
		tw_err("setting up: %s", strerror(errno));
		goto out;
	}
	serve_signals(&sv);
	sv.sock = serve_socket(o);
	if (sv.sock < 0 || serve_publish(&sv))
		goto out;
	/* a line of its own, before the counts (JSON with -j) */
	printf("serving %s\n", o->ifname);
	fflush(stdout);
	ret = serve_loop(&sv);
	if (!ret && serve_publish(&sv))
		ret = TW_EXIT_SYS;
	serve_summary(&sv, o->json);
out:
	serve_close(&sv);
	return ret;
}

/* --- options ---------------------------------------------------------- */

enum { OPT_TS = 256, OPT_SEQ, OPT_USER_CONTROL, OPT_ANY_CPU };

static const struct option long_opts[] = {
	{ "generic", no_argument, NULL, 'g' },
	{ "pass", no_argument, NULL, 'p' },
	{ "entries", required_argument, NULL, 'e' },
	{ "ts", required_argument, NULL, OPT_TS },
	{ "seq", required_argument, NULL, OPT_SEQ },
	{ "user-control", no_argument, NULL, OPT_USER_CONTROL },
	{ "any-cpu", no_argument, NULL, OPT_ANY_CPU },
	{ "json", no_argument, NULL, 'j' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: tw-tfib-xdp [-j] attach IFNAME [--generic] [-e ENTRIES]\n"
		"                         [--user-control | --pass]\n"
		"       tw-tfib-xdp [-j] serve IFNAME [--any-cpu]\n"
		"       tw-tfib-xdp [-j] stats IFNAME\n"
		"       tw-tfib-xdp set IFNAME ID[-LAST] MAC [--ts NS] [--seq N]\n"
		"       tw-tfib-xdp [-j] get IFNAME ID\n"
		"       tw-tfib-xdp detach IFNAME\n"
		"  attach              load the forwarder and attach it to IFNAME (native XDP)\n"
		"  serve               set the map from the control packets the program passes\n"
		"                      (attached with --user-control), until SIGINT or SIGTERM\n"
		"  stats               its counters, \"name value\" lines (tw-tfib-source\n"
		"                      --counters-cmd reads them)\n"
		"  set                 set users ID..LAST to MAC, stamped now (CLOCK_MONOTONIC)\n"
		"  get                 one user's tuple\n"
		"  detach              detach and unload it\n"
		"  -g, --generic       attach in generic (skb) mode\n"
		"  -e, --entries N     the map's size (default %u)\n"
		"  -p, --pass          attach a program that passes every frame instead: a\n"
		"                      veth peer needs one to receive native XDP_TX frames\n"
		"      --user-control  attach: control packets go to the stack, for serve\n"
		"      --any-cpu       serve: run on every online CPU, whatever the affinity\n"
		"                      it was started with\n"
		"      --ts NS         set: the location timestamp (default: now)\n"
		"      --seq N         set: the sequence (default 0)\n"
		"  -j, --json          output as JSON\n", TFIB_XDP_DEFAULT_ENTRIES);
}

static int opt_u32(const char *what, const char *s, uint32_t *val,
		   uint64_t min)
{
	uint64_t v;

	if (tw_parse_u64(s, &v) || v < min || v > UINT32_MAX) {
		tw_err("%s takes an integer from %" PRIu64 " to %u, not \"%s\"",
		       what, min, UINT32_MAX, s);
		return -1;
	}
	*val = (uint32_t)v;
	return 0;
}

static int parse_opt(struct xdp_opts *o, int opt, const char *arg)
{
	switch (opt) {
	case 'g':
		o->generic = true;
		return 0;
	case 'p':
		o->pass = true;
		/* its map is never used: keep it small */
		o->entries = 1;
		return 0;
	case 'j':
		o->json = true;
		return 0;
	case 'e':
		return opt_u32("--entries", arg, &o->entries, 1);
	case OPT_SEQ:
		return opt_u32("--seq", arg, &o->seq, 0);
	case OPT_USER_CONTROL:
		o->user_control = true;
		return 0;
	case OPT_ANY_CPU:
		o->any_cpu = true;
		return 0;
	case OPT_TS:
		o->has_ts = true;
		if (!tw_parse_u64(arg, &o->ts_ns))
			return 0;
		tw_err("--ts takes nanoseconds, not \"%s\"", arg);
		return -1;
	}
	fprintf(stderr, "Run tw-tfib-xdp -h for the options.\n");
	return -1;
}

/* ID or ID-LAST. */
static int parse_ids(struct xdp_opts *o, char *s)
{
	char *dash = strchr(s, '-');

	if (dash)
		*dash = '\0';
	if (opt_u32("a user ID", s, &o->first, 0) ||
	    opt_u32("the last user ID", dash ? dash + 1 : s, &o->last,
		    o->first))
		return -1;
	return 0;
}

/* The words after the options: COMMAND IFNAME [ARGS]. */
static int parse_words(struct xdp_opts *o, int argc, char **argv)
{
	int args = !strcmp(o->cmd, "set") ? 2 : !strcmp(o->cmd, "get");

	if (argc != args) {
		tw_err("%s takes %s", o->cmd, args == 2 ? "IFNAME ID[-LAST] MAC" :
		       args ? "IFNAME ID" : "IFNAME alone");
		return -1;
	}
	if (args && parse_ids(o, argv[0]))
		return -1;
	if (args == 2 && tw_parse_mac(argv[1], o->mac)) {
		tw_err("a next hop is a MAC, aa:bb:cc:dd:ee:ff, not \"%s\"",
		       argv[1]);
		return -1;
	}
	return 0;
}

static const struct {
	const char *name;
	int (*run)(const struct xdp_opts *o);
} commands[] = {
	{ "attach", cmd_attach },
	{ "detach", cmd_detach },
	{ "stats", cmd_stats },
	{ "set", cmd_set },
	{ "get", cmd_get },
	{ "serve", cmd_serve },
};

/* Options anywhere (getopt permutes), then COMMAND IFNAME [ARGS]. */
static int parse_args(int argc, char **argv, struct xdp_opts *o)
{
	size_t i;
	int opt;

	while ((opt = getopt_long(argc, argv, "gpe:jh", long_opts, NULL)) != -1) {
		if (opt == 'h') {
			usage(stdout);
			exit(TW_EXIT_OK);
		}
		if (parse_opt(o, opt, optarg))
			return -1;
	}
	if (o->pass && o->user_control) {
		tw_err("--pass has no map to control: drop --user-control");
		return -1;
	}
	if (argc - optind < 2) {
		tw_err("name a command and an interface (tw-tfib-xdp -h lists them)");
		return -1;
	}
	o->cmd = argv[optind++];
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(o->cmd, commands[i].name))
			o->run = commands[i].run;
	if (!o->run) {
		tw_err("unknown command \"%s\": attach, detach, serve, stats, set or get",
		       o->cmd);
		return -1;
	}
	o->ifname = argv[optind++];
	o->ifindex = if_nametoindex(o->ifname);
	if (!o->ifindex) {
		tw_err("no interface %s in this network namespace", o->ifname);
		return -1;
	}
	return parse_words(o, argc - optind, argv + optind);
}

int main(int argc, char **argv)
{
	struct xdp_opts o = { .entries = TFIB_XDP_DEFAULT_ENTRIES };

	if (parse_args(argc, argv, &o))
		return TW_EXIT_FAIL;
	libbpf_set_print(libbpf_print);
	return o.run(&o);
}
