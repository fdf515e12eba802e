// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the library pieces that need no kernel module and no
 * netlink: the random generators and schedules, the probe packets, the
 * statistics, the print path, the clock helpers, the stop flag, the
 * value parsers and the splitting of batch lines.  Also built for 32-bit big-endian by tests/cross.
 *
 * Random draws use fixed seeds, so the statistical bounds below are
 * deterministic: they were chosen several standard errors wide and either
 * always pass or always fail for a given generator.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "capture.h"
#include "lib/args.h"
#include "lib/batch.h"
#include "lib/clock.h"
#include "lib/print.h"
#include "lib/stats.h"
#include "lib/stop.h"
#include "lib/util.h"
#include "omware/packet.h"
#include "omware/probe.h"
#include "omware/schedule.h"

#define N_DRAWS		200000

static bool near(double got, double want, double rel)
{
	return fabs(got - want) <= rel * fabs(want);
}

TEST(rng_seeded)
{
	struct tw_rng a, b, c;
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
	/* A seed gives the same sequence, another seed another one. */
	ASSERT_TRUE(same);
	ASSERT_TRUE(differ);
}

TEST(rng_uniform)
{
	double u, min = 1, max = 0, sum = 0;
	struct tw_rng a;
	int i;

	tw_rng_seed(&a, 42);
	for (i = 0; i < N_DRAWS; i++) {
		u = tw_rng_uniform(&a);
		min = u < min ? u : min;
		max = u > max ? u : max;
		sum += u;
	}
	ASSERT_TRUE(min > 0 && max < 1);
	ASSERT_TRUE(near(sum / N_DRAWS, 0.5, 0.005))
		TH_LOG("mean %.4f", sum / N_DRAWS);
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

TEST(exponential_draws)
{
	double *v = malloc(N_DRAWS * sizeof(*v));
	double mean, var;
	struct tw_rng r;
	int i;

	ASSERT_NE(NULL, v);
	tw_rng_seed(&r, 7);
	for (i = 0; i < N_DRAWS; i++)
		v[i] = tw_rng_exp(&r, 100.0);
	moments(v, N_DRAWS, &mean, &var);
	free(v);
	ASSERT_TRUE(near(mean, 100, 0.015) && near(var, 10000, 0.05))
		TH_LOG("mean %.2f, variance %.0f", mean, var);
}

TEST(gamma_draws)
{
	static const double shapes[] = { 0.3, 1.0, 2.5, 9.0 };
	double *v = malloc(N_DRAWS * sizeof(*v));
	double mean, var, theta;
	struct tw_rng r;
	bool neg = false;
	unsigned int k;
	int i;

	ASSERT_NE(NULL, v);
	tw_rng_seed(&r, 7);
	for (k = 0; k < ARRAY_SIZE(shapes); k++) {
		theta = 50.0 / shapes[k];
		for (i = 0; i < N_DRAWS; i++) {
			v[i] = tw_rng_gamma(&r, shapes[k], theta);
			neg |= v[i] < 0;
		}
		moments(v, N_DRAWS, &mean, &var);
		EXPECT_TRUE(!neg && near(mean, 50, 0.02) &&
			    near(var, shapes[k] * theta * theta, 0.06))
			TH_LOG("k=%.1f, mean 50: mean %.2f, variance %.1f (want %.1f)",
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

TEST(schedule_parse)
{
	struct tw_sched_spec s;

	ASSERT_EQ(2, sched_parse(&s, "periodic 12.5"));
	ASSERT_EQ(TW_SCHED_PERIODIC, s.kind);
	ASSERT_EQ(12500, s.gap_ns);
	ASSERT_EQ(3, sched_parse(&s, "gamma 2.5 100"));
	ASSERT_EQ(TW_SCHED_GAMMA, s.kind);
	ASSERT_TRUE(s.shape == 2.5);
	ASSERT_EQ(100000, s.gap_ns);
	/* Sub-ns, zero shape, zero mean, no path, a prefix: refused. */
	ASSERT_GT(0, sched_parse(&s, "periodic 1.2345"));
	ASSERT_GT(0, sched_parse(&s, "gamma 0 10"));
	ASSERT_GT(0, sched_parse(&s, "poisson 0"));
	ASSERT_GT(0, sched_parse(&s, "file"));
	ASSERT_GT(0, sched_parse(&s, "per 1"));
}

TEST(schedule_periodic)
{
	struct tw_sched_spec s = { .kind = TW_SCHED_PERIODIC, .gap_ns = 1000 };
	uint64_t *a = NULL;
	char err[160];
	long n, i;

	n = tw_sched_build(&s, 100, 1, &a, err, sizeof(err));
	ASSERT_EQ(100, n);
	for (i = 0; i < n; i++)
		ASSERT_EQ((uint64_t)i * 1000, a[i]);
	free(a);
}

TEST(schedule_poisson)
{
	struct tw_sched_spec s = { .kind = TW_SCHED_POISSON, .gap_ns = 20000 };
	uint64_t *a = NULL, *b = NULL;
	char err[160];
	long n, i;

	n = tw_sched_build(&s, N_DRAWS, 99, &a, err, sizeof(err));
	ASSERT_EQ(N_DRAWS, n);
	ASSERT_EQ(N_DRAWS, tw_sched_build(&s, N_DRAWS, 99, &b, err,
					  sizeof(err)));
	/* Starts at 0 and never goes back. */
	ASSERT_EQ(0, a[0]);
	for (i = 1; i < n; i++)
		ASSERT_LE(a[i - 1], a[i]);
	ASSERT_TRUE(near((double)a[n - 1] / (n - 1), 20000, 0.01))
		TH_LOG("mean gap %.0f", (double)a[n - 1] / (n - 1));
	/* The same seed gives the same schedule. */
	ASSERT_EQ(0, memcmp(a, b, n * sizeof(*a)));
	free(a);
	free(b);
}

TEST(schedule_file)
{
	struct tw_sched_spec s = { .kind = TW_SCHED_FILE };
	char path[] = "/tmp/tw-sched-XXXXXX";
	uint64_t *v = NULL;
	char err[256];
	FILE *f;
	long n;

	f = fdopen(mkstemp(path), "w");
	ASSERT_NE(NULL, f);
	/* Comments, empty lines and blanks around a value are fine. */
	fputs("# offsets\n0\n\n  1500 \n3000\n", f);
	fclose(f);
	s.path = path;

	n = tw_sched_build(&s, 0, 0, &v, err, sizeof(err));
	EXPECT_EQ(3, n);
	if (n == 3)
		EXPECT_TRUE(v[0] == 0 && v[1] == 1500 && v[2] == 3000);
	free(v);
	v = NULL;
	/* count takes the first lines. */
	EXPECT_EQ(2, tw_sched_build(&s, 2, 0, &v, err, sizeof(err)));
	free(v);
	v = NULL;
	/* Too short for count: an error. */
	EXPECT_GT(0, tw_sched_build(&s, 4, 0, &v, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "3 offsets, 4 needed"))
		TH_LOG("%s", err);

	/* A negative offset is refused with its line. */
	f = fopen(path, "a");
	fputs("-5\n", f);
	fclose(f);
	EXPECT_GT(0, tw_sched_build(&s, 0, 0, &v, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, ":6: expected an offset"))
		TH_LOG("%s", err);
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

TEST(packet)
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
	uint8_t buf[200], bad[TW_PROBE_LEN] = "TWIX", *ip, *udp;
	uint32_t pseudo;

	inet_pton(AF_INET, "198.18.0.1", &spec.src);
	inet_pton(AF_INET, "198.18.0.2", &spec.dst);

	tw_pkt_build(&spec, &in, buf);
	ip = buf;
	udp = ip + 20;
	/* IPv4 header with a valid checksum. */
	ASSERT_TRUE(ip[0] == 0x45 && get16(ip + 2) == 101 && ip[9] == 17 &&
		    get16(ip + 4) == 0x0304);
	ASSERT_EQ(0xffff, sum16(0, ip, 20));
	/* UDP header with a valid checksum. */
	pseudo = get16(ip + 12) + get16(ip + 14) + get16(ip + 16) +
		 get16(ip + 18) + 17 + (101 - 20);
	ASSERT_TRUE(get16(udp) == 1234 && get16(udp + 2) == TW_PROBE_PORT &&
		    get16(udp + 4) == 81);
	ASSERT_EQ(0xffff, sum16(pseudo, udp, 81));
	/* The probe reads back, train index 3. */
	ASSERT_EQ(0, tw_probe_parse(udp + 8, 81 - 8, &out));
	ASSERT_TRUE(out.seq == in.seq && out.sched_ns == in.sched_ns &&
		    out.flags == in.flags && tw_probe_index(&out) == 3 &&
		    (out.flags & TW_PROBE_F_FOLLOWER) &&
		    (out.flags & TW_PROBE_F_TRAIN));
	/* Probe fields are big endian at their offsets. */
	ASSERT_TRUE(!memcmp(udp + 8, "TWIR", 4) && udp[12] == 1 &&
		    udp[15] == 4 && udp[16] == 0x11 && udp[23] == 0x88);
	/* First of a train; bad magic and short buffers refused. */
	ASSERT_EQ(TW_PROBE_F_TRAIN, tw_probe_train_flags(0));
	ASSERT_GT(0, tw_probe_parse(bad, sizeof(bad), &out));
	ASSERT_GT(0, tw_probe_parse(udp + 8, TW_PROBE_LEN - 1, &out));

	/* A frame carries the MACs and EtherType IPv4. */
	spec.frame = true;
	tw_pkt_build(&spec, &in, buf);
	ASSERT_EQ(115, tw_pkt_len(&spec));
	ASSERT_TRUE(buf[5] == 2 && buf[11] == 1 && get16(buf + 12) == 0x0800 &&
		    buf[14] == 0x45);
}

/* The compact probe of the smallest packets, and restoring its time. */
TEST(compact_probe)
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

	/* A 40-byte packet, fields big endian at their offsets. */
	tw_pkt_build(&spec, &in, buf);
	ASSERT_EQ(40, TW_IP_MIN_LEN);
	ASSERT_TRUE(get16(buf + 2) == 40 && get16(udp + 4) == 20 &&
		    sum16(0, buf, 20) == 0xffff);
	ASSERT_TRUE(!memcmp(udp + 8, "tw", 2) && udp[11] == 0x17 &&
		    udp[15] == 0x0d && udp[16] == 0x55 && udp[19] == 0x88);
	/* It reads back with the low 32 bits of its time. */
	ASSERT_EQ(0, tw_probe_parse(udp + 8, 12, &out));
	ASSERT_TRUE(out.compact && out.seq == in.seq &&
		    out.sched_ns == 0x55667788 && out.flags == in.flags &&
		    tw_probe_index(&out) == 5);
	ASSERT_GT(0, tw_probe_parse(udp + 8, 11, &out));
	/* The time is restored from a reference on both sides of a wrap. */
	ASSERT_EQ(t, tw_probe_unwrap(out.sched_ns, t + 1500000000));
	ASSERT_EQ(t, tw_probe_unwrap(out.sched_ns, t - 2000000000));
	ASSERT_EQ(0x1fffffff0ULL, tw_probe_unwrap(0xfffffff0u, 0x200000010ULL));
	ASSERT_EQ(0x200000010ULL, tw_probe_unwrap(0x10, 0x1fffffff0ULL));
	/* Used up to 47 bytes, the full probe from 48. */
	spec.ip_len = 47;
	tw_pkt_build(&spec, &in, buf);
	ASSERT_EQ(0, memcmp(udp + 8, "tw", 2));
	ASSERT_EQ(12, tw_probe_len(19));
	ASSERT_EQ(20, tw_probe_len(20));
	ASSERT_EQ(0, tw_probe_len(11));
}

TEST(stats)
{
	int64_t v[100];
	struct tw_stats st;
	int i;

	for (i = 0; i < 100; i++)
		v[i] = 100 - i;		/* unsorted on purpose */
	tw_stats_compute(v, 100, &st);
	ASSERT_EQ(100, st.n);
	ASSERT_TRUE(st.min == 1 && st.max == 100 && st.p50 == 50 &&
		    st.p99 == 99 && st.mean == 51);
	/* A single negative value. */
	v[0] = -7;
	tw_stats_compute(v, 1, &st);
	ASSERT_TRUE(st.min == -7 && st.p50 == -7 && st.p99 == -7 &&
		    st.mean == -7);
	/* Empty. */
	tw_stats_compute(v, 0, &st);
	ASSERT_TRUE(st.n == 0 && st.mean == 0 && st.max == 0);
}

static void emit(void)
{
	print_name("module", "omware");
	print_bool("loaded", true, "loaded", "not loaded");
	print_s64("late", -3);
	print_null("kernel", "none");
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

/* arg: the mode, "json", "text" or "nothing". */
static int print_in(void *arg)
{
	const char *mode = arg;

	print_init(strcmp(mode, "text"), !strcmp(mode, "nothing"));
	if (strcmp(mode, "nothing"))
		emit();
	print_finish();
	return 0;
}

TEST(print_path_json)
{
	char buf[1024];

	capture(1, print_in, "json", buf, sizeof(buf));
	/* Escapes, nesting, limits, null. */
	ASSERT_STREQ("{\"module\":\"omware\",\"loaded\":true,\"late\":-3,\"kernel\":null,\"sessions\":[{\"session\":1,\"dev\":\"a\\\"b\\\\c\\n\",\"stats\":{\"sent\":18446744073709551615}}],\"empty\":{}}\n",
		     buf);
}

TEST(print_path_text)
{
	char buf[1024];

	/* The same calls as key value text. */
	capture(1, print_in, "text", buf, sizeof(buf));
	/* A value that is not one word is quoted, escaped as in JSON. */
	ASSERT_STREQ("omware loaded late -3 kernel none\nsession 1 dev \"a\\\"b\\\\c\\n\"\n  stats sent 18446744073709551615\nempty\n",
		     buf);
}

TEST(print_path_nothing)
{
	char buf[64];

	/* No output, no stray braces. */
	capture(1, print_in, "nothing", buf, sizeof(buf));
	ASSERT_STREQ("", buf);
}

/* Split a copy of line; the words joined by "|", or "ERROR: why". */
static const char *split(const char *line, char *buf, size_t len)
{
	char copy[256], *argv[TW_BATCH_MAX_WORDS];
	const char *why;
	size_t n = 0;
	int argc, i;

	snprintf(copy, sizeof(copy), "%s", line);
	argc = tw_split_words(copy, argv, &why);
	if (argc < 0) {
		snprintf(buf, len, "ERROR: %s", why);
		return buf;
	}
	buf[0] = '\0';
	for (i = 0; i < argc; i++)
		n += snprintf(buf + n, len - n, "%s%s", i ? "|" : "", argv[i]);
	if (argv[argc])
		snprintf(buf, len, "ERROR: no NULL after the words");
	return buf;
}

TEST(batch_words)
{
	char buf[256];

	ASSERT_STREQ("tfib|show|t1", split("  tfib\tshow   t1 \r", buf, 256));
	ASSERT_STREQ("", split("", buf, 256));
	ASSERT_STREQ("", split("   # all of it a comment", buf, 256));
	/* # starts a comment at the start of a word only. */
	ASSERT_STREQ("a#b|c", split("a#b c #d e", buf, 256));
	ASSERT_STREQ("a b|c", split("\"a b\" c", buf, 256));
	ASSERT_STREQ("a \"b\\|c", split("'a \"b\\' c", buf, 256));
	/* A quoted part inside a word, and an empty word. */
	ASSERT_STREQ("ab c|d||e", split("a\"b c\" d \"\" e", buf, 256));
	ASSERT_STREQ("#x", split("\"#x\"", buf, 256));
	/* The escapes the text output writes. */
	ASSERT_STREQ("q\"b\\n\nt\t\x01", split("\"q\\\"b\\\\n\\nt\\t\\u0001\"",
					    buf, 256));
	/* Outside quotes a backslash is itself. */
	ASSERT_STREQ("a\\b", split("a\\b", buf, 256));
	ASSERT_STREQ("ERROR: unterminated quoted string",
		     split("tfib show \"t1", buf, 256));
	ASSERT_STREQ("ERROR: unterminated quoted string",
		     split("tfib show 't1", buf, 256));
	ASSERT_STREQ("ERROR: unknown escape in a quoted string",
		     split("\"a\\qb\"", buf, 256));
	ASSERT_STREQ("ERROR: unknown escape in a quoted string",
		     split("\"\\u0000\"", buf, 256));
	ASSERT_STREQ("ERROR: unknown escape in a quoted string",
		     split("\"\\u00e9\"", buf, 256));
}

TEST(batch_too_many_words)
{
	char line[2 * TW_BATCH_MAX_WORDS + 1], *argv[TW_BATCH_MAX_WORDS];
	const char *why = NULL;
	int i;

	/* One word fewer than the room: the NULL fits. */
	for (i = 0; i < TW_BATCH_MAX_WORDS - 1; i++)
		memcpy(line + 2 * i, "w ", 2);
	line[2 * i] = '\0';
	ASSERT_EQ(TW_BATCH_MAX_WORDS - 1, tw_split_words(line, argv, &why));
	ASSERT_EQ(NULL, argv[TW_BATCH_MAX_WORDS - 1]);
	for (i = 0; i < TW_BATCH_MAX_WORDS; i++)
		memcpy(line + 2 * i, "w ", 2);
	line[2 * i] = '\0';
	ASSERT_EQ(-1, tw_split_words(line, argv, &why));
	ASSERT_STREQ("too many words", why);
}

/* arg: a value, printed in text as the only field of a line. */
static int print_value(void *arg)
{
	print_init(false, false);
	print_string("key", arg);
	print_finish();
	return 0;
}

TEST(batch_reads_the_text_output)
{
	static const char *const values[] = {
		"plain", "two words", "", "a\"b", "it's", "back\\slash",
		"new\nline", "tab\there", "\x01\x1f", "#hash", "mid#hash",
		"\x7f", "caf\xc3\xa9",
	};
	char buf[256], *argv[TW_BATCH_MAX_WORDS];
	const char *why;
	size_t i;

	/* Whatever the print path writes, a batch line reads back. */
	for (i = 0; i < ARRAY_SIZE(values); i++) {
		capture(1, print_value, (void *)values[i], buf, sizeof(buf));
		/* The line as the reader hands it, without its newline. */
		buf[strcspn(buf, "\n")] = '\0';
		ASSERT_EQ(2, tw_split_words(buf, argv, &why)) {
			TH_LOG("value %zu printed as %s", i, buf);
		}
		ASSERT_STREQ(values[i], argv[1]);
	}
}

TEST(parser_u64)
{
	uint64_t v;

	ASSERT_EQ(0, tw_parse_u64("0", &v));
	ASSERT_EQ(0, v);
	ASSERT_EQ(0, tw_parse_u64("18446744073709551615", &v));
	ASSERT_EQ(UINT64_MAX, v);
	ASSERT_EQ(0, tw_parse_u64("0x1F", &v));
	ASSERT_EQ(31, v);
	/* Overflow, signs, blanks, empty refused. */
	ASSERT_EQ(-ERANGE, tw_parse_u64("18446744073709551616", &v));
	ASSERT_NE(0, tw_parse_u64("-1", &v));
	ASSERT_NE(0, tw_parse_u64("+1", &v));
	ASSERT_NE(0, tw_parse_u64(" 1", &v));
	ASSERT_NE(0, tw_parse_u64("1 ", &v));
	ASSERT_NE(0, tw_parse_u64("", &v));
	ASSERT_NE(0, tw_parse_u64("0x", &v));
}

TEST(number_problem)
{
	char buf[160];

	/* Each way of missing a plain number is named. */
	EXPECT_STREQ("negative", tw_number_problem("-5", 3));
	EXPECT_STREQ("exponents are not accepted", tw_number_problem("1e3", 3));
	EXPECT_STREQ("exponents are not accepted",
		     tw_number_problem("1.5E-2", 3));
	EXPECT_STREQ("too many decimals", tw_number_problem("12.5555", 3));
	EXPECT_STREQ("not an integer", tw_number_problem("12.5", 0));
	EXPECT_STREQ("empty", tw_number_problem("", 0));
	EXPECT_STREQ("signs are not accepted", tw_number_problem("+1", 0));
	EXPECT_STREQ("blanks are not accepted", tw_number_problem(" 1", 0));
	/* Nothing specific to say: the caller's "expected" does. */
	EXPECT_EQ(NULL, tw_number_problem("12.555", 3));
	EXPECT_EQ(NULL, tw_number_problem("1x", 0));
	EXPECT_EQ(NULL, tw_number_problem("-x", 0));
	EXPECT_EQ(NULL, tw_number_problem(".", 3));

	/* The one shape of a bad or missing value. */
	EXPECT_STREQ("invalid value \"-5\" for count: negative; expected N",
		     tw_value_msg(buf, sizeof(buf), "count", "-5", "negative",
				  "N"));
	EXPECT_STREQ("invalid value \"x\" for count: expected N",
		     tw_value_msg(buf, sizeof(buf), "count", "x", NULL, "N"));
	EXPECT_STREQ("missing value for count: expected N",
		     tw_value_msg(buf, sizeof(buf), "count", NULL, NULL, "N"));
}

TEST(parser_mac)
{
	uint8_t mac[6];

	/* Six hex pairs and nothing else. */
	ASSERT_EQ(0, tw_parse_mac("02:aB:00:ff:10:9c", mac));
	ASSERT_TRUE(mac[1] == 0xab && mac[5] == 0x9c);
	ASSERT_NE(0, tw_parse_mac("02:ab:00:ff:10", mac));
	ASSERT_NE(0, tw_parse_mac("02:ab:00:ff:10:9c:00", mac));
	ASSERT_NE(0, tw_parse_mac("2:ab:00:ff:10:9c", mac));
}

/* A command of a bare NAME, a flag and a number, for the parser. */
struct bare_opts {
	const char *name;
	bool flag;
	uint32_t n;
};

static struct bare_opts bare_got;

static int bare_run(void *opts, uint64_t seen)
{
	(void)seen;
	bare_got = *(struct bare_opts *)opts;
	return 0;
}

static const struct tw_arg bare_args[] = {
	{ .name = "table", .type = TW_ARG_STR, .meta = "NAME",
	  .off = offsetof(struct bare_opts, name), .help = "name",
	  .flags = TW_ARG_REQUIRED | TW_ARG_BARE },
	{ .name = "flag", .type = TW_ARG_FLAG, .help = "a flag",
	  .off = offsetof(struct bare_opts, flag) },
	{ .name = "n", .type = TW_ARG_U32, .meta = "N", .help = "a number",
	  .off = offsetof(struct bare_opts, n), .max = 9 },
	{ .name = NULL },
};

static const struct tw_cmd bare_cmd = {
	.args = bare_args,
	.opts_size = sizeof(struct bare_opts),
	.run = bare_run,
};

/* arg: the words, NULL-terminated; returns the command's exit code. */
static int bare_parse(void *arg)
{
	char **words = arg;
	int n = 0;

	while (words[n])
		n++;
	memset(&bare_got, 0, sizeof(bare_got));
	return tw_run_cmd("t", &bare_cmd, n, words);
}

TEST(parser_bare_and_flag)
{
	char *keyword[] = { "n", "3", "table", "a", "flag", NULL };
	char *bare[] = { "b", "n", "3", NULL };
	char *late[] = { "n", "3", "c", NULL };
	char *twice[] = { "d", "table", "e", NULL };
	char *value[] = { "f", "flag", "1", NULL };
	char *help[] = { "help", NULL };
	char err[512];

	/* The keyword given, and a flag last, with no value after it. */
	ASSERT_EQ(0, capture(2, bare_parse, keyword, err, sizeof(err)));
	ASSERT_STREQ("a", bare_got.name);
	ASSERT_TRUE(bare_got.flag);
	ASSERT_EQ(3, bare_got.n);
	/* The keyword left out: only as the first word. */
	ASSERT_EQ(0, capture(2, bare_parse, bare, err, sizeof(err)));
	ASSERT_STREQ("b", bare_got.name);
	ASSERT_FALSE(bare_got.flag);
	ASSERT_EQ(1, capture(2, bare_parse, late, err, sizeof(err)));
	ASSERT_NE(NULL, strstr(err, "unknown argument \"c\""));
	ASSERT_EQ(1, capture(2, bare_parse, twice, err, sizeof(err)));
	ASSERT_NE(NULL, strstr(err, "argument table given twice"));
	/* A flag takes no value. */
	ASSERT_EQ(1, capture(2, bare_parse, value, err, sizeof(err)));
	ASSERT_NE(NULL, strstr(err, "unknown argument \"1\""));
	/* "help" is no name; the usage shows the keyword as optional. */
	ASSERT_EQ(0, capture(1, bare_parse, help, err, sizeof(err)));
	ASSERT_NE(NULL, strstr(err, "Usage: t [ table ] NAME [ flag ] [ n N ]"));
}

TEST(clock_now)
{
	uint64_t a = tw_now_ns(CLOCK_MONOTONIC);
	uint64_t b = tw_now_ns(CLOCK_MONOTONIC);
	struct timespec ts;

	ASSERT_LE(a, b);
	/* The same clock as clock_gettime(), in nanoseconds. */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	ASSERT_LE(b, (uint64_t)ts.tv_sec * TW_NSEC_PER_SEC + ts.tv_nsec);
}

TEST(clock_pair)
{
	int64_t before, after;
	struct tw_clock_pair p;

	/* Both reads of one instant lie inside the call. */
	before = tw_now_ns(CLOCK_MONOTONIC);
	p = tw_clock_pair(CLOCK_MONOTONIC);
	after = tw_now_ns(CLOCK_MONOTONIC);
	ASSERT_LE(before, p.mono);
	ASSERT_LE(p.mono, after);
	ASSERT_LE(before, p.clock);
	ASSERT_LE(p.clock, after);
}

TEST(clock_to_mono)
{
	/* Real time 1 s ahead of the monotonic clock, drifting 1 us in 1 ms. */
	struct tw_clock_pair a = { 1001000000, 1000000 };
	struct tw_clock_pair b = { 1002001000, 2000000 };
	/* The real-time clock stepped 1 s forward; 3 ms later, 1 ms apart. */
	struct tw_clock_pair c = { 2005001000, 5000000 };
	struct tw_clock_pair d = { 2006001000, 6000000 };

	ASSERT_EQ(1000000, tw_clock_to_mono(1001000000, a, b));
	ASSERT_EQ(2000000, tw_clock_to_mono(1002001000, a, b));
	/* Halfway, the offset is halfway. */
	ASSERT_EQ(1500000, tw_clock_to_mono(1001500500, a, b));
	/* Outside the pairs, the nearer one's offset. */
	ASSERT_EQ(900000, tw_clock_to_mono(1000900000, a, b));
	ASSERT_EQ(2100000, tw_clock_to_mono(1002101000, a, b));
	ASSERT_EQ(1000000, tw_clock_to_mono(1001000000, a, a));
	/*
	 * After the step, the pairs around the reading convert it exactly;
	 * pairs read around the whole run would blend in the old offset.
	 */
	ASSERT_EQ(5500000, tw_clock_to_mono(2005501000, c, d));
	ASSERT_GT(llabs(5500000 - tw_clock_to_mono(2005501000, a, d)),
		  100 * TW_NSEC_PER_USEC);
	/* A step backwards between the pairs: the stamp before it is exact. */
	ASSERT_EQ(1000000, tw_clock_to_mono(1001000000, a,
			   (struct tw_clock_pair){ 1000000, 2000000 }));
}

TEST(clock_words)
{
	ASSERT_STREQ("mono", tw_keyword_name(tw_clock_words, CLOCK_MONOTONIC));
	ASSERT_STREQ("tai", tw_keyword_name(tw_clock_words, CLOCK_TAI));
	ASSERT_STREQ("realtime",
		     tw_keyword_name(tw_clock_words, CLOCK_REALTIME));
	ASSERT_EQ(NULL, tw_keyword_name(tw_clock_words, -1));
}

TEST(clock_sleep_until)
{
	uint64_t t = tw_now_ns(CLOCK_MONOTONIC) + 2 * TW_NSEC_PER_MSEC;

	/* Never returns early; a time in the past returns at once. */
	tw_sleep_until(CLOCK_MONOTONIC, t);
	ASSERT_LE(t, tw_now_ns(CLOCK_MONOTONIC));
	tw_sleep_until(CLOCK_MONOTONIC, 0);
}

TEST(stop_on_signals)
{
	/* SIGINT and SIGTERM set the flag instead of ending the program. */
	tw_stop_on_signals();
	ASSERT_FALSE(tw_stop);
	ASSERT_EQ(0, raise(SIGINT));
	ASSERT_TRUE(tw_stop);
	tw_stop = false;
	ASSERT_EQ(0, raise(SIGTERM));
	ASSERT_TRUE(tw_stop);
}

TEST_HARNESS_MAIN
