// SPDX-License-Identifier: GPL-2.0
/*
 * nlfuzz_tfib.c - valid tfib traffic for the netlink fuzzer: two tables
 * holding entries, every command of the family aimed at them (and a bind
 * to the test veth).  Tables outlive the socket that made them, so a
 * connection ends by deleting every table of its namespace: what a mutated
 * TABLE_NEW created under another name goes too, and the census after the
 * run finds nothing.  An object's "pending" count is its table's entries.
 */
/* struct ucred, which libnl-tiny's headers use */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nlfuzz.h"
#include "twt_tfib.h"

#define TABLES		2
#define USERS		16
/* Small tables: policy-made capacities must not eat the guest's memory. */
#define FUZZ_MAX_ENTRIES	"100000"
#define FUZZ_MAX_TABLES		"16"

struct tfib_conn {
	struct twt c;
	int ifindex;
	uint32_t ids[TABLES];
};

/* An object's id names its table. */
static void table_name(uint32_t id, char name[TFC_NAME_LEN])
{
	snprintf(name, TFC_NAME_LEN, "nlfz%08x", id);
}

/* Every table of this namespace, through a fresh socket. */
static int delete_all(void)
{
	struct tfc_table *all = NULL;
	struct twt c;
	size_t n, i;
	int err = tfc_open(&c);

	if (err)
		return err;
	err = tfc_table_dump(&c, &all, &n, NULL);
	for (i = 0; !err && i < n; i++)
		tfc_table_del(&c, all[i].name, NULL);
	free(all);
	twt_close(&c);
	return err;
}

static int make_table(struct tfib_conn *k, uint32_t id)
{
	struct tfc_table_cfg cfg;
	struct tfc_entry e = { .has_ts = true, .has_seq = true };
	char name[TFC_NAME_LEN];
	uint32_t u;
	int err;

	table_name(id, name);
	cfg = tfc_table_defaults(name, 64);
	cfg.sync = rnd() % (TFIB_SYNC_MAX + 1);
	err = tfc_table_new(&k->c, &cfg, NULL);
	for (u = 1; !err && u <= USERS; u++) {
		e.user_id = u;
		e.ts_ns = rnd();
		e.seq = u;
		memset(e.mac, u, sizeof(e.mac));
		e.mac[0] = 0x02;	/* unicast: the module refuses others */
		err = tfc_entry_set(&k->c, name, &e, NULL);
	}
	return err;
}

static void tfib_stop(void *conn)
{
	struct tfib_conn *k = conn;

	twt_close(&k->c);
	delete_all();
	free(k);
}

static void *tfib_start(const struct topo *t)
{
	static uint32_t next = 1;
	struct tfib_conn *k = calloc(1, sizeof(*k));
	int i;

	if (!k || tfc_open(&k->c)) {
		free(k);
		return NULL;
	}
	param_write("tfib", "max_entries", FUZZ_MAX_ENTRIES);
	param_write("tfib", "max_tables", FUZZ_MAX_TABLES);
	k->ifindex = t->ifindex;
	for (i = 0; i < TABLES; i++) {
		k->ids[i] = (uint32_t)getpid() << 12 ^ next++;
		if (make_table(k, k->ids[i])) {
			tfib_stop(k);
			return NULL;
		}
	}
	return k;
}

static int tfib_fd(void *conn)
{
	return ((struct tfib_conn *)conn)->c.fd;
}

/* A request of command @cmd on table @name, the rest random but valid. */
static struct nl_msg *valid_req(struct tfib_conn *k, uint8_t cmd,
				const char *name)
{
	uint8_t mac[6] = { 2, 0, 0, 0, 0, (uint8_t)rnd() };
	int flags = rnd() % 3 ? 0 : NLM_F_DUMP;
	struct nl_msg *m;

	switch (cmd) {
	case TFIB_CMD_TABLE_GET:
	case TFIB_CMD_STATS_GET:
		return tfc_msg(&k->c, cmd, flags, flags ? NULL : name);
	case TFIB_CMD_ENTRY_GET:
		m = tfc_msg(&k->c, cmd, flags, name);
		if (!flags)
			nla_put_u32(m, TFIB_A_USER_ID, 1 + rnd() % USERS);
		return m;
	}
	m = tfc_msg(&k->c, cmd, 0, name);
	switch (cmd) {
	case TFIB_CMD_TABLE_NEW:
		nla_put_u32(m, TFIB_A_CAPACITY, 1 + rnd() % 64);
		nla_put_u8(m, TFIB_A_SYNC, rnd() % (TFIB_SYNC_MAX + 1));
		break;
	case TFIB_CMD_ENTRY_SET:
		nla_put_u32(m, TFIB_A_USER_ID, 1 + rnd() % (2 * USERS));
		nla_put(m, TFIB_A_MAC, sizeof(mac), mac);
		if (rnd() % 2)
			nla_put_u64(m, TFIB_A_TS_NS, rnd());
		break;
	case TFIB_CMD_ENTRY_DEL:
		nla_put_u32(m, TFIB_A_USER_ID, 1 + rnd() % (2 * USERS));
		break;
	case TFIB_CMD_BIND:
		nla_put_u32(m, TFIB_A_IFINDEX, k->ifindex);
		nla_put_u8(m, TFIB_A_FWD_MODE, rnd() % (TFIB_FWD_MODE_MAX + 1));
		break;
	}
	return m;
}

static int tfib_valid(void *conn, struct twt_raw *m)
{
	/* reads and entry writes mostly; creation and deletion now and then */
	static const uint8_t cmds[] = {
		TFIB_CMD_TABLE_GET, TFIB_CMD_STATS_GET, TFIB_CMD_ENTRY_GET,
		TFIB_CMD_ENTRY_GET, TFIB_CMD_ENTRY_SET, TFIB_CMD_ENTRY_SET,
		TFIB_CMD_ENTRY_DEL, TFIB_CMD_BIND, TFIB_CMD_UNBIND,
		TFIB_CMD_TABLE_NEW, TFIB_CMD_TABLE_DEL,
	};
	struct tfib_conn *k = conn;
	char name[TFC_NAME_LEN];

	table_name(k->ids[rnd() % TABLES], name);
	return twt_raw_from(m, valid_req(k, cmds[rnd() % sizeof(cmds)],
					 name));
}

static int tfib_ids(void *conn, uint32_t *ids, int max)
{
	struct tfib_conn *k = conn;
	int i;

	for (i = 0; i < TABLES && i < max; i++)
		ids[i] = k->ids[i];
	return i;
}

static int tfib_pending(uint32_t id, uint64_t *pkts)
{
	char name[TFC_NAME_LEN];
	struct tfc_table t;
	struct twt c;
	int err = tfc_open(&c);

	*pkts = 0;
	if (err)
		return err;
	table_name(id, name);
	err = tfc_table_get(&c, name, &t, NULL);
	twt_close(&c);
	if (!err)
		*pkts = t.entries;
	return err;
}

static int tfib_census(struct nlf_census *cs)
{
	struct tfc_table *all = NULL;
	struct twt c;
	size_t n = 0;
	int err = tfc_open(&c);

	memset(cs, 0, sizeof(*cs));
	if (err)
		return err;
	err = tfc_table_dump(&c, &all, &n, NULL);
	free(all);
	twt_close(&c);
	cs->objects = n;
	return err;
}

const struct nlf_recipe nlf_tfib = {
	.family = TFIB_FAMILY_NAME,
	.module = "tfib",
	.start = tfib_start,
	.fd = tfib_fd,
	.valid = tfib_valid,
	.ids = tfib_ids,
	.stop = tfib_stop,
	.pending = tfib_pending,
	.census = tfib_census,
};
