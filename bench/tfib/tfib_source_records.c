// SPDX-License-Identifier: GPL-2.0
/*
 * tw-tfib-source: the forwarder's counters over the run, and the
 * records (events.csv, run.json) and summary it leaves.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tfib_source.h"
#include "lib/print.h"
#include "lib/util.h"

/* --- the forwarder's counters ------------------------------------------ */

/* Lines "name value" or "name=value"; blank and # lines are skipped. */
int counters_read(FILE *f, const char *what, struct counters *c)
{
	char line[256], name[NAME_LEN];
	long long v;
	char *eq;

	c->n = 0;
	while (fgets(line, sizeof(line), f)) {
		eq = strchr(line, '=');
		if (eq)
			*eq = ' ';
		if (sscanf(line, " %63s", name) != 1 || name[0] == '#')
			continue;
		if (sscanf(line, " %63s %lld", name, &v) != 2) {
			tw_err("%s: \"%.*s\" is no \"name value\" line", what,
			       (int)strcspn(line, "\n"), line);
			return -1;
		}
		if (c->n == MAX_COUNTERS) {
			tw_err("%s: more than %d counters", what, MAX_COUNTERS);
			return -1;
		}
		snprintf(c->c[c->n].name, NAME_LEN, "%s", name);
		c->c[c->n++].value = v;
	}
	return 0;
}

int counters_run(const char *cmd, struct counters *c)
{
	FILE *f = popen(cmd, "r");
	int err, status;

	if (!f) {
		tw_err("--counters-cmd: %s", strerror(errno));
		return -1;
	}
	err = counters_read(f, "--counters-cmd", c);
	status = pclose(f);
	if (!err && status) {
		tw_err("--counters-cmd \"%s\" failed (status %d)", cmd, status);
		err = -1;
	}
	return err;
}

static int64_t counter_get(const struct counters *c, const char *name)
{
	int i;

	for (i = 0; i < c->n; i++)
		if (!strcmp(c->c[i].name, name))
			return c->c[i].value;
	return 0;
}

/* after -= before, name by name. */
void counters_delta(struct counters *after,
		    const struct counters *before)
{
	int i;

	for (i = 0; i < after->n; i++)
		after->c[i].value -= counter_get(before, after->c[i].name);
}

/* --- records ---------------------------------------------------------- */

static int write_events(const struct run *r, const char *path)
{
	FILE *f = fopen(path, "w");
	uint64_t i, sent = atomic_load(&r->sent);
	size_t j, rx_n = atomic_load(&r->rx_n);
	struct tw_aoi_row row;

	if (!f) {
		tw_err("%s: %s", path, strerror(errno));
		return -1;
	}
	fputs("event,t_ns,user,seq,addr_ns,addr_seq\n", f);
	for (i = 0; i < sent; i++) {
		/* Handed to omware and not sent: it never left. */
		if (!r->tx_ns[i])
			continue;
		tw_aoi_row_from_word(&row, r->tr.word[i]);
		if (row.control)
			fprintf(f, "ctl_tx,%" PRIu64 ",%" PRIu32 ",%" PRIu32
				",%" PRIu64 ",\n", r->tx_ns[i], row.user,
				r->tr.seq[i], r->tx_ns[i]);
		else
			fprintf(f, "data_tx,%" PRIu64 ",%" PRIu32 ",%" PRIu32
				",,\n", r->tx_ns[i], row.user, r->tr.seq[i]);
	}
	for (j = 0; j < rx_n; j++) {
		const struct rx_rec *x = &r->rx[j];

		fprintf(f, "data_rx,%" PRIu64 ",%" PRIu32 ",%" PRIu32 ",%"
			PRIu64 ",%" PRIu32 "\n", x->t_ns, x->user, x->seq,
			x->addr_ns, x->addr_seq);
	}
	if (fclose(f)) {
		tw_err("%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

static void print_mac(const char *key, const uint8_t m[6])
{
	char s[18];

	snprintf(s, sizeof(s), "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1],
		 m[2], m[3], m[4], m[5]);
	print_string(key, s);
}

/* A label's value: a number when it is one, else a string. */
static void print_label(const char *label)
{
	const char *eq = strchr(label, '=');
	char key[NAME_LEN];
	uint64_t v;

	snprintf(key, sizeof(key), "%.*s", (int)(eq - label), label);
	if (!tw_parse_u64(eq + 1, &v))
		print_u64(key, v);
	else
		print_string(key, eq + 1);
}

static uint64_t control_sent(const struct run *r)
{
	uint64_t i, n = 0, sent = atomic_load(&r->sent);

	for (i = 0; i < sent; i++)
		n += r->tx_ns[i] && (r->tr.word[i] & TW_AOI_WORD_CONTROL);
	return n;
}

/* Control rows (control) or data rows handed to omware and not sent. */
static uint64_t rows_not_sent(const struct run *r, bool control)
{
	uint64_t i, n = 0, sent = atomic_load(&r->sent);

	for (i = 0; i < sent; i++)
		n += !r->tx_ns[i] &&
		     !(r->tr.word[i] & TW_AOI_WORD_CONTROL) == !control;
	return n;
}

/* Rows that left: those handed to omware less those it did not send. */
uint64_t rows_sent(const struct run *r)
{
	return atomic_load(&r->sent) - r->pace.dropped;
}

static double sent_pps(const struct run *r)
{
	uint64_t span = r->send_end_ns - r->start_ns;

	return span ? rows_sent(r) * (double)NSEC_PER_SEC / span : 0;
}

/* --pace omware: what the module reported. */
static void print_pace(const struct run *r)
{
	const struct tfib_pace_result *p = &r->pace;

	print_u64("tx_dropped", p->dropped);
	/* lost before the wire: tw-tfib-analyze counts them by kind */
	print_u64("tx_dropped_data", rows_not_sent(r, false));
	print_u64("tx_dropped_control", rows_not_sent(r, true));
	print_u64("tx_unreported", p->unreported);
	open_object("omware_late_ns");
	print_s64("min", p->late.min);
	print_s64("p50", p->late.p50);
	print_s64("p99", p->late.p99);
	print_s64("max", p->late.max);
	close_object();
	print_u64("omware_late_over", p->late_over);
	print_uint("omware_late_threshold_ns", p->late_threshold_ns);
}

/* run.json's fields, through the print library. */
/* Each CPU's busy fraction while the source sent (per mille). */
static void print_cpu_busy(const struct run *r)
{
	unsigned int i;
	char key[16];
	int pm;

	if (!r->cpu_ok)
		return;
	open_object("cpu_busy_permille");
	for (i = 0; i < r->cpu_end.n; i++) {
		pm = tw_cpu_busy_permille(&r->cpu_start, &r->cpu_end, i);
		if (pm < 0)
			continue;
		snprintf(key, sizeof(key), "cpu%u", i);
		print_uint(key, pm);
	}
	close_object();
}

static void print_run(const struct run *r, const struct counters *ctr,
		      const char *stop)
{
	const struct src_opts *o = r->o;
	int i;

	print_uint("rate_pps", o->rate);
	print_uint("burst", o->burst);
	print_double("cdr", (double)r->tr.cdr / TW_AOI_CDR_ONE);
	print_uint("users", r->tr.users);
	if (r->tr.has_seed)
		print_u64("seed", r->tr.seed);
	print_string("trace", o->trace_path ? o->trace_path : "generated");
	print_u64("rows", r->tr.n);
	print_string("interface", o->simulate ? "simulated" : o->ifname);
	print_string("sink_interface", o->simulate ? "simulated" :
		     o->sink_ifname ? o->sink_ifname : o->ifname);
	print_mac("forwarder_mac", o->fwd_mac);
	print_mac("sink_mac", r->sink_mac);
	print_mac("source_mac", r->tx_mac);
	print_string("tx", o->simulate ? "simulated" :
		     o->pace_omware ? "omware" : "sendmmsg");
	print_string("clock", "CLOCK_MONOTONIC");
	print_u64("start_ns", r->start_ns);
	print_u64("send_end_ns", r->send_end_ns);
	print_u64("end_ns", r->end_ns);
	print_uint("drain_ms", o->drain_ms);
	print_string("stop", stop);
	print_double("sent_pps", sent_pps(r));
	print_u64("packets_sent", rows_sent(r));
	print_u64("control_sent", control_sent(r));
	print_u64("packets_received", atomic_load(&r->rx_n));
	print_u64("rx_other", r->rx_other);
	print_u64("rx_no_record", r->rx_lost);
	print_uint("rx_socket_drops", r->rx_stats.tp_drops);
	print_u64("tx_short", r->tx_short);
	if (!o->simulate && !o->pace_omware) {
		print_s64("tx_sndbuf_bytes", r->tx_sndbuf);
		print_string("tx_refused_policy",
			     o->refused_lost ? "lost" : "retry");
		print_u64("tx_refused", r->tx_refused);
	}
	if (o->pace_omware)
		print_pace(r);
	print_cpu_busy(r);
	for (i = 0; i < o->nlabels; i++)
		print_label(o->labels[i]);
	if (ctr) {
		open_object("counters");
		for (i = 0; i < ctr->n; i++)
			print_s64(ctr->c[i].name, ctr->c[i].value);
		close_object();
	}
}

/*
 * The print library writes to stdout: run.json borrows it for the time
 * of one object.
 */
static int write_run_json(const struct run *r, const char *path,
			  const struct counters *ctr, const char *stop)
{
	FILE *f = fopen(path, "w");
	int saved, err = 0;

	if (!f) {
		tw_err("%s: %s", path, strerror(errno));
		return -1;
	}
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	if (saved < 0 || dup2(fileno(f), STDOUT_FILENO) < 0) {
		err = -1;
	} else {
		print_init(true, true);
		print_run(r, ctr, stop);
		print_finish();
		fflush(stdout);
		dup2(saved, STDOUT_FILENO);
	}
	if (saved >= 0)
		close(saved);
	if (fclose(f) || err) {
		tw_err("%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* dir and the directories above it that are missing. */
static int mkdir_p(const char *dir)
{
	char path[4096], *p;

	snprintf(path, sizeof(path), "%s", dir);
	for (p = path + 1; ; p++) {
		bool last = !*p;

		if (*p != '/' && !last)
			continue;
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST) {
			tw_err("%s: %s", path, strerror(errno));
			return -1;
		}
		if (last)
			return 0;
		*p = '/';
	}
}

int write_records(const struct run *r, const struct counters *ctr,
		  const char *stop)
{
	const char *dir = r->o->outdir;
	char path[4096];

	if (mkdir_p(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/events.csv", dir);
	if (write_events(r, path))
		return -1;
	snprintf(path, sizeof(path), "%s/run.json", dir);
	return write_run_json(r, path, ctr, stop);
}

/* The summary on stdout: text, or JSON with -j. */
void print_summary(const struct run *r, const char *stop)
{
	print_init(r->o->json, false);
	print_string("outdir", r->o->outdir);
	print_string("stop", stop);
	print_u64("sent", rows_sent(r));
	print_u64("rows", r->tr.n);
	print_double("sent_pps", sent_pps(r));
	print_u64("received", atomic_load(&r->rx_n));
	print_uint("socket_drops", r->rx_stats.tp_drops);
	print_u64("no_record", r->rx_lost);
	print_finish();
}
