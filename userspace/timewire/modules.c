// SPDX-License-Identifier: GPL-2.0
/*
 * The module registry.  Adding a module to the tool is one entry here
 * (and its object's files): help, status and version follow from it.
 */
#include "modules.h"
#include "omware.h"
#include "omware/session.h"

const struct tw_module tw_modules[] = {
	{
		.desc = &omware_family,
		.kmod = "omware.ko",
		.summary = "precise packet sending with the omware module",
		.object = &omware_object,
	},
};

_Static_assert(ARRAY_SIZE(tw_modules) <= TW_MAX_MODULES,
	       "raise TW_MAX_MODULES");

const size_t tw_modules_count = ARRAY_SIZE(tw_modules);

int tw_modules_probe(struct tw_module_state *state)
{
	struct tw_nl nl;
	size_t i;
	int ret;

	ret = tw_family_open(&nl);
	if (ret)
		return ret;
	for (i = 0; i < tw_modules_count; i++) {
		ret = tw_family_lookup(&nl, tw_modules[i].desc, &state[i].fam);
		if (ret && ret != TW_EXIT_NOMOD)
			break;
		state[i].loaded = !ret;
		ret = TW_EXIT_OK;
	}
	tw_nl_close(&nl);
	return ret;
}
