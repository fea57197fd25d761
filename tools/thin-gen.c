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
 */
#include "thin-gen.h"

/* set by SIGINT and SIGTERM: the sender and the sink end */
volatile sig_atomic_t stop;

void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* a log file (--log, --events, --state-log), NULL for none */
FILE *open_log(const char *path)
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
		profile_list();
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

	if (pstats)
		return profile_stats_run(prof, &o);

	if (o.proto < 0)
		die("--proto sctp|tcp is required");
	if (!o.addr)
		die(sink ? "--listen ADDR:PORT is required" : "--connect ADDR:PORT is required");
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGPIPE, SIG_IGN);
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
