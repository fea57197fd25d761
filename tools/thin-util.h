/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Helpers shared by the user-space tools (thin-gen, thin-web): errors,
 * clocks, option numbers, addresses, a random number generator.  Each tool
 * defines THIN_PROG (its name, for messages) before including this.
 */
#ifndef THIN_UTIL_H
#define THIN_UTIL_H

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#define NSEC		1000000000ull
#define MSEC		1000000ull

/*
 * SIGINT and SIGTERM set the stop flag (on_signal()).  A tool of several
 * files defines THIN_STOP_EXTERN before including this, and both in one of
 * them (thin-gen: thin-gen.c), so that every file sees the one flag.
 */
#ifdef THIN_STOP_EXTERN
extern volatile sig_atomic_t stop;
void on_signal(int sig);
#else
static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}
#endif

static inline void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs(THIN_PROG ": ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static inline uint64_t now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * NSEC + ts.tv_nsec;
}

static inline double num(const char *s, const char *what, double lo, double hi)
{
	char *end;
	double v = strtod(s, &end);

	if (*end || end == s || v < lo || v > hi)
		die("bad %s '%s' (%g..%g)", what, s, lo, hi);
	return v;
}

/* splitmix64: small, fast, good enough for traffic models */
static inline uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* uniform in (0, 1) */
static inline double rng_unif(uint64_t *s)
{
	return ((rng_next(s) >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}

/* "A:P", "[A6]:P" or ":P" / "P" (any address) */
static inline void parse_addr(const char *s, int port_add,
			      struct sockaddr_storage *ss, socklen_t *len)
{
	char host[128] = "", *p;
	const char *port;
	long pn;

	memset(ss, 0, sizeof(*ss));
	if (s[0] == '[') {
		p = strchr(s, ']');
		if (!p || p[1] != ':' || p - s - 1 >= (long)sizeof(host))
			die("bad address '%s' (want [ADDR6]:PORT)", s);
		memcpy(host, s + 1, p - s - 1);
		port = p + 2;
	} else if (strrchr(s, ':')) {
		p = strrchr(s, ':');
		if (p - s >= (long)sizeof(host))
			die("bad address '%s'", s);
		memcpy(host, s, p - s);
		port = p + 1;
	} else {
		port = s;
	}
	pn = strtol(port, &p, 10) + port_add;
	if (*p || pn <= 0 || pn > 65535)
		die("bad port in '%s'", s);
	if (strchr(host, ':')) {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)ss;

		a->sin6_family = AF_INET6;
		a->sin6_port = htons(pn);
		if (inet_pton(AF_INET6, host, &a->sin6_addr) != 1)
			die("bad IPv6 address '%s'", host);
		*len = sizeof(*a);
	} else {
		struct sockaddr_in *a = (struct sockaddr_in *)ss;

		a->sin_family = AF_INET;
		a->sin_port = htons(pn);
		if (*host && inet_pton(AF_INET, host, &a->sin_addr) != 1)
			die("bad IPv4 address '%s'", host);
		*len = sizeof(*a);
	}
}

static inline void set_nonblock(int fd)
{
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

#endif /* THIN_UTIL_H */
