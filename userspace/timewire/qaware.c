// SPDX-License-Identifier: GPL-2.0
/*
 * "timewire qaware": the schedulers of mptcp_qaware.ko and what they
 * decided (show); loading and unloading the module is in qaware_load.c.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lib/print.h"
#include "qaware.h"

struct show_opts {
	const char *sched;
};

static int parse_sched(void *dst, int argc, char **argv)
{
	char msg[256], expected[64];
	size_t len = strlen(argv[0]);

	(void)argc;
	if (len && len <= QAWARE_NAME_MAX) {
		*(const char **)dst = argv[0];
		return 1;
	}
	snprintf(expected, sizeof(expected), "a name of 1 to %d bytes",
		 QAWARE_NAME_MAX);
	tw_err("%s", tw_value_msg(msg, sizeof(msg), "sched", argv[0],
				  len ? "too long" : "empty", expected));
	return -1;
}

static const struct tw_arg show_args[] = {
	{ .name = "sched", .type = TW_ARG_CUSTOM,
	  .off = offsetof(struct show_opts, sched), .meta = "NAME",
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
	close_object();
	print_nl();
	return 0;
}

static int show_run(void *p, uint64_t seen)
{
	struct show_opts *o = p;
	unsigned int count = 0;
	struct tw_nl nl;
	int ret;

	(void)seen;
	ret = tw_family_connect(&nl, &mptcp_qaware_family);
	if (ret)
		return ret;
	open_array("scheds");
	ret = qaware_sched_get(&nl, o->sched, print_sched, &count);
	close_array();
	if (ret) {
		tw_nl_perror(&nl, ret, "cannot get the schedulers");
		ret = nl.kernel_err ? TW_EXIT_FAIL : TW_EXIT_SYS;
	}
	tw_nl_close(&nl);
	return ret;
}

static const struct tw_cmd qaware_show_cmd = {
	.name = "show",
	.help = "the module's schedulers and the subflows each picked",
	.notes = "decisions counts the subflows a scheduler picked, over every\n"
		 "network namespace, since the module was loaded.  A namespace\n"
		 "selects a scheduler with sysctl net.mptcp.scheduler=NAME.\n",
	.args = show_args,
	.opts_size = sizeof(struct show_opts),
	.run = show_run,
};

static const struct tw_cmd *const qaware_cmds[] = {
	&qaware_show_cmd,
	&qaware_load_cmd,
	&qaware_unload_cmd,
	NULL,
};

const struct tw_object mptcp_qaware_object = {
	.name = "qaware",
	.cmds = qaware_cmds,
	.dflt = "show",
};
