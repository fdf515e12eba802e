// SPDX-License-Identifier: GPL-2.0
/*
 * tw-tfib-source - the Source machine of the Age-of-Information experiment:
 * send a trace of location and app updates to a tfib forwarder through a
 * token bucket, receive the app updates it forwards back, and record both.
 *
 * The trace (a tw-tfib-trace file, binary or CSV, or generated in memory by
 * bench/lib/aoi_trace.c) is loaded before the run.  One sender thread sends
 * its rows in order over AF_PACKET, as many per opportunity as the token
 * bucket of bench/lib/tbucket.c admits (rate R, burst B): a control row is a
 * location update (TFIB_PKT_TYPE_CONTROL) for its user, with the next
 * sequence of that user's locations, the send time as location timestamp
 * and the sink interface's MAC as next hop, so the forwarder sends the
 * user's app updates back to us; a data row is an app update
 * (TFIB_PKT_TYPE_DATA) with a sequence unique to its user and the send
 * time.  One receiver thread takes the forwarded app updates on the sink
 * interface (possibly the same one).  Both read CLOCK_MONOTONIC, also the
 * forwarder table's default clock, so every time of the run is on one
 * clock.
 *
 * sendmmsg() rather than a PACKET_MMAP transmit ring: on a veth pair the
 * two carried the same rate within the noise of the measurement
 * (Documentation/tfib.rst), and sendmmsg says how many frames the device
 * took, which is the L_i the token bucket needs.  The receiver reads a
 * TPACKET_V3 ring rather than calling recvmmsg(): the kernel copies each
 * frame in its receive path, and the receiver, which shares the sender's
 * CPU, makes no system call per frame (on veth the source then reached
 * 1.6-1.8 times the rate; Documentation/tfib.rst).  --pace omware hands the
 * frames to omware.ko instead, each with the time the same bucket plans
 * for it (tfib_pace.c); the module sends it then and reports when it left.
 *
 * Records live in memory allocated (and touched) before the first packet;
 * events.csv and run.json are written when the run ends: after the whole
 * trace was sent and a drain time passed, or on SIGINT / SIGTERM.
 *
 * --simulate runs without a network: a stand-in for the forwarder answers
 * every app update from the last location update of its user, so the
 * records and frames can be tested on any host.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <endian.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <net/if.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/tfib.h>

#include "aoi_trace.h"
#include "tbucket.h"
#include "tfib_pace.h"
#include "tfib_tool.h"
#include "lib/clock.h"
#include "cpustat.h"
#include "lib/netdev.h"
#include "lib/print.h"
#include "rxring.h"
#include "lib/stop.h"
#include "lib/util.h"

#define PROG		"tw-tfib-source"
#define NSEC_PER_SEC	TW_NSEC_PER_SEC
#define NSEC_PER_MSEC	TW_NSEC_PER_MSEC
/* The smallest Ethernet frame: header, tfib_hdr, zero padding. */
#define FRAME_LEN	ETH_ZLEN
#define HDR_OFF		ETH_HLEN
#define MAX_BURST	TFIB_MAX_BURST
/* Receive records beyond one per app update: duplicates, strays. */
#define RX_SLACK	4096
/* The receive ring: about 110 000 frames, half a second at 200 000 pps. */
#define RX_RING_BYTES	(16u << 20)
/* A block of the ring not filled is handed over after this. */
#define RX_BLOCK_MS	4
/* The receiver looks at the stop flag this often. */
#define RX_POLL_MS	20
/* At the end, the block not full: handed over within two ticks of 4 ms. */
#define RX_LAST_MS	50
/*
 * The sending socket's budget of frames in flight: on veth a frame stays
 * charged to it until the forwarder is done with it, so the default
 * (about 200 KiB, some 280 frames) would let a busy forwarder slow the
 * source down, a back-pressure no wire gives.  This is more than the
 * chain's queues hold: the forwarder drops what it cannot take.
 */
#define SNDBUF_BYTES	(16 << 20)
/* Waits for a token shorter than this spin rather than sleep. */
#define SPIN_BELOW_NS	20000
#define MAX_LABELS	16
#define MAX_COUNTERS	64
#define NAME_LEN	64
/* --simulate: the stand-in forwarder's delay. */
#define SIM_DELAY_NS	1000
#define SIM_FWD_MAC	"02:00:00:00:00:01"
#define SIM_SINK_MAC	"02:00:00:00:00:02"

_Static_assert(HDR_OFF + sizeof(struct tfib_hdr) <= FRAME_LEN,
	       "a tfib frame fits the smallest Ethernet frame");

struct src_opts {
	const char *ifname;
	const char *sink_ifname;
	const char *outdir;
	const char *trace_path;
	const char *counters_path;
	const char *counters_cmd;
	const char *frames_path;	/* --simulate: every frame sent */
	const char *labels[MAX_LABELS];
	int nlabels;
	uint8_t fwd_mac[6];
	bool have_mac;
	uint32_t rate;
	uint32_t burst;
	struct tw_aoi_trace_config gen;
	uint64_t rows;
	bool gen_given;			/* an option of the generated trace */
	uint32_t drain_ms;
	int tx_cpu;			/* -1: the CPU the tool starts on */
	int rx_cpu;			/* -1: not pinned */
	uint32_t fifo;			/* SCHED_FIFO priority, 0: none */
	bool simulate;
	bool pace_omware;		/* --pace omware */
	bool refused_lost;		/* --refused lost */
	bool json;
	bool quiet;
};

/* The trace, with each row's sequence worked out before the run. */
struct trace {
	uint32_t *word;			/* tw_aoi_row_word() */
	uint32_t *seq;
	uint64_t n;
	uint64_t control;
	uint32_t users;			/* the highest user ID */
	uint32_t cdr;			/* x 10^6 */
	uint64_t seed;
	bool has_seed;
};

struct rx_rec {
	uint64_t t_ns;
	uint64_t addr_ns;
	uint32_t user;
	uint32_t seq;
	uint32_t addr_seq;
};

struct counter {
	char name[NAME_LEN];
	int64_t value;
};

struct counters {
	struct counter c[MAX_COUNTERS];
	int n;
};

/* The stand-in forwarder's table: per user, its last location update. */
struct sim_entry {
	uint64_t addr_ns;
	uint32_t addr_seq;
	uint8_t mac[6];
};

struct run {
	const struct src_opts *o;
	struct trace tr;
	uint64_t *tx_ns;		/* per row */
	/* rows sent (--pace omware: handed over): a prefix of the trace */
	atomic_uint_fast64_t sent;
	struct rx_rec *rx;
	size_t rx_cap;
	atomic_size_t rx_n;
	uint64_t rx_lost;		/* no record left */
	uint64_t rx_other;		/* frames that are no forwarded update */
	uint64_t tx_short;		/* opportunities the device took less */
	uint64_t tx_refused;		/* --refused lost: frames it refused */
	int tx_fd, rx_fd;
	struct tw_rxring rx_ring;
	int tx_sndbuf;			/* the sending socket's, as granted */
	unsigned int tx_ifindex;
	uint8_t tx_mac[6];
	uint8_t sink_mac[6];
	int64_t rt_off;			/* CLOCK_REALTIME - CLOCK_MONOTONIC */
	uint64_t start_ns, send_end_ns, end_ns;
	/* /proc/stat at the start and the end of sending; ok: both read */
	struct tw_cpu_times cpu_start, cpu_end;
	bool cpu_ok;
	struct tpacket_stats rx_stats;
	atomic_bool tx_done, rx_stop;
	bool rx_ready;
	struct sim_entry *sim;
	FILE *frames;
	int tx_err;			/* errno that ended the sender */
	struct tfib_pace_result pace;	/* --pace omware */
	int pace_ret;			/* tfib_pace_run()'s exit code */
};

static uint64_t mono_ns(void)
{
	return tw_now_ns(CLOCK_MONOTONIC);
}

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

static int trace_generate(struct trace *t, const struct src_opts *o)
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

static int trace_load(struct trace *t, const char *path)
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
static int trace_number(struct trace *t, bool from_csv)
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
static void frame_init(uint8_t *f, const uint8_t dst[6], const uint8_t src[6])
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
static void frame_set(uint8_t *f, const struct trace *t, uint64_t i,
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
static bool frame_parse(const uint8_t *f, size_t len, const uint8_t fwd[6],
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

/* --- receiving -------------------------------------------------------- */

static void rx_record(struct run *r, const uint8_t *f, size_t len,
		      uint64_t t_ns)
{
	struct rx_rec rec;
	size_t n = atomic_load_explicit(&r->rx_n, memory_order_relaxed);

	if (!frame_parse(f, len, r->o->fwd_mac, &rec)) {
		r->rx_other++;
		return;
	}
	if (n == r->rx_cap) {
		r->rx_lost++;
		return;
	}
	rec.t_ns = t_ns;
	r->rx[n] = rec;
	atomic_store_explicit(&r->rx_n, n + 1, memory_order_release);
}

static int pin_thread(int cpu, uint32_t fifo, const char *who)
{
	struct sched_param sp = { .sched_priority = (int)fifo };
	cpu_set_t set;
	int err;

	if (cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		err = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
		if (err) {
			tw_err("cannot pin the %s to CPU %d: %s", who, cpu,
			       strerror(err));
			return -1;
		}
	}
	if (!fifo)
		return 0;
	err = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
	if (err)
		tw_err("cannot run the %s SCHED_FIFO %d: %s", who, fifo,
		       strerror(err));
	return err ? -1 : 0;
}

struct rx_walk {
	struct run *r;
	uint64_t now_ns;
};

/* One frame of the ring, stamped by the kernel on arrival. */
static void rx_frame(void *arg, const struct tw_rxring_frame *f)
{
	struct rx_walk *w = arg;
	uint64_t t = f->rt_ns ? (uint64_t)(f->rt_ns - w->r->rt_off) : 0;

	/* Only a socket of every protocol sees them: a guard. */
	if (f->pkttype == PACKET_OUTGOING)
		return;
	if (!t || t > w->now_ns)
		w->now_ns = mono_ns();
	/* A stamp from after we read it: the clock moved. */
	if (!t || t > w->now_ns)
		t = w->now_ns;
	rx_record(w->r, f->data, f->len, t);
}

static void *receiver(void *arg)
{
	struct run *r = arg;
	struct rx_walk w = { .r = r };
	int n = 0;

	if (pin_thread(r->o->rx_cpu, r->o->fifo, "receiver")) {
		tw_stop = true;
		n = -1;
	}
	__atomic_store_n(&r->rx_ready, true, __ATOMIC_RELEASE);
	while (n >= 0 && !atomic_load(&r->rx_stop)) {
		w.now_ns = mono_ns();
		n = tw_rxring_read(&r->rx_ring, RX_POLL_MS, rx_frame, &w);
	}
	/*
	 * What the ring still holds, unless a signal ended the run: the
	 * block not full comes when its timer hands it over.
	 */
	while (n >= 0 && !tw_stop) {
		w.now_ns = mono_ns();
		n = tw_rxring_read(&r->rx_ring, RX_LAST_MS, rx_frame, &w);
		if (!n)
			break;
	}
	if (n < 0 && !tw_stop) {
		tw_err("reading the receive ring: %s", strerror(-n));
		tw_stop = true;
	}
	return NULL;
}

/* --- sending ---------------------------------------------------------- */

/*
 * The stand-in forwarder: frames [0, k), sent at now_ns, answered from a
 * copy (the sender reuses its frames).
 */
static int sim_xmit(struct run *r, uint8_t (*frames)[FRAME_LEN], int k,
		    uint64_t now_ns)
{
	uint8_t f[FRAME_LEN];
	struct tfib_hdr h;
	int i;

	for (i = 0; i < k; i++) {
		struct sim_entry *e;

		if (r->frames && fwrite(frames[i], FRAME_LEN, 1, r->frames) != 1)
			return -EIO;
		memcpy(f, frames[i], FRAME_LEN);
		memcpy(&h, f + HDR_OFF, sizeof(h));
		e = &r->sim[ntohl(h.user_id)];
		if (h.type == TFIB_PKT_TYPE_CONTROL) {
			e->addr_ns = be64toh(h.addr_ns);
			e->addr_seq = ntohl(h.seq);
			memcpy(e->mac, h.mac, sizeof(e->mac));
			continue;
		}
		h.addr_ns = htobe64(e->addr_ns);
		h.addr_seq = htonl(e->addr_seq);
		memcpy(f + HDR_OFF, &h, sizeof(h));
		memcpy(f, e->mac, ETH_ALEN);
		memcpy(f + ETH_ALEN, r->o->fwd_mac, ETH_ALEN);
		rx_record(r, f, FRAME_LEN, now_ns + SIM_DELAY_NS);
	}
	return k;
}

struct tx_batch {
	struct mmsghdr msg[MAX_BURST];
	struct iovec iov[MAX_BURST];
	uint8_t frame[MAX_BURST][FRAME_LEN];
};

static void tx_batch_init(struct tx_batch *b, const struct run *r)
{
	int i;

	memset(b->msg, 0, sizeof(b->msg));
	for (i = 0; i < MAX_BURST; i++) {
		frame_init(b->frame[i], r->o->fwd_mac, r->tx_mac);
		b->iov[i] = (struct iovec){ b->frame[i], FRAME_LEN };
		b->msg[i].msg_hdr.msg_iov = &b->iov[i];
		b->msg[i].msg_hdr.msg_iovlen = 1;
	}
}

/* Frames [from, k) the device took, 0 if none, -errno on a failure. */
static int tx_sendmmsg(struct run *r, struct tx_batch *b, int from, int k)
{
	int n = sendmmsg(r->tx_fd, b->msg + from, k - from, 0);

	if (n >= 0)
		return n;
	/* A full queue: the tokens stay, the rows go next time. */
	if (errno == ENOBUFS || errno == EAGAIN || errno == EINTR)
		return 0;
	return -errno;
}

/*
 * --refused lost: every frame is sent; one the device refuses is lost, as
 * a wire loses what the far end's full receive ring cannot take.  On veth
 * the device's refusal is the forwarder's ring being full.
 */
static int tx_send_all(struct run *r, struct tx_batch *b, int k)
{
	int done = 0, n;

	while (done < k) {
		n = tx_sendmmsg(r, b, done, k);
		if (n < 0)
			return n;
		/* none taken: only a full queue (ENOBUFS) is a refusal */
		if (!n && errno != ENOBUFS)
			continue;
		done += n;
		/* sendmmsg stops at the frame refused: it is gone */
		if (done < k) {
			r->tx_refused++;
			done++;
		}
	}
	return k;
}

/* Frames the device took, 0 when it took none, -errno on a failure. */
static int tx_send(struct run *r, struct tx_batch *b, int k, uint64_t now_ns)
{
	if (r->o->simulate)
		return sim_xmit(r, b->frame, k, now_ns);
	if (r->o->refused_lost)
		return tx_send_all(r, b, k);
	return tx_sendmmsg(r, b, 0, k);
}

/* Until the bucket has a token: sleep when that is long, else spin. */
static void tx_wait(const struct run *r, uint64_t now_ns)
{
	uint64_t gap = NSEC_PER_SEC / r->o->rate;

	if (r->o->simulate)
		return;
	if (gap >= SPIN_BELOW_NS)
		tw_sleep_until(CLOCK_MONOTONIC, now_ns + gap);
}

static void send_trace(struct run *r, struct tx_batch *b)
{
	uint64_t i = 0, now = r->start_ns;
	struct tw_tbucket tb;

	tw_tbucket_init(&tb, r->o->rate, r->o->burst, 0, now);
	while (i < r->tr.n && !tw_stop) {
		uint32_t k, j;
		int got;

		/* A simulated clock: one token's time per opportunity. */
		now = r->o->simulate ? now + NSEC_PER_SEC / r->o->rate :
			mono_ns();
		k = tw_tbucket_offer(&tb, now);
		if (!k) {
			tx_wait(r, now);
			continue;
		}
		if (k > r->tr.n - i)
			k = r->tr.n - i;
		for (j = 0; j < k; j++)
			frame_set(b->frame[j], &r->tr, i + j, now, r->sink_mac);
		got = tx_send(r, b, k, now);
		if (got < 0) {
			r->tx_err = -got;
			tw_stop = true;
			break;
		}
		for (j = 0; j < (uint32_t)got; j++)
			r->tx_ns[i + j] = now;
		i += got;
		atomic_store_explicit(&r->sent, i, memory_order_release);
		tw_tbucket_take(&tb, got);
		r->tx_short += (uint32_t)got < k;
	}
	r->send_end_ns = now;
}

/* --pace omware: row i, due at sched_ns, as send_trace() would send it. */
static void pace_build(void *arg, size_t i, uint64_t sched_ns, uint8_t *buf)
{
	struct run *r = arg;

	frame_init(buf, r->o->fwd_mac, r->tx_mac);
	frame_set(buf, &r->tr, i, sched_ns, r->sink_mac);
}

static void pace_trace(struct run *r)
{
	struct tfib_pace_cfg cfg = {
		.ifindex = r->tx_ifindex,
		.rate = r->o->rate,
		.burst = r->o->burst,
		.rows = r->tr.n,
		.frame_len = FRAME_LEN,
		.build = pace_build,
		.arg = r,
		.handed = &r->sent,
	};

	r->pace_ret = tfib_pace_run(&cfg, r->tx_ns, &r->pace);
	if (r->pace_ret)
		tw_stop = true;
	r->send_end_ns = r->pace.last_sent_ns ? r->pace.last_sent_ns :
			 mono_ns();
}

static void *sender(void *arg)
{
	struct run *r = arg;
	struct tx_batch *b = malloc(sizeof(*b));

	if (!b || pin_thread(r->o->tx_cpu, r->o->fifo, "sender")) {
		tw_stop = true;
	} else if (r->o->pace_omware) {
		pace_trace(r);
	} else {
		tx_batch_init(b, r);
		send_trace(r, b);
	}
	free(b);
	atomic_store(&r->tx_done, true);
	return NULL;
}

/* --- sockets ---------------------------------------------------------- */

static int open_packet(const char *ifname, uint16_t proto, unsigned int *ifx)
{
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET,
		.sll_protocol = htons(proto),
	};
	int fd;

	sll.sll_ifindex = if_nametoindex(ifname);
	if (!sll.sll_ifindex) {
		tw_err("no interface %s (-i and --sink name one of this network namespace)",
		       ifname);
		return -1;
	}
	fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, htons(proto));
	if (fd < 0 || bind(fd, (struct sockaddr *)&sll, sizeof(sll))) {
		tw_err("AF_PACKET socket on %s: %s%s", ifname, strerror(errno),
		       errno == EPERM ? " (needs CAP_NET_RAW)" : "");
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (ifx)
		*ifx = sll.sll_ifindex;
	return fd;
}

/*
 * The sink: a receive ring, so that the frames are copied in the kernel's
 * receive path rather than by a system call of this CPU's per frame.  The
 * timestamps are asked for so that the stack stamps each frame where it
 * enters the receive path, not where the ring copies it.
 */
static int rx_socket_open(struct run *r, const char *sink)
{
	int one = 1, err;

	r->rx_fd = open_packet(sink, TFIB_ETHERTYPE, NULL);
	if (r->rx_fd < 0)
		return -1;
	if (setsockopt(r->rx_fd, SOL_SOCKET, SO_TIMESTAMPNS, &one,
		       sizeof(one))) {
		tw_err("receive socket options: %s", strerror(errno));
		return -1;
	}
	err = tw_rxring_open(&r->rx_ring, r->rx_fd, RX_RING_BYTES,
			     RX_BLOCK_MS);
	if (err) {
		tw_err("a receive ring of %u MiB on %s: %s", RX_RING_BYTES >> 20,
		       sink, strerror(-err));
		return -1;
	}
	return 0;
}

/* FORCE needs CAP_NET_ADMIN; the plain option, capped lower, is the fallback. */
static void tx_socket_budget(struct run *r)
{
	int size = SNDBUF_BYTES;
	socklen_t len = sizeof(r->tx_sndbuf);

	if (setsockopt(r->tx_fd, SOL_SOCKET, SO_SNDBUFFORCE, &size,
		       sizeof(size)))
		setsockopt(r->tx_fd, SOL_SOCKET, SO_SNDBUF, &size, sizeof(size));
	if (getsockopt(r->tx_fd, SOL_SOCKET, SO_SNDBUF, &r->tx_sndbuf, &len))
		r->tx_sndbuf = -1;
}

/*
 * A forwarder drops an app update whose next hop is its sender (a loop).
 * Sent and received on one interface, the frames therefore leave from the
 * interface's address with its locally administered bit flipped: the
 * sender and the sink are two stations, as in the study.
 */
static void tx_mac_apart(struct run *r)
{
	if (!memcmp(r->tx_mac, r->sink_mac, ETH_ALEN))
		r->tx_mac[0] ^= 0x02;
}

static int open_sockets(struct run *r)
{
	const struct src_opts *o = r->o;
	const char *sink = o->sink_ifname ? o->sink_ifname : o->ifname;
	int err;

	/* Protocol 0: the sending socket receives nothing. */
	r->tx_fd = open_packet(o->ifname, 0, &r->tx_ifindex);
	if (r->tx_fd < 0)
		return -1;
	tx_socket_budget(r);
	if (rx_socket_open(r, sink))
		return -1;
	err = tw_dev_mac(o->ifname, r->tx_mac);
	if (!err)
		err = tw_dev_mac(sink, r->sink_mac);
	if (err) {
		tw_err("the MAC address of %s or %s: %s", o->ifname, sink,
		       strerror(-err));
		return -1;
	}
	tx_mac_apart(r);
	return 0;
}

/* --- the forwarder's counters ------------------------------------------ */

/* Lines "name value" or "name=value"; blank and # lines are skipped. */
static int counters_read(FILE *f, const char *what, struct counters *c)
{
	char line[256], name[NAME_LEN];
	long long v;
	char *eq;

	c->n = 0;
	while (fgets(line, sizeof(line), f)) {
		eq = strchr(line, '=');
		if (eq)
			*eq = ' ';
		if (sscanf(line, " %63s", name) != 1 || name[0] == '#')
			continue;
		if (sscanf(line, " %63s %lld", name, &v) != 2) {
			tw_err("%s: \"%.*s\" is no \"name value\" line", what,
			       (int)strcspn(line, "\n"), line);
			return -1;
		}
		if (c->n == MAX_COUNTERS) {
			tw_err("%s: more than %d counters", what, MAX_COUNTERS);
			return -1;
		}
		snprintf(c->c[c->n].name, NAME_LEN, "%s", name);
		c->c[c->n++].value = v;
	}
	return 0;
}

static int counters_run(const char *cmd, struct counters *c)
{
	FILE *f = popen(cmd, "r");
	int err, status;

	if (!f) {
		tw_err("--counters-cmd: %s", strerror(errno));
		return -1;
	}
	err = counters_read(f, "--counters-cmd", c);
	status = pclose(f);
	if (!err && status) {
		tw_err("--counters-cmd \"%s\" failed (status %d)", cmd, status);
		err = -1;
	}
	return err;
}

static int64_t counter_get(const struct counters *c, const char *name)
{
	int i;

	for (i = 0; i < c->n; i++)
		if (!strcmp(c->c[i].name, name))
			return c->c[i].value;
	return 0;
}

/* after -= before, name by name. */
static void counters_delta(struct counters *after,
			   const struct counters *before)
{
	int i;

	for (i = 0; i < after->n; i++)
		after->c[i].value -= counter_get(before, after->c[i].name);
}

/* --- records ---------------------------------------------------------- */

static int write_events(const struct run *r, const char *path)
{
	FILE *f = fopen(path, "w");
	uint64_t i, sent = atomic_load(&r->sent);
	size_t j, rx_n = atomic_load(&r->rx_n);
	struct tw_aoi_row row;

	if (!f) {
		tw_err("%s: %s", path, strerror(errno));
		return -1;
	}
	fputs("event,t_ns,user,seq,addr_ns,addr_seq\n", f);
	for (i = 0; i < sent; i++) {
		/* Handed to omware and not sent: it never left. */
		if (!r->tx_ns[i])
			continue;
		tw_aoi_row_from_word(&row, r->tr.word[i]);
		if (row.control)
			fprintf(f, "ctl_tx,%" PRIu64 ",%" PRIu32 ",%" PRIu32
				",%" PRIu64 ",\n", r->tx_ns[i], row.user,
				r->tr.seq[i], r->tx_ns[i]);
		else
			fprintf(f, "data_tx,%" PRIu64 ",%" PRIu32 ",%" PRIu32
				",,\n", r->tx_ns[i], row.user, r->tr.seq[i]);
	}
	for (j = 0; j < rx_n; j++) {
		const struct rx_rec *x = &r->rx[j];

		fprintf(f, "data_rx,%" PRIu64 ",%" PRIu32 ",%" PRIu32 ",%"
			PRIu64 ",%" PRIu32 "\n", x->t_ns, x->user, x->seq,
			x->addr_ns, x->addr_seq);
	}
	if (fclose(f)) {
		tw_err("%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

static void print_mac(const char *key, const uint8_t m[6])
{
	char s[18];

	snprintf(s, sizeof(s), "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1],
		 m[2], m[3], m[4], m[5]);
	print_string(key, s);
}

/* A label's value: a number when it is one, else a string. */
static void print_label(const char *label)
{
	const char *eq = strchr(label, '=');
	char key[NAME_LEN];
	uint64_t v;

	snprintf(key, sizeof(key), "%.*s", (int)(eq - label), label);
	if (!tw_parse_u64(eq + 1, &v))
		print_u64(key, v);
	else
		print_string(key, eq + 1);
}

static uint64_t control_sent(const struct run *r)
{
	uint64_t i, n = 0, sent = atomic_load(&r->sent);

	for (i = 0; i < sent; i++)
		n += r->tx_ns[i] && (r->tr.word[i] & TW_AOI_WORD_CONTROL);
	return n;
}

/* Rows that left: those handed to omware less those it did not send. */
static uint64_t rows_sent(const struct run *r)
{
	return atomic_load(&r->sent) - r->pace.dropped;
}

static double sent_pps(const struct run *r)
{
	uint64_t span = r->send_end_ns - r->start_ns;

	return span ? rows_sent(r) * (double)NSEC_PER_SEC / span : 0;
}

/* --pace omware: what the module reported. */
static void print_pace(const struct run *r)
{
	const struct tfib_pace_result *p = &r->pace;

	print_u64("tx_dropped", p->dropped);
	print_u64("tx_unreported", p->unreported);
	open_object("omware_late_ns");
	print_s64("min", p->late.min);
	print_s64("p50", p->late.p50);
	print_s64("p99", p->late.p99);
	print_s64("max", p->late.max);
	close_object();
	print_u64("omware_late_over", p->late_over);
	print_uint("omware_late_threshold_ns", p->late_threshold_ns);
}

/* run.json's fields, through the print library. */
/* Each CPU's busy fraction while the source sent (per mille). */
static void print_cpu_busy(const struct run *r)
{
	unsigned int i;
	char key[16];
	int pm;

	if (!r->cpu_ok)
		return;
	open_object("cpu_busy_permille");
	for (i = 0; i < r->cpu_end.n; i++) {
		pm = tw_cpu_busy_permille(&r->cpu_start, &r->cpu_end, i);
		if (pm < 0)
			continue;
		snprintf(key, sizeof(key), "cpu%u", i);
		print_uint(key, pm);
	}
	close_object();
}

static void print_run(const struct run *r, const struct counters *ctr,
		      const char *stop)
{
	const struct src_opts *o = r->o;
	int i;

	print_uint("rate_pps", o->rate);
	print_uint("burst", o->burst);
	print_double("cdr", (double)r->tr.cdr / TW_AOI_CDR_ONE);
	print_uint("users", r->tr.users);
	if (r->tr.has_seed)
		print_u64("seed", r->tr.seed);
	print_string("trace", o->trace_path ? o->trace_path : "generated");
	print_u64("rows", r->tr.n);
	print_string("interface", o->simulate ? "simulated" : o->ifname);
	print_string("sink_interface", o->simulate ? "simulated" :
		     o->sink_ifname ? o->sink_ifname : o->ifname);
	print_mac("forwarder_mac", o->fwd_mac);
	print_mac("sink_mac", r->sink_mac);
	print_mac("source_mac", r->tx_mac);
	print_string("tx", o->simulate ? "simulated" :
		     o->pace_omware ? "omware" : "sendmmsg");
	print_string("clock", "CLOCK_MONOTONIC");
	print_u64("start_ns", r->start_ns);
	print_u64("send_end_ns", r->send_end_ns);
	print_u64("end_ns", r->end_ns);
	print_uint("drain_ms", o->drain_ms);
	print_string("stop", stop);
	print_double("sent_pps", sent_pps(r));
	print_u64("packets_sent", rows_sent(r));
	print_u64("control_sent", control_sent(r));
	print_u64("packets_received", atomic_load(&r->rx_n));
	print_u64("rx_other", r->rx_other);
	print_u64("rx_no_record", r->rx_lost);
	print_uint("rx_socket_drops", r->rx_stats.tp_drops);
	print_u64("tx_short", r->tx_short);
	if (!o->simulate && !o->pace_omware) {
		print_s64("tx_sndbuf_bytes", r->tx_sndbuf);
		print_string("tx_refused_policy",
			     o->refused_lost ? "lost" : "retry");
		print_u64("tx_refused", r->tx_refused);
	}
	if (o->pace_omware)
		print_pace(r);
	print_cpu_busy(r);
	for (i = 0; i < o->nlabels; i++)
		print_label(o->labels[i]);
	if (ctr) {
		open_object("counters");
		for (i = 0; i < ctr->n; i++)
			print_s64(ctr->c[i].name, ctr->c[i].value);
		close_object();
	}
}

/*
 * The print library writes to stdout: run.json borrows it for the time
 * of one object.
 */
static int write_run_json(const struct run *r, const char *path,
			  const struct counters *ctr, const char *stop)
{
	FILE *f = fopen(path, "w");
	int saved, err = 0;

	if (!f) {
		tw_err("%s: %s", path, strerror(errno));
		return -1;
	}
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	if (saved < 0 || dup2(fileno(f), STDOUT_FILENO) < 0) {
		err = -1;
	} else {
		print_init(true, true);
		print_run(r, ctr, stop);
		print_finish();
		fflush(stdout);
		dup2(saved, STDOUT_FILENO);
	}
	if (saved >= 0)
		close(saved);
	if (fclose(f) || err) {
		tw_err("%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* dir and the directories above it that are missing. */
static int mkdir_p(const char *dir)
{
	char path[4096], *p;

	snprintf(path, sizeof(path), "%s", dir);
	for (p = path + 1; ; p++) {
		bool last = !*p;

		if (*p != '/' && !last)
			continue;
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST) {
			tw_err("%s: %s", path, strerror(errno));
			return -1;
		}
		if (last)
			return 0;
		*p = '/';
	}
}

static int write_records(const struct run *r, const struct counters *ctr,
			 const char *stop)
{
	const char *dir = r->o->outdir;
	char path[4096];

	if (mkdir_p(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/events.csv", dir);
	if (write_events(r, path))
		return -1;
	snprintf(path, sizeof(path), "%s/run.json", dir);
	return write_run_json(r, path, ctr, stop);
}

/* The summary on stdout: text, or JSON with -j. */
static void print_summary(const struct run *r, const char *stop)
{
	print_init(r->o->json, false);
	print_string("outdir", r->o->outdir);
	print_string("stop", stop);
	print_u64("sent", rows_sent(r));
	print_u64("rows", r->tr.n);
	print_double("sent_pps", sent_pps(r));
	print_u64("received", atomic_load(&r->rx_n));
	print_uint("socket_drops", r->rx_stats.tp_drops);
	print_u64("no_record", r->rx_lost);
	print_finish();
}

/* --- options ---------------------------------------------------------- */

enum {
	OPT_DRAIN = 256, OPT_CPU, OPT_RX_CPU, OPT_FIFO, OPT_LABEL,
	OPT_COUNTERS, OPT_COUNTERS_CMD, OPT_SIMULATE, OPT_FRAMES, OPT_PACE,
	OPT_REFUSED,
};

static const struct option long_opts[] = {
	{ "interface", required_argument, NULL, 'i' },
	{ "sink", required_argument, NULL, 'I' },
	{ "forwarder", required_argument, NULL, 'd' },
	{ "outdir", required_argument, NULL, 'o' },
	{ "rate", required_argument, NULL, 'r' },
	{ "burst", required_argument, NULL, 'b' },
	{ "trace", required_argument, NULL, 't' },
	{ "users", required_argument, NULL, 'u' },
	{ "cdr", required_argument, NULL, 'c' },
	{ "seed", required_argument, NULL, 's' },
	{ "rows", required_argument, NULL, 'n' },
	{ "drain", required_argument, NULL, OPT_DRAIN },
	{ "cpu", required_argument, NULL, OPT_CPU },
	{ "rx-cpu", required_argument, NULL, OPT_RX_CPU },
	{ "fifo", required_argument, NULL, OPT_FIFO },
	{ "label", required_argument, NULL, OPT_LABEL },
	{ "counters", required_argument, NULL, OPT_COUNTERS },
	{ "counters-cmd", required_argument, NULL, OPT_COUNTERS_CMD },
	{ "simulate", no_argument, NULL, OPT_SIMULATE },
	{ "frames", required_argument, NULL, OPT_FRAMES },
	{ "pace", required_argument, NULL, OPT_PACE },
	{ "refused", required_argument, NULL, OPT_REFUSED },
	{ "json", no_argument, NULL, 'j' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: tw-tfib-source -i IFNAME -d FWD_MAC -o OUTDIR [-I SINK_IFNAME]\n"
		"                     [-r RATE] [-b BURST] [-t TRACE | -u USERS -c CDR -s SEED -n ROWS]\n"
		"                     [--drain MS] [--cpu N] [--rx-cpu N] [--fifo PRIO]\n"
		"                     [--pace sendmmsg|omware] [--refused retry|lost]\n"
		"                     [--label KEY=VALUE]... [--counters FILE | --counters-cmd CMD]\n"
		"                     [-j] [-q]\n"
		"       tw-tfib-source --simulate -o OUTDIR [--frames FILE] [...]\n"
		"  -i, --interface IFNAME   send the trace on IFNAME\n"
		"  -I, --sink IFNAME        receive the forwarded app updates here (default: -i)\n"
		"  -d, --forwarder MAC      the forwarder's MAC: the updates' destination\n"
		"  -o, --outdir DIR         write DIR/events.csv and DIR/run.json at the end\n"
		"  -r, --rate PPS           token bucket rate R (default 10000)\n"
		"  -b, --burst B            at most B packets per opportunity (default 32)\n"
		"  -t, --trace FILE         a tw-tfib-trace file, binary or CSV\n"
		"  -u, --users N            generated trace: users, Zipf(1) (default 1000)\n"
		"  -c, --cdr CDR            generated trace: control/data rows (default 0.01)\n"
		"  -s, --seed SEED          generated trace: seed (default 1)\n"
		"  -n, --rows N             generated trace: rows (default 100000)\n"
		"      --drain MS           wait MS after the last send for stragglers (default 200)\n"
		"      --cpu N              pin the sender to CPU N (default: the CPU it starts on)\n"
		"      --rx-cpu N           pin the receiver to CPU N (default: not pinned)\n"
		"      --fifo PRIO          run both threads SCHED_FIFO at PRIO\n"
		"      --pace HOW           sendmmsg (default): the sender sends what the bucket\n"
		"                           admits when it looks; omware: omware.ko sends each\n"
		"                           frame at the time the bucket plans for it\n"
		"      --refused HOW        a frame the device refuses: retry (default), its\n"
		"                           token kept; lost: counted sent, as a wire loses it\n"
		"      --label KEY=VALUE    add a field to run.json (sync=rcu, fwd=inline, ...)\n"
		"      --counters FILE      the forwarder's counter deltas, \"name value\" lines,\n"
		"                           read when the run ends, into run.json\n"
		"      --counters-cmd CMD   run CMD before and after the run; it prints counters\n"
		"                           as \"name value\" lines; run.json gets after - before\n"
		"      --simulate           no network: a stand-in forwarder answers from memory\n"
		"      --frames FILE        with --simulate: write every frame sent, 60 bytes each\n"
		"  -j, --json               summary on stdout as JSON\n"
		"  -q, --quiet              no progress on stderr\n"
		"SIGINT or SIGTERM end the run early; what was sent and received is written.\n");
}

/* KEY=VALUE with KEY of [a-z0-9_], not a field the tool writes itself. */
static int check_label(const char *s)
{
	static const char *const own[] = {
		"rate_pps", "burst", "cdr", "users", "seed", "trace", "rows",
		"interface", "sink_interface", "forwarder_mac", "sink_mac",
		"source_mac", "tx", "clock", "start_ns", "send_end_ns", "end_ns", "drain_ms",
		"stop", "sent_pps", "packets_sent", "control_sent",
		"packets_received", "rx_other", "rx_no_record",
		"rx_socket_drops", "tx_short", "counters", "tx_dropped",
		"tx_unreported", "omware_late_ns", "omware_late_over",
		"omware_late_threshold_ns", "cpu_busy_permille",
		"tx_sndbuf_bytes", "tx_refused_policy", "tx_refused",
	};
	size_t klen = strcspn(s, "="), i;

	for (i = 0; i < klen; i++)
		if (!islower((unsigned char)s[i]) &&
		    !isdigit((unsigned char)s[i]) && s[i] != '_')
			break;
	if (!klen || i < klen || !s[klen] || klen >= NAME_LEN) {
		tw_err("--label takes KEY=VALUE with KEY of a-z, 0-9 and _, not \"%s\"",
		       s);
		return -1;
	}
	for (i = 0; i < ARRAY_SIZE(own); i++)
		if (strlen(own[i]) == klen && !strncmp(s, own[i], klen)) {
			tw_err("--label %.*s: run.json has that field already",
			       (int)klen, s);
			return -1;
		}
	return 0;
}

static int opt_u32(const char *opt, const char *s, uint32_t *val,
		   uint64_t min, uint64_t max)
{
	uint64_t v;

	if (tfib_opt_u64(opt, s, &v, min, max))
		return -1;
	*val = (uint32_t)v;
	return 0;
}

static int opt_cpu(const char *opt, const char *s, int *cpu)
{
	uint32_t v;

	if (opt_u32(opt, s, &v, 0, CPU_SETSIZE - 1))
		return -1;
	*cpu = (int)v;
	return 0;
}

/* The options that take a name: interface, file, directory, command. */
static const struct {
	int opt;
	size_t off;
} name_opts[] = {
	{ 'i', offsetof(struct src_opts, ifname) },
	{ 'I', offsetof(struct src_opts, sink_ifname) },
	{ 'o', offsetof(struct src_opts, outdir) },
	{ 't', offsetof(struct src_opts, trace_path) },
	{ OPT_COUNTERS, offsetof(struct src_opts, counters_path) },
	{ OPT_COUNTERS_CMD, offsetof(struct src_opts, counters_cmd) },
	{ OPT_FRAMES, offsetof(struct src_opts, frames_path) },
};

static bool parse_name(struct src_opts *o, int opt, const char *arg)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(name_opts); i++) {
		if (name_opts[i].opt == opt) {
			*(const char **)((char *)o + name_opts[i].off) = arg;
			return true;
		}
	}
	return false;
}

/* The generated trace's options. */
static int parse_gen(struct src_opts *o, int opt, const char *arg)
{
	uint64_t v;

	o->gen_given = true;
	switch (opt) {
	case 'u':
		return opt_u32("-u", arg, &o->gen.users, 1, TW_AOI_MAX_USERS);
	case 'c':
		return tfib_opt_cdr("-c", arg, &o->gen.cdr);
	case 'n':
		return tfib_opt_u64("-n", arg, &o->rows, 1, UINT32_MAX);
	}
	if (tfib_opt_u64("-s", arg, &v, 0, UINT64_MAX))
		return -1;
	o->gen.seed = v;
	return 0;
}

static int parse_label(struct src_opts *o, const char *arg)
{
	if (o->nlabels == MAX_LABELS) {
		tw_err("at most %d --label", MAX_LABELS);
		return -1;
	}
	o->labels[o->nlabels++] = arg;
	return check_label(arg);
}

static int parse_pace(struct src_opts *o, const char *arg)
{
	o->pace_omware = !strcmp(arg, "omware");
	if (o->pace_omware || !strcmp(arg, "sendmmsg"))
		return 0;
	tw_err("--pace takes sendmmsg or omware, not \"%s\"", arg);
	return -1;
}

static int parse_refused(struct src_opts *o, const char *arg)
{
	o->refused_lost = !strcmp(arg, "lost");
	if (o->refused_lost || !strcmp(arg, "retry"))
		return 0;
	tw_err("--refused takes retry or lost, not \"%s\"", arg);
	return -1;
}

static int parse_one(struct src_opts *o, int opt, const char *arg)
{
	if (parse_name(o, opt, arg))
		return 0;
	switch (opt) {
	case OPT_SIMULATE:
		o->simulate = true;
		return 0;
	case 'j':
		o->json = true;
		return 0;
	case 'q':
		o->quiet = true;
		return 0;
	case 'd':
		o->have_mac = !tw_parse_mac(arg, o->fwd_mac);
		if (!o->have_mac)
			tw_err("-d takes the forwarder's MAC, aa:bb:cc:dd:ee:ff, not \"%s\"",
			       arg);
		return o->have_mac ? 0 : -1;
	case 'r':
		return opt_u32("-r", arg, &o->rate, 1, UINT32_MAX);
	case 'b':
		return opt_u32("-b", arg, &o->burst, 1, MAX_BURST);
	case OPT_DRAIN:
		return opt_u32("--drain", arg, &o->drain_ms, 0, 3600000);
	case OPT_CPU:
		return opt_cpu("--cpu", arg, &o->tx_cpu);
	case OPT_RX_CPU:
		return opt_cpu("--rx-cpu", arg, &o->rx_cpu);
	case OPT_FIFO:
		return opt_u32("--fifo", arg, &o->fifo, 1,
			       sched_get_priority_max(SCHED_FIFO));
	case OPT_LABEL:
		return parse_label(o, arg);
	case OPT_PACE:
		return parse_pace(o, arg);
	case OPT_REFUSED:
		return parse_refused(o, arg);
	}
	return parse_gen(o, opt, arg);
}

/* What a complete command line needs; an error says what to add. */
static int check_opts(struct src_opts *o)
{
	if (!o->outdir) {
		tw_err("where should the records go? add -o OUTDIR");
		return -1;
	}
	if (o->trace_path && o->gen_given) {
		tw_err("-u, -c, -s and -n describe a generated trace: leave them out with -t FILE");
		return -1;
	}
	if (o->counters_path && o->counters_cmd) {
		tw_err("--counters and --counters-cmd both give the counters: keep one");
		return -1;
	}
	if (o->frames_path && !o->simulate) {
		tw_err("--frames writes the frames of a --simulate run only");
		return -1;
	}
	if (o->refused_lost && o->pace_omware) {
		tw_err("--refused is sendmmsg's: omware loses what the device refuses anyway");
		return -1;
	}
	if (o->simulate && o->pace_omware) {
		tw_err("--pace omware sends through the module: not with --simulate");
		return -1;
	}
	if (o->simulate) {
		if (o->ifname || o->sink_ifname) {
			tw_err("--simulate uses no interface: leave out -i and -I");
			return -1;
		}
		if (!o->have_mac)
			tw_parse_mac(SIM_FWD_MAC, o->fwd_mac);
		return 0;
	}
	if (!o->ifname || !o->have_mac) {
		tw_err("name the sending interface and the forwarder: -i IFNAME -d MAC");
		return -1;
	}
	return 0;
}

static int parse_args(int argc, char **argv, struct src_opts *o)
{
	int opt;

	while ((opt = getopt_long(argc, argv, "i:I:d:o:r:b:t:u:c:s:n:jqh",
				  long_opts, NULL)) != -1) {
		if (opt == 'h') {
			usage(stdout);
			exit(TW_EXIT_OK);
		}
		if (opt == '?') {
			fprintf(stderr, "Run tw-tfib-source -h for the options.\n");
			return -1;
		}
		if (parse_one(o, opt, optarg))
			return -1;
	}
	if (optind != argc) {
		tw_err("unexpected argument \"%s\": every input is an option (-h lists them)",
		       argv[optind]);
		return -1;
	}
	return check_opts(o);
}

/* --- the run ---------------------------------------------------------- */

static int prepare(struct run *r)
{
	const struct src_opts *o = r->o;
	struct trace *t = &r->tr;
	uint64_t data;

	if (o->trace_path ? trace_load(t, o->trace_path) : trace_generate(t, o))
		return -1;
	if (trace_number(t, o->trace_path && !t->has_seed))
		return -1;
	data = t->n - t->control;
	r->rx_cap = data + RX_SLACK;
	r->tx_ns = malloc(t->n * sizeof(*r->tx_ns));
	r->rx = malloc(r->rx_cap * sizeof(*r->rx));
	if (!r->tx_ns || !r->rx) {
		tw_err("no memory for the records of %" PRIu64 " rows", t->n);
		return -1;
	}
	/* Touched now, so the run takes no page faults on them. */
	memset(r->tx_ns, 0, t->n * sizeof(*r->tx_ns));
	memset(r->rx, 0, r->rx_cap * sizeof(*r->rx));
	if (!o->simulate)
		return open_sockets(r);
	/* One interface sends and receives, as in the usual set-up. */
	tw_parse_mac(SIM_SINK_MAC, r->sink_mac);
	memcpy(r->tx_mac, r->sink_mac, ETH_ALEN);
	tx_mac_apart(r);
	r->sim = calloc((size_t)t->users + 1, sizeof(*r->sim));
	if (!r->sim) {
		tw_err("no memory for the stand-in forwarder");
		return -1;
	}
	r->frames = o->frames_path ? fopen(o->frames_path, "wb") : NULL;
	if (o->frames_path && !r->frames) {
		tw_err("%s: %s", o->frames_path, strerror(errno));
		return -1;
	}
	return 0;
}

static void progress(const struct run *r, uint64_t now)
{
	double s = (double)(now - r->start_ns) / NSEC_PER_SEC;
	uint64_t sent = atomic_load(&r->sent);

	fprintf(stderr, PROG ": %.0f s: sent %" PRIu64 " of %" PRIu64
		" (%.0f pps), received %zu\n", s, sent, r->tr.n,
		s > 0 ? sent / s : 0.0, atomic_load(&r->rx_n));
}

/* Sender and receiver from start to the end of the drain. */
static int run_threads(struct run *r)
{
	pthread_t tx, rx;
	uint64_t next, drain = r->o->drain_ms * (uint64_t)NSEC_PER_MSEC;
	int err;

	err = pthread_create(&rx, NULL, receiver, r);
	if (err) {
		tw_err("receiver thread: %s", strerror(err));
		return -1;
	}
	while (!__atomic_load_n(&r->rx_ready, __ATOMIC_ACQUIRE))
		usleep(1000);
	r->cpu_ok = !tw_cpu_times_read(&r->cpu_start);
	r->start_ns = mono_ns();
	err = pthread_create(&tx, NULL, sender, r);
	if (err) {
		tw_err("sender thread: %s", strerror(err));
		tw_stop = true;
		atomic_store(&r->tx_done, true);
	}
	next = r->start_ns + NSEC_PER_SEC;
	while (!atomic_load(&r->tx_done)) {
		usleep(10000);
		if (!r->o->quiet && mono_ns() >= next) {
			progress(r, next);
			next += NSEC_PER_SEC;
		}
	}
	if (!err)
		pthread_join(tx, NULL);
	r->cpu_ok = r->cpu_ok && !tw_cpu_times_read(&r->cpu_end);
	/* Stragglers: until the drain ends, or at once on a signal. */
	next = mono_ns() + drain;
	while (!tw_stop && mono_ns() < next)
		usleep(1000);
	atomic_store(&r->rx_stop, true);
	pthread_join(rx, NULL);
	return 0;
}

static int run_network(struct run *r)
{
	socklen_t len = sizeof(r->rx_stats);

	r->rt_off = tw_clock_offset(CLOCK_REALTIME);
	if (run_threads(r))
		return -1;
	r->end_ns = mono_ns();
	/* Drops since the socket was opened; reading them resets them. */
	getsockopt(r->rx_fd, SOL_PACKET, PACKET_STATISTICS, &r->rx_stats,
		   &len);
	return 0;
}

/* Every user's entry as the caller would set it before a run. */
static void sim_fill(struct run *r)
{
	uint32_t u;

	for (u = 0; u <= r->tr.users; u++) {
		r->sim[u].addr_ns = r->start_ns;
		memcpy(r->sim[u].mac, r->sink_mac, ETH_ALEN);
	}
}

static int run_simulated(struct run *r)
{
	struct tx_batch *b = malloc(sizeof(*b));

	if (!b) {
		tw_err("no memory");
		return -1;
	}
	tx_batch_init(b, r);
	r->start_ns = mono_ns();
	sim_fill(r);
	send_trace(r, b);
	free(b);
	r->end_ns = r->send_end_ns + SIM_DELAY_NS;
	if (r->frames && fclose(r->frames)) {
		tw_err("%s: %s", r->o->frames_path, strerror(errno));
		return -1;
	}
	return r->tx_err ? -1 : 0;
}

/* Why the run ended: done, signal, error, or dropped (omware's). */
static const char *run_stop(const struct run *r)
{
	if (r->tx_err || r->pace_ret)
		return "error";
	if (atomic_load(&r->sent) < r->tr.n)
		return "signal";
	/* omware had every row; some did not leave, cancelled by a signal? */
	if (r->pace.dropped)
		return tw_stop ? "signal" : "dropped";
	return "done";
}

static int read_counters_file(const char *path, struct counters *c)
{
	FILE *f = fopen(path, "r");
	int err;

	if (!f) {
		tw_err("--counters %s: %s", path, strerror(errno));
		return -1;
	}
	err = counters_read(f, path, c);
	fclose(f);
	return err;
}

int main(int argc, char **argv)
{
	struct src_opts o = {
		.rate = 10000, .burst = 32, .rows = 100000, .drain_ms = 200,
		.gen = { .users = 1000, .cdr = TW_AOI_CDR_ONE / 100, .seed = 1 },
		.tx_cpu = -1, .rx_cpu = -1,
	};
	static struct run r;
	static struct counters before, after;
	bool have_counters = false;
	const char *stop;

	if (parse_args(argc, argv, &o))
		return TW_EXIT_FAIL;
	if (o.tx_cpu < 0)
		o.tx_cpu = sched_getcpu();
	r.o = &o;
	if (prepare(&r))
		return TW_EXIT_SYS;
	tw_stop_on_signals();
	if (o.counters_cmd && counters_run(o.counters_cmd, &before))
		return TW_EXIT_SYS;
	if (o.simulate ? run_simulated(&r) : run_network(&r))
		return TW_EXIT_SYS;
	/* omware's reason was printed where it failed. */
	if (r.pace_ret)
		tw_err("sending on %s through omware stopped: %" PRIu64
		       " of %" PRIu64 " rows sent", o.ifname, rows_sent(&r),
		       r.tr.n);
	else if (r.tx_err)
		tw_err("sending on %s: %s", o.ifname, strerror(r.tx_err));
	stop = run_stop(&r);
	if (o.counters_cmd) {
		have_counters = !counters_run(o.counters_cmd, &after);
		counters_delta(&after, &before);
	} else if (o.counters_path) {
		have_counters = !read_counters_file(o.counters_path, &after);
	}
	if (write_records(&r, have_counters ? &after : NULL, stop))
		return TW_EXIT_SYS;
	print_summary(&r, stop);
	if (r.rx_stats.tp_drops || r.rx_lost)
		tw_warn("%u frames dropped by the receive socket, %" PRIu64
			" without a record: counted in run.json",
			r.rx_stats.tp_drops, r.rx_lost);
	if (r.pace_ret)
		return r.pace_ret;
	if (r.tx_err || ((o.counters_cmd || o.counters_path) && !have_counters))
		return TW_EXIT_SYS;
	return strcmp(stop, "done") ? TW_EXIT_PARTIAL : TW_EXIT_OK;
}
