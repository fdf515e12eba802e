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

/* Open and look up; the family found goes to *found too, if not NULL. */
static int connect_new(struct tw_nl *nl, const struct tw_family_desc *desc,
		       struct tw_family *found)
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
	if (found)
		*found = fam;
	return TW_EXIT_OK;
}

/* A socket kept for a family, and whether it is lent out now. */
struct kept {
	const struct tw_family_desc *desc;
	struct tw_family fam;
	struct tw_nl nl;
	bool lent;
};

/* Room for every family of a build, the registry's and the tests'. */
#define MAX_KEPT	8

static struct kept kept[MAX_KEPT];
static bool keeping;

static struct kept *kept_of(const struct tw_family_desc *desc)
{
	size_t i;

	for (i = 0; i < MAX_KEPT; i++)
		if (kept[i].desc == desc)
			return &kept[i];
	return NULL;
}

static void give_back(struct tw_nl *nl)
{
	size_t i;

	for (i = 0; i < MAX_KEPT; i++) {
		if (kept[i].lent && kept[i].fam.id == nl->family) {
			tw_nl_move(&kept[i].nl, nl);
			kept[i].lent = false;
			return;
		}
	}
	/* Kept no more (tw_family_keep(false) came first): close it. */
	nl->release = NULL;
	tw_nl_close(nl);
}

static void lend(struct kept *k, struct tw_nl *nl)
{
	tw_nl_move(nl, &k->nl);
	tw_nl_use(nl, &k->fam, k->desc->attrs);
	nl->release = give_back;
	k->lent = true;
}

void tw_family_keep(bool keep)
{
	size_t i;

	keeping = keep;
	if (keep)
		return;
	for (i = 0; i < MAX_KEPT; i++) {
		if (kept[i].desc && !kept[i].lent)
			tw_nl_close(&kept[i].nl);
		kept[i].desc = NULL;
		kept[i].lent = false;
	}
}

/*
 * Connect anew and, room permitting, remember the socket for the next
 * command (a socket lent already is not shared: the caller gets its own).
 */
static int connect_kept(struct tw_nl *nl, const struct tw_family_desc *desc)
{
	struct kept *k = kept_of(desc);
	int ret;

	if (k && !k->lent) {
		lend(k, nl);
		return TW_EXIT_OK;
	}
	k = k ? NULL : kept_of(NULL);
	ret = connect_new(nl, desc, k ? &k->fam : NULL);
	if (ret || !k)
		return ret;
	k->desc = desc;
	tw_nl_move(&k->nl, nl);
	lend(k, nl);
	return TW_EXIT_OK;
}

int tw_family_connect(struct tw_nl *nl, const struct tw_family_desc *desc)
{
	if (keeping && desc->reusable)
		return connect_kept(nl, desc);
	return connect_new(nl, desc, NULL);
}
