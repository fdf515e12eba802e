// SPDX-License-Identifier: GPL-2.0
/*
 * tw-omware-bench: a trial from its schedule to its records, and what
 * every method measures the same way (CPU time, the hand-over).
 */
#include <dirent.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <linux/omware.h>

#include "lib/clock.h"
#include "lib/print.h"
#include "lib/stats.h"
#include "omware/packet.h"
#include "omware/probe.h"
#include "omware/session.h"

#include "cpustat.h"
#include "omware_bench.h"

static const char *const st_names[] = { "missing", "sent", "dropped",
					"cancelled" };
static const char *const src_names[] = { "none", "omware", "txsw", "user" };

static uint64_t rusage_ns(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ((uint64_t)ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) *
	       NSEC_PER_SEC + ((uint64_t)ru.ru_utime.tv_usec +
			       ru.ru_stime.tv_usec) * NSEC_PER_USEC;
}

/* CPU time of the whole machine spent outside idle; 0 if unknown. */
static uint64_t busy_ns(void)
{
	struct tw_cpu_times t;

	return tw_cpu_times_read(&t) ? 0 : tw_cpu_times_busy(&t);
}

void trial_fail(struct bm_trial *t, const char *fmt, ...)
{
	va_list ap;

	if (t->err[0])
		return;
	va_start(ap, fmt);
	vsnprintf(t->err, sizeof(t->err), fmt, ap);
	va_end(ap);
}

/* Build the probe of sample i of trial t into buf. */
void build_packet(struct bench *b, struct bm_trial *t, size_t i,
		  uint8_t *buf)
{
	struct tw_probe p = {
		.seq = i,
		.sched_ns = t->s[i].sched_ns,
	};

	if (t->m->pair)
		p.flags = tw_probe_train_flags(i & 1);
	b->spec.sport = t->tag;
	tw_pkt_build(&b->spec, &p, buf);
}

/*
 * Plan the send times, once the method's setup (qdisc, socket, session)
 * is done.  Every method starts the same "start-in" after its setup; by
 * default that is long enough for the up-front methods to hand everything
 * over first, judged by the last hand-over measured.
 */
/* CPU time a task has run, in ns (/proc/PID/schedstat); 0 if unknown. */
static uint64_t task_runtime_ns(pid_t pid)
{
	unsigned long long ns = 0;
	char path[64];
	FILE *f;

	if (!pid)
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fscanf(f, "%llu", &ns) != 1)
		ns = 0;
	fclose(f);
	return ns;
}

/* The pid of the kernel thread named @comm, 0 if there is none. */
pid_t kthread_pid(const char *comm)
{
	char path[300], name[32];
	struct dirent *d;
	pid_t pid = 0;
	DIR *dir = opendir("/proc");

	while (dir && !pid && (d = readdir(dir))) {
		FILE *f;

		if (d->d_name[0] < '1' || d->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", d->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(name, sizeof(name), f)) {
			name[strcspn(name, "\n")] = '\0';
			if (!strcmp(name, comm))
				pid = atoi(d->d_name);
		}
		fclose(f);
	}
	if (dir)
		closedir(dir);
	return pid;
}

void trial_schedule(struct bench *b, struct bm_trial *t)
{
	uint64_t alpha = (uint64_t)b->o->alpha_us * NSEC_PER_USEC;
	uint64_t lead = (uint64_t)b->o->start_in_us * NSEC_PER_USEC;
	uint64_t per_pkt = b->handover_ns ? b->handover_ns : HANDOVER_GUESS_NS;
	size_t i;

	if (!lead)
		lead = START_BASE_NS + 2 * t->n * per_pkt;
	/* The CPU window opens before anything is handed over. */
	t->cpu_proc0 = rusage_ns();
	t->cpu_busy0 = busy_ns();
	t->kthread0 = task_runtime_ns(t->kthread);
	t->ready_ns = mono_ns();
	t->start_ns = t->ready_ns + lead;
	for (i = 0; i < t->n; i++)
		t->s[i].sched_ns = t->start_ns +
				   (t->m->pair ? i / 2 : i) * alpha;
}

/*
 * Close the CPU window CPU_SETTLE_NS after the last send time (sleeping
 * until then), or now if the method is still busy after that: a sender
 * that falls behind pays for its lateness too.
 */
void trial_window_end(struct bm_trial *t)
{
	if (!t->ready_ns || t->window_closed)
		return;
	tw_sleep_until(CLOCK_MONOTONIC,
		       t->s[t->n - 1].sched_ns + CPU_SETTLE_NS);
	t->cpu_proc_ns = rusage_ns() - t->cpu_proc0;
	t->cpu_busy_ns = busy_ns() - t->cpu_busy0;
	if (t->kthread)
		t->cpu_kthread_ns = task_runtime_ns(t->kthread) - t->kthread0;
	t->wall_ns = mono_ns() - t->ready_ns;
	t->window_closed = true;
}

/* Learn from an up-front hand-over how long the next ones may take. */
void trial_handed_over(struct bench *b, struct bm_trial *t)
{
	uint64_t now = mono_ns();

	/* The latest cost, not the worst: one stall must not slow every
	 * later run; the factor of two in trial_schedule() is the margin.
	 */
	b->handover_ns = (now - t->ready_ns) / (t->n ? t->n : 1);
	if (now > t->start_ns)
		tw_warn("%s: handing over took past the first send time; raise \"start-in\"",
			t->name);
}

/* ---------------------------------------------------------------------- */
/* a trial */

struct bm_trial *trial_new(struct bench *b, const struct bm_method *m,
			   uint64_t delta_ns)
{
	struct bench_opts *o = b->o;
	struct bm_trial *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->m = m;
	t->n = m->pair ? 2 * (size_t)o->count : o->count;
	t->s = calloc(t->n, sizeof(*t->s));
	if (!t->s) {
		free(t);
		return NULL;
	}
	t->tag = b->next_tag++;
	t->delta_ns = delta_ns;
	if (m->base == BM_ETF)
		snprintf(t->name, sizeof(t->name), "ETF-%llu",
			 (unsigned long long)(delta_ns / NSEC_PER_USEC));
	else
		snprintf(t->name, sizeof(t->name), "%s", m->name);
	snprintf(t->qdisc, sizeof(t->qdisc), "default");
	return t;
}

void trial_free(struct bm_trial *t)
{
	if (t)
		free(t->s);
	free(t);
}

void trial_run(struct bench *b, struct bm_trial *t)
{
	size_t i;

	/* Only etf and fq want a qdisc of their own; "replace" switches
	 * between them without going through the default.
	 */
	if (t->m->base != BM_ETF && t->m->base != BM_FQ)
		restore_qdisc(b);
	b->rt_off = tw_clock_offset(CLOCK_REALTIME);
	b->tai_off = tw_clock_offset(CLOCK_TAI);
	if (t->m->omware)
		om_trial(b, t);
	else
		sock_trial(b, t);
	/* A run that stopped early still gets its window. */
	trial_window_end(t);

	for (i = 0; i < t->n; i++) {
		struct bm_sample *s = &t->s[i];

		switch (s->status) {
		case ST_SENT:
			t->sent++;
			if (s->src != SRC_NONE && s->sent_ns < s->sched_ns)
				t->early++;
			break;
		case ST_DROPPED:
		case ST_CANCELLED:
			t->dropped++;
			break;
		default:
			t->missing++;
		}
	}
}

void trial_print(struct bm_trial *t)
{
	int64_t *err = calloc(t->n, sizeof(*err));
	int64_t *idt = calloc(t->n, sizeof(*idt));
	size_t i, ne = 0, ni = 0, step = t->m->pair ? 2 : 1;
	uint64_t alpha = 0;
	struct tw_stats st;

	if (!err || !idt) {
		free(err);
		free(idt);
		return;
	}
	for (i = 0; i < t->n; i++) {
		struct bm_sample *s = &t->s[i];

		if (s->status != ST_SENT || s->src == SRC_NONE)
			continue;
		err[ne++] = (int64_t)(s->sent_ns - s->sched_ns);
		if (i % step == 0 && i + step < t->n &&
		    t->s[i + step].status == ST_SENT &&
		    t->s[i + step].src != SRC_NONE) {
			alpha = t->s[i + step].sched_ns - s->sched_ns;
			idt[ni] = (int64_t)(t->s[i + step].sent_ns - s->sent_ns) -
				  (int64_t)alpha;
			if (idt[ni] < 0)
				idt[ni] = -idt[ni];
			ni++;
		}
	}
	open_object(NULL);
	print_name("method", t->name);
	print_uint("tag", t->tag);
	if (t->warmup)
		print_uint("warmup", 1);
	print_u64("packets", t->n);
	print_u64("sent", t->sent);
	print_u64("dropped", t->dropped);
	print_u64("missing", t->missing);
	print_u64("early", t->early);
	print_string("qdisc", t->qdisc);
	print_nl();
	tw_stats_compute(err, ne, &st);
	print_s64("error_p50_ns", st.p50);
	print_s64("error_p99_ns", st.p99);
	tw_stats_compute(idt, ni, &st);
	print_s64("idt_error_p50_ns", st.p50);
	print_s64("idt_error_p99_ns", st.p99);
	print_u64("cpu_ns_per_pkt", t->n ? t->cpu_proc_ns / t->n : 0);
	print_u64("busy_ns_per_pkt", t->n ? t->cpu_busy_ns / t->n : 0);
	if (t->spin_ns) {
		print_u64("spin_ns", t->spin_ns);
		print_u64("spin_stalls", t->spin_stalls);
		print_u64("spin_stall_max_ns", t->spin_stall_max_ns);
	}
	if (t->guarded) {
		print_u64("guard_ns", t->guard_ns);
		print_u64("guard_misses", t->guard_misses);
	}
	if (t->err[0])
		print_string("error", t->err);
	print_nl();
	close_object();
	free(err);
	free(idt);
}

/*
 * The mode column: omware's mode; for a socket method its thread, "rt"
 * (sleep, then spin: RSM-RT), "rt-sleep" (the same thread, no spin) or
 * "-" (the caller's).
 */
static const char *method_mode(const struct bm_method *m)
{
	if (!m->omware)
		return m->rt == RT_SPIN ? "rt" :
		       m->rt == RT_SLEEP ? "rt-sleep" : "-";
	return m->mode == OMWARE_MODE_HYBRID ? "hybrid" : "timer";
}

/* The row's last columns: error, seed, warm-up and the guard's. */
static void trial_write_tail(struct bench *b, struct bm_trial *t)
{
	char err[sizeof(t->err)];
	size_t i;

	/* The analysis splits on commas: keep them out of the text. */
	snprintf(err, sizeof(err), "%s", t->err);
	for (i = 0; err[i]; i++)
		if (err[i] == ',' || err[i] == '\n')
			err[i] = ';';
	fprintf(b->methods_csv, "%s,%u,%d,", err, b->seed, t->warmup);
	/* Empty where there is no guard. */
	if (t->guarded)
		fprintf(b->methods_csv, "%llu,%llu",
			(unsigned long long)t->guard_ns,
			(unsigned long long)t->guard_misses);
	else
		fputc(',', b->methods_csv);
	fprintf(b->methods_csv, ",%llu,",
		(unsigned long long)t->cpu_kthread_ns);
	if (t->irq_known)
		fprintf(b->methods_csv, "%llu",
			(unsigned long long)t->cpu_irq_ns);
	fputc('\n', b->methods_csv);
}

static void trial_write_method(struct bench *b, struct bm_trial *t)
{
	struct bench_opts *o = b->o;

	fprintf(b->methods_csv,
		"%u,%s,%u,%s,%s,%zu,%llu,%u,%llu,%llu,%s,%s,%s,%llu,%llu,%llu,%llu,%zu,%zu,%zu,%zu,%llu,%llu,%llu,",
		t->tag, o->grid, o->round, t->name,
		t->m->pair ? "pair" : "train",
		t->m->pair ? t->n / 2 : t->n,
		(unsigned long long)o->alpha_us * NSEC_PER_USEC,
		o->size,
		(unsigned long long)(t->m->base == BM_OFR ?
				     o->phi_us * NSEC_PER_USEC : 0),
		(unsigned long long)t->delta_ns, method_mode(t->m),
		t->m->omware ? (t->m->xmit == OMWARE_XMIT_QDISC ?
				"qdisc" : "direct") : "-",
		t->qdisc, (unsigned long long)t->start_ns,
		(unsigned long long)t->cpu_proc_ns,
		(unsigned long long)t->cpu_busy_ns,
		(unsigned long long)t->wall_ns, t->submitted, t->sent,
		t->dropped, t->early, (unsigned long long)t->spin_ns,
		(unsigned long long)t->spin_stalls,
		(unsigned long long)t->spin_stall_max_ns);
	trial_write_tail(b, t);
	fflush(b->methods_csv);
}

void trial_write(struct bench *b, struct bm_trial *t)
{
	size_t i;

	if (b->methods_csv)
		trial_write_method(b, t);
	if (!b->send_csv)
		return;
	for (i = 0; i < t->n; i++) {
		struct bm_sample *s = &t->s[i];

		fprintf(b->send_csv, "%u,%zu,%llu,%llu,%s,%llu,%s\n", t->tag, i,
			(unsigned long long)s->sched_ns,
			(unsigned long long)s->sent_ns, src_names[s->src],
			(unsigned long long)s->user_ns, st_names[s->status]);
	}
	fflush(b->send_csv);
}

