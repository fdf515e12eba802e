// SPDX-License-Identifier: GPL-2.0
/*
 * Connecting to a module's family.  A module is loaded exactly when its
 * family is registered, so the genetlink controller answers for it and no
 * privilege is needed to ask.
 */
#include <errno.h>

#include "family.h"
#include "util.h"

int tw_family_open(struct tw_nl *nl)
{
	int ret = tw_nl_open(nl);

	if (ret) {
		tw_nl_perror(NULL, ret, "cannot open a generic netlink socket");
		return TW_EXIT_SYS;
	}
	return TW_EXIT_OK;
}

int tw_family_lookup(struct tw_nl *nl, const struct tw_family_desc *desc,
		     struct tw_family *fam)
{
	int ret = tw_nl_resolve(nl, desc->family, fam);

	if (ret == -ENOENT)
		return TW_EXIT_NOMOD;
	if (ret) {
		tw_nl_perror(nl, ret, "cannot query the genetlink controller");
		return TW_EXIT_SYS;
	}
	if (fam->version != desc->version)
		tw_warn("the %s module speaks version %u, this tool version %u",
			desc->module, fam->version, desc->version);
	return TW_EXIT_OK;
}

int tw_family_connect(struct tw_nl *nl, const struct tw_family_desc *desc)
{
	struct tw_family fam;
	int ret;

	ret = tw_family_open(nl);
	if (ret)
		return ret;
	ret = tw_family_lookup(nl, desc, &fam);
	if (ret == TW_EXIT_NOMOD)
		tw_err("the %s module is not loaded (its generic netlink family \"%s\" is absent); load it with \"modprobe %s\"",
		       desc->module, desc->family, desc->module);
	if (ret) {
		tw_nl_close(nl);
		return ret;
	}
	tw_nl_use(nl, &fam, desc->attrs);
	return TW_EXIT_OK;
}
