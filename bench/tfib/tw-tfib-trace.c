// SPDX-License-Identifier: GPL-2.0
/*
 * tw-tfib-trace - write the packet trace of the Age-of-Information
 * experiment, or read a binary one back as CSV.
 *
 * Rows <type, user ID> from bench/lib/aoi_trace.c: control (location update)
 * or data (app update) by seeded coin flips at a control-to-data ratio CDR
 * (control rows / data rows), users 1..N drawn Zipf(1).  The same options
 * and seed give the same rows on any machine.
 *
 * CSV: a header line "type,user", then one row per line, "control,17" or
 * "data,3".
 *
 * Binary: a 40-byte header, every field big-endian:
 *   0  magic "TWAOITRC"     8 bytes
 *   8  version              u32, 1
 *  12  users (N)            u32
 *  16  CDR x 10^6           u32
 *  20  reserved             u32, 0
 *  24  seed                 u64
 *  32  rows                 u64
 * then one u32 per row: bit 31 set for control, the user ID in bits 0-30.
 *
 * Usage: tw-tfib-trace -o FILE [-f csv|bin] [-n ROWS] [-u USERS] [-c CDR]
 *                     [-s SEED] [-q]
 *        tw-tfib-trace -r BINFILE -o FILE      (binary to CSV)
 */
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aoi_trace.h"
#include "tfib_tool.h"
#include "lib/util.h"

struct trace_opts {
	struct tw_aoi_trace_config cfg;
	uint64_t rows;
	bool binary;
	bool quiet;
};

struct row_counts {
	uint64_t control;
	uint64_t data;
};

static int put_row(FILE *f, bool binary, const struct tw_aoi_row *row)
{
	uint32_t word = htonl(tw_aoi_row_word(row));

	if (binary)
		return fwrite(&word, sizeof(word), 1, f) == 1 ? 0 : -1;
	return fprintf(f, "%s,%" PRIu32 "\n", row->control ? "control" : "data",
		       row->user) < 0 ? -1 : 0;
}

static int put_header(FILE *f, const struct trace_opts *o)
{
	struct tfib_trace_header h = {
		.version = htonl(TFIB_TRACE_VERSION),
		.users = htonl(o->cfg.users),
		.cdr = htonl(o->cfg.cdr),
		.seed = htobe64(o->cfg.seed),
		.rows = htobe64(o->rows),
	};

	if (!o->binary)
		return fputs("type,user\n", f) < 0 ? -1 : 0;
	memcpy(h.magic, TFIB_TRACE_MAGIC, sizeof(h.magic));
	return fwrite(&h, sizeof(h), 1, f) == 1 ? 0 : -1;
}

static int generate(FILE *f, const struct trace_opts *o,
		    struct row_counts *n)
{
	struct tw_aoi_trace t;
	struct tw_aoi_row row;
	uint64_t i;
	int err;

	err = tw_aoi_trace_init(&t, &o->cfg);
	if (err) {
		tw_err("cannot make a trace of %" PRIu32 " users: %s",
		       o->cfg.users, strerror(-err));
		return -1;
	}
	err = put_header(f, o);
	for (i = 0; i < o->rows && !err; i++) {
		tw_aoi_trace_next(&t, &row);
		n->control += row.control;
		n->data += !row.control;
		err = put_row(f, o->binary, &row);
	}
	tw_aoi_trace_destroy(&t);
	return err;
}

/* A binary trace back to CSV; its header's row count must be right. */
static int convert(FILE *in, FILE *out, const char *path,
		   struct row_counts *n)
{
	struct trace_opts o = { .binary = false };
	struct tfib_trace_header h;
	struct tw_aoi_row row;
	uint32_t word;
	uint64_t i;

	if (fread(&h, sizeof(h), 1, in) != 1 ||
	    memcmp(h.magic, TFIB_TRACE_MAGIC, sizeof(h.magic)) ||
	    ntohl(h.version) != TFIB_TRACE_VERSION) {
		tw_err("%s: not a version %d trace", path, TFIB_TRACE_VERSION);
		return -1;
	}
	o.rows = be64toh(h.rows);
	if (put_header(out, &o))
		return -1;
	for (i = 0; i < o.rows; i++) {
		if (fread(&word, sizeof(word), 1, in) != 1) {
			tw_err("%s: %" PRIu64 " rows of %" PRIu64, path, i,
			       o.rows);
			return -1;
		}
		tw_aoi_row_from_word(&row, ntohl(word));
		n->control += row.control;
		n->data += !row.control;
		if (put_row(out, false, &row))
			return -1;
	}
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: tw-tfib-trace -o FILE [-f csv|bin] [-n ROWS] [-u USERS] [-c CDR]\n"
		"                    [-s SEED] [-q]\n"
		"       tw-tfib-trace -r BINFILE -o FILE\n"
		"  -o FILE   output (- = stdout)\n"
		"  -f FMT    csv (type,user; the default) or bin (the format: Documentation/tfib.rst)\n"
		"  -n ROWS   rows to write (default 1000000)\n"
		"  -u USERS  users, drawn Zipf(1) (default 1000; 1: the baseline)\n"
		"  -c CDR    control rows / data rows (default 0.01; 0: no control)\n"
		"  -s SEED   seed of the coin flips and draws (default 1)\n"
		"  -r FILE   read a binary trace and write it as CSV\n"
		"  -q        no summary on stderr\n");
}

static int parse_args(int argc, char **argv, struct trace_opts *o,
		      const char **out, const char **in)
{
	uint64_t v;
	int opt;

	while ((opt = getopt(argc, argv, "o:f:n:u:c:s:r:qh")) != -1) {
		switch (opt) {
		case 'o':
			*out = optarg;
			break;
		case 'f':
			if (strcmp(optarg, "csv") && strcmp(optarg, "bin")) {
				tw_err("-f takes csv or bin, not %s", optarg);
				return -1;
			}
			o->binary = !strcmp(optarg, "bin");
			break;
		case 'n':
			if (tfib_opt_u64("-n", optarg, &o->rows, 1, UINT64_MAX))
				return -1;
			break;
		case 'u':
			if (tfib_opt_u64("-u", optarg, &v, 1, TW_AOI_MAX_USERS))
				return -1;
			o->cfg.users = (uint32_t)v;
			break;
		case 'c':
			if (tfib_opt_cdr("-c", optarg, &o->cfg.cdr))
				return -1;
			break;
		case 's':
			if (tfib_opt_u64("-s", optarg, &v, 0, UINT64_MAX))
				return -1;
			o->cfg.seed = v;
			break;
		case 'r':
			*in = optarg;
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'h':
			usage(stdout);
			exit(TW_EXIT_OK);
		default:
			usage(stderr);
			return -1;
		}
	}
	if (!*out || optind != argc) {
		usage(stderr);
		return -1;
	}
	return 0;
}

static FILE *open_or_std(const char *path, const char *mode, FILE *std)
{
	FILE *f = strcmp(path, "-") ? fopen(path, mode) : std;

	if (!f)
		tw_err("%s: %s", path, strerror(errno));
	return f;
}

int main(int argc, char **argv)
{
	struct trace_opts o = {
		.cfg = { .users = 1000, .cdr = TW_AOI_CDR_ONE / 100, .seed = 1 },
		.rows = 1000000,
	};
	const char *out = NULL, *in = NULL;
	struct row_counts n = { 0 };
	FILE *fin = NULL, *fout;
	int err;

	if (parse_args(argc, argv, &o, &out, &in))
		return TW_EXIT_FAIL;
	if (in) {
		fin = open_or_std(in, "rb", stdin);
		if (!fin)
			return TW_EXIT_SYS;
	}
	fout = open_or_std(out, o.binary ? "wb" : "w", stdout);
	if (!fout)
		return TW_EXIT_SYS;
	err = fin ? convert(fin, fout, in, &n) : generate(fout, &o, &n);
	if ((fout != stdout && fclose(fout)) || (fout == stdout && fflush(fout)))
		err = -1;
	if (err) {
		tw_err("%s: the trace is incomplete", out);
		return TW_EXIT_SYS;
	}
	if (!o.quiet)
		fprintf(stderr, "tw-tfib-trace: %" PRIu64 " control, %" PRIu64
			" data rows: CDR %.5f\n", n.control, n.data,
			n.data ? (double)n.control / n.data : 0.0);
	return TW_EXIT_OK;
}
