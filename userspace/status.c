// SPDX-License-Identifier: GPL-2.0
/*
 * "timewire status": which timewire modules are loaded.
 *
 * A module is loaded when its generic netlink family is registered, so the
 * answer comes from the genetlink controller and needs no privilege.
 */
#include <errno.h>

#include <linux/omware.h>

#include "json_print.h"
#include "nl.h"
#include "timewire.h"

/*
 * qaware and tfib are modules still to come; their family names are fixed
 * here until their UAPI headers exist.
 */
#define QAWARE_FAMILY_NAME	"qaware"
#define TFIB_FAMILY_NAME	"tfib"

static const struct {
	const char *family;
	unsigned int uapi;	/* version this tool speaks, 0: none yet */
} modules[] = {
	{ OMWARE_FAMILY_NAME, OMWARE_FAMILY_VERSION },
	{ QAWARE_FAMILY_NAME, 0 },
	{ TFIB_FAMILY_NAME, 0 },
};

static int status_run(void *opts, uint64_t seen)
{
	struct tw_family fam;
	struct tw_nl nl;
	unsigned int loaded = 0;
	size_t i;
	int ret;

	(void)opts;
	(void)seen;
	ret = tw_nl_open(&nl);
	if (ret) {
		tw_nl_perror(NULL, ret, "cannot open a generic netlink socket");
		return TW_EXIT_SYS;
	}

	open_array("modules");
	for (i = 0; i < ARRAY_SIZE(modules); i++) {
		ret = tw_nl_resolve(&nl, modules[i].family, &fam);
		if (ret && ret != -ENOENT) {
			tw_nl_perror(&nl, ret, "cannot query the genetlink controller");
			tw_nl_close(&nl);
			return TW_EXIT_SYS;
		}
		open_object(NULL);
		print_name("module", modules[i].family);
		print_bool("loaded", !ret, "loaded", "not loaded");
		if (!ret) {
			loaded++;
			print_uint("version", fam.version);
			print_uint("id", fam.id);
			if (modules[i].uapi && fam.version != modules[i].uapi)
				tw_warn("%s is version %u, this tool speaks version %u",
					modules[i].family, fam.version,
					modules[i].uapi);
		}
		close_object();
	}
	close_array();
	print_uint("modules_loaded", loaded);
	if (!loaded)
		print_text("no timewire module is loaded");
	tw_nl_close(&nl);
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
