// SPDX-License-Identifier: GPL-2.0
/*
 * tfib_tool.c - option parsing shared by the AoI experiment's tools.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "aoi_trace.h"
#include "tfib_tool.h"
#include "lib/util.h"

/* The largest CDR the tools take: 4000 control rows per data row. */
#define TFIB_CDR_MAX	4000

int tfib_cdr_parse(const char *s, uint32_t *cdr)
{
	double v = tw_number_problem(s, 6) ? -1 : strtod(s, NULL);

	if (v < 0 || v >= TFIB_CDR_MAX)
		return -1;
	*cdr = (uint32_t)(v * TW_AOI_CDR_ONE + 0.5);
	return 0;
}

int tfib_opt_cdr(const char *opt, const char *s, uint32_t *cdr)
{
	char msg[160];

	if (!tfib_cdr_parse(s, cdr))
		return 0;
	tw_err("%s", tw_value_msg(msg, sizeof(msg), opt, s,
				  tw_number_problem(s, 6),
				  "a ratio from 0 to 4000"));
	return -1;
}

int tfib_opt_u64(const char *opt, const char *s, uint64_t *val, uint64_t min,
		 uint64_t max)
{
	char msg[160], want[64];

	if (!tw_parse_u64(s, val) && *val >= min && *val <= max)
		return 0;
	snprintf(want, sizeof(want), "an integer from %" PRIu64 " to %" PRIu64,
		 min, max);
	tw_err("%s", tw_value_msg(msg, sizeof(msg), opt, s, NULL, want));
	return -1;
}
