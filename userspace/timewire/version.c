// SPDX-License-Identifier: GPL-2.0
/*
 * "timewire version": the tool's version (TW_VERSION, which the build
 * takes from scripts/version.sh), the netlink API version it speaks for
 * each module it knows, and the version of those loaded.
 */
#include "lib/print.h"
#include "modules.h"

static int version_run(void *opts, uint64_t seen)
{
	struct tw_module_state state[TW_MAX_MODULES];
	size_t i;
	int ret;

	(void)opts;
	(void)seen;
	print_name("program", "timewire");
	print_string("version", TW_VERSION);
	open_object("uapi");
	for (i = 0; i < tw_modules_count; i++)
		print_uint(tw_modules[i].desc->module,
			   tw_modules[i].desc->version);
	close_object();
	ret = tw_modules_probe(state);
	if (ret)
		return ret;
	open_object("loaded");
	for (i = 0; i < tw_modules_count; i++) {
		if (state[i].loaded)
			print_uint(tw_modules[i].desc->module,
				   state[i].fam.version);
		else
			print_null(tw_modules[i].desc->module, "none");
	}
	close_object();
	return TW_EXIT_OK;
}

static const struct tw_cmd version_cmd = {
	.help = "Print the version of timewire, of the netlink API it speaks for each module it knows, and of the modules loaded",
	.run = version_run,
};

const struct tw_object version_object = {
	.name = "version",
	.help = "print the versions of the tool, its APIs and the modules loaded",
	.self = &version_cmd,
};
