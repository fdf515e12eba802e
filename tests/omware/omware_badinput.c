// SPDX-License-Identifier: GPL-2.0
/*
 * omware_badinput.c - malformed and forbidden requests, one table row
 * each.  Every one must be refused with its errno and an extack message,
 * and leave nothing behind: no session, no pending packet, no change to
 * the long-lived session the requests aim at.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <time.h>

#include "omware_lib.h"
#include "kselftest_harness.h"

OMW_FIXTURE(bad)

FIXTURE_VARIANT(bad) {
	struct req req;
	int want;		/* the errno */
	bool other_socket;	/* sent by a socket that does not own it */
	int bad_nest;		/* the extack offset points into this nest */
};

#define BAD(name, e, ...)						\
	FIXTURE_VARIANT_ADD(bad, name) {				\
		.req = REQ(__VA_ARGS__), .want = e,			\
	}

#define BAD_NEW(name, e, ...)	BAD(name, e, OMWARE_CMD_SESSION_NEW, __VA_ARGS__)
#define BAD_SUBMIT(name, e, ...) \
	BAD(name, e, OMWARE_CMD_SUBMIT, ST_SID, __VA_ARGS__)
#define BAD_PKT(name, e, ...)	BAD_SUBMIT(name, e, __VA_ARGS__, ST_END)
#define BAD_TRAIN(name, e, ...)	BAD(name, e, OMWARE_CMD_TRAIN, ST_SID, __VA_ARGS__)
#define BAD_TIME(name, ...) \
	BAD_PKT(name, ERANGE, ST_PKT, __VA_ARGS__, ST_FRAME(100))

/* Another socket may look at a session but never drive it. */
#define OTHER_SOCKET(name, r)						\
	FIXTURE_VARIANT_ADD(bad, other_socket_##name) {			\
		.req = r, .want = EPERM, .other_socket = true,		\
	}

/* missing attributes */
BAD_NEW(new_missing_ifindex, EINVAL, ST_U8(OMWARE_A_MODE, OMWARE_MODE_TIMER));
BAD(submit_missing_session_id, EINVAL, OMWARE_CMD_SUBMIT, ST_GOOD_PKT);
FIXTURE_VARIANT_ADD(bad, flush_missing_session_id) {
	.req = { .cmd = OMWARE_CMD_FLUSH }, .want = EINVAL,
};
BAD_PKT(payload_without_dst_mac, EINVAL, ST_PKT_HEAD, ST_PAYLOAD(100));
BAD_PKT(neither_frame_nor_payload, EINVAL, ST_PKT_HEAD);
BAD_SUBMIT(submit_pkt_without_time, EINVAL, ST_CAR);
BAD(submit_without_pkt, EINVAL, OMWARE_CMD_SUBMIT, ST_SID);
BAD_TRAIN(train_without_time, EINVAL, ST_CAR, ST_CAR);
BAD(cancel_without_cookie, EINVAL, OMWARE_CMD_CANCEL, ST_SID);

/* devices */
BAD_NEW(new_unknown_ifindex, ENODEV, ST_U32(OMWARE_A_IFINDEX, 0x7ffffff0));
BAD_NEW(new_ifindex_zero, ERANGE, ST_U32(OMWARE_A_IFINDEX, 0));
BAD_NEW(new_ifindex_other_netns, ENODEV,
	ST_VAL(S_U32, OMWARE_A_IFINDEX, V_OTHER_NS));
/* no Ethernet header to prepend, no sense in pacing it */
BAD_NEW(new_ifindex_loopback, EOPNOTSUPP, ST_U32(OMWARE_A_IFINDEX, 1));

/* attributes of the wrong size or kind */
BAD_NEW(new_ifindex_as_u8, EINVAL, ST_VAL(S_U8, OMWARE_A_IFINDEX, V_IFINDEX));
BAD_NEW(new_ifindex_as_u64, EINVAL,
	ST_VAL(S_U64, OMWARE_A_IFINDEX, V_IFINDEX));
BAD(submit_session_id_as_u8, EINVAL, OMWARE_CMD_SUBMIT,
	ST_VAL(S_U8, OMWARE_A_SESSION_ID, V_VICTIM), ST_GOOD_PKT);
BAD_NEW(new_mode_as_u32, EINVAL, ST_IFINDEX,
	ST_U32(OMWARE_A_MODE, OMWARE_MODE_TIMER));
BAD_PKT(pkt_time_as_u32, EINVAL, ST_PKT, ST_COOKIE,
	ST_U32(OMWARE_PKT_A_TIME, 1000), ST_FRAME(100));
BAD_PKT(pkt_cookie_as_u16, EINVAL, ST_PKT, ST_TIME_FAR,
	ST_U16(OMWARE_PKT_A_COOKIE, 7), ST_FRAME(100));
BAD_SUBMIT(pkt_not_a_nest, EINVAL, ST_U32(OMWARE_A_PKT, 1));
BAD_PKT(pkt_nested_flag_missing, EINVAL, ST_PKT_PLAIN, ST_TIME_FAR,
	ST_FRAME(100));
BAD_NEW(unknown_attribute, EINVAL, ST_IFINDEX, ST_U32(OMWARE_A_MAX + 1, 1));
BAD_PKT(unknown_pkt_attribute, EINVAL, ST_PKT_HEAD, ST_FRAME(100),
	ST_U32(OMWARE_PKT_A_MAX + 1, 1));
BAD_NEW(reply_only_attribute, EINVAL, ST_IFINDEX,
	ST_U32(OMWARE_A_PENDING_PKTS, 5));
BAD(stats_get_with_attribute, EINVAL, OMWARE_CMD_STATS_GET, ST_SID);

/* frames and payloads */
BAD_PKT(frame_0_bytes, ERANGE, ST_PKT_HEAD, ST_FRAME(0));
BAD_PKT(frame_13_bytes, ERANGE, ST_PKT_HEAD, ST_FRAME(13));
BAD_PKT(frame_over_mtu, EMSGSIZE, ST_PKT_HEAD, ST_FRAME(FRAME_MAX + 1));
BAD_PKT(payload_over_mtu, EMSGSIZE, ST_PKT_HEAD, ST_PAYLOAD(1501),
	ST_DST_MAC(ETH_ALEN));
BAD_PKT(dst_mac_5_bytes, ERANGE, ST_PKT_HEAD, ST_PAYLOAD(100), ST_DST_MAC(5));
/* DST_MAC only makes sense with PAYLOAD */
BAD_PKT(dst_mac_with_frame, EINVAL, ST_PKT_HEAD, ST_FRAME(100),
	ST_DST_MAC(ETH_ALEN));
BAD_PKT(frame_and_payload, EINVAL, ST_PKT_HEAD, ST_FRAME(100),
	ST_PAYLOAD(100), ST_DST_MAC(ETH_ALEN));
/* below 0x600 it would be an 802.3 length, not an EtherType */
BAD_PKT(proto_below_0x600, ERANGE, ST_PKT_HEAD, ST_PAYLOAD(100),
	ST_DST_MAC(ETH_ALEN), ST_BE16(OMWARE_PKT_A_PROTO, 0x05dc));
/* IP version 2: no EtherType to guess */
BAD_PKT(payload_not_ip_without_proto, EINVAL, ST_PKT_HEAD,
	ST_PAYLOAD_FIRST(100, 0x20), ST_DST_MAC(ETH_ALEN));

/* send times */
BAD_TIME(time_u64_max, ST_U64(OMWARE_PKT_A_TIME, UINT64_MAX));
BAD_TIME(time_beyond_ktime, ST_U64(OMWARE_PKT_A_TIME, (uint64_t)INT64_MAX + 1));
BAD_TIME(time_century_ahead, ST_TIME(V_CENTURY));
BAD_TIME(time_beyond_horizon, ST_TIME(V_HORIZON));

/* The second of three packets is bad: none is queued, extack points at it. */
FIXTURE_VARIANT_ADD(bad, batch_middle_pkt_nothing_queued) {
	.req = REQ(OMWARE_CMD_SUBMIT, ST_SID, ST_GOOD_PKT, ST_PKT_HEAD,
		   ST_FRAME(13), ST_END, ST_GOOD_PKT),
	.want = ERANGE, .bad_nest = 2,
};

/* sessions */
BAD(unknown_session, ENOENT, OMWARE_CMD_SUBMIT,
	ST_U32(OMWARE_A_SESSION_ID, 0x7eadbeef), ST_GOOD_PKT);
BAD(get_unknown_session, ENOENT, OMWARE_CMD_SESSION_GET,
	ST_U32(OMWARE_A_SESSION_ID, 0x7eadbeef));
BAD(session_id_zero, ERANGE, OMWARE_CMD_FLUSH,
	ST_U32(OMWARE_A_SESSION_ID, 0));
OTHER_SOCKET(submit, REQ_SUBMIT);
OTHER_SOCKET(train, REQ_TRAIN);
OTHER_SOCKET(cancel, REQ_CANCEL);
OTHER_SOCKET(flush, REQ_FLUSH);
OTHER_SOCKET(session_del, REQ_SESSION_DEL);

/* trains */
BAD_TRAIN(train_one_pkt, EINVAL, ST_TRAIN_TIME, ST_CAR);
BAD_TRAIN(train_bad_car_nothing_queued, ERANGE, ST_TRAIN_TIME, ST_CAR,
	  ST_PKT, ST_COOKIE, ST_FRAME(13), ST_END);
/* the second car brings a time of its own */
BAD_TRAIN(train_pkt_with_time, EINVAL, ST_TRAIN_TIME, ST_CAR, ST_GOOD_PKT);

/* session options */
BAD_NEW(mode_value, ERANGE, ST_IFINDEX,
	ST_U8(OMWARE_A_MODE, OMWARE_MODE_MAX + 1));
BAD_NEW(xmit_value, ERANGE, ST_IFINDEX,
	ST_U8(OMWARE_A_XMIT, OMWARE_XMIT_MAX + 1));
BAD_NEW(clockid_cputime, EINVAL, ST_IFINDEX,
	ST_U32(OMWARE_A_CLOCKID, CLOCK_PROCESS_CPUTIME_ID));
/* beyond the policy's range: refused by the policy itself */
BAD_NEW(clockid_999, ERANGE, ST_IFINDEX, ST_U32(OMWARE_A_CLOCKID, 999));
BAD_NEW(cpu_value, EINVAL, ST_IFINDEX,
	ST_U8(OMWARE_A_MODE, OMWARE_MODE_HYBRID),
	ST_U32(OMWARE_A_CPU, 100000));
BAD_NEW(guard_max_too_big, ERANGE, ST_IFINDEX,
	ST_U32(OMWARE_A_GUARD_MAX_NS, OMWARE_GUARD_MAX_NS_LIMIT + 1));
BAD_NEW(guard_max_too_small, ERANGE, ST_IFINDEX,
	ST_U32(OMWARE_A_GUARD_MAX_NS, OMWARE_GUARD_MIN_NS - 1));
BAD_NEW(max_pkts_zero, ERANGE, ST_IFINDEX, ST_U32(OMWARE_A_MAX_PKTS, 0));
BAD_NEW(max_bytes_zero, ERANGE, ST_IFINDEX, ST_U32(OMWARE_A_MAX_BYTES, 0));
/* a session cap may not exceed the module-wide one */
BAD_NEW(max_pkts_above_module, ERANGE, ST_IFINDEX,
	ST_VAL(S_U32, OMWARE_A_MAX_PKTS, V_MODULE_CAP));

TEST_F(bad, refused)
{
	struct omw_ctx *c = &self->c;
	struct ow *o = variant->other_socket ? c->o2 : c->o;
	int i = variant->bad_nest - 1;
	char why[128] = "";
	struct snap before;
	struct nl_msg *m;
	struct spans sp;
	struct twt_ack a;
	int rc;

	rc = build_req(c, &variant->req, &m, &sp, why, sizeof(why));
	if (rc == KSFT_SKIP)
		SKIP(return, "%s", why);
	ASSERT_EQ(0, rc) TH_LOG("%s", why);
	before = snapshot(c);
	twt_xfer(&o->s, m, NULL, NULL, &a);
	EXPECT_EQ(0, check_refused(c, &before, &a, variant->want));
	if (i < 0)
		return;
	ASSERT_LT(i, sp.n);
	EXPECT_TRUE(a.has_offs) TH_LOG("extack does not point at the bad attribute");
	if (a.has_offs) {
		EXPECT_LE(sp.start[i], a.offs);
		EXPECT_GT(sp.end[i], a.offs);
	}
}

OMW_HARNESS_MAIN
