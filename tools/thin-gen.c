// SPDX-License-Identifier: GPL-2.0-or-later
/* thin-gen: thin-stream traffic generator and sink for SCTP and TCP.
 *
 *   thin-gen sink --proto sctp|tcp --listen ADDR:PORT [--ports N]
 *		   [--log FILE] [--sack-delay-off] [--duration S] [--expect N]
 *   thin-gen send --proto sctp|tcp --connect ADDR:PORT [--assocs N]
 *		   [--style one-to-one|one-to-many] [--size BYTES]
 *		   [--interval MS] [--dist fixed|exp|pareto] [--profile NAME]
 *		   --duration S [--log FILE] [--nodelay] [--thin FLAGS]
 *		   [--thin-strict] [--thin-rto-min MS] [--thin-linear-max N]
 *		   [--rto-min MS] [--tcp-thin] [--sack-immediately]
 *		   [--seed N] [--connectx ADDR[,ADDR...]] [--events FILE]
 *		   [--heartbeat-usr1]
 *   thin-gen profile-stats --profile NAME|all [--samples N] [--check PCT]
 *   thin-gen profiles
 *
 * Every message starts with a 16-byte header: total length (u16),
 * association index (u16), sequence number (u32, per association, from
 * 0) and the send time (u64, CLOCK_REALTIME ns).  Sender and sink run in
 * network namespaces of one machine, so their clocks agree and
 * recv_ns - send_ns is the application-layer latency, head-of-line
 * blocking included.  The rest of the payload is a pattern that the sink
 * checks.  Messages shorter than the header are sent as 16 bytes.
 *
 * The sender drives every association from one poll loop with one
 * timerfd.  Each association has an absolute schedule (next due time +=
 * interval), so the schedule does not drift; a late wake-up sends every
 * message that is due and the lag is reported.  --duration bounds the
 * sending; afterwards the sender waits (at most --drain seconds) until
 * every message is acknowledged, then closes.  The sink exits when every
 * accepted connection has closed (after --expect connections), or after
 * --duration.
 *
 * One-to-many: one SCTP socket carries N associations.  An association is
 * identified by its address pair, so association i goes to PORT + i; run
 * the sink with --ports N.  Sends carry an SCTP_SNDINFO cmsg.
 * --sack-immediately: every message asks for an immediate SACK
 * (SCTP_SACK_IMMEDIATELY in snd_flags, RFC 7053, RFC 6458 5.3.4), what an
 * application can do on a stock kernel.
 *
 * Logs, one line per message: sender "assoc seq size send_ns", sink
 * "assoc seq size send_ns recv_ns" in arrival order.  Lines starting with
 * '#' are comments.  Summaries go to stdout at exit, progress to stderr.
 *
 * Multi-homing: --connectx ADDR,... sets every association up with
 * sctp_connectx() to the --connect address and these (same port), so the
 * peer's addresses are known from the start (Linux confirms them without
 * a heartbeat).  --events FILE subscribes to SCTP_ASSOC_CHANGE and
 * SCTP_PEER_ADDR_CHANGE and logs each notification when the sender reads
 * it (it polls every socket for them): "t_ns assoc kind state addr error",
 * t_ns CLOCK_REALTIME, kind "assoc" (state COMM_UP, COMM_LOST, ...) or
 * "paddr" (state AVAILABLE, UNREACHABLE, PF, CONFIRMED, ..., addr the
 * peer's address).  A potentially-failed path is reported only with
 * net.sctp.pf_expose = 2.
 *
 * --heartbeat-usr1: SIGUSR1 asks every association for a heartbeat on
 * each of its paths at once (SCTP_PEER_ADDR_PARAMS with SPP_HB_DEMAND,
 * RFC 6458 8.1.12): a test makes a heartbeat outstanding when it wants.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>
#include <linux/sctp.h>
#include <linux/sctp_thin.h>
#include <linux/sockios.h>

#define THIN_PROG "thin-gen"
#include "thin-util.h"

#define HDR_LEN		16
#define MAX_MSG		65535
#define MAX_ASSOCS	16384
#define MAX_PORTS	16384

enum { P_SCTP, P_TCP };
enum { D_FIXED, D_EXP, D_PARETO, D_PROFILE };

static const char *const dist_names[] = { "fixed", "exp", "pareto", "profile" };

static void warnx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("thin-gen: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* ------------------------------------------------------------------ */
/* Profiles: Table 1 of Petlund et al. 2009 (and of NetGames 2008).
 *
 * Table 1 gives, per application, payload size avg/min/max and packet
 * interarrival time avg/median/min/max/1st/99th percentile.  A profile
 * draws sizes and intervals independently (no autocorrelation) from a
 * quantile function Q(u), u uniform in (0, 1), that passes through the
 * table's points ("knots"): (0, min), (0.01, p1), (0.5, median),
 * (0.99, p99), (1, max) for intervals, (0, min), (1, max) for sizes.
 * Between knots a and b, Q interpolates geometrically with a warp:
 * Q = a (b/a)^(t^g), t the position in the segment.  g is one number per
 * quantile function, fitted by bisection so that the mean matches the
 * table's average; g > 1 concentrates mass at the lower knot of each
 * segment.  The outer 1 % segments of the interval Q use max(g, 1).
 * So avg, min, max, 1%, median and 99% all match (up to sampling), the
 * shape in between is an assumption.  "< 1 ms" in the
 * table is taken as 0.5 ms.
 */
#define LT1	0.5

struct knot {
	double p, v;
};

struct qfun {
	int n;
	struct knot k[12];
	double g;
};

struct profile {
	const char *name, *title, *note;
	double size_avg, size_min, size_max;
	double iat_avg, iat_med, iat_min, iat_max, iat_p1, iat_p99;
	double pps, bps;
	int nextra;
	struct knot extra[4];	/* extra interval knots (model assumptions) */
};

static const struct profile profiles[] = {
	{ "anarchy-online", "Anarchy Online (MMORPG)", "Table 1",
	  98, 8, 1333, 632, 449, 7, 17032, 83, 4195, 1.582, 2168,
	  0, { { 0, 0 } } },
	{ "wow", "World of Warcraft (MMORPG)", "Table 1",
	  26, 6, 1228, 314, 133, LT1, 14855, LT1, 3785, 3.185, 2046,
	  0, { { 0, 0 } } },
	/* Age of Conan and BZFlag are not in this paper's Table 1: their
	 * rows are Table 1 of Petlund et al., NetGames 2008 (in
	 * ../shared/papers), whose "0" ms entries we read as "< 1".
	 */
	{ "age-of-conan", "Age of Conan (MMORPG)", "NetGames 2008, Table 1",
	  80, 5, 1460, 86, 57, LT1, 1375, 24, 386, 11.628, 12375,
	  0, { { 0, 0 } } },
	{ "bzflag", "BZFlag (FPS)", "NetGames 2008, Table 1",
	  30, 4, 1448, 24, LT1, LT1, 540, LT1, 151, 41.667, 31370,
	  0, { { 0, 0 } } },
	{ "skype", "Skype (2 users)", "Table 1",
	  236, 14, 1267, 34, 40, LT1, 1671, 4, 80, 29.412, 69000,
	  0, { { 0, 0 } } },
	{ "ssh", "SSH text session", "Table 1",
	  48, 16, 752, 323, 159, LT1, 76610, 32, 3616, 3.096, 2825,
	  0, { { 0, 0 } } },
	{ "rdp", "Remote Desktop (RDP)", "Table 1",
	  111, 8, 1417, 318, 159, 1, 12254, 2, 3892, 3.145, 4497,
	  0, { { 0, 0 } } },
	/* Casa: per the paper's text, a burst of 4 packets ~305 ms apart
	 * every 30 s: 3/4 of the intervals are ~305 ms, 1/4 are ~29 s.  The
	 * knots at 0.745 and 0.755 put that step into Q.
	 */
	{ "casa", "Casa (sensor network)", "Table 1; burst step at u=0.75 from the paper's text",
	  175, 93, 572, 7287, 307, 305, 29898, 305, 29898, 0.137, 269,
	  2, { { 0.745, 309 }, { 0.755, 27000 } } },
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define NPROFILES ARRAY_SIZE(profiles)

static const struct profile *profile_find(const char *name)
{
	size_t i;

	for (i = 0; i < NPROFILES; i++)
		if (!strcmp(profiles[i].name, name))
			return &profiles[i];
	return NULL;
}

static double seg_eval(double a, double b, double t, double g)
{
	if (a == b || t <= 0)
		return a;
	if (t >= 1)
		return b;
	return a * pow(b / a, pow(t, g));
}

/* The outer segments of a multi-segment Q (below 1 %, above 99 %) are
 * not warped towards their upper end (g < 1): that makes Q jump right
 * after the knot, so that the 1 % and 99 % points would move with every
 * sampling fluctuation.
 */
static double seg_g(const struct qfun *q, int i, double g)
{
	return q->n > 2 && (i == 0 || i == q->n - 2) && g < 1 ? 1 : g;
}

static double q_eval(const struct qfun *q, double u)
{
	int i;

	for (i = 0; i < q->n - 2 && u > q->k[i + 1].p; i++)
		;
	return seg_eval(q->k[i].v, q->k[i + 1].v,
			(u - q->k[i].p) / (q->k[i + 1].p - q->k[i].p),
			seg_g(q, i, q->g));
}

/* E[Q(U)] by the midpoint rule, per segment */
static double q_mean(const struct qfun *q, double g)
{
	const int m = 400;
	double sum = 0, s;
	int i, j;

	for (i = 0; i < q->n - 1; i++) {
		s = 0;
		for (j = 0; j < m; j++)
			s += seg_eval(q->k[i].v, q->k[i + 1].v, (j + 0.5) / m,
				      seg_g(q, i, g));
		sum += s / m * (q->k[i + 1].p - q->k[i].p);
	}
	return sum;
}

/* The mean falls as g grows: bisect log(g) in [-8, 8]. */
static void q_fit(struct qfun *q, double mean)
{
	double lo = -8, hi = 8, mid;
	int i;

	for (i = 0; i < 40; i++) {
		mid = (lo + hi) / 2;
		if (q_mean(q, exp(mid)) > mean)
			lo = mid;
		else
			hi = mid;
	}
	q->g = exp((lo + hi) / 2);
}

static void q_add(struct qfun *q, double p, double v)
{
	int i = q->n++;

	while (i > 0 && q->k[i - 1].p > p) {
		q->k[i] = q->k[i - 1];
		i--;
	}
	q->k[i].p = p;
	q->k[i].v = v;
}

static void profile_build(const struct profile *pr, struct qfun *size,
			  struct qfun *iat)
{
	int i;

	memset(size, 0, sizeof(*size));
	memset(iat, 0, sizeof(*iat));
	q_add(size, 0, pr->size_min);
	q_add(size, 1, pr->size_max);
	q_fit(size, pr->size_avg);
	q_add(iat, 0, pr->iat_min);
	q_add(iat, 0.01, pr->iat_p1);
	q_add(iat, 0.5, pr->iat_med);
	q_add(iat, 0.99, pr->iat_p99);
	q_add(iat, 1, pr->iat_max);
	for (i = 0; i < pr->nextra; i++)
		q_add(iat, pr->extra[i].p, pr->extra[i].v);
	q_fit(iat, pr->iat_avg);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double pct(const double *v, size_t n, double p)
{
	return v[(size_t)(p * (n - 1) + 0.5)];
}

struct stat_row {
	const char *what;
	double table, got;
	int check;	/* 1: relative, 2: "< 1" in the table, 3: rank */
	double p;	/* rank checks: the table value's quantile */
};

/* fraction of the sorted samples <= x */
static double ecdf(const double *v, size_t n, double x)
{
	size_t lo = 0, hi = n, m;

	while (lo < hi) {
		m = (lo + hi) / 2;
		if (v[m] <= x)
			lo = m + 1;
		else
			hi = m;
	}
	return (double)lo / n;
}

static int profile_stats(const struct profile *pr, long n, uint64_t seed,
			 double tol)
{
	double *sz = malloc(n * sizeof(double)), *ia = malloc(n * sizeof(double));
	double ssum = 0, isum = 0, wsum = 0, err;
	struct qfun qs, qi;
	struct stat_row r[12];
	int i, nr = 0, bad = 0;
	long j;

	if (!sz || !ia)
		die("out of memory");
	profile_build(pr, &qs, &qi);
	for (j = 0; j < n; j++) {
		sz[j] = lround(q_eval(&qs, rng_unif(&seed)));
		ia[j] = q_eval(&qi, rng_unif(&seed));
		ssum += sz[j];
		wsum += sz[j] < HDR_LEN ? HDR_LEN : sz[j];
		isum += ia[j];
	}
	qsort(sz, n, sizeof(double), cmp_double);
	qsort(ia, n, sizeof(double), cmp_double);

#define ROW(w, t, g, c, p) (r[nr++] = (struct stat_row){ w, t, g, c, p })
	ROW("size avg (bytes)", pr->size_avg, ssum / n, 1, 0);
	ROW("size min", pr->size_min, sz[0], 0, 0);
	ROW("size max", pr->size_max, sz[n - 1], 0, 0);
	ROW("interval avg (ms)", pr->iat_avg, isum / n, 1, 0);
	ROW("interval median", pr->iat_med, pct(ia, n, 0.5), 3, 0.5);
	ROW("interval min", pr->iat_min, ia[0], 0, 0);
	ROW("interval max", pr->iat_max, ia[n - 1], 0, 0);
	ROW("interval 1%", pr->iat_p1, pct(ia, n, 0.01), 3, 0.01);
	ROW("interval 99%", pr->iat_p99, pct(ia, n, 0.99), 3, 0.99);
	ROW("packets/s", pr->pps, 1000.0 / (isum / n), 0, 0);
#undef ROW
	printf("profile %s: %s\n  source: %s\n", pr->name, pr->title, pr->note);
	printf("  %-20s %10s %10s %10s\n", "", "table", "achieved", "error");
	for (i = 0; i < nr; i++) {
		char tv[32], ev[32] = "";
		double f = 0;
		int off = 0;

		if (r[i].table == LT1) {
			snprintf(tv, sizeof(tv), "<1");
			if (r[i].check)
				r[i].check = 2;
		} else {
			snprintf(tv, sizeof(tv), "%.3f", r[i].table);
		}
		err = (r[i].got - r[i].table) / r[i].table * 100;
		if (r[i].check == 1) {
			snprintf(ev, sizeof(ev), "%+.1f%%", err);
			off = fabs(err) > tol;
		} else if (r[i].check == 2) {
			off = r[i].got >= 1;
		} else if (r[i].check == 3 && (r[i].table == pr->iat_min ||
						r[i].table == pr->iat_max)) {
			/* e.g. Casa: 99 % == max, ranks say nothing */
			snprintf(ev, sizeof(ev), "%+.1f%%", err);
			off = fabs(err) > tol;
		} else if (r[i].check == 3) {
			/* percentiles: where the table's value falls in the
			 * samples (robust where Q is steep)
			 */
			f = ecdf(ia, n, r[i].table);
			snprintf(ev, sizeof(ev), "F=%.4f", f);
			off = fabs(f - r[i].p) > (r[i].p == 0.5 ? 0.01 : 0.0025);
		}
		printf("  %-20s %10s %10.3f %10s", r[i].what, tv, r[i].got, ev);
		if (tol > 0 && off) {
			printf("  <-- off");
			bad++;
		}
		printf("\n");
	}
	printf("  %-20s %10s %10.3f  (sizes below the %d-byte header are sent as %d)\n",
	       "wire size avg", "", wsum / n, HDR_LEN, HDR_LEN);
	printf("  %-20s %10.1f %10.1f  (table: with headers; achieved: payload only)\n",
	       "bits/s", pr->bps, ssum / n * 8 * 1000.0 / (isum / n));
	printf("  fit: size g=%.4f, interval g=%.4f, %ld samples\n", qs.g, qi.g, n);
	free(sz);
	free(ia);
	return bad;
}

/* ------------------------------------------------------------------ */
/* Options */

#define MAX_PHASES	16

/* --phases: the traffic changes over time (fairness part 3). */
struct phase {
	int size;
	double interval, seconds;
};

struct opts {
	int proto, one_to_many, assocs, size, dist, nodelay, sack_off;
	int nphases;
	struct phase phases[MAX_PHASES];
	const char *state_log, *ready_file, *wait_file, *events, *connectx;
	int warmup;
	int hb_usr1;
	double warmup_rate;
	double state_every;
	int thin_set, thin_strict, ports, expect, progress, tcp_thin, sack_imm;
	unsigned int thin_flags, thin_rto_min, thin_lt_max, rto_min;
	unsigned int thin_rdb_packets;
	double interval, duration, drain, pareto_shape, connect_timeout;
	const struct profile *profile;
	const char *log, *addr;
	uint64_t seed;
	long samples;
	double check;
};

static int parse_thin(const char *s, unsigned int *flags)
{
	static const struct {
		const char *name;
		unsigned int flag;
	} names[] = {
		{ "rto_min", SCTP_THIN_RTO_MIN },
		{ "restart", SCTP_THIN_RESTART_TIMER },
		{ "restart_timer", SCTP_THIN_RESTART_TIMER },
		{ "linear", SCTP_THIN_LINEAR_TIMEOUTS },
		{ "linear_timeouts", SCTP_THIN_LINEAR_TIMEOUTS },
		{ "fr", SCTP_THIN_FAST_RETRANSMIT },
		{ "fast_retransmit", SCTP_THIN_FAST_RETRANSMIT },
		{ "loss", SCTP_THIN_LOSS_ESTIMATION },
		{ "loss_estimation", SCTP_THIN_LOSS_ESTIMATION },
		{ "guard", SCTP_THIN_CONGESTION_GUARD },
		{ "congestion_guard", SCTP_THIN_CONGESTION_GUARD },
		{ "si", SCTP_THIN_SACK_IMMEDIATELY },
		{ "sack_immediately", SCTP_THIN_SACK_IMMEDIATELY },
		{ "rdb", SCTP_THIN_RDB },
		{ "all", SCTP_THIN_ALL },
		{ "none", 0 },
	};
	char buf[256], *tok, *save = NULL, *end;
	size_t i;

	*flags = strtoul(s, &end, 0);
	if (*s && !*end)
		return 0;
	*flags = 0;
	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, ",+", &save); tok; tok = strtok_r(NULL, ",+", &save)) {
		for (i = 0; i < ARRAY_SIZE(names); i++)
			if (!strcmp(tok, names[i].name))
				break;
		if (i == ARRAY_SIZE(names))
			return -1;
		*flags |= names[i].flag;
	}
	return 0;
}

static FILE *open_log(const char *path)
{
	FILE *f;

	if (!path)
		return NULL;
	f = fopen(path, "w");
	if (!f)
		die("cannot open log %s: %s", path, strerror(errno));
	setvbuf(f, NULL, _IOFBF, 1 << 20);
	return f;
}

static uint8_t pattern(uint32_t seq, size_t j)
{
	return (uint8_t)(seq * 31 + j * 7);
}

/* ------------------------------------------------------------------ */
/* Sender */

struct pend {
	uint32_t seq, size;
	uint64_t send_ns;
};

struct assoc {
	int fd;			/* own socket, or the shared one-to-many one */
	int idx, up, failed, closed_by_peer;
	sctp_assoc_t id;	/* one-to-many */
	uint32_t seq;
	uint64_t due, rng;
	struct pend *q;		/* messages waiting for send buffer space */
	unsigned int qhead, qlen, qcap;
	size_t off;		/* bytes of q[qhead] already written (TCP) */
	uint64_t msgs, bytes;
};

struct sender {
	struct opts *o;
	struct assoc *a;
	int n, shared_fd, shared_blocked;
	int *heap, nheap;
	struct qfun qsize, qiat;
	FILE *log, *state, *events;
	uint64_t lag_sum, lag_max, lag_n, late, connect_ns;
	int phase;		/* --phases: the current one */
	int greedy;		/* its interval is 0: as fast as the socket takes */
	uint64_t phase_end;	/* ns, CLOCK_MONOTONIC */
	char buf[MAX_MSG];
};

static void heap_swap(struct sender *s, int i, int j)
{
	int t = s->heap[i];

	s->heap[i] = s->heap[j];
	s->heap[j] = t;
}

static int heap_less(struct sender *s, int i, int j)
{
	return s->a[s->heap[i]].due < s->a[s->heap[j]].due;
}

static void heap_down(struct sender *s, int i)
{
	int l, m;

	for (;;) {
		l = 2 * i + 1;
		m = i;
		if (l < s->nheap && heap_less(s, l, m))
			m = l;
		if (l + 1 < s->nheap && heap_less(s, l + 1, m))
			m = l + 1;
		if (m == i)
			return;
		heap_swap(s, i, m);
		i = m;
	}
}

static void heap_push(struct sender *s, int a)
{
	int i = s->nheap++;

	s->heap[i] = a;
	while (i > 0 && heap_less(s, i, (i - 1) / 2)) {
		heap_swap(s, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
}

/* next interval in ns */
static uint64_t draw_interval(struct sender *s, struct assoc *a)
{
	double ms = s->o->interval, u = rng_unif(&a->rng), xm;

	switch (s->o->dist) {
	case D_EXP:
		ms = -s->o->interval * log(u);
		break;
	case D_PARETO:
		xm = s->o->interval * (s->o->pareto_shape - 1) / s->o->pareto_shape;
		ms = xm / pow(u, 1 / s->o->pareto_shape);
		break;
	case D_PROFILE:
		ms = q_eval(&s->qiat, u);
		break;
	}
	return (uint64_t)(ms * MSEC);
}

static uint32_t draw_size(struct sender *s, struct assoc *a)
{
	long v;

	if (s->o->dist != D_PROFILE)
		return s->o->size;
	v = lround(q_eval(&s->qsize, rng_unif(&a->rng)));
	return v < HDR_LEN ? HDR_LEN : v > MAX_MSG ? MAX_MSG : v;
}

static void build_msg(char *buf, const struct assoc *a, const struct pend *p)
{
	uint16_t len = p->size, idx = a->idx;
	uint32_t j;

	memcpy(buf, &len, 2);
	memcpy(buf + 2, &idx, 2);
	memcpy(buf + 4, &p->seq, 4);
	memcpy(buf + 8, &p->send_ns, 8);
	for (j = HDR_LEN; j < p->size; j++)
		buf[j] = pattern(p->seq, j);
}

static void assoc_fail(struct assoc *a, const char *why, int err)
{
	if (!a->failed)
		warnx("assoc %d: %s%s%s", a->idx, why, err ? ": " : "",
		      err ? strerror(err) : "");
	a->failed = 1;
	a->qlen = 0;
}

static void sender_read(struct sender *s, struct assoc *a);

/* Write as much of the assoc's queue as the socket takes.  Returns 1 if
 * the socket is full (EAGAIN).
 */
static int flush(struct sender *s, struct assoc *a)
{
	char cbuf[CMSG_SPACE(sizeof(struct sctp_sndinfo))];
	struct pend *p;
	ssize_t r;

	while (a->qlen && !a->failed) {
		p = &a->q[a->qhead];
		build_msg(s->buf, a, p);
		if (s->o->one_to_many || s->o->sack_imm) {
			struct iovec iov = { s->buf + a->off, p->size - a->off };
			struct msghdr mh = {
				.msg_iov = &iov, .msg_iovlen = 1,
				.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
			};
			struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
			struct sctp_sndinfo si = { .snd_assoc_id = a->id };

			if (s->o->sack_imm)
				si.snd_flags = SCTP_SACK_IMMEDIATELY;

			c->cmsg_level = IPPROTO_SCTP;
			c->cmsg_type = SCTP_SNDINFO;
			c->cmsg_len = CMSG_LEN(sizeof(si));
			memcpy(CMSG_DATA(c), &si, sizeof(si));
			r = sendmsg(a->fd, &mh, MSG_DONTWAIT | MSG_NOSIGNAL);
		} else {
			r = send(a->fd, s->buf + a->off, p->size - a->off,
				 MSG_DONTWAIT | MSG_NOSIGNAL);
		}
		if (r < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return 1;
			if (errno == EINTR)
				continue;
			assoc_fail(a, "send", errno);
			/* The notifications queued before the error (an
			 * abort's COMM_LOST): the socket is not polled again.
			 */
			if (!s->o->one_to_many)
				sender_read(s, a);
			return 0;
		}
		a->off += r;
		if (a->off < p->size)	/* TCP partial write */
			return 1;
		a->off = 0;
		a->qhead = (a->qhead + 1) % a->qcap;
		a->qlen--;
	}
	return 0;
}

/* A new entry at the tail of the assoc's application queue. */
static struct pend *queue_add(struct assoc *a)
{
	if (a->qlen == a->qcap) {
		unsigned int ncap = a->qcap ? a->qcap * 2 : 16, i;
		struct pend *nq = malloc(ncap * sizeof(*nq));

		if (!nq)
			die("out of memory");
		for (i = 0; i < a->qlen; i++)
			nq[i] = a->q[(a->qhead + i) % a->qcap];
		free(a->q);
		a->q = nq;
		a->qhead = 0;
		a->qcap = ncap;
	}
	a->qlen++;
	return &a->q[(a->qhead + a->qlen - 1) % a->qcap];
}

static void gen_msg(struct sender *s, struct assoc *a, uint64_t mono)
{
	struct pend *p = queue_add(a);
	uint64_t lag = mono - a->due;

	p->seq = a->seq++;
	p->size = draw_size(s, a);
	p->send_ns = now_ns(CLOCK_REALTIME);
	a->msgs++;
	a->bytes += p->size;
	s->lag_sum += lag;
	s->lag_n++;
	if (lag > s->lag_max)
		s->lag_max = lag;
	if (lag > 10 * MSEC)
		s->late++;
	if (s->log)
		fprintf(s->log, "%d %u %u %llu\n", a->idx, p->seq, p->size,
			(unsigned long long)p->send_ns);
	if (flush(s, a) && s->o->one_to_many)
		s->shared_blocked = 1;
}

static void apply_thin(struct opts *o, int fd)
{
	struct sctp_thin_params p = {
		.stp_assoc_id = SCTP_FUTURE_ASSOC,
		.stp_flags = o->thin_flags,
		.stp_rto_min = o->thin_rto_min,
		.stp_linear_timeouts_max = o->thin_lt_max,
		.stp_rdb_max_packets = o->thin_rdb_packets,
	};
	static int warned;

	if (!o->thin_set)
		return;
	if (!setsockopt(fd, IPPROTO_SCTP, SCTP_THIN, &p, sizeof(p)))
		return;
	if (errno == ENOPROTOOPT && !o->thin_strict) {
		if (!warned++)
			warnx("warning: SCTP_THIN not supported by this sctp module (ENOPROTOOPT); "
			      "continuing without thin-stream mechanisms");
		return;
	}
	die("setsockopt SCTP_THIN flags 0x%x: %s", o->thin_flags, strerror(errno));
}

static const char *const assoc_states[] = {
	[SCTP_COMM_UP] = "COMM_UP",
	[SCTP_COMM_LOST] = "COMM_LOST",
	[SCTP_RESTART] = "RESTART",
	[SCTP_SHUTDOWN_COMP] = "SHUTDOWN_COMP",
	[SCTP_CANT_STR_ASSOC] = "CANT_STR_ASSOC",
};

static const char *const paddr_states[] = {
	[SCTP_ADDR_AVAILABLE] = "AVAILABLE",
	[SCTP_ADDR_UNREACHABLE] = "UNREACHABLE",
	[SCTP_ADDR_REMOVED] = "REMOVED",
	[SCTP_ADDR_ADDED] = "ADDED",
	[SCTP_ADDR_MADE_PRIM] = "MADE_PRIM",
	[SCTP_ADDR_CONFIRMED] = "CONFIRMED",
	[SCTP_ADDR_POTENTIALLY_FAILED] = "PF",
};

static const char *state_name(const char *const *names, size_t n,
			      unsigned int v)
{
	return v < n && names[v] ? names[v] : "OTHER";
}

/* --events: one line per notification, @t_ns (CLOCK_REALTIME) when read. */
static void log_event(struct sender *s, int idx,
		      const union sctp_notification *n, uint64_t t_ns)
{
	const struct sctp_paddr_change *pc = &n->sn_paddr_change;
	const struct sctp_assoc_change *ac = &n->sn_assoc_change;
	const struct sockaddr_in6 *a6;
	const struct sockaddr_in *a4;
	char addr[INET6_ADDRSTRLEN] = "-";

	if (!s->events)
		return;
	switch (n->sn_header.sn_type) {
	case SCTP_ASSOC_CHANGE:
		fprintf(s->events, "%llu %d assoc %s - %u\n",
			(unsigned long long)t_ns, idx,
			state_name(assoc_states, ARRAY_SIZE(assoc_states),
				   ac->sac_state), ac->sac_error);
		break;
	case SCTP_PEER_ADDR_CHANGE:
		a4 = (const struct sockaddr_in *)&pc->spc_aaddr;
		a6 = (const struct sockaddr_in6 *)&pc->spc_aaddr;
		if (a4->sin_family == AF_INET)
			inet_ntop(AF_INET, &a4->sin_addr, addr, sizeof(addr));
		else if (a6->sin6_family == AF_INET6)
			inet_ntop(AF_INET6, &a6->sin6_addr, addr, sizeof(addr));
		fprintf(s->events, "%llu %d paddr %s %s %d\n",
			(unsigned long long)t_ns, idx,
			state_name(paddr_states, ARRAY_SIZE(paddr_states),
				   pc->spc_state), addr, pc->spc_error);
		break;
	}
}

/* Subscribe @fd to the notifications that --events logs. */
static void subscribe_events(int fd)
{
	static const uint16_t types[] = {
		SCTP_ASSOC_CHANGE, SCTP_PEER_ADDR_CHANGE,
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(types); i++) {
		struct sctp_event ev = {
			.se_assoc_id = SCTP_FUTURE_ASSOC,
			.se_type = types[i], .se_on = 1,
		};

		if (setsockopt(fd, IPPROTO_SCTP, SCTP_EVENT, &ev, sizeof(ev)))
			die("setsockopt SCTP_EVENT %u: %s", types[i],
			    strerror(errno));
	}
}

/* Association @i's peer addresses for sctp_connectx(), packed into @buf:
 * the --connect address, then each --connectx one, at port + @i.  Returns
 * the bytes used.
 */
static socklen_t pack_peers(struct opts *o, int i, char *buf, size_t cap)
{
	char list[1024], one[160], *tok, *save = NULL;
	struct sockaddr_storage ss;
	socklen_t len, used;
	const char *port;

	parse_addr(o->addr, i, &ss, &len);
	memcpy(buf, &ss, len);
	used = len;
	if (!o->connectx)
		return used;
	port = strrchr(o->addr, ':');
	port = port ? port + 1 : o->addr;
	if (strlen(o->connectx) >= sizeof(list))
		die("--connectx: too long");
	snprintf(list, sizeof(list), "%s", o->connectx);
	for (tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (strchr(tok, ':'))
			snprintf(one, sizeof(one), "[%s]:%s", tok, port);
		else
			snprintf(one, sizeof(one), "%s:%s", tok, port);
		parse_addr(one, i, &ss, &len);
		if (used + len > cap)
			die("--connectx: too many addresses");
		memcpy(buf + used, &ss, len);
		used += len;
	}
	return used;
}

static int new_socket(struct opts *o, int family)
{
	int one = 1, fd;

	if (o->proto == P_TCP)
		fd = socket(family, SOCK_STREAM, IPPROTO_TCP);
	else
		fd = socket(family, o->one_to_many ? SOCK_SEQPACKET : SOCK_STREAM,
			    IPPROTO_SCTP);
	if (fd < 0)
		die("socket: %s%s", strerror(errno),
		    o->proto == P_SCTP ? " (is the sctp module loaded?)" : "");
	if (o->nodelay) {
		int r;

		if (o->proto == P_TCP)
			r = setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		else
			r = setsockopt(fd, IPPROTO_SCTP, SCTP_NODELAY, &one, sizeof(one));
		if (r)
			die("setsockopt NODELAY: %s", strerror(errno));
	}
	if (o->proto == P_SCTP && o->rto_min) {
		/* RTO.Min of this socket's associations (RFC 6458 8.1.1) */
		struct sctp_rtoinfo ri = { .srto_min = o->rto_min };

		if (setsockopt(fd, IPPROTO_SCTP, SCTP_RTOINFO, &ri, sizeof(ri)))
			die("setsockopt SCTP_RTOINFO min %u: %s", o->rto_min, strerror(errno));
	}
	if (o->proto == P_TCP && o->tcp_thin &&
	    setsockopt(fd, IPPROTO_TCP, TCP_THIN_LINEAR_TIMEOUTS, &one, sizeof(one)))
		die("setsockopt TCP_THIN_LINEAR_TIMEOUTS: %s", strerror(errno));
	if (o->proto == P_SCTP)
		apply_thin(o, fd);
	if (o->proto == P_SCTP && o->events)
		subscribe_events(fd);
	set_nonblock(fd);
	return fd;
}

/* One-to-many: read notifications, mark associations up/down. */
static void read_notifications(struct sender *s)
{
	union {
		union sctp_notification n;
		char b[4096];
	} u;
	struct sctp_assoc_change *ac;
	struct iovec iov = { &u, sizeof(u) };
	struct msghdr mh;
	sctp_assoc_t id;
	uint64_t t;
	ssize_t r;
	int i;

	for (;;) {
		memset(&mh, 0, sizeof(mh));
		mh.msg_iov = &iov;
		mh.msg_iovlen = 1;
		r = recvmsg(s->shared_fd, &mh, MSG_DONTWAIT);
		t = now_ns(CLOCK_REALTIME);
		if (r <= 0)
			return;
		if (!(mh.msg_flags & MSG_NOTIFICATION))
			continue;
		ac = &u.n.sn_assoc_change;
		id = u.n.sn_header.sn_type == SCTP_PEER_ADDR_CHANGE ?
		     u.n.sn_paddr_change.spc_assoc_id : ac->sac_assoc_id;
		for (i = 0; i < s->n; i++)
			if (s->a[i].id == id)
				break;
		if (i == s->n)
			continue;
		log_event(s, i, &u.n, t);
		if (u.n.sn_header.sn_type != SCTP_ASSOC_CHANGE)
			continue;
		switch (ac->sac_state) {
		case SCTP_COMM_UP:
			s->a[i].up = 1;
			break;
		case SCTP_COMM_LOST:
			assoc_fail(&s->a[i], "association lost", 0);
			break;
		case SCTP_CANT_STR_ASSOC:
			assoc_fail(&s->a[i], "cannot start association", 0);
			break;
		case SCTP_SHUTDOWN_COMP:
			s->a[i].closed_by_peer = 1;
			if (!stop)
				assoc_fail(&s->a[i], "peer shut down", 0);
			break;
		}
	}
}

/* One-to-one: read what the socket has.  The peer sends no data; with
 * --events the notifications are logged, stamped when read.  After an
 * error (SO_ERROR already read) the queued notifications, COMM_LOST among
 * them, still come before the end of the stream.
 */
static void sender_read(struct sender *s, struct assoc *a)
{
	union {
		union sctp_notification n;
		char b[4096];
	} u;
	struct iovec iov = { &u, sizeof(u) };
	struct msghdr mh;
	uint64_t t;
	ssize_t r;

	for (;;) {
		memset(&mh, 0, sizeof(mh));
		mh.msg_iov = &iov;
		mh.msg_iovlen = 1;
		r = recvmsg(a->fd, &mh, MSG_DONTWAIT);
		t = now_ns(CLOCK_REALTIME);
		if (r > 0) {
			if (mh.msg_flags & MSG_NOTIFICATION)
				log_event(s, a->idx, &u.n, t);
			continue;
		}
		if (r == 0) {
			assoc_fail(a, "peer closed the connection", 0);
			return;
		}
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			assoc_fail(a, "recv", errno);
		return;
	}
}

static void sender_connect(struct sender *s)
{
	char peers[16 * sizeof(struct sockaddr_in6)];
	struct opts *o = s->o;
	struct sockaddr_storage ss;
	struct pollfd *pfd;
	uint64_t deadline;
	socklen_t len;
	int i, up, err;

	if (o->one_to_many) {
		struct sctp_event ev = {
			.se_assoc_id = SCTP_FUTURE_ASSOC,
			.se_type = SCTP_ASSOC_CHANGE, .se_on = 1,
		};

		parse_addr(o->addr, 0, &ss, &len);
		s->shared_fd = new_socket(o, ss.ss_family);
		if (setsockopt(s->shared_fd, IPPROTO_SCTP, SCTP_EVENT, &ev, sizeof(ev)))
			die("setsockopt SCTP_EVENT: %s", strerror(errno));
		for (i = 0; i < s->n; i++) {
			struct sctp_getaddrs_old cx;
			socklen_t cl = sizeof(cx);

			memset(&cx, 0, sizeof(cx));
			cx.addr_num = pack_peers(o, i, peers, sizeof(peers));
			cx.addrs = (struct sockaddr *)peers;
			s->a[i].fd = s->shared_fd;
			if (getsockopt(s->shared_fd, IPPROTO_SCTP, SCTP_SOCKOPT_CONNECTX3,
				       &cx, &cl) && errno != EINPROGRESS)
				die("sctp_connectx to port +%d: %s", i, strerror(errno));
			s->a[i].id = cx.assoc_id;
		}
	} else {
		for (i = 0; i < s->n; i++) {
			parse_addr(o->addr, 0, &ss, &len);
			s->a[i].fd = new_socket(o, ss.ss_family);
			if (o->connectx && o->proto == P_SCTP) {
				len = pack_peers(o, 0, peers, sizeof(peers));
				if (setsockopt(s->a[i].fd, IPPROTO_SCTP,
					       SCTP_SOCKOPT_CONNECTX, peers,
					       len) < 0 &&
				    errno != EINPROGRESS)
					die("sctp_connectx %s,%s: %s", o->addr,
					    o->connectx, strerror(errno));
				continue;
			}
			if (connect(s->a[i].fd, (struct sockaddr *)&ss, len) &&
			    errno != EINPROGRESS)
				die("connect %s: %s", o->addr, strerror(errno));
		}
	}

	pfd = calloc(s->n + 1, sizeof(*pfd));
	if (!pfd)
		die("out of memory");
	deadline = now_ns(CLOCK_MONOTONIC) + (uint64_t)(o->connect_timeout * NSEC);
	for (;;) {
		int np = 0;

		up = 0;
		for (i = 0; i < s->n; i++)
			up += s->a[i].up || s->a[i].failed;
		if (up == s->n || stop)
			break;
		if (now_ns(CLOCK_MONOTONIC) > deadline)
			die("connect: only %d of %d associations up after %.0f s", up,
			    s->n, o->connect_timeout);
		if (o->one_to_many) {
			pfd[np++] = (struct pollfd){ s->shared_fd, POLLIN, 0 };
		} else {
			for (i = 0; i < s->n; i++)
				if (!s->a[i].up && !s->a[i].failed)
					pfd[np++] = (struct pollfd){ s->a[i].fd, POLLOUT, 0 };
		}
		if (poll(pfd, np, 100) < 0 && errno != EINTR)
			die("poll: %s", strerror(errno));
		if (o->one_to_many) {
			read_notifications(s);
			continue;
		}
		for (i = 0; i < np; i++) {
			struct assoc *a;
			socklen_t el = sizeof(err);
			int k;

			if (!pfd[i].revents)
				continue;
			for (k = 0; s->a[k].fd != pfd[i].fd; k++)
				;
			a = &s->a[k];
			err = 0;
			getsockopt(a->fd, SOL_SOCKET, SO_ERROR, &err, &el);
			if (err)
				die("connect %s (assoc %d): %s", o->addr, k, strerror(err));
			a->up = 1;
		}
	}
	for (i = 0; i < s->n; i++)
		if (s->a[i].failed)
			die("association %d could not be established", i);
	free(pfd);
}

/* --heartbeat-usr1: set by SIGUSR1, served by the send loop. */
static volatile sig_atomic_t hb_wanted;

static void on_usr1(int sig)
{
	(void)sig;
	hb_wanted = 1;
}

/* A heartbeat on every path of every association now (SPP_HB_DEMAND on
 * the association applies to each of its paths).
 */
static void demand_heartbeats(struct sender *s)
{
	struct sctp_paddrparams pp;
	int i;

	hb_wanted = 0;
	for (i = 0; i < s->n; i++) {
		if (s->a[i].failed)
			continue;
		memset(&pp, 0, sizeof(pp));
		pp.spp_flags = SPP_HB_DEMAND;
		pp.spp_assoc_id = s->o->one_to_many ? s->a[i].id : 0;
		if (setsockopt(s->a[i].fd, IPPROTO_SCTP, SCTP_PEER_ADDR_PARAMS,
			       &pp, sizeof(pp)))
			warnx("assoc %d: heartbeat demand: %s", i, strerror(errno));
	}
}

/* --wait-file: no traffic until the sink has accepted every connection
 * (it creates the file); notifications are read meanwhile.
 */
static void wait_for_file(struct sender *s)
{
	uint64_t deadline = now_ns(CLOCK_MONOTONIC) +
			    (uint64_t)(s->o->connect_timeout * NSEC);

	while (access(s->o->wait_file, F_OK)) {
		if (now_ns(CLOCK_MONOTONIC) > deadline)
			die("--wait-file %s: not there after %.0f s", s->o->wait_file,
			    s->o->connect_timeout);
		if (s->o->one_to_many)
			read_notifications(s);
		usleep(20000);
	}
}

static long unacked(struct sender *s, struct assoc *a);

/* Read notifications and send what is queued until the peer has
 * acknowledged every message or @deadline (CLOCK_MONOTONIC) has passed;
 * returns what is left unacknowledged (messages; bytes for TCP).
 */
static long wait_acked(struct sender *s, uint64_t deadline)
{
	long left;
	int i;

	for (;;) {
		if (s->o->one_to_many)
			read_notifications(s);
		for (i = 0, left = 0; i < s->n; i++) {
			flush(s, &s->a[i]);
			left += unacked(s, &s->a[i]);
		}
		if (!left || now_ns(CLOCK_MONOTONIC) > deadline)
			return left;
		usleep(10000);
	}
}

/* --warmup: one message on every association, acknowledged before the
 * measured traffic starts, so that every association has an RTT sample:
 * without one, a lost first DATA chunk waits RTO.Initial (3 s, RFC 9260
 * 6.3.1 C1), stock or thin.  Its send_ns is 0: the sink keeps it out of
 * its latencies, counts and log.  The messages go out at --warmup-rate
 * per second (0: all at once): the RTT samples they give are the
 * associations' first (RFC 9260 6.3.1 C2: RTO = SRTT + 4 RTTVAR = 3 R),
 * and samples taken in a burst of 10,000 messages were seconds long, so
 * the RTOs started at 2-3 s and took about ten more samples per
 * association to come down (docs/lab/notebook.md, Scale).
 */
static void warm_up(struct sender *s)
{
	double gap = s->o->warmup_rate > 0 ? NSEC / s->o->warmup_rate : 0;
	uint64_t t0 = now_ns(CLOCK_MONOTONIC), due, mono, deadline;
	long left;
	int i, sent = 0;

	for (i = 0; i < s->n; i++) {
		struct assoc *a = &s->a[i];
		struct pend *p;

		if (a->failed)
			continue;
		due = t0 + (uint64_t)(gap * sent++);
		while ((mono = now_ns(CLOCK_MONOTONIC)) < due) {
			if (s->o->one_to_many)
				read_notifications(s);
			usleep(due - mono > 10 * MSEC ? 10000 : (due - mono) / 1000 + 1);
		}
		p = queue_add(a);
		p->seq = a->seq++;
		p->size = HDR_LEN;
		p->send_ns = 0;
		flush(s, a);
	}
	deadline = now_ns(CLOCK_MONOTONIC) + (uint64_t)(s->o->connect_timeout * NSEC);
	left = wait_acked(s, deadline);
	if (left)
		die("--warmup: %ld messages unacknowledged after %.0f s", left,
		    s->o->connect_timeout);
	printf("thin-gen send: warm-up %d messages at %g/s, all acknowledged after %.2f s\n",
	       sent, s->o->warmup_rate, (now_ns(CLOCK_MONOTONIC) - t0) / 1e9);
}

/* Messages not yet acknowledged by the peer (queued ones included). */
static long unacked(struct sender *s, struct assoc *a)
{
	struct sctp_status st;
	socklen_t l = sizeof(st);
	int n = 0;

	if (a->failed)
		return 0;
	if (a->qlen)
		return a->qlen;
	if (s->o->proto == P_TCP) {
		if (ioctl(a->fd, SIOCOUTQ, &n))
			return 0;
		return n;
	}
	memset(&st, 0, sizeof(st));
	st.sstat_assoc_id = s->o->one_to_many ? a->id : 0;
	if (getsockopt(a->fd, IPPROTO_SCTP, SCTP_STATUS, &st, &l))
		return 0;
	return st.sstat_unackdata + st.sstat_penddata;
}

static void thin_summary(struct sender *s)
{
	unsigned long long v[13] = { 0 };
	unsigned int flags = 0, thin = 0, cong = 0;
	struct sctp_thin_info ti;
	socklen_t l;
	int i, got = 0, err = 0;

	if (s->o->proto != P_SCTP)
		return;
	for (i = 0; i < s->n; i++) {
		memset(&ti, 0, sizeof(ti));
		ti.sti_assoc_id = s->o->one_to_many ? s->a[i].id : 0;
		l = sizeof(ti);
		if (getsockopt(s->a[i].fd, IPPROTO_SCTP, SCTP_THIN_INFO, &ti, &l)) {
			err = errno;
			continue;
		}
		got++;
		flags |= ti.sti_flags;
		thin += !!(ti.sti_state & SCTP_THIN_STATE_THIN);
		cong += !!(ti.sti_state & SCTP_THIN_STATE_CONGESTED);
		v[7] += ti.sti_transitions;
		v[0] += ti.sti_pkts_sent;
		v[1] += ti.sti_pkts_lost;
		v[2] += ti.sti_timeouts;
		v[3] += ti.sti_linear_timeouts;
		v[4] += ti.sti_fast_rtx;
		v[5] += ti.sti_rto_min_clamps;
		v[6] += ti.sti_restart_corrections;
		v[8] += ti.sti_guard_undone;
		v[9] += ti.sti_rdb_chunks;
		v[10] += ti.sti_rdb_bytes;
		v[11] += ti.sti_rdb_repaired;
		v[12] += ti.sti_rdb_gated;
	}
	if (!got) {
		printf("thin-gen send: thin: n/a (SCTP_THIN_INFO: %s)\n", strerror(err));
		return;
	}
	printf("thin-gen send: thin: assocs=%d flags=0x%x thin_now=%u pkts_sent=%llu ",
	       got, flags, thin, v[0]);
	printf("pkts_lost=%llu timeouts=%llu linear_timeouts=%llu fast_rtx=%llu ",
	       v[1], v[2], v[3], v[4]);
	printf("rto_min_clamps=%llu restart_corrections=%llu ", v[5], v[6]);
	printf("congested_now=%u transitions=%llu guard_undone=%llu ", cong,
	       v[7], v[8]);
	printf("rdb_chunks=%llu rdb_bytes=%llu rdb_repaired=%llu rdb_gated=%llu\n",
	       v[9], v[10], v[11], v[12]);
}

/*
 * --phases: move to phase k at mono.  The associations start the new
 * interval afresh, spread over it as at the start.  Interval 0 is greedy:
 * a new message whenever the association's previous one is in the socket
 * (the socket's buffer is the only queue, so no backlog outlives the
 * phase).
 */
static void phase_enter(struct sender *s, int k, uint64_t mono)
{
	const struct phase *p = &s->o->phases[k];
	uint64_t iv = (uint64_t)(p->interval * MSEC);
	int i;

	s->phase = k;
	s->phase_end += (uint64_t)(p->seconds * NSEC);
	s->o->size = p->size;
	s->o->interval = p->interval;
	s->greedy = p->interval == 0;
	for (i = 0; i < s->n; i++)
		s->a[i].due = mono + iv * i / s->n;
	for (i = s->nheap / 2 - 1; i >= 0; i--)
		heap_down(s, i);
	if (s->log)
		fprintf(s->log, "# phase %d size=%d interval=%g from_ns=%llu\n", k,
			p->size, p->interval, (unsigned long long)mono);
}

/*
 * --state-log: one line per association, SCTP_THIN_INFO at t (ms since the
 * start), to show thin/thick transitions over time.  Returns -1 (and stops
 * sampling) when the option is not there: Debian's module.
 */
static int state_sample(struct sender *s, uint64_t t_ns)
{
	struct sctp_thin_info ti;
	socklen_t l;
	int i;

	for (i = 0; i < s->n; i++) {
		if (s->a[i].failed)
			continue;
		memset(&ti, 0, sizeof(ti));
		ti.sti_assoc_id = s->o->one_to_many ? s->a[i].id : 0;
		l = sizeof(ti);
		if (getsockopt(s->a[i].fd, IPPROTO_SCTP, SCTP_THIN_INFO, &ti, &l)) {
			fprintf(s->state, "# SCTP_THIN_INFO: %s\n", strerror(errno));
			return -1;
		}
		fprintf(s->state, "%.1f %d %u %u %.4f %u %llu %llu %llu %llu %llu\n",
			t_ns / 1e6, i, ti.sti_state, ti.sti_in_flight,
			(double)ti.sti_lossrate / SCTP_THIN_LOSS_ONE, ti.sti_transitions,
			(unsigned long long)ti.sti_pkts_sent,
			(unsigned long long)ti.sti_pkts_lost,
			(unsigned long long)ti.sti_timeouts,
			(unsigned long long)ti.sti_fast_rtx,
			(unsigned long long)s->a[i].msgs);
	}
	return 0;
}

static int do_send(struct opts *o)
{
	struct sender *s = calloc(1, sizeof(*s));
	uint64_t t0, end, next_prog, wake, mono, drain_end, next_state = 0;
	unsigned long long msgs = 0, bytes = 0;
	struct itimerspec its = { 0 };
	struct pollfd *pfd;
	int tfd, i, np, failed = 0;
	long left;

	if (!s)
		die("out of memory");
	s->o = o;
	s->n = o->assocs;
	s->shared_fd = -1;
	s->a = calloc(s->n, sizeof(*s->a));
	s->heap = calloc(s->n, sizeof(int));
	pfd = calloc(s->n + 1, sizeof(*pfd));
	if (!s->a || !s->heap || !pfd)
		die("out of memory");
	if (o->profile)
		profile_build(o->profile, &s->qsize, &s->qiat);
	s->log = open_log(o->log);
	if (s->log) {
		fprintf(s->log, "# thin-gen send proto=%s style=%s assocs=%d size=%d ",
			o->proto == P_SCTP ? "sctp" : "tcp",
			o->one_to_many ? "one-to-many" : "one-to-one", o->assocs,
			o->size);
		fprintf(s->log, "interval=%g dist=%s profile=%s thin=0x%x seed=%llu\n",
			o->interval,
			dist_names[o->dist],
			o->profile ? o->profile->name : "-", o->thin_flags,
			(unsigned long long)o->seed);
		fprintf(s->log, "# assoc seq size send_ns\n");
	}
	if (o->events) {
		s->events = open_log(o->events);
		setvbuf(s->events, NULL, _IOLBF, 0);	/* read while we run */
		fprintf(s->events, "# thin-gen send events: t_ns assoc kind state addr error\n");
	}
	for (i = 0; i < s->n; i++) {
		s->a[i].idx = i;
		s->a[i].rng = o->seed * 0x100000001b3ull + i * 0x9e3779b97f4a7c15ull + 1;
	}
	t0 = now_ns(CLOCK_MONOTONIC);
	sender_connect(s);
	s->connect_ns = now_ns(CLOCK_MONOTONIC) - t0;
	if (o->wait_file)
		wait_for_file(s);
	if (o->warmup)
		warm_up(s);

	tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (tfd < 0)
		die("timerfd_create: %s", strerror(errno));
	if (o->state_log) {
		s->state = open_log(o->state_log);
		fprintf(s->state, "# thin-gen send state every %g ms\n", o->state_every);
		fprintf(s->state, "# t_ms assoc state in_flight lossrate transitions %s\n",
			"pkts_sent pkts_lost timeouts fast_rtx app_msgs");
	}
	t0 = now_ns(CLOCK_MONOTONIC);
	end = t0 + (uint64_t)(o->duration * NSEC);
	next_prog = t0 + (uint64_t)o->progress * NSEC;
	if (s->state)
		next_state = t0;
	if (o->nphases) {
		s->phase_end = t0;
		phase_enter(s, 0, t0);
	}
	for (i = 0; i < s->n; i++) {
		struct assoc *a = &s->a[i];

		/* fixed: spread the associations over one interval */
		if (o->dist == D_FIXED)
			a->due = t0 + (uint64_t)(o->interval * MSEC * i / s->n);
		else
			a->due = t0 + (uint64_t)(draw_interval(s, a) * rng_unif(&a->rng));
		heap_push(s, i);
	}

	while (!stop) {
		mono = now_ns(CLOCK_MONOTONIC);
		if (mono >= end)
			break;
		if (hb_wanted)
			demand_heartbeats(s);
		while (o->nphases && s->phase + 1 < o->nphases && mono >= s->phase_end)
			phase_enter(s, s->phase + 1, mono);
		if (next_state && mono >= next_state) {
			next_state += (uint64_t)(o->state_every * MSEC);
			if (state_sample(s, mono - t0))
				next_state = 0;
		}
		for (i = 0; s->greedy && i < s->n; i++) {
			struct assoc *a = &s->a[i];
			int k;

			for (k = 0; k < 64 && !a->failed && !a->qlen; k++) {
				a->due = mono;
				gen_msg(s, a, mono);
			}
		}
		while (!s->greedy && s->nheap && s->a[s->heap[0]].due <= mono) {
			struct assoc *a = &s->a[s->heap[0]];

			if (a->due >= end)
				break;
			if (!a->failed)
				gen_msg(s, a, mono);
			a->due += draw_interval(s, a);
			heap_down(s, 0);
		}
		if (o->progress && mono >= next_prog) {
			for (i = 0, msgs = 0, left = 0; i < s->n; i++) {
				msgs += s->a[i].msgs;
				left += s->a[i].qlen;
			}
			fprintf(stderr, "thin-gen send: %.0f/%.0f s, %llu messages, ",
				(mono - t0) / 1e9, o->duration, msgs);
			fprintf(stderr, "%ld queued in the app, lag max %.1f ms\n",
				left, s->lag_max / 1e6);
			next_prog += (uint64_t)o->progress * NSEC;
		}
		wake = end;
		if (!s->greedy && s->nheap && s->a[s->heap[0]].due < wake)
			wake = s->a[s->heap[0]].due;
		for (i = 0; s->greedy && i < s->n; i++)
			if (!s->a[i].failed && !s->a[i].qlen)
				wake = mono;	/* the socket took them all: more */
		if (o->progress && next_prog < wake)
			wake = next_prog;
		if (next_state && next_state < wake)
			wake = next_state;
		if (o->nphases && s->phase + 1 < o->nphases && s->phase_end < wake)
			wake = s->phase_end;
		its.it_value.tv_sec = wake / NSEC;
		its.it_value.tv_nsec = wake % NSEC;
		timerfd_settime(tfd, TFD_TIMER_ABSTIME, &its, NULL);

		np = 0;
		pfd[np++] = (struct pollfd){ tfd, POLLIN, 0 };
		if (o->one_to_many) {
			pfd[np++] = (struct pollfd){ s->shared_fd,
				POLLIN | (s->shared_blocked ? POLLOUT : 0), 0 };
		} else {
			for (i = 0; i < s->n; i++)
				pfd[np++] = (struct pollfd){ s->a[i].failed ? -1 : s->a[i].fd,
					POLLIN | (s->a[i].qlen ? POLLOUT : 0), 0 };
		}
		if (poll(pfd, np, -1) < 0) {
			if (errno == EINTR)
				continue;
			die("poll: %s", strerror(errno));
		}
		if (pfd[0].revents) {
			uint64_t exp;

			if (read(tfd, &exp, sizeof(exp)) < 0 && errno != EAGAIN)
				die("timerfd read: %s", strerror(errno));
		}
		if (o->one_to_many) {
			if (pfd[1].revents & POLLIN)
				read_notifications(s);
			if (pfd[1].revents & (POLLOUT | POLLERR)) {
				s->shared_blocked = 0;
				for (i = 0; i < s->n; i++)
					if (flush(s, &s->a[i]))
						s->shared_blocked = 1;
			}
			continue;
		}
		for (i = 0; i < s->n; i++) {
			struct assoc *a = &s->a[i];
			short re = pfd[i + 1].revents;

			if (!re)
				continue;
			if (re & POLLERR) {
				int err = 0;
				socklen_t el = sizeof(err);

				getsockopt(a->fd, SOL_SOCKET, SO_ERROR, &err, &el);
				assoc_fail(a, "socket error", err);
			}
			if (re & (POLLIN | POLLERR | POLLHUP))
				sender_read(s, a);
			if ((re & POLLOUT) && !a->failed)
				flush(s, a);
		}
	}

	if (next_state)
		state_sample(s, now_ns(CLOCK_MONOTONIC) - t0);
	/* Drain: wait until everything is acknowledged. */
	drain_end = now_ns(CLOCK_MONOTONIC) + (uint64_t)(o->drain * NSEC);
	left = wait_acked(s, drain_end);
	if (left) {
		warnx("drain: %ld messages/bytes still unacknowledged after %.0f s",
		      left, o->drain);
		failed = 1;
	}
	mono = now_ns(CLOCK_MONOTONIC);
	thin_summary(s);
	for (i = 0, msgs = 0, bytes = 0; i < s->n; i++) {
		msgs += s->a[i].msgs;
		bytes += s->a[i].bytes;
		failed |= s->a[i].failed;
	}
	printf("thin-gen send: proto=%s style=%s assocs=%d messages=%llu bytes=%llu ",
	       o->proto == P_SCTP ? "sctp" : "tcp",
	       o->one_to_many ? "one-to-many" : "one-to-one", s->n, msgs, bytes);
	printf("connect=%.2f s elapsed=%.2f s failed=%d\n",
	       s->connect_ns / 1e9, (mono - t0) / 1e9, failed);
	printf("thin-gen send: schedule lag ms mean=%.3f max=%.3f late(>10ms)=%llu\n",
	       s->lag_n ? s->lag_sum / 1e6 / s->lag_n : 0.0, s->lag_max / 1e6,
	       (unsigned long long)s->late);
	if (s->log && fclose(s->log))
		die("writing %s: %s", o->log, strerror(errno));
	if (s->state && fclose(s->state))
		die("writing %s: %s", o->state_log, strerror(errno));
	if (s->events && fclose(s->events))
		die("writing %s: %s", o->events, strerror(errno));
	if (o->one_to_many) {
		close(s->shared_fd);
	} else {
		for (i = 0; i < s->n; i++)
			close(s->a[i].fd);
	}
	return failed;
}

/* ------------------------------------------------------------------ */
/* Sink */

struct conn {
	int fd, open, sack_on;
	char *buf;
	size_t len;
};

struct sink {
	struct opts *o;
	FILE *log;
	struct conn *c;
	int nc, capc, accepted, closed, epfd;
	uint32_t next[65536];
	unsigned long long msgs, bytes, dups, gaps, bad, corrupt, warmups;
	int64_t *lat;
	size_t nlat, caplat;
};

static void sink_msg(struct sink *k, const char *m, size_t n, uint64_t recv_ns)
{
	uint16_t len, idx;
	uint32_t seq, j;
	uint64_t send_ns;

	if (n < HDR_LEN) {
		k->bad++;
		return;
	}
	memcpy(&len, m, 2);
	memcpy(&idx, m + 2, 2);
	memcpy(&seq, m + 4, 4);
	memcpy(&send_ns, m + 8, 8);
	if (len != n) {
		k->bad++;
		return;
	}
	for (j = HDR_LEN; j < n; j++)
		if ((uint8_t)m[j] != pattern(seq, j)) {
			k->corrupt++;
			break;
		}
	/* per association: 0, 1, 2, ... in arrival order */
	if (seq == k->next[idx]) {
		k->next[idx] = seq + 1;
	} else if (seq < k->next[idx]) {
		k->dups++;
	} else {
		k->gaps++;
		k->next[idx] = seq + 1;
	}
	if (!send_ns) {		/* the sender's --warmup */
		k->warmups++;
		return;
	}
	k->msgs++;
	k->bytes += n;
	if (k->nlat == k->caplat) {
		k->caplat = k->caplat ? k->caplat * 2 : 4096;
		k->lat = realloc(k->lat, k->caplat * sizeof(*k->lat));
		if (!k->lat)
			die("out of memory");
	}
	k->lat[k->nlat++] = (int64_t)(recv_ns - send_ns);
	if (k->log)
		fprintf(k->log, "%u %u %zu %llu %llu\n", idx, seq, n,
			(unsigned long long)send_ns, (unsigned long long)recv_ns);
}

static void conn_close(struct sink *k, struct conn *c)
{
	close(c->fd);
	c->open = 0;
	k->closed++;
	free(c->buf);
	c->buf = NULL;
}

static void sink_read(struct sink *k, struct conn *c)
{
	const size_t cap = 2 * MAX_MSG + 4096;
	int one = 1;
	uint64_t t;
	ssize_t r;

	for (;;) {
		if (k->o->proto == P_SCTP) {
			struct iovec iov = { c->buf + c->len, cap - c->len };
			struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };

			r = recvmsg(c->fd, &mh, MSG_DONTWAIT);
			t = now_ns(CLOCK_REALTIME);
			if (r > 0 && (mh.msg_flags & MSG_NOTIFICATION)) {
				c->len = 0;
				continue;
			}
			if (r > 0) {
				c->len += r;
				if (mh.msg_flags & MSG_EOR || c->len == cap) {
					sink_msg(k, c->buf, c->len, t);
					c->len = 0;
				}
			}
		} else {
			size_t off = 0;
			uint16_t ml;

			r = recv(c->fd, c->buf + c->len, cap - c->len, MSG_DONTWAIT);
			t = now_ns(CLOCK_REALTIME);
			if (r > 0) {
				c->len += r;
				while (c->len - off >= 2) {
					memcpy(&ml, c->buf + off, 2);
					if (ml < HDR_LEN) {
						k->bad++;
						warnx("bad frame length %u; closing", ml);
						conn_close(k, c);
						return;
					}
					if (c->len - off < ml)
						break;
					sink_msg(k, c->buf + off, ml, t);
					off += ml;
				}
				memmove(c->buf, c->buf + off, c->len - off);
				c->len -= off;
				if (k->o->sack_off)
					setsockopt(c->fd, IPPROTO_TCP, TCP_QUICKACK,
						   &one, sizeof(one));
			}
		}
		if (r == 0) {
			if (c->len)
				k->bad++;
			conn_close(k, c);
			return;
		}
		if (r < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK) {
				warnx("recv: %s", strerror(errno));
				conn_close(k, c);
			}
			return;
		}
	}
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

static void sink_accept(struct sink *k, int lfd)
{
	struct epoll_event ev = { .events = EPOLLIN };
	struct sctp_sack_info sk;
	socklen_t l;
	struct conn *c;
	int fd;

	while ((fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0) {
		if (k->nc == k->capc) {
			k->capc = k->capc ? 2 * k->capc : 64;
			k->c = realloc(k->c, k->capc * sizeof(*k->c));
			if (!k->c)
				die("out of memory");
		}
		c = &k->c[k->nc++];
		memset(c, 0, sizeof(*c));
		c->fd = fd;
		c->open = 1;
		c->buf = malloc(2 * MAX_MSG + 4096);
		if (!c->buf)
			die("out of memory");
		k->accepted++;
		/* conns are epoll data k->o->ports + index (k->c moves) */
		ev.data.u64 = (uint64_t)k->o->ports + k->nc - 1;
		if (epoll_ctl(k->epfd, EPOLL_CTL_ADD, fd, &ev))
			die("epoll_ctl: %s", strerror(errno));
		if (k->o->proto == P_SCTP) {
			memset(&sk, 0, sizeof(sk));
			l = sizeof(sk);
			if (!getsockopt(fd, IPPROTO_SCTP, SCTP_DELAYED_SACK, &sk, &l))
				c->sack_on = !(sk.sack_delay == 0 && sk.sack_freq == 1);
			/* One per readiness event: in 6.1 a non-blocking
			 * accept() on SCTP with nothing pending sleeps until
			 * the next timer tick before EAGAIN
			 * (sctp_wait_for_accept() calls schedule_timeout(0));
			 * epoll reports the socket again if more are pending.
			 */
			break;
		}
	}
}

static int do_sink(struct opts *o)
{
	struct sink *k = calloc(1, sizeof(*k));
	uint64_t t0, end, next_prog, mono;
	struct sockaddr_storage ss;
	int lfd[MAX_PORTS], i, n, one = 1, sack_on = 0, ready = 0;
	struct epoll_event ev[256];
	socklen_t len;
	double sum = 0;

	if (!k)
		die("out of memory");
	k->o = o;
	/* epoll, not poll: a wake costs O(ready), not O(connections)
	 * (bench-scale has 2 x 10,000 sockets here).
	 */
	k->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (k->epfd < 0)
		die("epoll_create1: %s", strerror(errno));
	k->log = open_log(o->log);
	if (k->log)
		fprintf(k->log, "# thin-gen sink proto=%s listen=%s ports=%d sack_delay_off=%d\n"
			"# assoc seq size send_ns recv_ns\n",
			o->proto == P_SCTP ? "sctp" : "tcp", o->addr, o->ports,
			o->sack_off);
	for (i = 0; i < o->ports; i++) {
		parse_addr(o->addr, i, &ss, &len);
		lfd[i] = socket(ss.ss_family, SOCK_STREAM,
				o->proto == P_SCTP ? IPPROTO_SCTP : IPPROTO_TCP);
		if (lfd[i] < 0)
			die("socket: %s", strerror(errno));
		setsockopt(lfd[i], SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (o->proto == P_SCTP && o->sack_off) {
			/* 6.1: sack_freq 1 disables delayed SACK;
			 * sack_delay 0 leaves the delay unchanged.
			 */
			struct sctp_sack_info sk = {
				.sack_assoc_id = SCTP_FUTURE_ASSOC,
				.sack_delay = 0, .sack_freq = 1,
			};

			if (setsockopt(lfd[i], IPPROTO_SCTP, SCTP_DELAYED_SACK, &sk, sizeof(sk)))
				die("setsockopt SCTP_DELAYED_SACK: %s", strerror(errno));
		}
		if (o->proto == P_TCP && o->sack_off)
			setsockopt(lfd[i], IPPROTO_TCP, TCP_QUICKACK, &one, sizeof(one));
		if (bind(lfd[i], (struct sockaddr *)&ss, len))
			die("bind %s +%d: %s", o->addr, i, strerror(errno));
		if (listen(lfd[i], 1024))
			die("listen: %s", strerror(errno));
		set_nonblock(lfd[i]);
		ev[0] = (struct epoll_event){ .events = EPOLLIN, .data.u64 = i };
		if (epoll_ctl(k->epfd, EPOLL_CTL_ADD, lfd[i], &ev[0]))
			die("epoll_ctl: %s", strerror(errno));
	}
	t0 = now_ns(CLOCK_MONOTONIC);
	end = t0 + (uint64_t)(o->duration * NSEC);
	next_prog = t0 + (uint64_t)o->progress * NSEC;
	while (!stop) {
		int timeout;

		mono = now_ns(CLOCK_MONOTONIC);
		if (mono >= end)
			break;
		if (k->accepted >= o->expect && k->closed == k->accepted)
			break;
		if (o->progress && mono >= next_prog) {
			fprintf(stderr, "thin-gen sink: %.0f s, %d open, %llu messages\n",
				(mono - t0) / 1e9, k->accepted - k->closed, k->msgs);
			next_prog += (uint64_t)o->progress * NSEC;
		}
		timeout = (end - mono) / MSEC + 1;
		if (o->progress && (next_prog - mono) / MSEC + 1 < (uint64_t)timeout)
			timeout = (next_prog - mono) / MSEC + 1;
		n = epoll_wait(k->epfd, ev, ARRAY_SIZE(ev), timeout);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			die("epoll_wait: %s", strerror(errno));
		}
		for (i = 0; i < n; i++) {
			uint64_t d = ev[i].data.u64;

			if (d < (uint64_t)o->ports)
				sink_accept(k, lfd[d]);
			else if (k->c[d - o->ports].open)
				sink_read(k, &k->c[d - o->ports]);
		}
		if (o->ready_file && !ready && k->accepted >= o->expect) {
			FILE *f = fopen(o->ready_file, "w");

			if (!f)
				die("--ready-file %s: %s", o->ready_file, strerror(errno));
			fprintf(f, "accepted %d in %.3f s\n", k->accepted,
				(now_ns(CLOCK_MONOTONIC) - t0) / 1e9);
			if (fclose(f))
				die("--ready-file %s: %s", o->ready_file, strerror(errno));
			ready = 1;
		}
	}
	for (i = 0; i < k->nc; i++) {
		sack_on += k->c[i].sack_on;
		if (k->c[i].open)
			conn_close(k, &k->c[i]);
	}
	for (i = 0; i < o->ports; i++)
		close(lfd[i]);
	close(k->epfd);
	if (k->log && fclose(k->log))
		die("writing %s: %s", o->log, strerror(errno));

	printf("thin-gen sink: proto=%s connections=%d messages=%llu bytes=%llu ",
	       o->proto == P_SCTP ? "sctp" : "tcp", k->accepted, k->msgs, k->bytes);
	printf("dups=%llu gaps=%llu bad=%llu corrupt=%llu elapsed=%.2f s\n",
	       k->dups, k->gaps, k->bad, k->corrupt,
	       (now_ns(CLOCK_MONOTONIC) - t0) / 1e9);
	if (k->warmups)
		printf("thin-gen sink: warm-up messages %llu (not counted above)\n", k->warmups);
	if (o->proto == P_SCTP)
		printf("thin-gen sink: delayed SACK %s on %d of %d connections\n",
		       "still enabled", sack_on, k->accepted);
	if (k->nlat) {
		qsort(k->lat, k->nlat, sizeof(*k->lat), cmp_i64);
		for (size_t j = 0; j < k->nlat; j++)
			sum += k->lat[j];
		printf("thin-gen sink: latency ms mean=%.3f p50=%.3f p99=%.3f max=%.3f min=%.3f\n",
		       sum / k->nlat / 1e6, k->lat[(k->nlat - 1) / 2] / 1e6,
		       k->lat[(size_t)((k->nlat - 1) * 0.99 + 0.5)] / 1e6,
		       k->lat[k->nlat - 1] / 1e6, k->lat[0] / 1e6);
	}
	if (!k->accepted) {
		warnx("sink: no connection within %.0f s", o->duration);
		return 1;
	}
	return (k->bad || k->corrupt) ? 1 : 0;
}

/* ------------------------------------------------------------------ */

/* SIZE:MS:SECONDS[,SIZE:MS:SECONDS...] */
static void parse_phases(struct opts *o, const char *arg)
{
	char buf[1024], *tok, *save = NULL, f[3][64];
	struct phase *p;

	if (strlen(arg) >= sizeof(buf))
		die("--phases: too long");
	snprintf(buf, sizeof(buf), "%s", arg);
	o->nphases = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (o->nphases == MAX_PHASES)
			die("--phases: at most %d phases", MAX_PHASES);
		if (sscanf(tok, "%63[^:]:%63[^:]:%63s", f[0], f[1], f[2]) != 3)
			die("--phases: '%s' is not SIZE:MS:SECONDS", tok);
		p = &o->phases[o->nphases++];
		p->size = num(f[0], "--phases size", HDR_LEN, MAX_MSG);
		p->interval = num(f[1], "--phases interval", 0, 3600000);
		if (p->interval > 0 && p->interval < 0.01)
			die("--phases: interval 0 (greedy) or at least 0.01 ms");
		p->seconds = num(f[2], "--phases seconds", 0.001, 1e6);
	}
	if (!o->nphases)
		die("--phases: empty");
}

static void help_exit(int rc)
{
	size_t i;

	fprintf(rc ? stderr : stdout,
		"usage:\n"
		"  thin-gen sink --proto sctp|tcp --listen ADDR:PORT [--ports N] [--log FILE]\n"
		"                [--sack-delay-off] [--duration S] [--expect N] [--progress S]\n"
		"                [--ready-file FILE]\n"
		"  thin-gen send --proto sctp|tcp --connect ADDR:PORT [--assocs N]\n"
		"                [--style one-to-one|one-to-many] [--size BYTES] [--interval MS]\n"
		"                [--dist fixed|exp|pareto] [--pareto-shape A] [--profile NAME]\n"
		"                --duration S [--log FILE] [--nodelay] [--thin FLAGS] [--thin-strict]\n"
		"                [--thin-rto-min MS] [--thin-linear-max N] [--seed N] [--drain S]\n"
		"                [--rto-min MS] [--tcp-thin] [--sack-immediately]\n"
		"                [--connect-timeout S] [--progress S] [--wait-file FILE]\n"
		"                [--warmup] [--warmup-rate PER_S]\n"
		"                [--phases SIZE:MS:S,...] [--state-log FILE] [--state-every MS]\n"
		"                [--connectx ADDR[,ADDR...]] [--events FILE] [--heartbeat-usr1]\n"
		"  thin-gen profile-stats --profile NAME|all [--samples N] [--seed N] [--check PCT]\n"
		"     --check: averages within PCT %%, the table's 1/50/99 %% values at\n"
		"     quantile 0.01/0.5/0.99 +- 0.0025/0.01/0.0025 of the samples\n"
		"  thin-gen profiles\n"
		"--phases: fixed sizes and intervals that change over time (instead of\n"
		"  --size/--interval/--duration); interval 0: greedy (a message whenever\n"
		"  the socket takes one).  --state-log: SCTP_THIN_INFO of every\n"
		"  association every --state-every MS (100).\n"
		"--ready-file: the sink creates FILE once it has accepted --expect\n"
		"  connections; --wait-file: the sender starts its traffic once FILE\n"
		"  exists (within --connect-timeout), so that no message waits for the\n"
		"  sink's accept().  --warmup: one unlogged message per association,\n"
		"  acknowledged before the traffic (an RTT sample on each), sent at\n"
		"  --warmup-rate messages/s over all associations (1000; 0: at once).\n"
		"FLAGS: a number (0x7f) or a list of rto_min,restart,linear,fr,loss,guard,si,rdb,\n"
		"  all (the paper's and si, not rdb), none.  --thin-rdb-packets N: RDB copies\n"
		"  from the last N packets (1-8; default: the netns's thin_rdb_max_packets).\n"
		"--sack-immediately: SCTP_SACK_IMMEDIATELY (the I-bit) on every message.\n"
		"--connectx: sctp_connectx() to --connect's address and these (its port).\n"
		"--events FILE: SCTP_ASSOC_CHANGE and SCTP_PEER_ADDR_CHANGE notifications,\n"
		"  one line each, stamped when read: t_ns assoc kind state addr error.\n"
		"--heartbeat-usr1: SIGUSR1 demands a heartbeat on every path (SPP_HB_DEMAND).\n"
		"Without --thin the socket keeps the module's defaults (sysctls).\n"
		"One-to-many: association i goes to PORT+i (sink --ports N).\n"
		"profiles:");
	for (i = 0; i < NPROFILES; i++)
		fprintf(rc ? stderr : stdout, " %s", profiles[i].name);
	fputc('\n', rc ? stderr : stdout);
	exit(rc);
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "proto", 1, 0, 'P' }, { "listen", 1, 0, 'L' },
		{ "connect", 1, 0, 'C' }, { "log", 1, 0, 'l' },
		{ "sack-delay-off", 0, 0, 'S' }, { "assocs", 1, 0, 'n' },
		{ "style", 1, 0, 's' }, { "size", 1, 0, 'z' },
		{ "interval", 1, 0, 'i' }, { "dist", 1, 0, 'd' },
		{ "profile", 1, 0, 'p' }, { "duration", 1, 0, 't' },
		{ "nodelay", 0, 0, 'N' }, { "thin", 1, 0, 'T' },
		{ "thin-strict", 0, 0, 'X' }, { "thin-rto-min", 1, 0, 'R' },
		{ "thin-linear-max", 1, 0, 'M' }, { "seed", 1, 0, 'e' },
		{ "samples", 1, 0, 'm' }, { "check", 1, 0, 'c' },
		{ "ports", 1, 0, 'o' }, { "expect", 1, 0, 'x' },
		{ "drain", 1, 0, 'D' }, { "progress", 1, 0, 'g' },
		{ "pareto-shape", 1, 0, 'a' }, { "connect-timeout", 1, 0, 'w' },
		{ "rto-min", 1, 0, 'r' }, { "tcp-thin", 0, 0, 'H' },
		{ "phases", 1, 0, 'F' }, { "state-log", 1, 0, 'Y' },
		{ "state-every", 1, 0, 'E' }, { "ready-file", 1, 0, 'Q' },
		{ "wait-file", 1, 0, 'W' }, { "warmup", 0, 0, 'U' },
		{ "warmup-rate", 1, 0, 'u' }, { "sack-immediately", 0, 0, 'I' },
		{ "thin-rdb-packets", 1, 0, 'B' },
		{ "connectx", 1, 0, 'J' }, { "events", 1, 0, 'V' },
		{ "heartbeat-usr1", 0, 0, 'K' },
		{ "help", 0, 0, 'h' }, { 0 }
	};
	struct opts o = {
		.proto = -1, .assocs = 1, .size = 100, .interval = 250,
		.duration = -1, .drain = 30, .warmup_rate = 1000, .pareto_shape = 1.5, .ports = 1,
		.expect = 1, .progress = 5, .seed = 1, .samples = 100000,
		.connect_timeout = 30, .state_every = 100,
	};
	const char *mode, *prof = NULL, *dist = NULL;
	int c, have_size = 0, have_iv = 0, sink, send, pstats;
	size_t i;

	if (argc < 2)
		help_exit(2);
	mode = argv[1];
	if (!strcmp(mode, "-h") || !strcmp(mode, "--help"))
		help_exit(0);
	if (!strcmp(mode, "profiles")) {
		for (i = 0; i < NPROFILES; i++)
			printf("%-15s %s (%s)\n", profiles[i].name, profiles[i].title,
			       profiles[i].note);
		return 0;
	}
	sink = !strcmp(mode, "sink");
	send = !strcmp(mode, "send");
	pstats = !strcmp(mode, "profile-stats");
	if (!sink && !send && !pstats)
		help_exit(2);
	optind = 2;
	while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (c) {
		case 'P':
			if (!strcmp(optarg, "sctp"))
				o.proto = P_SCTP;
			else if (!strcmp(optarg, "tcp"))
				o.proto = P_TCP;
			else
				die("--proto sctp|tcp");
			break;
		case 'L':
		case 'C':
			o.addr = optarg;
			break;
		case 'l':
			o.log = optarg;
			break;
		case 'S':
			o.sack_off = 1;
			break;
		case 'n':
			o.assocs = num(optarg, "--assocs", 1, MAX_ASSOCS);
			break;
		case 's':
			if (!strcmp(optarg, "one-to-many"))
				o.one_to_many = 1;
			else if (strcmp(optarg, "one-to-one"))
				die("--style one-to-one|one-to-many");
			break;
		case 'z':
			o.size = num(optarg, "--size", HDR_LEN, MAX_MSG);
			have_size = 1;
			break;
		case 'i':
			o.interval = num(optarg, "--interval", 0.01, 3600000);
			have_iv = 1;
			break;
		case 'd':
			dist = optarg;
			break;
		case 'p':
			prof = optarg;
			break;
		case 't':
			o.duration = num(optarg, "--duration", 0, 1e6);
			break;
		case 'N':
			o.nodelay = 1;
			break;
		case 'T':
			if (parse_thin(optarg, &o.thin_flags))
				die("bad --thin '%s'", optarg);
			o.thin_set = 1;
			break;
		case 'X':
			o.thin_strict = 1;
			break;
		case 'R':
			o.thin_rto_min = num(optarg, "--thin-rto-min", 1, 1e7);
			break;
		case 'B':
			o.thin_rdb_packets = num(optarg, "--thin-rdb-packets", 1, 8);
			break;
		case 'r':
			o.rto_min = num(optarg, "--rto-min", 1, 1e7);
			break;
		case 'H':
			o.tcp_thin = 1;
			break;
		case 'I':
			o.sack_imm = 1;
			break;
		case 'M':
			o.thin_lt_max = num(optarg, "--thin-linear-max", 1, 1000);
			break;
		case 'e':
			o.seed = strtoull(optarg, NULL, 0);
			break;
		case 'm':
			o.samples = num(optarg, "--samples", 100, 1e8);
			break;
		case 'c':
			o.check = num(optarg, "--check", 0, 1000);
			break;
		case 'o':
			o.ports = num(optarg, "--ports", 1, MAX_PORTS);
			break;
		case 'x':
			o.expect = num(optarg, "--expect", 1, 1e6);
			break;
		case 'D':
			o.drain = num(optarg, "--drain", 0, 3600);
			break;
		case 'g':
			o.progress = num(optarg, "--progress", 0, 3600);
			break;
		case 'a':
			o.pareto_shape = num(optarg, "--pareto-shape", 1.01, 100);
			break;
		case 'w':
			o.connect_timeout = num(optarg, "--connect-timeout", 0.1, 3600);
			break;
		case 'F':
			parse_phases(&o, optarg);
			break;
		case 'Y':
			o.state_log = optarg;
			break;
		case 'E':
			o.state_every = num(optarg, "--state-every", 1, 3600000);
			break;
		case 'Q':
			o.ready_file = optarg;
			break;
		case 'W':
			o.wait_file = optarg;
			break;
		case 'K':
			o.hb_usr1 = 1;
			break;
		case 'U':
			o.warmup = 1;
			break;
		case 'J':
			o.connectx = optarg;
			break;
		case 'V':
			o.events = optarg;
			break;
		case 'u':
			o.warmup_rate = num(optarg, "--warmup-rate", 0, 1e6);
			break;
		case 'h':
			help_exit(0);
			break;
		default:
			help_exit(2);
		}
	}
	if (optind != argc)
		die("unexpected argument '%s'", argv[optind]);

	if (pstats) {
		int bad = 0;

		if (!prof)
			die("profile-stats needs --profile NAME|all");
		for (i = 0; i < NPROFILES; i++) {
			if (strcmp(prof, "all") && strcmp(prof, profiles[i].name))
				continue;
			bad += profile_stats(&profiles[i], o.samples, o.seed, o.check);
			o.profile = &profiles[i];
		}
		if (!o.profile)
			die("unknown profile '%s' (thin-gen profiles)", prof);
		if (o.check > 0)
			printf("profile-stats: %s\n", bad ? "FAIL" : "ok");
		return bad ? 1 : 0;
	}

	if (o.proto < 0)
		die("--proto sctp|tcp is required");
	if (!o.addr)
		die(sink ? "--listen ADDR:PORT is required" : "--connect ADDR:PORT is required");
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGPIPE, SIG_IGN);
	if (o.hb_usr1) {
		struct sigaction sa = { .sa_handler = on_usr1 };

		/* no SA_RESTART: poll() returns at once */
		sigaction(SIGUSR1, &sa, NULL);
	}
	setvbuf(stdout, NULL, _IOLBF, 0);

	if (sink) {
		if (o.duration < 0)
			o.duration = 3600;
		return do_sink(&o);
	}

	if (o.nphases) {
		if (o.duration >= 0 || have_size || have_iv || dist || prof)
			die("--phases sets sizes, intervals and the duration; drop the others");
		o.duration = 0;
		for (i = 0; i < (size_t)o.nphases; i++)
			o.duration += o.phases[i].seconds;
		o.size = o.phases[0].size;
		o.interval = o.phases[0].interval;
	}
	if (o.duration < 0)
		die("--duration S is required");
	if (o.state_log && o.proto != P_SCTP)
		die("--state-log is SCTP only");
	if ((o.connectx || o.events) && o.proto != P_SCTP)
		die("--connectx and --events are SCTP only");
	if (o.proto == P_TCP && o.one_to_many)
		die("--style one-to-many is SCTP only");
	if (o.proto == P_TCP && o.sack_imm)
		die("--sack-immediately is SCTP only");
	if (o.proto == P_TCP && o.thin_set) {
		if (o.thin_strict)
			die("--thin is SCTP only");
		warnx("warning: --thin ignored for TCP");
		o.thin_set = 0;
	}
	o.dist = D_FIXED;
	if (dist) {
		if (!strcmp(dist, "exp"))
			o.dist = D_EXP;
		else if (!strcmp(dist, "pareto"))
			o.dist = D_PARETO;
		else if (strcmp(dist, "fixed"))
			die("--dist fixed|exp|pareto");
	}
	if (prof) {
		if (dist || have_size || have_iv)
			die("--profile sets sizes and intervals; drop --size/--interval/--dist");
		o.profile = profile_find(prof);
		if (!o.profile)
			die("unknown profile '%s' (thin-gen profiles)", prof);
		o.dist = D_PROFILE;
	}
	return do_send(&o);
}
