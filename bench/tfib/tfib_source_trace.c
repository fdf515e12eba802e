// SPDX-License-Identifier: GPL-2.0
/*
 * tw-tfib-source: the trace, generated or loaded, its rows numbered per
 * user, and the frames that carry them.
 */
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "tfib_source.h"
#include "tfib_tool.h"
#include "lib/util.h"

/* --- the trace -------------------------------------------------------- */

static int trace_alloc(struct trace *t, uint64_t n)
{
	t->n = n;
	t->word = malloc(n * sizeof(*t->word) + 1);
	t->seq = malloc(n * sizeof(*t->seq) + 1);
	if (!t->word || !t->seq) {
		tw_err("no memory for a trace of %" PRIu64 " rows", n);
		return -1;
	}
	return 0;
}

int trace_generate(struct trace *t, const struct src_opts *o)
{
	struct tw_aoi_trace g;
	struct tw_aoi_row row;
	uint64_t i;
	int err;

	err = tw_aoi_trace_init(&g, &o->gen);
	if (err) {
		tw_err("cannot make a trace of %" PRIu32 " users: %s",
		       o->gen.users, strerror(-err));
		return -1;
	}
	err = trace_alloc(t, o->rows);
	for (i = 0; i < t->n && !err; i++) {
		tw_aoi_trace_next(&g, &row);
		t->word[i] = tw_aoi_row_word(&row);
	}
	tw_aoi_trace_destroy(&g);
	t->users = o->gen.users;
	t->cdr = o->gen.cdr;
	t->seed = o->gen.seed;
	t->has_seed = true;
	return err;
}

static int trace_read_bin(struct trace *t, FILE *f, const char *path)
{
	struct tfib_trace_header h;
	uint64_t i;

	if (fread(&h, sizeof(h), 1, f) != 1 ||
	    memcmp(h.magic, TFIB_TRACE_MAGIC, sizeof(h.magic)) ||
	    ntohl(h.version) != TFIB_TRACE_VERSION || !h.rows) {
		tw_err("%s: not a version %d trace", path, TFIB_TRACE_VERSION);
		return -1;
	}
	if (trace_alloc(t, be64toh(h.rows)))
		return -1;
	if (fread(t->word, sizeof(*t->word), t->n, f) != t->n) {
		tw_err("%s: fewer rows than its header's %" PRIu64, path, t->n);
		return -1;
	}
	for (i = 0; i < t->n; i++)
		t->word[i] = ntohl(t->word[i]);
	t->users = ntohl(h.users);
	t->cdr = ntohl(h.cdr);
	t->seed = be64toh(h.seed);
	t->has_seed = true;
	return 0;
}

/* CSV rows "control,17" or "data,3" after the header "type,user". */
static int trace_read_csv(struct trace *t, FILE *f, const char *path)
{
	char line[128], type[16];
	uint64_t cap = 1 << 16, line_no = 1;
	unsigned long user;

	if (trace_alloc(t, cap))
		return -1;
	t->n = 0;
	while (fgets(line, sizeof(line), f)) {
		struct tw_aoi_row row;

		line_no++;
		if (sscanf(line, "%15[a-z],%lu", type, &user) != 2 || !user ||
		    user > TW_AOI_MAX_USERS ||
		    (strcmp(type, "control") && strcmp(type, "data"))) {
			tw_err("%s:%" PRIu64 ": not a row \"control,USER\" or \"data,USER\"",
			       path, line_no);
			return -1;
		}
		if (t->n == cap) {
			cap *= 2;
			t->word = realloc(t->word, cap * sizeof(*t->word));
			t->seq = realloc(t->seq, cap * sizeof(*t->seq));
			if (!t->word || !t->seq) {
				tw_err("no memory for the trace %s", path);
				return -1;
			}
		}
		row.control = !strcmp(type, "control");
		row.user = user;
		t->word[t->n++] = tw_aoi_row_word(&row);
	}
	if (!t->n) {
		tw_err("%s: no rows", path);
		return -1;
	}
	return 0;
}

int trace_load(struct trace *t, const char *path)
{
	char head[sizeof(TFIB_TRACE_MAGIC)] = "";
	FILE *f = fopen(path, "rb");
	int err;

	if (!f) {
		tw_err("%s: %s", path, strerror(errno));
		return -1;
	}
	if (fread(head, 1, sizeof(head) - 1, f) != sizeof(head) - 1)
		head[0] = '\0';
	rewind(f);
	if (!strcmp(head, TFIB_TRACE_MAGIC)) {
		err = trace_read_bin(t, f, path);
	} else if (fgets(head, sizeof(head), f) && !strncmp(head, "type,use", 8)) {
		/* The rest of the header line. */
		while (!strchr(head, '\n') && fgets(head, sizeof(head), f))
			;
		err = trace_read_csv(t, f, path);
	} else {
		tw_err("%s: neither a binary trace nor a CSV one (type,user)",
		       path);
		err = -1;
	}
	fclose(f);
	return err;
}

/*
 * Each row's sequence: a user's location updates count from 1 (0 is the
 * entry set before the run), its app updates from 1 too.  Also counts the
 * control rows and, for a CSV trace, the users and the achieved CDR.
 */
int trace_number(struct trace *t, bool from_csv)
{
	uint32_t *next_ctl, *next_data, max_user = 0;
	struct tw_aoi_row row;
	uint64_t i;

	for (i = 0; i < t->n; i++) {
		tw_aoi_row_from_word(&row, t->word[i]);
		if (row.user > max_user)
			max_user = row.user;
	}
	next_ctl = calloc((size_t)max_user + 1, sizeof(*next_ctl));
	next_data = calloc((size_t)max_user + 1, sizeof(*next_data));
	if (!next_ctl || !next_data) {
		tw_err("no memory for %" PRIu32 " users", max_user);
		return -1;
	}
	for (i = 0; i < t->n; i++) {
		tw_aoi_row_from_word(&row, t->word[i]);
		t->control += row.control;
		t->seq[i] = ++(row.control ? next_ctl : next_data)[row.user];
	}
	free(next_ctl);
	free(next_data);
	if (from_csv) {
		uint64_t data = t->n - t->control;

		t->users = max_user;
		t->cdr = data ? (uint32_t)((t->control * TW_AOI_CDR_ONE +
					    data / 2) / data) : 0;
	}
	return 0;
}

/* --- frames ----------------------------------------------------------- */

/* Ethernet header and the constant part; the rest is frame_set(). */
void frame_init(uint8_t *f, const uint8_t dst[6], const uint8_t src[6])
{
	uint16_t proto = htons(TFIB_ETHERTYPE);

	memset(f, 0, FRAME_LEN);
	memcpy(f, dst, ETH_ALEN);
	memcpy(f + ETH_ALEN, src, ETH_ALEN);
	memcpy(f + 2 * ETH_ALEN, &proto, sizeof(proto));
}

/*
 * The update of trace row i, sent at now_ns: a location update carries its
 * send time as the location's timestamp and next_hop as the user's MAC.
 */
void frame_set(uint8_t *f, const struct trace *t, uint64_t i,
	       uint64_t now_ns, const uint8_t next_hop[6])
{
	struct tw_aoi_row row;
	struct tfib_hdr h = {
		.version = TFIB_HDR_VERSION,
		.seq = htonl(t->seq[i]),
		.send_ns = htobe64(now_ns),
	};

	tw_aoi_row_from_word(&row, t->word[i]);
	h.user_id = htonl(row.user);
	if (row.control) {
		h.type = TFIB_PKT_TYPE_CONTROL;
		h.addr_ns = htobe64(now_ns);
		memcpy(h.mac, next_hop, sizeof(h.mac));
	} else {
		h.type = TFIB_PKT_TYPE_DATA;
		h.hop_limit = TFIB_HOP_LIMIT;
	}
	memcpy(f + HDR_OFF, &h, sizeof(h));
}

/* A forwarded app update from fwd_mac into rec; false for anything else. */
bool frame_parse(const uint8_t *f, size_t len, const uint8_t fwd[6],
		 struct rx_rec *rec)
{
	struct tfib_hdr h;
	uint16_t proto;

	if (len < HDR_OFF + sizeof(h) || memcmp(f + ETH_ALEN, fwd, ETH_ALEN))
		return false;
	memcpy(&proto, f + 2 * ETH_ALEN, sizeof(proto));
	memcpy(&h, f + HDR_OFF, sizeof(h));
	if (ntohs(proto) != TFIB_ETHERTYPE || h.version != TFIB_HDR_VERSION ||
	    h.type != TFIB_PKT_TYPE_DATA)
		return false;
	rec->user = ntohl(h.user_id);
	rec->seq = ntohl(h.seq);
	rec->addr_seq = ntohl(h.addr_seq);
	rec->addr_ns = be64toh(h.addr_ns);
	return true;
}
