/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The modules this build of timewire knows: the one list to extend when a
 * module is added.
 */
#ifndef TW_CLI_MODULES_H
#define TW_CLI_MODULES_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/args.h"
#include "lib/family.h"

struct tw_module {
	/* Module name, generic netlink family and the version we speak. */
	const struct tw_family_desc *desc;
	const char *kmod;		/* file of the kernel module */
	const char *summary;		/* one line, for "timewire help" */
	const struct tw_object *object;	/* "timewire NAME ..." */
};

/* Room for the registry in callers' arrays; modules.c checks it. */
#define TW_MAX_MODULES	8

extern const struct tw_module tw_modules[];
extern const size_t tw_modules_count;

/* What the genetlink controller says about one module. */
struct tw_module_state {
	bool loaded;
	struct tw_family fam;
};

/*
 * Look every module up (state has tw_modules_count entries).  Returns an
 * exit code; a module whose version differs from ours is warned about.
 */
int tw_modules_probe(struct tw_module_state *state);

extern const struct tw_object version_object;
extern const struct tw_object status_object;

#endif /* TW_CLI_MODULES_H */
