// SPDX-License-Identifier: GPL-2.0
/*
 * "timewire status": which of the modules this tool knows are loaded.
 *
 * A module is loaded when its generic netlink family is registered, so the
 * answer comes from the genetlink controller and needs no privilege.
 */
#include "lib/print.h"
#include "modules.h"

static int status_run(void *opts, uint64_t seen)
{
	struct tw_module_state state[TW_MAX_MODULES];
	unsigned int loaded = 0;
	size_t i;
	int ret;

	(void)opts;
	(void)seen;
	ret = tw_modules_probe(state);
	if (ret)
		return ret;
	open_array("modules");
	for (i = 0; i < tw_modules_count; i++) {
		open_object(NULL);
		print_name("module", tw_modules[i].desc->module);
		print_bool("loaded", state[i].loaded, "loaded", "not loaded");
		if (state[i].loaded) {
			loaded++;
			print_uint("version", state[i].fam.version);
			print_uint("id", state[i].fam.id);
		}
		close_object();
	}
	close_array();
	print_uint("modules_loaded", loaded);
	if (!loaded)
		print_text("no timewire module is loaded");
	return TW_EXIT_OK;
}

static const struct tw_cmd status_cmd = {
	.help = "Tell which timewire modules are loaded, with the version and id of their generic netlink family",
	.run = status_run,
};

const struct tw_object status_object = {
	.name = "status",
	.help = "tell which timewire modules are loaded",
	.self = &status_cmd,
};
