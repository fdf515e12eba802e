/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nlfuzz.h - what the netlink fuzzer needs to know of a family beyond what
 * the kernel tells it (CTRL_CMD_GETFAMILY, CTRL_CMD_GETPOLICY): how to make
 * valid traffic, and how to count what is left when the run is over.
 */
#ifndef NLFUZZ_H
#define NLFUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "twt_nl.h"
#include "twt_wire.h"

/* What a fresh socket of the current netns sees. */
struct nlf_census {
	size_t objects;
	uint64_t pending_pkts, pending_bytes;
};

/*
 * A family's valid traffic.  A connection is an owner socket with a few
 * objects (sessions) on the topology's device, traffic pending on them.
 */
struct nlf_recipe {
	const char *family;	/* generic netlink family name */
	const char *module;	/* unloaded at the end of the run */
	/*
	 * Its objects are the module's, not a netns's: every netns sees
	 * them (they still must not change).
	 */
	bool shared;
	void *(*start)(const struct topo *t);
	int (*fd)(void *conn);
	/* one valid request on the connection's objects: 0, or -1 */
	int (*valid)(void *conn, struct twt_raw *m);
	int (*ids)(void *conn, uint32_t *ids, int max);
	void (*stop)(void *conn);	/* closes the owner socket */
	/* through a fresh socket: 0 and the object's pending packets */
	int (*pending)(uint32_t id, uint64_t *pkts);
	int (*census)(struct nlf_census *c);
};

/*
 * One recipe per family of modules.list, nlf_<family> of nlfuzz_<family>.c:
 * the Makefile defines NLF_FAMILIES as NLF_FAMILY(<family>) for each.
 */
#ifndef NLF_FAMILIES
#error "NLF_FAMILIES: the families of modules.list, as the Makefile sets it"
#endif
#define NLF_FAMILY(family) extern const struct nlf_recipe nlf_##family;
NLF_FAMILIES
#undef NLF_FAMILY

#endif
