// SPDX-License-Identifier: GPL-2.0
/*
 * test_aoi_trace.c - host unit tests of the AoI trace generator: the same
 * rows for a seed, the CDR asked for, Zipf(1) user popularity.
 */
#include <math.h>
#include "aoi_trace.h"
#include "kselftest_harness.h"

#define ROWS		1000000
#define USERS		1000

/* FNV-1a over the row words: one number to compare traces by. */
static u64 trace_hash(struct tw_aoi_trace *t, int rows)
{
	u64 h = 0xcbf29ce484222325ULL;
	struct tw_aoi_row row;
	int i;

	for (i = 0; i < rows; i++) {
		tw_aoi_trace_next(t, &row);
		h = (h ^ tw_aoi_row_word(&row)) * 0x100000001b3ULL;
	}
	return h;
}

static void make_trace(struct __test_metadata *_metadata,
		       struct tw_aoi_trace *t, u32 users, u32 cdr, u64 seed)
{
	struct tw_aoi_trace_config cfg = {
		.users = users, .cdr = cdr, .seed = seed,
	};

	ASSERT_EQ(0, tw_aoi_trace_init(t, &cfg));
}

static u64 hash_of(struct __test_metadata *_metadata, u32 cdr, u64 seed)
{
	struct tw_aoi_trace t;
	u64 h;

	make_trace(_metadata, &t, USERS, cdr, seed);
	h = trace_hash(&t, 100000);
	tw_aoi_trace_destroy(&t);
	return h;
}

TEST(bad_config)
{
	struct tw_aoi_trace_config cfg = { .users = 0, .cdr = 0 };
	struct tw_aoi_trace t;

	ASSERT_EQ(-EINVAL, tw_aoi_trace_init(&t, &cfg));
	cfg.users = TW_AOI_MAX_USERS + 1;
	ASSERT_EQ(-EINVAL, tw_aoi_trace_init(&t, &cfg));
}

/*
 * A seed always gives the same trace, another seed another one.  The
 * constant was computed on x86-64; a big-endian or 32-bit build (the
 * MIPS cross run) must find the same.
 */
TEST(deterministic)
{
	u64 a = hash_of(_metadata, 100000, 42);

	ASSERT_EQ(a, hash_of(_metadata, 100000, 42));
	ASSERT_NE(a, hash_of(_metadata, 100000, 43));
	ASSERT_NE(a, hash_of(_metadata, 10000, 42));
	ASSERT_EQ(0xdca266ed3cc2890dULL, a);
}

TEST(row_words)
{
	struct tw_aoi_row in = { .control = true, .user = TW_AOI_MAX_USERS };
	struct tw_aoi_row out;

	ASSERT_EQ(0xffffffffU, tw_aoi_row_word(&in));
	tw_aoi_row_from_word(&out, tw_aoi_row_word(&in));
	ASSERT_TRUE(out.control);
	ASSERT_EQ(TW_AOI_MAX_USERS, out.user);
	in.control = false;
	in.user = 7;
	ASSERT_EQ(7, tw_aoi_row_word(&in));
	tw_aoi_row_from_word(&out, 7);
	ASSERT_FALSE(out.control);
	ASSERT_EQ(7, out.user);
}

/*
 * Control rows are Binomial(n, p) with p = CDR / (1 + CDR): within 5
 * standard deviations of n p (the seed is fixed, so this never flakes;
 * the bound says the coin is the one asked for).
 */
static void check_cdr(struct __test_metadata *_metadata, u32 cdr)
{
	double p = (double)cdr / (TW_AOI_CDR_ONE + cdr);
	double sd = sqrt(ROWS * p * (1 - p));
	struct tw_aoi_trace t;
	struct tw_aoi_row row;
	long control = 0;
	int i;

	make_trace(_metadata, &t, USERS, cdr, 7);
	for (i = 0; i < ROWS; i++) {
		tw_aoi_trace_next(&t, &row);
		control += row.control;
	}
	tw_aoi_trace_destroy(&t);
	ASSERT_LE(fabs(control - ROWS * p), 5 * sd + 1)
		TH_LOG("CDR %.4f: %ld control rows, expected %.0f +- %.0f",
		       (double)cdr / TW_AOI_CDR_ONE, control, ROWS * p, sd);
	TH_LOG("CDR %.4f asked, %.5f achieved", (double)cdr / TW_AOI_CDR_ONE,
	       (double)control / (ROWS - control));
}

TEST(cdr)
{
	check_cdr(_metadata, 10000);
	check_cdr(_metadata, 100000);
	check_cdr(_metadata, TW_AOI_CDR_ONE);
	check_cdr(_metadata, 4 * TW_AOI_CDR_ONE);
}

/* The table's weights are 2^40 / k to the integer. */
TEST(zipf_table)
{
	struct tw_aoi_trace t;
	u32 k;

	make_trace(_metadata, &t, USERS, 0, 1);
	for (k = 1; k <= USERS; k++)
		ASSERT_EQ((1ULL << 40) / k, tw_aoi_zipf_weight(&t, k));
	tw_aoi_trace_destroy(&t);
}

/*
 * 10^6 rows over 1000 users against 1/k normalised: the top 10 ranks
 * within 5 % (rank 10 expects 13,360 rows, sd 115: 5 % is 5.8 sd), and
 * Pearson's chi-square over all ranks (999 degrees of freedom, sd 44.7)
 * below 999 + 6 sd.
 */
TEST(zipf_fit)
{
	static u32 count[USERS + 1];
	double h = 0, chi2 = 0, worst = 0;
	struct tw_aoi_trace t;
	struct tw_aoi_row row;
	int i, k;

	make_trace(_metadata, &t, USERS, 100000, 11);
	for (i = 0; i < ROWS; i++) {
		tw_aoi_trace_next(&t, &row);
		ASSERT_TRUE(row.user >= 1 && row.user <= USERS);
		count[row.user]++;
	}
	tw_aoi_trace_destroy(&t);
	for (k = 1; k <= USERS; k++)
		h += 1.0 / k;
	for (k = 1; k <= USERS; k++) {
		double want = ROWS / (k * h);
		double d = count[k] - want;

		chi2 += d * d / want;
		if (k <= 10)
			worst = fmax(worst, fabs(d) / want);
	}
	ASSERT_LT(worst, 0.05) TH_LOG("top-10 max relative error %.4f", worst);
	ASSERT_LT(chi2, 999 + 6 * 44.7) TH_LOG("chi-square %.1f", chi2);
	TH_LOG("top-10 max relative error %.4f, chi-square %.1f (999 df)",
	       worst, chi2);
}

/* The study's baseline: one user, no control packet. */
TEST(baseline)
{
	struct tw_aoi_trace t;
	struct tw_aoi_row row;
	int i;

	make_trace(_metadata, &t, 1, 0, 3);
	for (i = 0; i < ROWS; i++) {
		tw_aoi_trace_next(&t, &row);
		ASSERT_FALSE(row.control);
		ASSERT_EQ(1, row.user);
	}
	tw_aoi_trace_destroy(&t);
}

TEST_HARNESS_MAIN
