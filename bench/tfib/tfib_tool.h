/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tfib_tool.h - what the AoI experiment's tools share: the binary trace
 * file's header and the parsing of their numeric options.
 */
#ifndef TW_TFIB_TOOL_H
#define TW_TFIB_TOOL_H

#include <stdint.h>

#define TFIB_TRACE_MAGIC		"TWAOITRC"
#define TFIB_TRACE_VERSION	1

/* The hop limit of the app updates the tools send: one forwarder takes one. */
#define TFIB_HOP_LIMIT		16

/* The binary trace's header, every field big-endian (tfib.rst). */
struct tfib_trace_header {
	char magic[8];
	uint32_t version;
	uint32_t users;
	uint32_t cdr;
	uint32_t reserved;
	uint64_t seed;
	uint64_t rows;
};

/* Every field at its natural alignment: no padding. */
_Static_assert(sizeof(struct tfib_trace_header) == 40, "trace header layout");

/* An integer option in [min, max]; -1 after saying what was expected. */
int tfib_opt_u64(const char *opt, const char *s, uint64_t *val, uint64_t min,
		 uint64_t max);
/* A CDR with up to 6 decimals, into millionths; -1 if it is none. */
int tfib_cdr_parse(const char *s, uint32_t *cdr);
/* The same, -1 after an error naming opt. */
int tfib_opt_cdr(const char *opt, const char *s, uint32_t *cdr);

#endif /* TW_TFIB_TOOL_H */
