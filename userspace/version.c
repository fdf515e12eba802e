// SPDX-License-Identifier: GPL-2.0
/*
 * "timewire version": the tool's version and the versions of
 * the netlink APIs it was built against.
 */
#include <linux/omware.h>

#include "json_print.h"
#include "timewire.h"

static int version_run(void *opts, uint64_t seen)
{
	(void)opts;
	(void)seen;
	print_name("program", "timewire");
	print_string("version", VERSION);
	open_object("uapi");
	print_uint(OMWARE_FAMILY_NAME, OMWARE_FAMILY_VERSION);
	close_object();
	return TW_EXIT_OK;
}

static const struct tw_cmd version_cmd = {
	.help = "Print the version of timewire and of the netlink APIs (family name and version) it speaks",
	.run = version_run,
};

const struct tw_object version_object = {
	.name = "version",
	.help = "print the version of the tool and of the APIs it speaks",
	.self = &version_cmd,
};
