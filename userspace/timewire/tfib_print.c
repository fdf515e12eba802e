// SPDX-License-Identifier: GPL-2.0
/*
 * Printing the family's replies: every attribute under the key the spec
 * gives it (gen/tfib.c), so that text and JSON name a field alike and a
 * field added to the spec is printed without a line here.
 */
#include <stdio.h>

#include "tfib_cli.h"
#include "lib/clock.h"
#include "lib/print.h"

static const struct tw_keyword *const table_words[TFIB_A_MAX + 1] = {
	[TFIB_A_SYNC] = tfib_sync_words,
	[TFIB_A_CLOCKID] = tw_clock_words,
	[TFIB_A_FWD_MODE] = tfib_fwd_mode_words,
	[TFIB_A_PICK] = tfib_pick_words,
};

static const struct tw_keyword *const ring_words[TFIB_RING_A_MAX + 1] = {
	[TFIB_RING_A_KIND] = tfib_ring_kind_words,
};

static const struct tw_keyword *const worker_words[TFIB_WORKER_A_MAX + 1] = {
	[TFIB_WORKER_A_KIND] = tfib_ring_kind_words,
};

const struct tfib_attrs tfib_table_attrs = {
	.max = TFIB_A_MAX,
	.policy = tfib_attr_policy,
	.keys = tfib_attr_keys,
	.words = table_words,
	.name = TFIB_A_TABLE,
	.settings = TFIB_A_CAPACITY,
	.macs = TFIB_A_CONTROL_SRC,
	.request_only = TFIB_A_FORCE,
};

const struct tfib_attrs tfib_stats_attrs = {
	.max = TFIB_STATS_A_MAX,
	.policy = tfib_stats_policy,
	.keys = tfib_stats_keys,
};

const struct tfib_attrs tfib_ring_attrs = {
	.max = TFIB_RING_A_MAX,
	.policy = tfib_ring_policy,
	.keys = tfib_ring_keys,
	.words = ring_words,
};

const struct tfib_attrs tfib_worker_attrs = {
	.max = TFIB_WORKER_A_MAX,
	.policy = tfib_worker_policy,
	.keys = tfib_worker_keys,
	.words = worker_words,
};

static uint64_t get_uint(const struct nlattr *a, int type)
{
	switch (type) {
	case NLA_U8:
		return nla_get_u8(a);
	case NLA_U16:
		return nla_get_u16(a);
	case NLA_U32:
		return nla_get_u32(a);
	default:
		return nla_get_u64(a);
	}
}

/* A MAC attribute as xx:xx:xx:xx:xx:xx into buf; false if malformed. */
static bool format_mac(char buf[TFIB_MAC_LEN], const struct nlattr *a)
{
	const uint8_t *m = nla_data(a);

	if (nla_len(a) != 6)
		return false;
	snprintf(buf, TFIB_MAC_LEN, "%02x:%02x:%02x:%02x:%02x:%02x",
		 m[0], m[1], m[2], m[3], m[4], m[5]);
	return true;
}

static void print_mac(const char *key, const struct nlattr *a)
{
	char buf[TFIB_MAC_LEN];

	if (format_mac(buf, a))
		print_string(key, buf);
	else
		print_null(key, "?");
}

static void print_attr(const struct tfib_attrs *set, int i, struct nlattr *a)
{
	const struct tw_keyword *words = set->words ? set->words[i] : NULL;
	int type = set->policy[i].type;
	const char *key = set->keys[i];
	const char *w;

	switch (type) {
	case NLA_STRING:
		if (set->name && i == set->name)
			print_name(key, nla_get_string(a));
		else
			print_string(key, nla_get_string(a));
		break;
	case NLA_BINARY:
		print_mac(key, a);
		break;
	default:
		w = words ? tw_keyword_name(words, get_uint(a, type)) : NULL;
		if (w)
			print_string(key, w);
		else
			print_u64(key, get_uint(a, type));
	}
}

/* A flag: "KEY" or "no-KEY" in text, a boolean in JSON. */
static void print_flag(const struct tfib_attrs *set, int i, struct nlattr **tb)
{
	char no[64];

	/* Absent is false where the reply reports every setting. */
	if (!tb[i] && !(set->settings && tb[set->settings]))
		return;
	snprintf(no, sizeof(no), "no-%s", set->keys[i]);
	print_bool(set->keys[i], tb[i], set->keys[i], no);
}

/* Has attribute i a key, and is it one of those set prints? */
static bool printed(const struct tfib_attrs *set, int i)
{
	return set->keys[i] && (!set->only || (set->only & 1ULL << i));
}

void tfib_print_attrs(const struct tfib_attrs *set, struct nlattr **tb)
{
	int i;

	for (i = 0; i <= set->max; i++) {
		if (!printed(set, i) || set->policy[i].type == NLA_NESTED ||
		    (set->macs && i == set->macs) ||
		    (set->request_only && i == set->request_only))
			continue;
		if (set->policy[i].type == NLA_FLAG)
			print_flag(set, i, tb);
		else if (tb[i])
			print_attr(set, i, tb[i]);
	}
}

void tfib_print_macs(struct nlmsghdr *nlh, const struct tfib_attrs *set,
		     int type)
{
	struct genlmsghdr *g = nlmsg_data(nlh);
	const char *key = set->keys[type];
	bool json = print_is_json(), open = false;
	struct nlattr *a;
	int rem;

	/* JSON: one array; text: "KEY MAC" for each, as the request reads */
	nla_for_each_attr(a, genlmsg_attrdata(g, 0), genlmsg_attrlen(g, 0),
			  rem) {
		if (nla_type(a) != type)
			continue;
		if (json && !open)
			open_array(key);
		open = true;
		print_mac(json ? NULL : key, a);
	}
	if (json && open)
		close_array();
}

void tfib_print_mac_list(struct nlmsghdr *nlh, const struct tfib_attrs *set,
			 int type)
{
	struct genlmsghdr *g = nlmsg_data(nlh);
	/* A comma after each but the last, the NUL after that. */
	char list[TFIB_MAX_CONTROL_SRC * TFIB_MAC_LEN], mac[TFIB_MAC_LEN];
	size_t n = 0;
	struct nlattr *a;
	int rem;

	if (!printed(set, type))
		return;
	nla_for_each_attr(a, genlmsg_attrdata(g, 0), genlmsg_attrlen(g, 0),
			  rem) {
		if (nla_type(a) != type || !format_mac(mac, a) ||
		    n + !!n + TFIB_MAC_LEN > sizeof(list))
			continue;
		n += snprintf(list + n, sizeof(list) - n, "%s%s",
			      n ? "," : "", mac);
	}
	if (n)
		print_string(set->keys[type], list);
}

bool tfib_print_nest(const char *key, const struct tfib_attrs *set,
		     struct nlattr *nest)
{
	struct nlattr *tb[TFIB_MAX_ATTR + 1];

	if (set->max > TFIB_MAX_ATTR ||
	    nla_parse_nested(tb, set->max, nest,
			     (struct nla_policy *)set->policy))
		return false;
	open_object(key);
	tfib_print_attrs(set, tb);
	close_object();
	return true;
}
