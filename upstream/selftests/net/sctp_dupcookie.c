// SPDX-License-Identifier: GPL-2.0
/* Helper of sctp_dupcookie.sh.
 *
 *   sctp_dupcookie server accept|peeloff PORT
 *	one association, moved to a socket of its own by accept() (a
 *	one-to-one socket) or SCTP_SOCKOPT_PEELOFF (a one-to-many socket, as
 *	soon as the association exists); exits 0 once the client's message
 *	has arrived on that socket
 *   sctp_dupcookie client IP PORT TIMEOUT_MS
 *	connect() within TIMEOUT_MS (SO_SNDTIMEO bounds an SCTP connect),
 *	send one message, wait for the server to close; exits 0 if connected
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include <linux/sctp.h>

#define MSG "hello"
#define WAIT_S 15

static void set_timeout(int sk, int opt, long ms)
{
	struct timeval tv = { .tv_sec = ms / 1000, .tv_usec = ms % 1000 * 1000 };

	if (setsockopt(sk, SOL_SOCKET, opt, &tv, sizeof(tv)) < 0) {
		perror("setsockopt");
		exit(1);
	}
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The first association of one-to-many socket lsk, peeled off. */
static int peeloff_first(int lsk)
{
	sctp_assoc_t buf[2];	/* struct sctp_assoc_ids and one id */
	struct sctp_assoc_ids *ids = (struct sctp_assoc_ids *)buf;
	sctp_peeloff_arg_t arg;
	socklen_t len;
	int i;

	for (i = 0; i < WAIT_S * 100; i++) {
		len = sizeof(buf);
		if (!getsockopt(lsk, IPPROTO_SCTP, SCTP_GET_ASSOC_ID_LIST, ids, &len) &&
		    ids->gaids_number_of_ids >= 1)
			break;
		usleep(10000);
	}
	if (i == WAIT_S * 100) {
		fprintf(stderr, "server: no association\n");
		return -1;
	}
	memset(&arg, 0, sizeof(arg));
	arg.associd = ids->gaids_assoc_id[0];
	len = sizeof(arg);
	if (getsockopt(lsk, IPPROTO_SCTP, SCTP_SOCKOPT_PEELOFF, &arg, &len) < 0) {
		perror("server: SCTP_SOCKOPT_PEELOFF");
		return -1;
	}
	printf("server: peeled off association %d\n", arg.associd);
	return arg.sd;
}

static int do_server(const char *mode, const char *port)
{
	struct sockaddr_in sa = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_ANY),
		.sin_port = htons(atoi(port)),
	};
	int peeloff = !strcmp(mode, "peeloff");
	char buf[64];
	int lsk, sk;
	ssize_t n;

	lsk = socket(AF_INET, peeloff ? SOCK_SEQPACKET : SOCK_STREAM,
		     IPPROTO_SCTP);
	if (lsk < 0 || bind(lsk, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    listen(lsk, 5) < 0) {
		perror("server: socket, bind or listen");
		return 1;
	}
	if (peeloff) {
		sk = peeloff_first(lsk);
	} else {
		set_timeout(lsk, SO_RCVTIMEO, WAIT_S * 1000);
		sk = accept(lsk, NULL, NULL);
		if (sk < 0)
			perror("server: accept");
	}
	if (sk < 0)
		return 1;
	set_timeout(sk, SO_RCVTIMEO, WAIT_S * 1000);
	n = recv(sk, buf, sizeof(buf), 0);
	if (n != strlen(MSG)) {
		fprintf(stderr, "server: no message on the new socket (%zd, %s)\n",
			n, n < 0 ? strerror(errno) : "-");
		return 1;
	}
	printf("server: got the message on the new socket\n");
	close(sk);
	close(lsk);
	return 0;
}

static int do_client(const char *ip, const char *port, const char *timeout)
{
	struct sockaddr_in sa = {
		.sin_family = AF_INET,
		.sin_port = htons(atoi(port)),
	};
	long t0, ms;
	char buf[64];
	int sk;

	if (inet_pton(AF_INET, ip, &sa.sin_addr) != 1) {
		fprintf(stderr, "client: bad address %s\n", ip);
		return 1;
	}
	sk = socket(AF_INET, SOCK_STREAM, IPPROTO_SCTP);
	if (sk < 0) {
		perror("client: socket");
		return 1;
	}
	set_timeout(sk, SO_SNDTIMEO, atol(timeout));
	t0 = now_ms();
	if (connect(sk, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		ms = now_ms() - t0;
		printf("client: connect() failed after %ld ms: %s\n", ms,
		       errno == EINPROGRESS ? "still in progress (timeout)" :
		       strerror(errno));
		return 1;
	}
	printf("client: connected after %ld ms\n", now_ms() - t0);
	if (send(sk, MSG, strlen(MSG), 0) != strlen(MSG)) {
		perror("client: send");
		return 1;
	}
	set_timeout(sk, SO_RCVTIMEO, WAIT_S * 1000);
	recv(sk, buf, sizeof(buf), 0);	/* until the server closes */
	close(sk);
	return 0;
}

int main(int argc, char *argv[])
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 4 && !strcmp(argv[1], "server") &&
	    (!strcmp(argv[2], "accept") || !strcmp(argv[2], "peeloff")))
		return do_server(argv[2], argv[3]);
	if (argc == 5 && !strcmp(argv[1], "client"))
		return do_client(argv[2], argv[3], argv[4]);
	fprintf(stderr, "usage: %s server accept|peeloff PORT\n"
		"       %s client IP PORT TIMEOUT_MS\n", argv[0], argv[0]);
	return 1;
}
