// SPDX-License-Identifier: GPL-2.0
/*
 * Helper of sctp_thin.sh: a thin stream over one SCTP association.
 *
 *   sctp_thin server PORT COUNT
 *	accept one association, read COUNT messages, and print for each
 *	"msg N latency_ms L" (the time since the client stamped it; both
 *	ends share CLOCK_MONOTONIC: they are namespaces of one host)
 *   sctp_thin client ADDR PORT COUNT INTERVAL_MS MARK
 *	send COUNT messages of 104 bytes, INTERVAL_MS apart; message MARK
 *	carries payload protocol identifier 7 (the script drops it once),
 *	the others 0
 */
#include <arpa/inet.h>
#include <linux/sctp.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MSG_SIZE	104
#define MARK_PPID	7

/* a message: its number and the time of its send, then padding */
struct msg {
	uint64_t sent_ns;
	uint32_t seq;
	char pad[MSG_SIZE - 12];	/* 104 bytes in all */
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* one message, with @ppid (network order) in an SCTP_SNDRCV cmsg */
static ssize_t send_ppid(int fd, const void *buf, size_t len, uint32_t ppid)
{
	char cbuf[CMSG_SPACE(sizeof(struct sctp_sndrcvinfo))] = { 0 };
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
	struct msghdr mh = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct sctp_sndrcvinfo *info;
	struct cmsghdr *cm;

	cm = CMSG_FIRSTHDR(&mh);
	cm->cmsg_level = IPPROTO_SCTP;
	cm->cmsg_type = SCTP_SNDRCV;
	cm->cmsg_len = CMSG_LEN(sizeof(*info));
	info = (struct sctp_sndrcvinfo *)CMSG_DATA(cm);
	info->sinfo_ppid = ppid;
	return sendmsg(fd, &mh, 0);
}

static int server(int port, int count)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	int fd, c, n = 0, one = 1;
	struct msg m;

	fd = socket(AF_INET, SOCK_STREAM, IPPROTO_SCTP);
	if (fd < 0) {
		perror("socket");
		return 1;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	sin.sin_port = htons(port);
	if (bind(fd, (struct sockaddr *)&sin, sizeof(sin)) || listen(fd, 1)) {
		perror("bind/listen");
		return 1;
	}
	c = accept(fd, NULL, NULL);
	if (c < 0) {
		perror("accept");
		return 1;
	}
	while (n < count) {
		ssize_t r = recv(c, &m, sizeof(m), 0);

		if (r <= 0) {
			perror("recv");
			return 1;
		}
		if (r != sizeof(m))
			continue;
		printf("msg %u latency_ms %.1f\n", m.seq,
		       (now_ns() - m.sent_ns) / 1e6);
		fflush(stdout);
		n++;
	}
	close(c);
	close(fd);
	return 0;
}

static int client(const char *addr, int port, int count, int interval_ms,
		  int mark)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	int fd, i, one = 1;
	struct msg m;

	fd = socket(AF_INET, SOCK_STREAM, IPPROTO_SCTP);
	if (fd < 0) {
		perror("socket");
		return 1;
	}
	setsockopt(fd, IPPROTO_SCTP, SCTP_NODELAY, &one, sizeof(one));
	sin.sin_port = htons(port);
	if (inet_pton(AF_INET, addr, &sin.sin_addr) != 1 ||
	    connect(fd, (struct sockaddr *)&sin, sizeof(sin))) {
		perror("connect");
		return 1;
	}
	memset(&m, 0, sizeof(m));
	for (i = 0; i < count; i++) {
		m.seq = i;
		m.sent_ns = now_ns();
		if (send_ppid(fd, &m, sizeof(m),
			      htonl(i == mark ? MARK_PPID : 0)) != sizeof(m)) {
			perror("sendmsg");
			return 1;
		}
		usleep(interval_ms * 1000);
	}
	/* linger until everything is acknowledged */
	sleep(2);
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "server"))
		return server(atoi(argv[2]), atoi(argv[3]));
	if (argc == 7 && !strcmp(argv[1], "client"))
		return client(argv[2], atoi(argv[3]), atoi(argv[4]),
			      atoi(argv[5]), atoi(argv[6]));
	fprintf(stderr, "usage: %s server PORT COUNT | client ADDR PORT COUNT INTERVAL_MS MARK\n",
		argv[0]);
	return 2;
}
