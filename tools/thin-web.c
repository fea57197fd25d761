// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * thin-web: web-like TCP cross traffic, the congestion load of the SCTP
 * thin-stream paper (Petlund et al. 2009, section 6.2): client programs
 * that each fetch one transfer after another, with exponential think times
 * (mean 655 ms) and Pareto-distributed sizes (minimum 1000 bytes, mean
 * about 9200 bytes, at most about 64 MB).
 *
 *   thin-web server --listen ADDR:PORT [--duration S]
 *   thin-web client --connect ADDR:PORT [--clients 81] [--think-ms 655]
 *                   [--min 1000] [--mean 9200] [--max 64000000]
 *                   --duration S [--seed N] [--log FILE]
 *
 * A client sends the size it wants as 8 bytes (network order); the server
 * answers with that many bytes and closes.  Put the server on the sender's
 * side of the bottleneck so that the transfers share the thin streams'
 * direction.  One process, one event loop (epoll), non-blocking sockets.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <sys/epoll.h>
#include <unistd.h>

#define THIN_PROG "thin-web"
#include "thin-util.h"

#define MAX_CLIENTS	4096
#define CHUNK		65536

static void ep_ctl(int ep, int op, int fd, uint32_t ev, uint64_t data)
{
	struct epoll_event e = { .events = ev, .data.u64 = data };

	if (epoll_ctl(ep, op, fd, &e))
		die("epoll_ctl: %s", strerror(errno));
}

/* ------------------------------------------------------------------ */
/* server */

struct conn {
	int fd, got;
	unsigned char req[8];
	uint64_t left;
};

static int do_server(const char *addr, double duration)
{
	static char zero[CHUNK];
	struct epoll_event ev[64];
	struct sockaddr_storage sa;
	socklen_t salen;
	uint64_t end = now_ns(CLOCK_MONOTONIC) + (uint64_t)(duration * NSEC), served = 0, bytes = 0;
	int ls, ep, one = 1, n, i;

	parse_addr(addr, 0, &sa, &salen);
	ls = socket(sa.ss_family, SOCK_STREAM, 0);
	if (ls < 0)
		die("socket: %s", strerror(errno));
	setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(ls, (struct sockaddr *)&sa, salen) || listen(ls, 1024))
		die("bind/listen %s: %s", addr, strerror(errno));
	set_nonblock(ls);
	ep = epoll_create1(0);
	ep_ctl(ep, EPOLL_CTL_ADD, ls, EPOLLIN, 0);
	while (!stop && now_ns(CLOCK_MONOTONIC) < end) {
		n = epoll_wait(ep, ev, 64, 200);
		for (i = 0; i < n; i++) {
			struct conn *c = (struct conn *)(uintptr_t)ev[i].data.u64;
			ssize_t r;

			if (!c) {
				int fd;

				while ((fd = accept(ls, NULL, NULL)) >= 0) {
					c = calloc(1, sizeof(*c));
					if (!c)
						die("out of memory");
					c->fd = fd;
					set_nonblock(fd);
					ep_ctl(ep, EPOLL_CTL_ADD, fd, EPOLLIN,
					       (uint64_t)(uintptr_t)c);
				}
				continue;
			}
			if (c->got < 8) {
				r = read(c->fd, c->req + c->got, 8 - c->got);
				if (r <= 0) {
					if (r < 0 && errno == EAGAIN)
						continue;
					goto done;
				}
				c->got += r;
				if (c->got < 8)
					continue;
				memcpy(&c->left, c->req, 8);
				c->left = be64toh(c->left);
				ep_ctl(ep, EPOLL_CTL_MOD, c->fd, EPOLLOUT, (uint64_t)(uintptr_t)c);
			}
			while (c->left) {
				r = write(c->fd, zero, c->left < CHUNK ? c->left : CHUNK);
				if (r < 0 && errno == EAGAIN)
					break;
				if (r <= 0)
					goto done;
				c->left -= r;
				bytes += r;
			}
			if (c->left)
				continue;
			served++;
done:
			close(c->fd);
			free(c);
		}
	}
	printf("thin-web server: transfers=%llu bytes=%llu\n",
	       (unsigned long long)served, (unsigned long long)bytes);
	return 0;
}

/* ------------------------------------------------------------------ */
/* client */

struct client {
	int fd, idx;
	uint64_t due, want, got, start;
	uint64_t req;		/* want, network order, until written */
};

struct copts {
	int clients;
	double think_ms, min, mean, max, duration;
	uint64_t seed;
	const char *log;
};

/* Pareto from o->min with average o->mean (shape mean / (mean - min)), cut at o->max */
static uint64_t draw_size(const struct copts *o, uint64_t *rng)
{
	double a = o->mean / (o->mean - o->min), v = o->min / pow(rng_unif(rng), 1 / a);

	return v > o->max ? (uint64_t)o->max : (uint64_t)v;
}

/* exponential think time, ns */
static uint64_t think_ns(const struct copts *o, uint64_t *rng)
{
	return (uint64_t)(-o->think_ms * log(rng_unif(rng)) * 1e6);
}

static int do_client(const char *addr, const struct copts *o)
{
	static char buf[CHUNK];
	struct epoll_event ev[64];
	struct sockaddr_storage sa;
	socklen_t salen;
	struct client *cl;
	uint64_t t0 = now_ns(CLOCK_MONOTONIC), end = t0 + (uint64_t)(o->duration * NSEC), rng, t;
	unsigned long long done = 0, failed = 0, bytes = 0, started = 0;
	double dsum = 0;
	FILE *lf = NULL;
	int ep, i, n, timeout;

	parse_addr(addr, 0, &sa, &salen);
	rng = o->seed * 0x9e3779b97f4a7c15ull + 1;
	cl = calloc(o->clients, sizeof(*cl));
	if (!cl)
		die("out of memory");
	if (o->log) {
		lf = fopen(o->log, "w");
		if (!lf)
			die("cannot open %s: %s", o->log, strerror(errno));
		fprintf(lf, "# thin-web client clients=%d think_ms=%g min=%g mean=%g max=%g\n",
			o->clients, o->think_ms, o->min, o->mean, o->max);
		fprintf(lf, "# client start_ms bytes duration_ms ok\n");
	}
	ep = epoll_create1(0);
	for (i = 0; i < o->clients; i++) {
		cl[i].fd = -1;
		cl[i].idx = i;
		cl[i].due = t0 + think_ns(o, &rng);
	}
	while (!stop) {
		t = now_ns(CLOCK_MONOTONIC);
		if (t >= end)
			break;
		timeout = 100;
		for (i = 0; i < o->clients; i++) {
			struct client *c = &cl[i];

			if (c->fd >= 0)
				continue;
			if (c->due > t) {
				if ((c->due - t) / 1000000 < (uint64_t)timeout)
					timeout = (c->due - t) / 1000000 + 1;
				continue;
			}
			c->fd = socket(sa.ss_family, SOCK_STREAM | SOCK_NONBLOCK, 0);
			if (c->fd < 0)
				die("socket: %s", strerror(errno));
			c->want = draw_size(o, &rng);
			c->got = 0;
			c->start = t;
			started++;
			if (connect(c->fd, (struct sockaddr *)&sa, salen) &&
			    errno != EINPROGRESS) {
				close(c->fd);
				c->fd = -1;
				failed++;
				c->due = t + think_ns(o, &rng);
				continue;
			}
			c->req = htobe64(c->want);
			ep_ctl(ep, EPOLL_CTL_ADD, c->fd, EPOLLOUT, (uint64_t)i);
		}
		n = epoll_wait(ep, ev, 64, timeout);
		if (n < 0 && errno != EINTR)
			die("epoll_wait: %s", strerror(errno));
		for (i = 0; i < n; i++) {
			struct client *c = &cl[ev[i].data.u64];
			ssize_t r;
			int ok = 0;

			if (ev[i].events & EPOLLOUT) {
				r = write(c->fd, &c->req, 8);
				if (r != 8)
					goto finish;
				ep_ctl(ep, EPOLL_CTL_MOD, c->fd, EPOLLIN, ev[i].data.u64);
				continue;
			}
			for (;;) {
				r = read(c->fd, buf, sizeof(buf));
				if (r > 0) {
					c->got += r;
					bytes += r;
					continue;
				}
				break;
			}
			if (r < 0 && errno == EAGAIN)
				continue;
			ok = r == 0 && c->got == c->want;
finish:
			t = now_ns(CLOCK_MONOTONIC);
			if (ok) {
				done++;
				dsum += (t - c->start) / 1e6;
			} else {
				failed++;
			}
			if (lf)
				fprintf(lf, "%d %.1f %llu %.1f %d\n", c->idx,
					(c->start - t0) / 1e6, (unsigned long long)c->got,
					(t - c->start) / 1e6, ok);
			close(c->fd);
			c->fd = -1;
			c->due = t + think_ns(o, &rng);
		}
	}
	t = now_ns(CLOCK_MONOTONIC);
	printf("thin-web client: clients=%d started=%llu completed=%llu failed=%llu ",
	       o->clients, started, done, failed);
	printf("bytes=%llu goodput=%.0f kbit/s mean_transfer_ms=%.0f\n",
	       bytes, bytes * 8 / ((t - t0) / 1e9) / 1000, done ? dsum / done : 0.0);
	if (lf && fclose(lf))
		die("writing %s: %s", o->log, strerror(errno));
	return 0;
}

static void help_exit(int rc)
{
	fprintf(rc ? stderr : stdout,
		"usage:\n"
		"  thin-web server --listen ADDR:PORT [--duration S]\n"
		"  thin-web client --connect ADDR:PORT [--clients N] [--think-ms MS]\n"
		"                  [--min BYTES] [--mean BYTES] [--max BYTES]\n"
		"                  --duration S [--seed N] [--log FILE]\n"
		"Defaults: the paper's section 6.2: 81 clients, think 655 ms (exponential),\n"
		"Pareto sizes with minimum 1000 and mean 9200 bytes, at most 64 MB.\n");
	exit(rc);
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "listen", 1, 0, 'L' }, { "connect", 1, 0, 'C' },
		{ "clients", 1, 0, 'n' }, { "think-ms", 1, 0, 't' },
		{ "min", 1, 0, 'm' }, { "mean", 1, 0, 'a' }, { "max", 1, 0, 'x' },
		{ "duration", 1, 0, 'd' }, { "seed", 1, 0, 's' },
		{ "log", 1, 0, 'l' }, { "help", 0, 0, 'h' }, { 0 }
	};
	struct copts o = {
		.clients = 81, .think_ms = 655, .min = 1000, .mean = 9200,
		.max = 64e6, .duration = -1, .seed = 1,
	};
	const char *addr = NULL;
	int c, server;

	if (argc < 2)
		help_exit(2);
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))
		help_exit(0);
	server = !strcmp(argv[1], "server");
	if (!server && strcmp(argv[1], "client"))
		help_exit(2);
	optind = 2;
	while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (c) {
		case 'L':
		case 'C':
			addr = optarg;
			break;
		case 'n':
			o.clients = num(optarg, "--clients", 1, MAX_CLIENTS);
			break;
		case 't':
			o.think_ms = num(optarg, "--think-ms", 0.001, 3600000);
			break;
		case 'm':
			o.min = num(optarg, "--min", 1, 1e12);
			break;
		case 'a':
			o.mean = num(optarg, "--mean", 1, 1e12);
			break;
		case 'x':
			o.max = num(optarg, "--max", 1, 1e12);
			break;
		case 'd':
			o.duration = num(optarg, "--duration", 0, 1e6);
			break;
		case 's':
			o.seed = strtoull(optarg, NULL, 0);
			break;
		case 'l':
			o.log = optarg;
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
	if (!addr)
		die(server ? "--listen ADDR:PORT is required" : "--connect ADDR:PORT is required");
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGPIPE, SIG_IGN);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (server)
		return do_server(addr, o.duration < 0 ? 3600 : o.duration);
	if (o.duration < 0)
		die("--duration S is required");
	if (o.mean <= o.min)
		die("--mean must be larger than --min (Pareto shape mean / (mean - min))");
	if (o.max < o.min)
		die("--max must be at least --min");
	return do_client(addr, &o);
}
