/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tfib_test.h - what the tests of core/tfib.c share: the tuples they write,
 * each derived from (ID, version) alone so that any mix of two is seen,
 * and one fixture variant per synchronisation mode.
 */
#ifndef _TW_TFIB_TEST_H
#define _TW_TFIB_TEST_H

#include "tfib.h"

static inline u64 tfib_test_mix(u32 id, u32 v)
{
	u64 h = ((u64)id << 32 | v) * 0x9e3779b97f4a7c15ULL;

	return h ^ (h >> 29);
}

/* The tuple version @v of @id: every field follows from the two. */
static inline struct tw_tfib_tuple tfib_test_tuple(u32 id, u32 v)
{
	struct tw_tfib_tuple t = { .ts_ns = tfib_test_mix(id, v), .seq = v };
	u64 m = tfib_test_mix(v, id);
	int i;

	for (i = 0; i < TW_TFIB_MAC_LEN; i++)
		t.mac[i] = (u8)(m >> (8 * i));
	return t;
}

static inline bool tfib_test_tuple_eq(const struct tw_tfib_tuple *a,
				      const struct tw_tfib_tuple *b)
{
	return a->ts_ns == b->ts_ns && a->seq == b->seq &&
	       !memcmp(a->mac, b->mac, TW_TFIB_MAC_LEN);
}

/* @t is exactly some version of @id's tuple: none of its fields torn. */
static inline bool tfib_test_tuple_whole(u32 id, const struct tw_tfib_tuple *t)
{
	struct tw_tfib_tuple want = tfib_test_tuple(id, t->seq);

	return tfib_test_tuple_eq(&want, t);
}

/* One variant of @fixture per mode; the variant holds sync and flags. */
#define TFIB_TEST_VARIANTS(fixture)					\
	FIXTURE_VARIANT_ADD(fixture, rwlock) {				\
		.sync = TW_TFIB_RWLOCK,					\
	};								\
	FIXTURE_VARIANT_ADD(fixture, rcu) {				\
		.sync = TW_TFIB_RCU,					\
	};								\
	FIXTURE_VARIANT_ADD(fixture, bucket) {				\
		.sync = TW_TFIB_BUCKET,					\
	};								\
	FIXTURE_VARIANT_ADD(fixture, bucket_prefetch) {			\
		.sync = TW_TFIB_BUCKET,					\
		.flags = TW_TFIB_PREFETCH,				\
	};								\
	FIXTURE_VARIANT_ADD(fixture, seqcount) {			\
		.sync = TW_TFIB_SEQCOUNT,				\
	}

#endif /* _TW_TFIB_TEST_H */
