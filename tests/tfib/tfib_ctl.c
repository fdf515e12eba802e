// SPDX-License-Identifier: GPL-2.0
/*
 * tfib_ctl - the shell tests' client of the tfib family.
 *
 *   tfib_ctl new NAME CAPACITY [SYNC]   create a table (SYNC 0..3)
 *   tfib_ctl del NAME                   delete it
 *   tfib_ctl fill NAME N                set users 1..N
 *   tfib_ctl count                      tables of this namespace
 *   tfib_ctl bind NAME IFINDEX          bind with the defaults
 *
 * Exit status 0, 1 when the kernel refused (its error on stderr), 4 when
 * the family is not registered or binding is not supported.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tfib_util.h"

static int refused(const char *what, const struct twt_ack *a)
{
	fprintf(stderr, "%s: %s%s%s\n", what, twt_errname(a->err),
		a->has_msg ? ": " : "", a->has_msg ? a->msg : "");
	return 1;
}

static int cmd_new(struct twt *c, int argc, char **argv)
{
	struct tfc_table_cfg cfg;
	struct twt_ack a;

	if (argc < 2)
		return 2;
	cfg = tfc_table_defaults(argv[0], strtoul(argv[1], NULL, 0));
	if (argc > 2)
		cfg.sync = atoi(argv[2]);
	return tfc_table_new(c, &cfg, &a) ? refused("new", &a) : 0;
}

static int cmd_fill(struct twt *c, int argc, char **argv)
{
	struct tfc_entry e;
	struct twt_ack a;
	uint32_t id, n;

	if (argc < 2)
		return 2;
	n = strtoul(argv[1], NULL, 0);
	for (id = 1; id <= n; id++) {
		e = tfu_entry(id, id);
		if (tfc_entry_set(c, argv[0], &e, &a))
			return refused("fill", &a);
	}
	return 0;
}

static int cmd_count(struct twt *c)
{
	struct tfc_table *all;
	struct twt_ack a;
	size_t n;

	if (tfc_table_dump(c, &all, &n, &a))
		return refused("dump", &a);
	free(all);
	printf("%zu\n", n);
	return 0;
}

static int cmd_bind(struct twt *c, int argc, char **argv)
{
	struct tfc_bind_cfg cfg;
	struct twt_ack a;

	if (argc < 2)
		return 2;
	cfg = tfc_bind_defaults(strtoul(argv[1], NULL, 0));
	if (!tfc_bind(c, argv[0], &cfg, &a))
		return 0;
	refused("bind", &a);
	return a.err == -EOPNOTSUPP ? 4 : 1;
}

int main(int argc, char **argv)
{
	struct twt_ack a;
	struct twt c;
	int err, rc = 2;

	if (argc < 2)
		goto usage;
	err = tfc_open(&c);
	if (err) {
		fprintf(stderr, "tfib_ctl: %s\n", twt_errname(err));
		return err == -ENOENT ? 4 : 1;
	}
	if (!strcmp(argv[1], "new"))
		rc = cmd_new(&c, argc - 2, argv + 2);
	else if (!strcmp(argv[1], "del") && argc > 2)
		rc = tfc_table_del(&c, argv[2], &a) ? refused("del", &a) : 0;
	else if (!strcmp(argv[1], "fill"))
		rc = cmd_fill(&c, argc - 2, argv + 2);
	else if (!strcmp(argv[1], "count"))
		rc = cmd_count(&c);
	else if (!strcmp(argv[1], "bind"))
		rc = cmd_bind(&c, argc - 2, argv + 2);
	twt_close(&c);
	if (rc != 2)
		return rc;
usage:
	fprintf(stderr, "usage: tfib_ctl new NAME CAP [SYNC] | del NAME | fill NAME N | count | bind NAME IFINDEX\n");
	return 2;
}
