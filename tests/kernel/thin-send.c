// SPDX-License-Identifier: GPL-2.0-or-later
/* Scenario sender and sink for the in-guest mechanism tests.
 *
 *   thin-send recv PORT SECONDS [default]
 *	one-to-one sink on PORT, delayed SACK off (as in the paper's lab,
 *	section 6), discards data, exits after SECONDS.  "default": the
 *	receiver's delayed SACK as it ships (net.sctp.sack_timeout, 200 ms).
 *   thin-send send ADDR PORT [-n COUNT] [-i MS] [-s SIZE] [-f FLAGS]
 *		    [-r RTO_MIN_MS] [-w WAIT_MS] [-b] [-S T0,T1,...] [-B K]
 *	connects, optionally sets SCTP_THIN (FLAGS, hex or decimal),
 *	sends COUNT messages of SIZE bytes every MS milliseconds (-b: as
 *	fast as the socket takes them; -S: message i at Ti ms after the
 *	first, COUNT = number of times), waits up to WAIT_MS for every chunk
 *	to be acknowledged, then prints the SCTP_THIN_INFO counters and the
 *	unacked count as key=value lines (rto_last: the primary path's RTO
 *	right after the last send).  -B K: first send K messages
 *	back to back and sample packets in flight at once (burst_in_flight).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <linux/sctp.h>
#include "thin-api.h"

static void msleep(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static int do_recv(int port, int seconds, int delayed)
{
	struct sctp_sack_info sack = { .sack_delay = 200, .sack_freq = 1 };
	struct sockaddr_in a = { .sin_family = AF_INET };
	long long end = now_ms() + seconds * 1000LL;
	int lfd, fd, one = 1;
	char buf[65536];

	a.sin_port = htons(port);
	lfd = socket(AF_INET, SOCK_STREAM, IPPROTO_SCTP);
	if (lfd < 0) {
		perror("socket");
		return 1;
	}
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	/* sack_freq 1: a SACK for every packet, no delayed SACK */
	if (!delayed && setsockopt(lfd, IPPROTO_SCTP, SCTP_DELAYED_SACK, &sack,
				   sizeof(sack)))
		perror("SCTP_DELAYED_SACK");
	if (bind(lfd, (struct sockaddr *)&a, sizeof(a)) || listen(lfd, 16)) {
		perror("bind/listen");
		return 1;
	}
	while (now_ms() < end) {
		struct timeval tv = { 1, 0 };

		setsockopt(lfd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		fd = accept(lfd, NULL, NULL);
		if (fd < 0)
			continue;
		if (!fork()) {
			setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
			while (now_ms() < end)
				if (recv(fd, buf, sizeof(buf), 0) == 0)
					break;
			_exit(0);
		}
		close(fd);
	}
	return 0;
}

static int unacked(int fd)
{
	struct sctp_status st;
	socklen_t len = sizeof(st);

	memset(&st, 0, sizeof(st));
	if (getsockopt(fd, IPPROTO_SCTP, SCTP_STATUS, &st, &len))
		return -1;
	return st.sstat_unackdata + st.sstat_penddata;
}

static int do_send(int argc, char **argv)
{
	int n = 10, interval = 250, size = 100, wait = 10000, bulk = 0;
	struct sockaddr_in a = { .sin_family = AF_INET };
	long flags = -1, rto_min = 0, sched[256];
	int nsched = 0, burst = 0, congested_samples = 0;
	unsigned int burst_flight = 0;
	struct sctp_status status;
	socklen_t slen;
	struct sctp_thin_info info;
	int fd, i, opt, one = 1;
	long long t0, next;
	char *buf;

	if (argc < 3)
		return 2;
	inet_pton(AF_INET, argv[1], &a.sin_addr);
	a.sin_port = htons(atoi(argv[2]));
	optind = 3;
	while ((opt = getopt(argc, argv, "n:i:s:f:r:w:bS:B:")) != -1) {
		switch (opt) {
		case 'n':
			n = atoi(optarg);
			break;
		case 'i':
			interval = atoi(optarg);
			break;
		case 's':
			size = atoi(optarg);
			break;
		case 'f':
			flags = strtol(optarg, NULL, 0);
			break;
		case 'r':
			rto_min = atol(optarg);
			break;
		case 'w':
			wait = atoi(optarg);
			break;
		case 'b':
			bulk = 1;
			break;
		case 'B':
			burst = atoi(optarg);
			break;
		case 'S': {
			char *p = optarg;

			while (*p && nsched < 256) {
				sched[nsched++] = strtol(p, &p, 10);
				if (*p == ',')
					p++;
			}
			n = nsched;
			break;
		}
		default:
			return 2;
		}
	}
	buf = calloc(1, size);
	fd = socket(AF_INET, SOCK_STREAM, IPPROTO_SCTP);
	setsockopt(fd, IPPROTO_SCTP, SCTP_NODELAY, &one, sizeof(one));
	if (flags >= 0) {
		struct sctp_thin_params p = {
			.stp_assoc_id = SCTP_FUTURE_ASSOC,
			.stp_flags = flags,
			.stp_rto_min = rto_min,
		};

		if (setsockopt(fd, IPPROTO_SCTP, SCTP_THIN, &p, sizeof(p))) {
			perror("SCTP_THIN");
			return 1;
		}
	}
	if (connect(fd, (struct sockaddr *)&a, sizeof(a))) {
		perror("connect");
		return 1;
	}
	for (i = 0; i < burst; i++)
		send(fd, buf, size, 0);
	if (burst) {
		memset(&info, 0, sizeof(info));
		thin_api_info(fd, &info);
		burst_flight = info.sti_in_flight;
		msleep(1000);
	}
	t0 = now_ms();
	next = t0;
	for (i = 0; i < n; i++) {
		if (!bulk) {
			long long d = next - now_ms();

			if (d > 0)
				msleep(d);
			next = nsched ? t0 + sched[i + 1 < nsched ? i + 1 : i] :
					next + interval;
		}
		snprintf(buf, size, "%d", i);
		if (send(fd, buf, size, 0) != size) {
			perror("send");
			return 1;
		}
		if (bulk)
			continue;
		/* the congestion guard's verdict, once per message sent */
		memset(&info, 0, sizeof(info));
		if (!thin_api_info(fd, &info) &&
		    (info.sti_state & SCTP_THIN_STATE_CONGESTED))
			congested_samples++;
	}
	/* The primary path's RTO right after the last send: the T3-rtx of
	 * a lost last message expires that long after it (rto_last, ms).
	 */
	slen = sizeof(status);
	memset(&status, 0, sizeof(status));
	if (!getsockopt(fd, IPPROTO_SCTP, SCTP_STATUS, &status, &slen))
		printf("rto_last=%u\n", status.sstat_primary.spinfo_rto);
	/* Counters at the end of the send phase, before the tail drains. */
	memset(&info, 0, sizeof(info));
	thin_api_info(fd, &info);
	printf("mid_fast_rtx=%llu\nmid_linear_timeouts=%llu\n"
	       "mid_restart_corrections=%llu\nmid_rto_min_clamps=%llu\n",
	       info.sti_fast_rtx, info.sti_linear_timeouts,
	       info.sti_restart_corrections, info.sti_rto_min_clamps);
	t0 = now_ms();
	while (unacked(fd) > 0 && now_ms() - t0 < wait)
		msleep(10);
	memset(&info, 0, sizeof(info));
	if (thin_api_info(fd, &info))
		perror("SCTP_THIN_INFO");
	printf("burst_in_flight=%u\n", burst_flight);
	printf("congested_samples=%d\n", congested_samples);
	printf("unacked=%d\nflags=%u\nstate=%u\nin_flight=%u\nlossrate=%u\n"
	       "transitions=%u\npkts_sent=%llu\npkts_lost=%llu\ntimeouts=%llu\n"
	       "linear_timeouts=%llu\nfast_rtx=%llu\nrto_min_clamps=%llu\n"
	       "restart_corrections=%llu\nguard_undone=%llu\n"
	       "strikes_deferred=%llu\nresyncs=%llu\nsack_immediately=%llu\n",
	       unacked(fd),
	       info.sti_flags,
	       info.sti_state, info.sti_in_flight, info.sti_lossrate,
	       info.sti_transitions, info.sti_pkts_sent, info.sti_pkts_lost,
	       info.sti_timeouts, info.sti_linear_timeouts, info.sti_fast_rtx,
	       info.sti_rto_min_clamps, info.sti_restart_corrections,
	       info.sti_guard_undone, info.sti_strikes_deferred,
	       info.sti_resyncs, info.sti_sack_immediately);
	printf("rdb_chunks=%llu\nrdb_bytes=%llu\nrdb_repaired=%llu\nrdb_gated=%llu\n",
	       info.sti_rdb_chunks, info.sti_rdb_bytes, info.sti_rdb_repaired,
	       info.sti_rdb_gated);
	printf("probes=%llu\nprobes_spurious=%llu\nprobes_repaired=%llu\n",
	       info.sti_probes, info.sti_probes_spurious,
	       info.sti_probes_repaired);
	printf("rack_lost=%llu\nrack_held=%llu\nrack_reo_mult=%llu\n",
	       info.sti_rack_lost, info.sti_rack_held,
	       info.sti_rack_reo_mult);
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc >= 4 && !strcmp(argv[1], "recv"))
		return do_recv(atoi(argv[2]), atoi(argv[3]),
			       argc >= 5 && !strcmp(argv[4], "default"));
	if (argc >= 2 && !strcmp(argv[1], "send"))
		return do_send(argc - 1, argv + 1);
	fprintf(stderr, "usage: %s recv PORT SECONDS [default] | send ADDR PORT [opts]\n",
		argv[0]);
	return 2;
}
