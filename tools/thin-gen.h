/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * thin-gen's shared declarations (thin-gen.c describes the tool, its
 * messages and its logs).  The files, one concern each:
 *
 *   thin-gen.c          main(): the modes, the stop flag, open_log()
 *   thin-gen-opts.c     the command line: options, --thin, --phases, usage
 *   thin-gen-profile.c  the Table 1 profiles and profile-stats
 *   thin-gen-send.c     the sender: schedule, queues, writes, drain, summary
 *   thin-gen-assoc.c    the sender's sockets: set-up, connect, notifications,
 *                       SCTP_THIN and SCTP_THIN_INFO
 *   thin-gen-sink.c     the sink
 *
 * Every file includes this one first (it defines _GNU_SOURCE).
 */
#ifndef THIN_GEN_H
#define THIN_GEN_H

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
#define THIN_STOP_EXTERN
#include "thin-util.h"

#define HDR_LEN		16
#define MAX_MSG		65535
#define MAX_ASSOCS	16384
#define MAX_PORTS	16384

enum { P_SCTP, P_TCP };
enum { D_FIXED, D_EXP, D_PARETO, D_PROFILE };

static inline void warnx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("thin-gen: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ------------------------------------------------------------------ */
/* Profiles (thin-gen-profile.c) */

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

/* ------------------------------------------------------------------ */
/* Options (thin-gen-opts.c) */

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
	int shut_usr2;
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
	/* as given, for opts_check_send() */
	const char *dist_arg, *profile_arg;
	int have_size, have_iv;
};

/* thin-gen's modes (its first argument) */
enum { M_SEND, M_SINK, M_PSTATS, M_PROFILES };

/* the payload after the header: byte j of message seq */
static inline uint8_t pattern(uint32_t seq, size_t j)
{
	return (uint8_t)(seq * 31 + j * 7);
}

/* ------------------------------------------------------------------ */
/* Sender (thin-gen-send.c, thin-gen-assoc.c) */

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
	int quiet;		/* --shutdown-usr2: 1 no new messages, 2 shut */
	uint64_t phase_end;	/* ns, CLOCK_MONOTONIC */
	/* the traffic's start and end, the next --progress line and
	 * --state-log sample (0: none), ns, CLOCK_MONOTONIC
	 */
	uint64_t t0, end, next_prog, next_state;
	int tfd;		/* the timerfd of the main loop */
	struct pollfd *pfd;	/* its poll() set */
	char buf[MAX_MSG];
};

/* thin-gen.c */
FILE *open_log(const char *path);

/* thin-gen-opts.c */
int opts_mode(int argc, char **argv);
void opts_parse(int argc, char **argv, struct opts *o);
void opts_check_send(struct opts *o);

/* thin-gen-profile.c */
const struct profile *profile_find(const char *name);
void profile_build(const struct profile *pr, struct qfun *size,
		   struct qfun *iat);
double q_eval(const struct qfun *q, double u);
void profile_list(void);
void profile_names(FILE *f);
int profile_stats_run(struct opts *o);

/* thin-gen-send.c */
void assoc_fail(struct assoc *a, const char *why, int err);
int do_send(struct opts *o);

/* thin-gen-assoc.c */
void sender_connect(struct sender *s);
void wait_for_file(struct sender *s);
void demand_heartbeats(struct sender *s);
extern volatile sig_atomic_t hb_wanted;
extern volatile sig_atomic_t shut_wanted;
void shutdown_step(struct sender *s);
void read_notifications(struct sender *s);
void sender_read(struct sender *s, struct assoc *a);
void thin_summary(struct sender *s);
int state_sample(struct sender *s, uint64_t t_ns);

/* thin-gen-sink.c */
int do_sink(struct opts *o);

#endif /* THIN_GEN_H */
