// SPDX-License-Identifier: GPL-2.0
/*
 * One run of tw-tfib-bench: a forwarder set up on the device (a
 * tfib table, created, filled and bound, or the XDP peer), tw-tfib-source
 * sending the trace through it from the source device and recording what
 * comes back, the forwarder's counters over the run added to its records,
 * and the forwarder torn down.
 *
 * The source reads the counters' deltas from a FIFO when its run ends
 * (--counters): the table's counters are read here, by netlink, at the
 * moment it asks, so no other program needs to print them.  The XDP peer
 * prints its own (tw-tfib-xdp stats, --counters-cmd).  With its control
 * packets in user space (xdp-user), tw-tfib-xdp serve runs beside the
 * source, from before its first packet to after its last.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <sched.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <netlink/attr.h>
#include <netlink/genl/genl.h>

#include "child.h"
#include "tfib_bench.h"
#include "lib/netdev.h"
#include "lib/stop.h"

/* The source's argv: its options and their values. */
#define SOURCE_ARGS	48
/* How often the source is looked at while it runs. */
#define POLL_NS		(10 * 1000 * 1000L)

/* The table's counters, then the rings' drops. */
enum {
	CTR_CONTROL_DROPPED = TFIB_STATS_A_MAX + 1,
	CTR_DATA_DROPPED,
	CTR_N,
};

struct counters {
	uint64_t v[CTR_N];
};

static const char *counter_name(int i)
{
	if (i == CTR_CONTROL_DROPPED)
		return "control_ring_dropped";
	if (i == CTR_DATA_DROPPED)
		return "data_ring_dropped";
	return tfib_stats_keys[i];
}

/* The MAC of a device, as text into buf[18]; 0 or an exit code. */
static int dev_mac_text(const char *ifname, uint8_t mac[6], char *buf)
{
	if (tw_dev_mac(ifname, mac)) {
		tw_err("%s: cannot read its MAC address", ifname);
		return TW_EXIT_SYS;
	}
	snprintf(buf, 18, "%02x:%02x:%02x:%02x:%02x:%02x",
		 mac[0], mac[1], mac[2], mac[3], mac[4], mac[5]);
	return 0;
}

/* ---------------------------------------------------------------------- */
/* The tools */

/*
 * A tool of the experiment: next to this program, where the build and the
 * install both put it, else its name, for the PATH.
 */
static const char *tool_path(const char *name, char *buf, size_t len)
{
	char self[PATH_MAX], *slash;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n > 0) {
		self[n] = '\0';
		slash = strrchr(self, '/');
		*slash = '\0';
		if (snprintf(buf, len, "%s/%s", self, name) < (int)len &&
		    !access(buf, X_OK))
			return buf;
	}
	snprintf(buf, len, "%s", name);
	return buf;
}

/* Start argv; its stdout into *out (a pipe) or to /dev/null.  pid or -1. */
static pid_t spawn(char *const argv[], int *out)
{
	struct tw_child c;

	if (tw_child_start(&c, argv, out ? TW_CHILD_PIPE : TW_CHILD_NULL,
			   TW_CHILD_INHERIT)) {
		tw_err("cannot run %s: %s", argv[0], strerror(errno));
		return -1;
	}
	if (out)
		*out = c.out;
	return c.pid;
}

/* The child's exit status; a signal counts as a failure. */
static int reap(pid_t pid)
{
	int status = tw_child_wait(pid);

	return status < 0 ? TW_EXIT_SYS : status;
}

/* Run argv to its end, its output discarded; its errors on stderr. */
static int run_tool(char *const argv[])
{
	pid_t pid = spawn(argv, NULL);

	return pid < 0 ? TW_EXIT_SYS : reap(pid);
}

/* ---------------------------------------------------------------------- */
/* The tfib forwarder */

static int stats_cb(struct nlmsghdr *nlh, void *arg)
{
	struct genlmsghdr *g = nlmsg_data(nlh);
	struct nlattr *st[TFIB_STATS_A_MAX + 1], *rg[TFIB_RING_A_MAX + 1];
	struct nlattr *tb[TFIB_A_MAX + 1], *a;
	struct counters *c = arg;
	int i, rem;

	if (tfib_parse(nlh, tb) || !tb[TFIB_A_STATS] ||
	    nla_parse_nested(st, TFIB_STATS_A_MAX, tb[TFIB_A_STATS],
			     tfib_stats_policy))
		return -EPROTO;
	memset(c, 0, sizeof(*c));
	for (i = 0; i <= TFIB_STATS_A_MAX; i++)
		c->v[i] = st[i] && tfib_stats_keys[i] ? nla_get_u64(st[i]) : 0;
	nla_for_each_attr(a, genlmsg_attrdata(g, 0), genlmsg_attrlen(g, 0),
			  rem) {
		if (nla_type(a) != TFIB_A_RING ||
		    nla_parse_nested(rg, TFIB_RING_A_MAX, a, tfib_ring_policy) ||
		    !rg[TFIB_RING_A_KIND] || !rg[TFIB_RING_A_DROPPED])
			continue;
		i = nla_get_u8(rg[TFIB_RING_A_KIND]) == TFIB_RING_KIND_CONTROL ?
		    CTR_CONTROL_DROPPED : CTR_DATA_DROPPED;
		c->v[i] = nla_get_u64(rg[TFIB_RING_A_DROPPED]);
	}
	return 0;
}

static int read_counters(struct tfib_client *c, const char *table,
			 struct counters *ctr)
{
	return tfib_request(c, tfib_msg(c, TFIB_CMD_STATS_GET, 0, table),
			    stats_cb, ctr, "cannot read the counters");
}

/* The new table: every user pointing at the sink, bound to the device. */
static int tfib_setup(struct tfib_client *c, const struct bench_setup *s,
		      const struct bench_point *p, uint32_t users,
		      const uint8_t sink_mac[6])
{
	struct tfib_bind_cfg bcfg = {
		.ifindex = if_nametoindex(s->dev), .set = TFIB_SET_FWD_MODE,
	};
	/* The table's clock's now, sequence 0: older than any update. */
	struct tfib_entry e = { .user_id = 1 };
	int ret = 0;

	memcpy(e.mac, sink_mac, sizeof(e.mac));
	for (; e.user_id <= users && !ret; e.user_id++)
		ret = tfib_entry_set(c, s->table, &e);
	bcfg.fwd_mode = p->rings ? TFIB_FWD_MODE_RING : TFIB_FWD_MODE_INLINE;
	if (p->rings) {
		bcfg.control_ring = p->rings->control;
		bcfg.data_ring = p->rings->data;
		bcfg.set |= TFIB_SET_CONTROL_RING | TFIB_SET_DATA_RING;
	}
	return ret ? ret : tfib_bind(c, s->table, &bcfg);
}

/* ---------------------------------------------------------------------- */
/* The forwarder's CPU (forwarder-cpu) */

static int pin_task(pid_t pid, uint32_t cpu, const char *what)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (!sched_setaffinity(pid, sizeof(set), &set))
		return 0;
	tw_err("cannot pin %s (pid %d) to CPU %u: %s", what, (int)pid, cpu,
	       strerror(errno));
	return TW_EXIT_SYS;
}

/* pid's command name starts with prefix */
static bool comm_is(pid_t pid, const char *prefix)
{
	char path[64], comm[32] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (!fgets(comm, sizeof(comm), f))
		comm[0] = 0;
	fclose(f);
	return !strncmp(comm, prefix, strlen(prefix));
}

/*
 * tfib's threads of the device (its control writer and data workers,
 * created unbound when the table is bound; ring modes have them) on the
 * forwarder's CPU, as a user pins a forwarder's threads away from the
 * traffic's source.
 */
static int pin_tfib_threads(const struct bench_setup *s, bool rings)
{
	char prefix[16];	/* a command name's 15 characters at most */
	struct dirent *d;
	int ret = 0, n = 0;
	DIR *proc;

	if (s->fwd_cpu == BENCH_ANY_CPU)
		return 0;
	snprintf(prefix, sizeof(prefix), "tfib/%u:", if_nametoindex(s->dev));
	proc = opendir("/proc");
	if (!proc) {
		tw_err("/proc: %s", strerror(errno));
		return TW_EXIT_SYS;
	}
	while (!ret && (d = readdir(proc))) {
		pid_t pid = (pid_t)strtol(d->d_name, NULL, 10);

		if (pid > 0 && comm_is(pid, prefix)) {
			ret = pin_task(pid, s->fwd_cpu, prefix);
			n++;
		}
	}
	closedir(proc);
	if (!ret && rings && !n) {
		tw_err("no thread %s to pin to CPU %u", prefix, s->fwd_cpu);
		ret = TW_EXIT_FAIL;
	}
	return ret;
}

/* Write after - before to the FIFO as "name value" lines. */
static int write_deltas(int fd, const struct counters *before,
			const struct counters *after)
{
	FILE *f = fdopen(fd, "w");
	int i;

	if (!f) {
		close(fd);
		return TW_EXIT_SYS;
	}
	for (i = 0; i < CTR_N; i++)
		if (counter_name(i))
			fprintf(f, "%s %" PRIu64 "\n", counter_name(i),
				after->v[i] - before->v[i]);
	return fclose(f) ? TW_EXIT_SYS : 0;
}

/* Has the child ended?  It is left to reap(). */
static bool ended(pid_t pid)
{
	siginfo_t info = { .si_pid = 0 };

	return waitid(P_PID, pid, &info, WEXITED | WNOHANG | WNOWAIT) ||
	       info.si_pid;
}

/*
 * Wait for the source to open the FIFO (its run ended), then hand it the
 * counters.  A source that ends first, having failed, is left to reap().
 * SIGINT and SIGTERM reach it: it ends early and keeps its records.
 */
static int serve_counters(struct tfib_client *c, const char *table,
			  const char *fifo, pid_t pid,
			  const struct counters *before)
{
	const struct timespec poll = { .tv_nsec = POLL_NS };
	struct counters after;
	bool stopped = false;
	int fd, ret;

	for (;;) {
		fd = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd >= 0)
			break;
		if (errno != ENXIO || ended(pid))
			return 0;
		if (tw_stop && !stopped) {
			kill(pid, SIGTERM);
			stopped = true;
		}
		nanosleep(&poll, NULL);
	}
	fcntl(fd, F_SETFL, 0);
	ret = read_counters(c, table, &after);
	if (ret) {
		close(fd);
		return ret;
	}
	return write_deltas(fd, before, &after);
}

/* ---------------------------------------------------------------------- */
/* The XDP peer */

/* Is ifname a veth device (its driver's name)? */
static bool is_veth(const char *ifname)
{
	struct ethtool_drvinfo info = { .cmd = ETHTOOL_GDRVINFO };
	struct ifreq ifr = { .ifr_data = (void *)&info };
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	bool veth;

	if (fd < 0)
		return false;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	veth = !ioctl(fd, SIOCETHTOOL, &ifr) && !strcmp(info.driver, "veth");
	close(fd);
	return veth;
}

/* tw-tfib-xdp VERB DEV [ARGS...]: at most three arguments after DEV. */
static int xdp_tool(const char *verb, const char *dev, const char *a1,
		    const char *a2, const char *a3)
{
	char path[PATH_MAX];
	char *const argv[] = {
		(char *)tool_path("tw-tfib-xdp", path, sizeof(path)),
		(char *)verb, (char *)dev, (char *)a1, (char *)a2, (char *)a3,
		NULL,
	};

	return run_tool(argv);
}

/*
 * The peer on the forwarder's device, every user pointing at the sink.
 * On veth a frame sent back by XDP_TX reaches only a peer that runs
 * NAPI, which a pass-through program on the source's device turns on.
 */
static int xdp_setup(const struct bench_setup *s, uint32_t users,
		     const char *sink_mac, bool user_control)
{
	char n[16], range[32];
	int ret;

	snprintf(n, sizeof(n), "%" PRIu32, users);
	snprintf(range, sizeof(range), "1-%" PRIu32, users);
	if (is_veth(s->source)) {
		ret = xdp_tool("attach", s->source, "--pass", NULL, NULL);
		if (ret)
			return ret;
	}
	ret = xdp_tool("attach", s->dev, "-e", n,
		       user_control ? "--user-control" : NULL);
	return ret ? ret : xdp_tool("set", s->dev, range, sink_mac, NULL);
}

static int xdp_teardown(const struct bench_setup *s)
{
	int ret = xdp_tool("detach", s->dev, NULL, NULL, NULL);

	if (is_veth(s->source) &&
	    xdp_tool("detach", s->source, NULL, NULL, NULL))
		ret = ret ? ret : TW_EXIT_SYS;
	return ret;
}

/* tw-tfib-xdp serve: its pid, and its stdout, read to the end at stop. */
struct xdp_server {
	pid_t pid;
	FILE *out;
};

/*
 * The control plane of xdp-user, on any CPU (as tfib's threads run) or
 * on forwarder-cpu's, ready once it says "serving": its packet socket is
 * open.
 */
static int xdp_server_start(const struct bench_setup *s,
			    struct xdp_server *sv)
{
	char path[PATH_MAX], line[128];
	char *const argv[] = {
		(char *)tool_path("tw-tfib-xdp", path, sizeof(path)),
		"serve", (char *)s->dev, "--any-cpu", NULL,
	};
	int out;

	sv->pid = spawn(argv, &out);
	if (sv->pid < 0)
		return TW_EXIT_SYS;
	sv->out = fdopen(out, "r");
	/* It has set its own affinity by then: one thread, now pinned. */
	if (sv->out && fgets(line, sizeof(line), sv->out) &&
	    !strncmp(line, "serving ", 8))
		return s->fwd_cpu == BENCH_ANY_CPU ? 0 :
			pin_task(sv->pid, s->fwd_cpu, "tw-tfib-xdp serve");
	/* xdp_server_stop() ends and reaps it */
	tw_err("tw-tfib-xdp serve %s did not start", s->dev);
	if (!sv->out)
		close(out);
	return TW_EXIT_SYS;
}

/* SIGTERM; its summary read (not to break its pipe), its status. */
static int xdp_server_stop(struct xdp_server *sv)
{
	char line[256];

	kill(sv->pid, SIGTERM);
	if (sv->out) {
		while (fgets(line, sizeof(line), sv->out))
			;
		fclose(sv->out);
	}
	return reap(sv->pid);
}

/* ---------------------------------------------------------------------- */
/* The source */

struct argv_buf {
	char *argv[SOURCE_ARGS];
	char text[SOURCE_ARGS][PATH_MAX + 64];
	int n;
};

static void arg_add(struct argv_buf *b, const char *fmt, ...)
	__printf(2, 3);

static void arg_add(struct argv_buf *b, const char *fmt, ...)
{
	va_list ap;

	if (b->n == SOURCE_ARGS - 1)
		return;
	va_start(ap, fmt);
	vsnprintf(b->text[b->n], sizeof(b->text[b->n]), fmt, ap);
	va_end(ap);
	b->argv[b->n] = b->text[b->n];
	b->argv[++b->n] = NULL;
}

/* Rows of a run: its seconds at R, or at the cap when R is above it. */
static uint64_t rows_of(const struct bench_setup *s, uint32_t rate)
{
	return (uint64_t)s->seconds * (s->cap && rate > s->cap ? s->cap : rate);
}

/* Its labels in run.json: what tw-tfib-analyze tells the modes by. */
static void source_labels(struct argv_buf *b, const struct bench_setup *s,
			  const struct bench_point *p)
{
	const struct bench_method *m = p->method;

	if (s->rep) {
		arg_add(b, "--label");
		arg_add(b, "rep=%" PRIu32, s->rep);
	}
	if (s->boot) {
		arg_add(b, "--label");
		arg_add(b, "boot=%" PRIu32, s->boot);
	}
	if (s->ingress) {
		arg_add(b, "--label");
		arg_add(b, "ingress=%s", s->ingress);
	}
	if (bench_is_xdp(m)) {
		arg_add(b, "--label");
		arg_add(b, "fwd=%s", m->fwd == BENCH_FWD_XDP ? "xdp" : "xdp-user");
		return;
	}
	arg_add(b, "--label");
	arg_add(b, "sync=%s", tw_keyword_name(tfib_sync_words, m->sync));
	arg_add(b, "--label");
	arg_add(b, "fwd=%s", p->rings ? "ring" : "inline");
	if (!p->rings)
		return;
	arg_add(b, "--label");
	arg_add(b, "control_ring=%" PRIu32, p->rings->control);
	arg_add(b, "--label");
	arg_add(b, "data_ring=%" PRIu32, p->rings->data);
}

static void source_argv(struct argv_buf *b, const struct bench_setup *s,
			const struct bench_point *p, uint32_t users,
			const char *fwd_mac, const char *counters)
{
	char path[PATH_MAX];

	arg_add(b, "%s", tool_path("tw-tfib-source", path, sizeof(path)));
	arg_add(b, "-q");
	arg_add(b, "-i");
	arg_add(b, "%s", s->source);
	arg_add(b, "-d");
	arg_add(b, "%s", fwd_mac);
	arg_add(b, "-o");
	arg_add(b, "%s", p->dir);
	arg_add(b, "-r");
	arg_add(b, "%" PRIu32, p->rate);
	arg_add(b, "-b");
	arg_add(b, "%" PRIu32, s->burst);
	arg_add(b, "-n");
	arg_add(b, "%" PRIu64, rows_of(s, p->rate));
	arg_add(b, "-u");
	arg_add(b, "%" PRIu32, users);
	arg_add(b, "-c");
	arg_add(b, "%s", p->cdr);
	arg_add(b, "-s");
	arg_add(b, "%" PRIu32, s->seed);
	source_labels(b, s, p);
	if (p->method->pace_omware) {
		arg_add(b, "--pace");
		arg_add(b, "omware");
	} else if (s->refused == BENCH_REFUSED_LOST) {
		/* omware loses what the device refuses anyway */
		arg_add(b, "--refused");
		arg_add(b, "lost");
	}
	if (bench_is_xdp(p->method)) {
		arg_add(b, "--counters-cmd");
		arg_add(b, "'%s' stats '%s'",
			tool_path("tw-tfib-xdp", path, sizeof(path)), s->dev);
	} else {
		arg_add(b, "--counters");
		arg_add(b, "%s", counters);
	}
}

/* The source's text summary, "key value" words: the figures we report. */
static void parse_summary(int fd, struct bench_result *res)
{
	char buf[1024], *key, *val, *save;
	ssize_t n, len = 0;

	while ((n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += n;
	close(fd);
	buf[len] = '\0';
	for (key = strtok_r(buf, "\n ", &save); key;
	     key = strtok_r(NULL, "\n ", &save)) {
		val = strtok_r(NULL, "\n ", &save);
		if (!val)
			break;
		if (!strcmp(key, "sent"))
			res->sent = strtoull(val, NULL, 10);
		else if (!strcmp(key, "received"))
			res->received = strtoull(val, NULL, 10);
		else if (!strcmp(key, "socket_drops"))
			res->socket_drops = strtoull(val, NULL, 10);
		else if (!strcmp(key, "sent_pps"))
			res->sent_pps = strtod(val, NULL);
		else if (!strcmp(key, "stop"))
			res->dropped = !strcmp(val, "dropped");
	}
}

/* The source through the forwarder that is set up; its exit code. */
static int source_run(struct tfib_client *c, const struct bench_setup *s,
		      const struct bench_point *p, uint32_t users,
		      const char *fifo, struct bench_result *res)
{
	static struct argv_buf b;
	struct counters before;
	bool tfib = !bench_is_xdp(p->method);
	char fwd_mac[18];
	uint8_t mac[6];
	int out, ret;
	pid_t pid;

	ret = dev_mac_text(s->dev, mac, fwd_mac);
	if (ret)
		return ret;
	if (tfib)
		ret = read_counters(c, s->table, &before);
	if (ret)
		return ret;
	if (tfib && mkfifo(fifo, 0600)) {
		tw_err("%s: %s", fifo, strerror(errno));
		return TW_EXIT_SYS;
	}
	b.n = 0;
	source_argv(&b, s, p, users, fwd_mac, fifo);
	pid = spawn(b.argv, &out);
	ret = pid < 0 ? TW_EXIT_SYS : 0;
	if (!ret && tfib)
		ret = serve_counters(c, s->table, fifo, pid, &before);
	if (pid >= 0) {
		int src = reap(pid);

		parse_summary(out, res);
		/*
		 * Frames the device refused omware are counted in the run's
		 * records (tx_dropped): the run is complete, its pacing not.
		 */
		if (src == TW_EXIT_PARTIAL && res->dropped &&
		    p->method->pace_omware)
			src = 0;
		res->dropped = res->dropped && !src;
		ret = ret ? ret : src;
	}
	if (tfib)
		unlink(fifo);
	return ret;
}

/* A run through the XDP peer: set up, the source (and the server), down. */
static int xdp_run(struct tfib_client *c, const struct bench_setup *s,
		   const struct bench_point *p, uint32_t users,
		   const char *sink_mac, const char *fifo,
		   struct bench_result *res)
{
	bool user = p->method->fwd == BENCH_FWD_XDP_USER;
	struct xdp_server sv = { .pid = -1 };
	int ret;

	ret = xdp_setup(s, users, sink_mac, user);
	if (!ret && user)
		ret = xdp_server_start(s, &sv);
	if (!ret)
		ret = source_run(c, s, p, users, fifo, res);
	if (sv.pid > 0 && xdp_server_stop(&sv))
		ret = ret ? ret : TW_EXIT_SYS;
	if (xdp_teardown(s))
		ret = ret ? ret : TW_EXIT_SYS;
	return ret;
}

/* ---------------------------------------------------------------------- */

void bench_run(struct tfib_client *c, const struct bench_setup *s,
	       const struct bench_point *p, const char *fifo,
	       struct bench_result *res)
{
	bool baseline = p->method->fwd == BENCH_FWD_BASELINE;
	uint32_t users = baseline ? 1 : s->users;
	struct tfib_table_cfg tcfg = {
		.capacity = users, .sync = p->method->sync,
		.set = TFIB_SET_SYNC,
	};
	char sink_mac[18];
	uint8_t mac[6];
	int ret;

	memset(res, 0, sizeof(*res));
	ret = dev_mac_text(s->source, mac, sink_mac);
	if (ret) {
		res->ret = ret;
		return;
	}
	if (bench_is_xdp(p->method)) {
		ret = xdp_run(c, s, p, users, sink_mac, fifo, res);
	} else {
		ret = tfib_table_new(c, s->table, &tcfg);
		if (ret) {
			res->ret = ret;
			return;
		}
		ret = tfib_setup(c, s, p, users, mac);
		if (!ret)
			ret = pin_tfib_threads(s, p->rings);
		if (!ret)
			ret = source_run(c, s, p, users, fifo, res);
		/* The table goes, even half set up. */
		if (tfib_table_del(c, s->table))
			ret = ret ? ret : TW_EXIT_FAIL;
	}
	res->ret = ret;
}
