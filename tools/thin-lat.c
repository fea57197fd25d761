// SPDX-License-Identifier: GPL-2.0-or-later
/* thin-lat: thin-stream traffic and application-layer latency.
 *
 *   thin-lat sink --proto sctp|tcp --port P --seconds S --out FILE
 *   thin-lat send --proto sctp|tcp --addr A --port P --assocs N
 *		   --size BYTES --interval MS --seconds S [--thin FLAGS]
 *
 * The sender drives N associations (one-to-one sockets) from one poll
 * loop; association i sends a message every MS ms, offset by i * MS / N.
 * Each message starts with (association, sequence, send time in
 * CLOCK_REALTIME ns); sender and sink are network namespaces of one
 * machine, so the clocks agree.  The sink logs "assoc seq latency_us" for
 * every message into FILE, so latency includes head-of-line blocking,
 * and prints a summary.  For SCTP it also reports the duplicate chunks
 * the receiver saw (spurious retransmissions).  Nagle is off at the
 * sender and delayed SACK/ACK off at the sink, as in the paper's lab.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <linux/sctp.h>
#include <linux/sctp_thin.h>

#define MAX_CONN	1024
#define HDR		16

struct opts {
	int sctp, port, assocs, size, interval, seconds;
	long thin;
	const char *addr, *out;
};

static uint64_t now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static void put32(char *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

static int do_sink(struct opts *o)
{
	struct sctp_sack_info sack = { .sack_delay = 200, .sack_freq = 1 };
	struct sockaddr_in a = { .sin_family = AF_INET };
	static struct pollfd pfd[MAX_CONN + 1];
	static int have[MAX_CONN + 1];
	static unsigned long long conn_dups[MAX_CONN + 1];
	int accepted = 0, open = 0;
	uint64_t end = now_ns(CLOCK_MONOTONIC) + o->seconds * 1000000000ull;
	uint32_t *lat = NULL;
	size_t nlat = 0, cap = 0, i;
	unsigned long long dups = 0;
	int lfd, n = 1, one = 1;
	char buf[65536];
	FILE *f;

	a.sin_port = htons(o->port);
	lfd = socket(AF_INET, SOCK_STREAM, o->sctp ? IPPROTO_SCTP : IPPROTO_TCP);
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (o->sctp)
		setsockopt(lfd, IPPROTO_SCTP, SCTP_DELAYED_SACK, &sack,
			   sizeof(sack));
	if (bind(lfd, (struct sockaddr *)&a, sizeof(a)) || listen(lfd, 128)) {
		perror("bind/listen");
		return 1;
	}
	f = fopen(o->out, "w");
	if (!f) {
		perror(o->out);
		return 1;
	}
	pfd[0].fd = lfd;
	pfd[0].events = POLLIN;
	/* Until every connection the sender opened has closed (the sender
	 * closes after its data is delivered), or --seconds at most.
	 */
	while (now_ns(CLOCK_MONOTONIC) < end && !(accepted && !open)) {
		if (poll(pfd, n, 200) <= 0)
			continue;
		if (pfd[0].revents & POLLIN && n <= MAX_CONN) {
			pfd[n].fd = accept(lfd, NULL, NULL);
			pfd[n].events = POLLIN;
			have[n] = 0;
			conn_dups[n] = 0;
			accepted++;
			open++;
			if (!o->sctp)
				setsockopt(pfd[n].fd, IPPROTO_TCP, TCP_NODELAY,
					   &one, sizeof(one));
			n++;
		}
		for (i = 1; i < (size_t)n; i++) {
			ssize_t r;
			int want = o->sctp ? (int)sizeof(buf) : o->size - have[i];

			if (!(pfd[i].revents & POLLIN) || pfd[i].fd < 0)
				continue;
			r = recv(pfd[i].fd, buf + (o->sctp ? 0 : have[i]), want, 0);
			if (r <= 0) {
				pfd[i].fd = -pfd[i].fd - 1;
				open--;
				continue;
			}
			if (o->sctp) {
				/* the association's counters are gone once it
				 * has shut down: keep the latest
				 */
				struct sctp_assoc_stats st;
				socklen_t len = sizeof(st);

				memset(&st, 0, sizeof(st));
				if (!getsockopt(pfd[i].fd, IPPROTO_SCTP, SCTP_GET_ASSOC_STATS,
						&st, &len))
					conn_dups[i] = st.sas_idupchunks;
			}
			if (!o->sctp) {
				setsockopt(pfd[i].fd, IPPROTO_TCP, TCP_QUICKACK,
					   &one, sizeof(one));
				have[i] += r;
				if (have[i] < o->size)
					continue;
				have[i] = 0;
			}
			if (r < HDR && o->sctp)
				continue;
			{
				uint32_t as, seq;
				uint64_t sent, l;

				memcpy(&as, buf, 4);
				memcpy(&seq, buf + 4, 4);
				memcpy(&sent, buf + 8, 8);
				l = (now_ns(CLOCK_REALTIME) - sent) / 1000;
				fprintf(f, "%u %u %llu\n", as, seq,
					(unsigned long long)l);
				if (nlat == cap) {
					cap = cap ? cap * 2 : 4096;
					lat = realloc(lat, cap * sizeof(*lat));
				}
				lat[nlat++] = l;
			}
		}
	}
	for (i = 1; o->sctp && i < (size_t)n; i++)
		dups += conn_dups[i];
	fclose(f);
	qsort(lat, nlat, sizeof(*lat), cmp_u32);
	if (!nlat) {
		printf("messages=0\n");
		return 1;
	}
	{
		double sum = 0;
		size_t late = 0;

		for (i = 0; i < nlat; i++) {
			sum += lat[i];
			late += lat[i] > 400000;
		}
		printf("messages=%zu\nmean_ms=%.1f\np50_ms=%.1f\np99_ms=%.1f\n"
		       "p999_ms=%.1f\nmax_ms=%.1f\nlate_400ms_pct=%.2f\n"
		       "dup_chunks=%llu\n", nlat, sum / nlat / 1000,
		       lat[nlat / 2] / 1000.0, lat[nlat * 99 / 100] / 1000.0,
		       lat[nlat * 999 / 1000] / 1000.0, lat[nlat - 1] / 1000.0,
		       100.0 * late / nlat, o->sctp ? dups : 0);
	}
	free(lat);
	return 0;
}

static int do_send(struct opts *o)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	uint64_t start, end, next[MAX_CONN], step;
	uint32_t seq[MAX_CONN] = { 0 };
	int fd[MAX_CONN], i, one = 1;
	unsigned long long sent = 0;
	char *buf = calloc(1, o->size < HDR ? HDR : o->size);

	a.sin_port = htons(o->port);
	inet_pton(AF_INET, o->addr, &a.sin_addr);
	for (i = 0; i < o->assocs; i++) {
		fd[i] = socket(AF_INET, SOCK_STREAM,
			       o->sctp ? IPPROTO_SCTP : IPPROTO_TCP);
		if (o->sctp) {
			setsockopt(fd[i], IPPROTO_SCTP, SCTP_NODELAY, &one,
				   sizeof(one));
			if (o->thin >= 0) {
				struct sctp_thin_params p = {
					.stp_assoc_id = SCTP_FUTURE_ASSOC,
					.stp_flags = o->thin,
				};

				if (setsockopt(fd[i], IPPROTO_SCTP, SCTP_THIN, &p,
					       sizeof(p)))
					perror("SCTP_THIN (not thin-sctp?)");
			}
		} else {
			setsockopt(fd[i], IPPROTO_TCP, TCP_NODELAY, &one,
				   sizeof(one));
		}
		if (connect(fd[i], (struct sockaddr *)&a, sizeof(a))) {
			perror("connect");
			return 1;
		}
	}
	start = now_ns(CLOCK_MONOTONIC);
	end = start + o->seconds * 1000000000ull;
	step = o->interval * 1000000ull;
	for (i = 0; i < o->assocs; i++)
		next[i] = start + step * i / o->assocs;
	for (;;) {
		uint64_t t = now_ns(CLOCK_MONOTONIC), soon = UINT64_MAX;

		if (t >= end)
			break;
		for (i = 0; i < o->assocs; i++) {
			if (next[i] <= t) {
				uint64_t rt = now_ns(CLOCK_REALTIME);

				put32(buf, i);
				put32(buf + 4, seq[i]++);
				memcpy(buf + 8, &rt, 8);
				if (send(fd[i], buf, o->size, 0) == o->size)
					sent++;
				next[i] += step;
			}
			if (next[i] < soon)
				soon = next[i];
		}
		if (soon > t) {
			struct timespec ts = { 0, (long)(soon - t) };

			if (soon - t >= 1000000000ull) {
				ts.tv_sec = (soon - t) / 1000000000ull;
				ts.tv_nsec = (soon - t) % 1000000000ull;
			}
			nanosleep(&ts, NULL);
		}
	}
	printf("sent=%llu\n", sent);
	/* close() is graceful: SCTP and TCP deliver what is still queued or
	 * being retransmitted, then the sink sees the end of each connection.
	 */
	sleep(3);
	for (i = 0; i < o->assocs; i++)
		close(fd[i]);
	return 0;
}

int main(int argc, char **argv)
{
	struct opts o = { .sctp = 1, .port = 6000, .assocs = 1, .size = 100,
			  .interval = 250, .seconds = 10, .thin = -1,
			  .addr = "127.0.0.1", .out = "/dev/null" };
	int i;

	if (argc < 2)
		goto usage;
	for (i = 2; i + 1 < argc; i += 2) {
		const char *k = argv[i], *v = argv[i + 1];

		if (!strcmp(k, "--proto"))
			o.sctp = !strcmp(v, "sctp");
		else if (!strcmp(k, "--port"))
			o.port = atoi(v);
		else if (!strcmp(k, "--assocs"))
			o.assocs = atoi(v);
		else if (!strcmp(k, "--size"))
			o.size = atoi(v);
		else if (!strcmp(k, "--interval"))
			o.interval = atoi(v);
		else if (!strcmp(k, "--seconds"))
			o.seconds = atoi(v);
		else if (!strcmp(k, "--thin"))
			o.thin = strtol(v, NULL, 0);
		else if (!strcmp(k, "--addr"))
			o.addr = v;
		else if (!strcmp(k, "--out"))
			o.out = v;
		else
			goto usage;
	}
	if (o.assocs < 1 || o.assocs > MAX_CONN || o.size < HDR ||
	    o.interval < 1 || o.seconds < 1)
		goto usage;
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(argv[1], "sink"))
		return do_sink(&o);
	if (!strcmp(argv[1], "send"))
		return do_send(&o);
usage:
	fprintf(stderr,
		"usage: thin-lat sink|send [--proto sctp|tcp] [--port P] [--assocs N]\n"
		"	[--size B] [--interval MS] [--seconds S] [--thin FLAGS]\n"
		"	[--addr A] [--out FILE]\n");
	return 2;
}
