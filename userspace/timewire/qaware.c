// SPDX-License-Identifier: GPL-2.0
/*
 * "timewire qaware": the schedulers of mptcp_qaware.ko and what they
 * decided (show), per connection and subflow (stats, in qaware_stats.c);
 * loading and unloading the module is in qaware_load.c.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lib/print.h"
#include "qaware_cli.h"

static int parse_sched(void *dst, int argc, char **argv)
{
	char msg[256], expected[64];
	size_t len = strlen(argv[0]);

	(void)argc;
	if (len && len <= QAWARE_NAME_MAX_LEN) {
		*(const char **)dst = argv[0];
		return 1;
	}
	snprintf(expected, sizeof(expected), "a name of 1 to %d bytes",
		 QAWARE_NAME_MAX_LEN);
	tw_err("%s", tw_value_msg(msg, sizeof(msg), "sched", argv[0],
				  len ? "too long" : "empty", expected));
	return -1;
}

const struct tw_arg qaware_sched_args[] = {
	{ .name = "sched", .type = TW_ARG_CUSTOM,
	  .off = offsetof(struct qaware_opts, sched), .meta = "NAME",
	  .parse = parse_sched, .flags = TW_ARG_BARE,
	  .help = "only this scheduler; the keyword may be left out" },
	{ .name = NULL },
};

static int print_sched(const struct qaware_sched *s, void *arg)
{
	unsigned int *count = arg;

	(*count)++;
	open_object(NULL);
	print_name("sched", s->name);
	print_u64("decisions", s->decisions);
	print_u64("refusals", s->refusals);
	print_u64("waits", s->waits);
	close_object();
	print_nl();
	return 0;
}

int qaware_query(const char *array, qaware_req_fn req, void *arg,
		 const char *what)
{
	struct tw_nl nl;
	int ret;

	ret = tw_family_connect(&nl, &mptcp_qaware_family);
	if (ret)
		return ret;
	open_array(array);
	ret = req(&nl, arg);
	close_array();
	if (ret) {
		tw_nl_perror(&nl, ret, what);
		ret = nl.kernel_err ? TW_EXIT_FAIL : TW_EXIT_SYS;
	}
	tw_nl_close(&nl);
	return ret;
}

static int show_req(struct tw_nl *nl, void *p)
{
	struct qaware_opts *o = p;
	unsigned int count = 0;

	return qaware_sched_get(nl, o->sched, print_sched, &count);
}

static int show_run(void *p, uint64_t seen)
{
	(void)seen;
	return qaware_query("scheds", show_req, p, "cannot get the schedulers");
}

static const struct tw_cmd qaware_show_cmd = {
	.name = "show",
	.help = "the module's schedulers and the subflows each picked",
	.notes = "decisions counts the subflows a scheduler picked, refusals\n"
		 "the calls that found none, waits the ecf, blest and\n"
		 "qaware_wait decisions that held data back for a better\n"
		 "subflow: over every network namespace, since the module was\n"
		 "loaded.  A namespace selects a scheduler with sysctl\n"
		 "net.mptcp.scheduler=NAME.\n",
	.args = qaware_sched_args,
	.opts_size = sizeof(struct qaware_opts),
	.run = show_run,
};

static const struct tw_cmd *const qaware_cmds[] = {
	&qaware_show_cmd,
	&qaware_stats_cmd,
	&qaware_load_cmd,
	&qaware_unload_cmd,
	NULL,
};

const struct tw_object mptcp_qaware_object = {
	.name = "qaware",
	.cmds = qaware_cmds,
	.dflt = "show",
};
