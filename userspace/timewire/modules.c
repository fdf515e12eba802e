// SPDX-License-Identifier: GPL-2.0
/*
 * The module registry, from modules.list (gen/modules.h): a module named
 * NAME brings NAME_family (its client library) and NAME_object (its CLI
 * object); help, status and version follow from the list.
 */
#include "modules.h"

#define TW_MODULE(name, family, ko, text)				\
	extern const struct tw_family_desc name##_family;		\
	extern const struct tw_object name##_object;
#include "gen/modules.h"

const struct tw_module tw_modules[] = {
#define TW_MODULE(name, family, ko, text)				\
	{								\
		.desc = &name##_family,					\
		.kmod = ko,						\
		.summary = text,					\
		.object = &name##_object,				\
	},
#include "gen/modules.h"
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
