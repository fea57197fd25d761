// SPDX-License-Identifier: GPL-2.0-or-later
/* A receiver on another SCTP stack: FreeBSD's, in user space (libusrsctp),
 * for the interop test (interop.sh).
 *
 *   usrsctp-sink -u UDP_PORT -p PORT -l LOG [-t SECONDS]
 *
 * SCTP over UDP (RFC 6951): usrsctp_init(UDP_PORT) receives SCTP packets
 * encapsulated in UDP on UDP_PORT and answers each association over UDP
 * to the port its packets came from.  One one-to-one socket listens on
 * SCTP port PORT with the stack's defaults (delayed SACK 200 ms, a SACK
 * for every second packet: a default receiver), accepts one association
 * and reads every message until the peer shuts it down.  "ready" goes to
 * stdout once it listens.  One line per message to LOG:
 *
 *   <t_ns> <seq> <sid> <ssn> <tsn> <len>
 *
 * t_ns CLOCK_MONOTONIC (thin-drop's clock) when the message was read, seq
 * the decimal number at the start of the payload (thin-send's), sid, ssn
 * and tsn from SCTP_RCVINFO (tsn: the message's last chunk).  At the end
 * key=value lines on stdout: messages, the association's end ("shutdown",
 * "timeout" after SECONDS, default 120) and the stack's own counters
 * (usrsctp_get_stat(): DATA chunks received, duplicates among them,
 * SACKs sent, packets with a bad CRC32c).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <usrsctp.h>

static unsigned long messages;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void report(const char *end)
{
	struct sctpstat st;

	memset(&st, 0, sizeof(st));
	usrsctp_get_stat(&st);
	pthread_mutex_lock(&lock);
	printf("end=%s\nmessages=%lu\n", end, messages);
	printf("recvpktwithdata=%u\nrecvdata=%u\nrecvdupdata=%u\n",
	       st.sctps_recvpktwithdata, st.sctps_recvdata,
	       st.sctps_recvdupdata);
	printf("sendsacks=%u\nrecvpackets=%u\nsendpackets=%u\n",
	       st.sctps_sendsacks, st.sctps_recvpackets, st.sctps_sendpackets);
	printf("badsum=%u\nchecksumerrors=%u\n", st.sctps_badsum,
	       st.sctps_checksumerrors);
	fflush(stdout);
	pthread_mutex_unlock(&lock);
}

/* SECONDS passed: say so, with the counters, and end (a blocking read in
 * usrsctp waits on a condition variable, which no signal interrupts).
 */
static void *watchdog(void *arg)
{
	sleep(*(int *)arg);
	report("timeout");
	_exit(3);
	return NULL;
}

int main(int argc, char **argv)
{
	int opt, udp_port = 9899, port = 0, seconds = 120, on = 1;
	struct sockaddr_in a = { .sin_family = AF_INET };
	const char *logname = NULL;
	struct socket *lsk, *sk;
	pthread_t wd;
	char buf[65536];
	FILE *log;

	setvbuf(stdout, NULL, _IOLBF, 0);
	while ((opt = getopt(argc, argv, "u:p:l:t:")) != -1) {
		switch (opt) {
		case 'u':
			udp_port = atoi(optarg);
			break;
		case 'p':
			port = atoi(optarg);
			break;
		case 'l':
			logname = optarg;
			break;
		case 't':
			seconds = atoi(optarg);
			break;
		default:
			port = 0;
		}
	}
	if (!port || !logname) {
		fprintf(stderr, "usage: %s -u UDP_PORT -p PORT -l LOG [-t SECONDS]\n",
			argv[0]);
		return 2;
	}
	log = fopen(logname, "w");
	if (!log) {
		perror(logname);
		return 1;
	}
	setvbuf(log, NULL, _IOLBF, 0);
	pthread_create(&wd, NULL, watchdog, &seconds);
	usrsctp_init(udp_port, NULL, NULL);
	lsk = usrsctp_socket(AF_INET, SOCK_STREAM, IPPROTO_SCTP, NULL, NULL,
			     0, NULL);
	if (!lsk) {
		perror("usrsctp_socket");
		return 1;
	}
	if (usrsctp_setsockopt(lsk, IPPROTO_SCTP, SCTP_RECVRCVINFO, &on,
			       sizeof(on)))
		perror("SCTP_RECVRCVINFO");
	a.sin_port = htons(port);
	if (usrsctp_bind(lsk, (struct sockaddr *)&a, sizeof(a)) ||
	    usrsctp_listen(lsk, 1)) {
		perror("bind/listen");
		return 1;
	}
	printf("ready\n");
	sk = usrsctp_accept(lsk, NULL, NULL);
	if (!sk) {
		perror("usrsctp_accept");
		return 1;
	}
	for (;;) {
		struct sctp_rcvinfo ri;
		struct sockaddr_in from;
		socklen_t fromlen = sizeof(from), ilen = sizeof(ri);
		unsigned int itype = 0;
		size_t len = 0;
		ssize_t n;
		int flags;
		uint64_t t;

		/* a message may come in pieces; MSG_EOR ends it */
		do {
			flags = 0;
			n = usrsctp_recvv(sk, buf + len, sizeof(buf) - 1 - len,
					  (struct sockaddr *)&from, &fromlen,
					  &ri, &ilen, &itype, &flags);
			if (n <= 0)
				break;
			len += n;
		} while (!(flags & MSG_EOR) && len < sizeof(buf) - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (flags & MSG_NOTIFICATION)
			continue;
		t = now_ns();
		buf[len] = 0;
		pthread_mutex_lock(&lock);
		messages++;
		pthread_mutex_unlock(&lock);
		fprintf(log, "%llu %ld %u %u %u %zu\n", (unsigned long long)t,
			strtol(buf, NULL, 10),
			itype == SCTP_RECVV_RCVINFO ? ri.rcv_sid : 65535u,
			itype == SCTP_RECVV_RCVINFO ? ri.rcv_ssn : 65535u,
			itype == SCTP_RECVV_RCVINFO ? ri.rcv_tsn : 0u, len);
	}
	fclose(log);
	report("shutdown");
	usrsctp_close(sk);
	usrsctp_close(lsk);
	return 0;
}
