// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the pieces of the timewire tool that need no kernel module:
 * the random generators and schedules, the probe packets, the statistics,
 * the output writer and the value parsers.
 *
 * Random draws use fixed seeds, so the statistical bounds below are
 * deterministic: they were chosen several standard errors wide and either
 * always pass or always fail for a given generator.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/tap.h"

#include "json_print.h"
#include "packet.h"
#include "probe.h"
#include "schedule.h"
#include "stats.h"
#include "util.h"

#define N_DRAWS		200000

static bool near(double got, double want, double rel)
{
	return fabs(got - want) <= rel * fabs(want);
}

static void test_rng(void)
{
	struct tw_rng a, b, c;
	double u, min = 1, max = 0, sum = 0;
	bool same = true, differ = false;
	int i;

	tw_rng_seed(&a, 42);
	tw_rng_seed(&b, 42);
	tw_rng_seed(&c, 43);
	for (i = 0; i < 1000; i++) {
		uint64_t x = tw_rng_next(&a);

		same &= x == tw_rng_next(&b);
		differ |= x != tw_rng_next(&c);
	}
	tap_ok(same, "rng: a seed gives the same sequence");
	tap_ok(differ, "rng: another seed gives another sequence");

	for (i = 0; i < N_DRAWS; i++) {
		u = tw_rng_uniform(&a);
		min = u < min ? u : min;
		max = u > max ? u : max;
		sum += u;
	}
	tap_ok(min > 0 && max < 1 && near(sum / N_DRAWS, 0.5, 0.005),
	       "rng: uniform in (0, 1), mean %.4f", sum / N_DRAWS);
}

static void moments(double *v, int n, double *mean, double *var)
{
	double s = 0, s2 = 0;
	int i;

	for (i = 0; i < n; i++)
		s += v[i];
	*mean = s / n;
	for (i = 0; i < n; i++)
		s2 += (v[i] - *mean) * (v[i] - *mean);
	*var = s2 / (n - 1);
}

static void test_distributions(void)
{
	static const double shapes[] = { 0.3, 1.0, 2.5, 9.0 };
	double *v = malloc(N_DRAWS * sizeof(*v));
	double mean, var, theta;
	struct tw_rng r;
	bool neg = false;
	unsigned int k;
	int i;

	tw_rng_seed(&r, 7);
	for (i = 0; i < N_DRAWS; i++)
		v[i] = tw_rng_exp(&r, 100.0);
	moments(v, N_DRAWS, &mean, &var);
	tap_ok(near(mean, 100, 0.015) && near(var, 10000, 0.05),
	       "exponential(100): mean %.2f, variance %.0f", mean, var);

	for (k = 0; k < ARRAY_SIZE(shapes); k++) {
		theta = 50.0 / shapes[k];
		for (i = 0; i < N_DRAWS; i++) {
			v[i] = tw_rng_gamma(&r, shapes[k], theta);
			neg |= v[i] < 0;
		}
		moments(v, N_DRAWS, &mean, &var);
		tap_ok(!neg && near(mean, 50, 0.02) &&
		       near(var, shapes[k] * theta * theta, 0.06),
		       "gamma(k=%.1f, mean 50): mean %.2f, variance %.1f (want %.1f)",
		       shapes[k], mean, var, shapes[k] * theta * theta);
	}
	free(v);
}

/* tw_sched_parse() on the blank-separated words of line. */
static int sched_parse(struct tw_sched_spec *s, const char *line)
{
	char buf[128], *argv[8], *tok, *save = NULL;
	char err[160];
	int argc = 0;

	snprintf(buf, sizeof(buf), "%s", line);
	for (tok = strtok_r(buf, " ", &save); tok && argc < 8;
	     tok = strtok_r(NULL, " ", &save))
		argv[argc++] = tok;
	return tw_sched_parse(s, argc, argv, err, sizeof(err));
}

static void test_schedule_parse(void)
{
	struct tw_sched_spec s;

	tap_ok(sched_parse(&s, "periodic 12.5") == 2 &&
	       s.kind == TW_SCHED_PERIODIC && s.gap_ns == 12500,
	       "schedule: periodic 12.5 is 12500 ns");
	tap_ok(sched_parse(&s, "gamma 2.5 100") == 3 &&
	       s.kind == TW_SCHED_GAMMA && s.shape == 2.5 &&
	       s.gap_ns == 100000, "schedule: gamma 2.5 100");
	tap_ok(sched_parse(&s, "periodic 1.2345") < 0 &&
	       sched_parse(&s, "gamma 0 10") < 0 &&
	       sched_parse(&s, "poisson 0") < 0 &&
	       sched_parse(&s, "file") < 0 &&
	       sched_parse(&s, "per 1") < 0,
	       "schedule: sub-ns, zero shape, zero mean, no path, prefix refused");
}

static void test_schedule_build(void)
{
	struct tw_sched_spec s = { .kind = TW_SCHED_PERIODIC, .gap_ns = 1000 };
	uint64_t *a = NULL, *b = NULL;
	bool ok = true;
	char err[160];
	long n, i;

	n = tw_sched_build(&s, 100, 1, &a, err, sizeof(err));
	for (i = 0; i < n; i++)
		ok &= a[i] == (uint64_t)i * 1000;
	tap_ok(n == 100 && ok, "schedule: periodic offsets are i * gap");
	free(a);

	s.kind = TW_SCHED_POISSON;
	s.gap_ns = 20000;
	n = tw_sched_build(&s, N_DRAWS, 99, &a, err, sizeof(err));
	tw_sched_build(&s, N_DRAWS, 99, &b, err, sizeof(err));
	ok = a[0] == 0;
	for (i = 1; i < n; i++)
		ok &= a[i] >= a[i - 1];
	tap_ok(n == N_DRAWS && ok && near((double)a[n - 1] / (n - 1), 20000, 0.01),
	       "schedule: poisson starts at 0, never goes back, mean gap %.0f",
	       (double)a[n - 1] / (n - 1));
	tap_ok(!memcmp(a, b, n * sizeof(*a)),
	       "schedule: the same seed gives the same schedule");
	free(a);
	free(b);
}

static void test_schedule_file(void)
{
	struct tw_sched_spec s = { .kind = TW_SCHED_FILE };
	char path[] = "/tmp/tw-sched-XXXXXX";
	uint64_t *v = NULL;
	char err[256];
	FILE *f;
	long n;
	int fd;

	fd = mkstemp(path);
	f = fdopen(fd, "w");
	fputs("# offsets\n0\n\n", f);
	fputs("  1500 ", f);	/* blanks around a value are fine */
	fputs("\n3000\n", f);
	fclose(f);
	s.path = path;

	n = tw_sched_build(&s, 0, 0, &v, err, sizeof(err));
	tap_ok(n == 3 && v[0] == 0 && v[1] == 1500 && v[2] == 3000,
	       "schedule file: comments and blanks skipped, every line read");
	free(v);
	v = NULL;
	n = tw_sched_build(&s, 2, 0, &v, err, sizeof(err));
	tap_ok(n == 2, "schedule file: count takes the first lines");
	free(v);
	v = NULL;
	n = tw_sched_build(&s, 4, 0, &v, err, sizeof(err));
	tap_ok(n < 0 && strstr(err, "3 offsets, 4 needed"),
	       "schedule file: too short for count is an error (%s)", err);

	f = fopen(path, "a");
	fputs("-5\n", f);
	fclose(f);
	n = tw_sched_build(&s, 0, 0, &v, err, sizeof(err));
	tap_ok(n < 0 && strstr(err, ":6: expected an offset"),
	       "schedule file: a negative offset is refused with its line (%s)",
	       err);
	unlink(path);
}

static uint16_t get16(const uint8_t *p)
{
	return p[0] << 8 | p[1];
}

/* One's complement sum; a valid checksummed block sums to 0xffff. */
static uint16_t sum16(uint32_t sum, const uint8_t *p, size_t len)
{
	while (len > 1) {
		sum += get16(p);
		p += 2;
		len -= 2;
	}
	if (len)
		sum += p[0] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return sum;
}

static void test_packet(void)
{
	struct tw_pkt_spec spec = {
		.sport = 1234,
		.dport = TW_PROBE_PORT,
		.ip_len = 101,		/* odd: the checksum pads */
		.src_mac = { 2, 0, 0, 0, 0, 1 },
		.dst_mac = { 2, 0, 0, 0, 0, 2 },
	};
	struct tw_probe in = {
		.seq = 0x01020304,
		.sched_ns = 0x1122334455667788ULL,
		.flags = tw_probe_train_flags(3),
	}, out;
	uint8_t buf[200], *ip, *udp;
	uint32_t pseudo;

	inet_pton(AF_INET, "198.18.0.1", &spec.src);
	inet_pton(AF_INET, "198.18.0.2", &spec.dst);

	tw_pkt_build(&spec, &in, buf);
	ip = buf;
	udp = ip + 20;
	tap_ok(ip[0] == 0x45 && get16(ip + 2) == 101 && ip[9] == 17 &&
	       get16(ip + 4) == 0x0304 && sum16(0, ip, 20) == 0xffff,
	       "packet: IPv4 header with a valid checksum");
	pseudo = get16(ip + 12) + get16(ip + 14) + get16(ip + 16) +
		 get16(ip + 18) + 17 + (101 - 20);
	tap_ok(get16(udp) == 1234 && get16(udp + 2) == TW_PROBE_PORT &&
	       get16(udp + 4) == 81 && sum16(pseudo, udp, 81) == 0xffff,
	       "packet: UDP header with a valid checksum");
	tap_ok(!tw_probe_parse(udp + 8, 81 - 8, &out) &&
	       out.seq == in.seq && out.sched_ns == in.sched_ns &&
	       out.flags == in.flags && tw_probe_index(&out) == 3 &&
	       (out.flags & TW_PROBE_F_FOLLOWER) &&
	       (out.flags & TW_PROBE_F_TRAIN),
	       "packet: the probe reads back, train index 3");
	tap_ok(!memcmp(udp + 8, "TWIR", 4) && udp[12] == 1 && udp[15] == 4 &&
	       udp[16] == 0x11 && udp[23] == 0x88,
	       "packet: probe fields are big endian at their offsets");
	tap_ok(tw_probe_train_flags(0) == TW_PROBE_F_TRAIN &&
	       tw_probe_parse("TWIX", 20, &out) < 0 &&
	       tw_probe_parse(udp + 8, TW_PROBE_LEN - 1, &out) < 0,
	       "probe: first of a train; bad magic and short buffers refused");

	spec.frame = true;
	tw_pkt_build(&spec, &in, buf);
	tap_ok(tw_pkt_len(&spec) == 115 && buf[5] == 2 && buf[11] == 1 &&
	       get16(buf + 12) == 0x0800 && buf[14] == 0x45,
	       "packet: frame carries MACs and EtherType IPv4");
}

/* The compact probe of the smallest packets, and restoring its time. */
static void test_compact_probe(void)
{
	struct tw_pkt_spec spec = {
		.sport = 1234,
		.dport = TW_PROBE_PORT,
		.ip_len = TW_IP_MIN_LEN,
	};
	struct tw_probe in = {
		.seq = 0x0a0b0c0d,
		.sched_ns = 0x1122334455667788ULL,
		.flags = tw_probe_train_flags(5),
	}, out;
	uint8_t buf[64] = { 0 }, *udp = buf + 20;
	uint64_t t = in.sched_ns;

	tw_pkt_build(&spec, &in, buf);
	tap_ok(TW_IP_MIN_LEN == 40 && get16(buf + 2) == 40 &&
	       get16(udp + 4) == 20 && sum16(0, buf, 20) == 0xffff &&
	       !memcmp(udp + 8, "tw", 2) && udp[11] == 0x17 &&
	       udp[15] == 0x0d && udp[16] == 0x55 && udp[19] == 0x88,
	       "compact probe: 40-byte packet, fields big endian at their offsets");
	tap_ok(!tw_probe_parse(udp + 8, 12, &out) && out.compact &&
	       out.seq == in.seq && out.sched_ns == 0x55667788 &&
	       out.flags == in.flags && tw_probe_index(&out) == 5 &&
	       tw_probe_parse(udp + 8, 11, &out) < 0,
	       "compact probe: reads back with the low 32 bits of its time");
	tap_ok(tw_probe_unwrap(out.sched_ns, t + 1500000000) == t &&
	       tw_probe_unwrap(out.sched_ns, t - 2000000000) == t &&
	       tw_probe_unwrap(0xfffffff0u, 0x200000010ULL) == 0x1fffffff0ULL &&
	       tw_probe_unwrap(0x10, 0x1fffffff0ULL) == 0x200000010ULL,
	       "compact probe: time restored from a reference on both sides of a wrap");
	spec.ip_len = 47;
	tw_pkt_build(&spec, &in, buf);
	tap_ok(!memcmp(udp + 8, "tw", 2) && tw_probe_len(19) == 12 &&
	       tw_probe_len(20) == 20 && tw_probe_len(11) == 0,
	       "compact probe: used up to 47 bytes, the full one from 48");
}

static void test_stats(void)
{
	int64_t v[100];
	struct tw_stats st;
	int i;

	for (i = 0; i < 100; i++)
		v[i] = 100 - i;		/* unsorted on purpose */
	tw_stats_compute(v, 100, &st);
	tap_ok(st.n == 100 && st.min == 1 && st.max == 100 &&
	       st.p50 == 50 && st.p99 == 99 && st.mean == 51,
	       "stats: 1..100 gives min 1 p50 50 p99 99 max 100 mean 51");
	v[0] = -7;
	tw_stats_compute(v, 1, &st);
	tap_ok(st.min == -7 && st.p50 == -7 && st.p99 == -7 && st.mean == -7,
	       "stats: a single negative value");
	tw_stats_compute(v, 0, &st);
	tap_ok(st.n == 0 && st.mean == 0 && st.max == 0, "stats: empty");
}

/* Run fn with stdout captured into buf. */
static void capture(void (*fn)(void), char *buf, size_t len)
{
	char path[] = "/tmp/tw-out-XXXXXX";
	int fd = mkstemp(path), saved = dup(1);
	ssize_t n;

	fflush(stdout);
	dup2(fd, 1);
	fn();
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	lseek(fd, 0, SEEK_SET);
	n = read(fd, buf, len - 1);
	buf[n > 0 ? n : 0] = '\0';
	close(fd);
	unlink(path);
}

static void emit(void)
{
	print_name("module", "omware");
	print_bool("loaded", true, "loaded", "not loaded");
	print_s64("late", -3);
	open_array("sessions");
	open_object(NULL);
	print_u64("session", 1);
	print_string("dev", "a\"b\\c\n");
	open_object("stats");
	print_u64("sent", 18446744073709551615ULL);
	close_object();
	close_object();
	close_array();
	open_object("empty");
	close_object();
}

static void emit_json(void)
{
	print_init(true, false);
	emit();
	print_finish();
}

static void emit_text(void)
{
	print_init(false, false);
	emit();
	print_finish();
}

static void emit_nothing(void)
{
	print_init(true, true);
	print_finish();
}

static void test_json_print(void)
{
	char buf[1024];

	capture(emit_json, buf, sizeof(buf));
	tap_ok(!strcmp(buf, "{\"module\":\"omware\",\"loaded\":true,\"late\":-3,\"sessions\":[{\"session\":1,\"dev\":\"a\\\"b\\\\c\\n\",\"stats\":{\"sent\":18446744073709551615}}],\"empty\":{}}\n"),
	       "json_print: JSON with escapes, nesting and limits");
	if (tap_failed)
		tap_diag("got: %s", buf);
	capture(emit_text, buf, sizeof(buf));
	tap_ok(!strcmp(buf, "omware loaded late -3\nsession 1 dev a\"b\\c\n\n  stats sent 18446744073709551615\nempty\n"),
	       "json_print: the same calls as key value text");
	capture(emit_nothing, buf, sizeof(buf));
	tap_ok(!buf[0], "json_print: no output, no stray braces");
}

static void test_parsers(void)
{
	uint8_t mac[6];
	uint64_t v;

	tap_ok(!tw_parse_u64("0", &v) && v == 0 &&
	       !tw_parse_u64("18446744073709551615", &v) && v == UINT64_MAX &&
	       !tw_parse_u64("0x1F", &v) && v == 31,
	       "parse_u64: 0, the maximum, hexadecimal");
	tap_ok(tw_parse_u64("18446744073709551616", &v) == -ERANGE &&
	       tw_parse_u64("-1", &v) && tw_parse_u64("+1", &v) &&
	       tw_parse_u64(" 1", &v) && tw_parse_u64("1 ", &v) &&
	       tw_parse_u64("", &v) && tw_parse_u64("0x", &v),
	       "parse_u64: overflow, signs, blanks, empty refused");
	tap_ok(!tw_parse_mac("02:aB:00:ff:10:9c", mac) && mac[1] == 0xab &&
	       mac[5] == 0x9c && tw_parse_mac("02:ab:00:ff:10", mac) &&
	       tw_parse_mac("02:ab:00:ff:10:9c:00", mac) &&
	       tw_parse_mac("2:ab:00:ff:10:9c", mac),
	       "parse_mac: six hex pairs and nothing else");
}

int main(void)
{
	tap_plan(37);
	test_rng();
	test_distributions();
	test_schedule_parse();
	test_schedule_build();
	test_schedule_file();
	test_packet();
	test_compact_probe();
	test_stats();
	test_json_print();
	test_parsers();
	return tap_done();
}
