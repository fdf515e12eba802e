// SPDX-License-Identifier: GPL-2.0
/*
 * nlfuzz_qaware.c - valid qaware traffic for the netlink fuzzer: gets of
 * the module's schedulers, by name (theirs, and one it does not have) and
 * dumped, and dumps of the namespace's connections, of every scheduler or
 * of one by name.  Nothing a request does creates anything: an object is
 * one of the module's schedulers, its "pending" count the subflows it
 * picked, which no request may change, and the census after the run has
 * nothing to count.  Every netns sees the same schedulers (shared).  The module
 * needs addresses at load: the suite that runs this loads it ("timewire
 * qaware load"); the fuzzer skips the family when it is absent.  The
 * schedulers are read with the product's own request (qaware/client.h).
 */
/* struct ucred, which libnl-tiny's headers use */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "nlfuzz.h"
#include "qaware/client.h"

#define QA_MAX_SCHEDS	16

struct qa_dump {
	uint64_t decisions[QA_MAX_SCHEDS];
	int n;
};

static void qa_close(struct twt *k)
{
	twt_close(k);
	free(k);
}

static struct twt *qa_open(void)
{
	struct twt *k = calloc(1, sizeof(*k));

	if (k && twt_open(k, QAWARE_FAMILY_NAME, 0)) {
		free(k);
		return NULL;
	}
	return k;
}

static int qa_dump_cb(const struct qaware_sched *s, void *arg)
{
	struct qa_dump *d = arg;

	if (d->n >= QA_MAX_SCHEDS)
		return -ENOSPC;
	d->decisions[d->n++] = s->decisions;
	return 0;
}

/* Every scheduler's decisions, in the module's order, on a fresh socket. */
static int qa_dump(struct qa_dump *d)
{
	struct twt *k = qa_open();
	int err;

	d->n = 0;
	if (!k)
		return -ENOENT;
	err = qaware_sched_get(&k->nl, NULL, qa_dump_cb, d);
	qa_close(k);
	return err;
}

static void *qa_start(const struct topo *t)
{
	(void)t;
	return qa_open();
}

static int qa_fd(void *conn)
{
	return ((struct twt *)conn)->fd;
}

static void qa_stop(void *conn)
{
	qa_close(conn);
}

/*
 * A scheduler by name (one of them unknown) or all of them, or the
 * connections, of every scheduler or of one by name.
 */
static int qa_valid(void *conn, struct twt_raw *m)
{
	static const char *const names[] = { "rr", "minrtt", "qaware", "nosuch" };
	const char *name = names[rnd() % ARRAY_SIZE(names)];
	bool conns = !(rnd() % 3);
	bool dump = conns || !(rnd() % 3);
	struct nl_msg *nm;

	nm = twt_msg(conn, conns ? QAWARE_CMD_CONN_GET : QAWARE_CMD_SCHED_GET,
		     dump ? NLM_F_DUMP : 0, TWT_RAW_MAX);
	if (!dump || (conns && rnd() % 2))
		nla_put_string(nm, QAWARE_A_SCHED, name);
	return twt_raw_from(m, nm);
}

static int qa_ids(void *conn, uint32_t *ids, int max)
{
	struct qa_dump d;
	int i;

	(void)conn;
	if (qa_dump(&d))
		return 0;
	for (i = 0; i < d.n && i < max; i++)
		ids[i] = i;
	return i;
}

static int qa_pending(uint32_t id, uint64_t *pkts)
{
	struct qa_dump d;
	int err = qa_dump(&d);

	*pkts = 0;
	if (err)
		return err;
	if (id >= (uint32_t)d.n)
		return -ENOENT;
	*pkts = d.decisions[id];
	return 0;
}

/* The schedulers are the module's, not the requests': nothing to count. */
static int qa_census(struct nlf_census *c)
{
	struct qa_dump d;

	memset(c, 0, sizeof(*c));
	return qa_dump(&d);
}

const struct nlf_recipe nlf_qaware = {
	.family = QAWARE_FAMILY_NAME,
	.module = "mptcp_qaware",
	.shared = true,
	.start = qa_start,
	.fd = qa_fd,
	.valid = qa_valid,
	.ids = qa_ids,
	.stop = qa_stop,
	.pending = qa_pending,
	.census = qa_census,
};
