/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reaching a module's generic netlink family, with one wording for every
 * program of what went wrong and what to do about it.
 */
#ifndef TW_FAMILY_H
#define TW_FAMILY_H

#include <stdbool.h>

#include "nl.h"

/* What a client knows of the module it talks to. */
struct tw_family_desc {
	const char *module;	/* kernel module, as modprobe names it */
	const char *family;	/* its generic netlink family */
	unsigned int version;	/* the family version this client speaks */
	const struct tw_attr_set *attrs;	/* names for kernel errors */
	/*
	 * Nothing the family keeps belongs to the socket that made it, so
	 * one socket may serve one command after another (tw_family_keep()).
	 */
	bool reusable;
};

/* Open a generic netlink socket.  Returns an exit code (timewire(8)). */
int tw_family_open(struct tw_nl *nl);

/*
 * Ask the controller for the family on an open socket: TW_EXIT_OK with
 * *fam filled (a version other than ours is warned about), TW_EXIT_NOMOD
 * without a word when the module is not loaded, TW_EXIT_SYS after an
 * error message.
 */
int tw_family_lookup(struct tw_nl *nl, const struct tw_family_desc *desc,
		     struct tw_family *fam);

/*
 * Open a socket and point it at the family (tw_nl_use()).  Returns an exit
 * code; on failure the socket is closed and the reason printed, for an
 * absent module: "the M module is not loaded (...); load it with
 * "modprobe M"" and TW_EXIT_NOMOD.
 */
int tw_family_connect(struct tw_nl *nl, const struct tw_family_desc *desc);

/*
 * While keeping, tw_family_connect() lends the one socket of a reusable
 * family it keeps, opened and looked up at its first use, and
 * tw_nl_close() gives it back: many commands in a row (timewire -batch)
 * ask the controller once.  tw_family_keep(false) closes the sockets kept.
 */
void tw_family_keep(bool keep);

#endif /* TW_FAMILY_H */
