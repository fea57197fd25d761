// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * thin-gen's command line: the mode, the options (in four groups: the
 * endpoints and run time, the traffic, the socket options, the files and
 * the warm-up), --thin's flags, --phases, the checks of a send's options
 * against each other, and the usage.
 */
#include "thin-gen.h"

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
		{ "probe", SCTP_THIN_TAIL_PROBE },
		{ "tail_probe", SCTP_THIN_TAIL_PROBE },
		{ "rack", SCTP_THIN_RACK },
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
		"                [--shutdown-usr2]\n"
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
		"--shutdown-usr2: a first SIGUSR2 stops new messages, a second shuts every\n"
		"  association down (SHUT_WR); notifications are read until --duration ends.\n"
		"Without --thin the socket keeps the module's defaults (sysctls).\n"
		"One-to-many: association i goes to PORT+i (sink --ports N).\n"
		"profiles:");
	profile_names(rc ? stderr : stdout);
	fputc('\n', rc ? stderr : stdout);
	exit(rc);
}

static const struct option long_opts[] = {
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
	{ "heartbeat-usr1", 0, 0, 'K' }, { "shutdown-usr2", 0, 0, 'Z' },
	{ "help", 0, 0, 'h' }, { 0 }
};

/* The mode, argv[1]; -h, --help and anything unknown: the usage. */
int opts_mode(int argc, char **argv)
{
	const char *mode;

	if (argc < 2)
		help_exit(2);
	mode = argv[1];
	if (!strcmp(mode, "-h") || !strcmp(mode, "--help"))
		help_exit(0);
	if (!strcmp(mode, "profiles"))
		return M_PROFILES;
	if (!strcmp(mode, "sink"))
		return M_SINK;
	if (!strcmp(mode, "send"))
		return M_SEND;
	if (strcmp(mode, "profile-stats"))
		help_exit(2);
	return M_PSTATS;
}

/* Each group below: 1 if option @c is one of its own (and set), else 0. */

/* the endpoints, the log, how long */
static int opt_conn(struct opts *o, int c)
{
	switch (c) {
	case 'P':
		if (!strcmp(optarg, "sctp"))
			o->proto = P_SCTP;
		else if (!strcmp(optarg, "tcp"))
			o->proto = P_TCP;
		else
			die("--proto sctp|tcp");
		break;
	case 'L':
	case 'C':
		o->addr = optarg;
		break;
	case 'l':
		o->log = optarg;
		break;
	case 'S':
		o->sack_off = 1;
		break;
	case 'o':
		o->ports = num(optarg, "--ports", 1, MAX_PORTS);
		break;
	case 'x':
		o->expect = num(optarg, "--expect", 1, 1e6);
		break;
	case 't':
		o->duration = num(optarg, "--duration", 0, 1e6);
		break;
	case 'D':
		o->drain = num(optarg, "--drain", 0, 3600);
		break;
	case 'g':
		o->progress = num(optarg, "--progress", 0, 3600);
		break;
	case 'w':
		o->connect_timeout = num(optarg, "--connect-timeout", 0.1, 3600);
		break;
	default:
		return 0;
	}
	return 1;
}

/* the traffic: associations, sizes, intervals, profiles, profile-stats */
static int opt_traffic(struct opts *o, int c)
{
	switch (c) {
	case 'n':
		o->assocs = num(optarg, "--assocs", 1, MAX_ASSOCS);
		break;
	case 's':
		if (!strcmp(optarg, "one-to-many"))
			o->one_to_many = 1;
		else if (strcmp(optarg, "one-to-one"))
			die("--style one-to-one|one-to-many");
		break;
	case 'z':
		o->size = num(optarg, "--size", HDR_LEN, MAX_MSG);
		o->have_size = 1;
		break;
	case 'i':
		o->interval = num(optarg, "--interval", 0.01, 3600000);
		o->have_iv = 1;
		break;
	case 'd':
		o->dist_arg = optarg;
		break;
	case 'p':
		o->profile_arg = optarg;
		break;
	case 'a':
		o->pareto_shape = num(optarg, "--pareto-shape", 1.01, 100);
		break;
	case 'F':
		parse_phases(o, optarg);
		break;
	case 'e':
		o->seed = strtoull(optarg, NULL, 0);
		break;
	case 'm':
		o->samples = num(optarg, "--samples", 100, 1e8);
		break;
	case 'c':
		o->check = num(optarg, "--check", 0, 1000);
		break;
	default:
		return 0;
	}
	return 1;
}

/* the socket options: Nagle, SCTP_THIN, RTO.Min, TCP's linear timeouts */
static int opt_sock(struct opts *o, int c)
{
	switch (c) {
	case 'N':
		o->nodelay = 1;
		break;
	case 'T':
		if (parse_thin(optarg, &o->thin_flags))
			die("bad --thin '%s'", optarg);
		o->thin_set = 1;
		break;
	case 'X':
		o->thin_strict = 1;
		break;
	case 'R':
		o->thin_rto_min = num(optarg, "--thin-rto-min", 1, 1e7);
		break;
	case 'B':
		o->thin_rdb_packets = num(optarg, "--thin-rdb-packets", 1, 8);
		break;
	case 'r':
		o->rto_min = num(optarg, "--rto-min", 1, 1e7);
		break;
	case 'H':
		o->tcp_thin = 1;
		break;
	case 'I':
		o->sack_imm = 1;
		break;
	case 'M':
		o->thin_lt_max = num(optarg, "--thin-linear-max", 1, 1000);
		break;
	default:
		return 0;
	}
	return 1;
}

/* the other files (state, ready, wait, events), the warm-up, connectx */
static int opt_run(struct opts *o, int c)
{
	switch (c) {
	case 'Y':
		o->state_log = optarg;
		break;
	case 'E':
		o->state_every = num(optarg, "--state-every", 1, 3600000);
		break;
	case 'Q':
		o->ready_file = optarg;
		break;
	case 'W':
		o->wait_file = optarg;
		break;
	case 'U':
		o->warmup = 1;
		break;
	case 'u':
		o->warmup_rate = num(optarg, "--warmup-rate", 0, 1e6);
		break;
	case 'J':
		o->connectx = optarg;
		break;
	case 'V':
		o->events = optarg;
		break;
	case 'K':
		o->hb_usr1 = 1;
		break;
	case 'Z':
		o->shut_usr2 = 1;
		break;
	default:
		return 0;
	}
	return 1;
}

/* The options after the mode, each checked alone; dies on a bad one. */
void opts_parse(int argc, char **argv, struct opts *o)
{
	int c;

	*o = (struct opts){
		.proto = -1, .assocs = 1, .size = 100, .interval = 250,
		.duration = -1, .drain = 30, .warmup_rate = 1000, .pareto_shape = 1.5, .ports = 1,
		.expect = 1, .progress = 5, .seed = 1, .samples = 100000,
		.connect_timeout = 30, .state_every = 100,
	};
	optind = 2;
	while ((c = getopt_long(argc, argv, "h", long_opts, NULL)) != -1) {
		if (c == 'h')
			help_exit(0);
		if (!opt_conn(o, c) && !opt_traffic(o, c) && !opt_sock(o, c) &&
		    !opt_run(o, c))
			help_exit(2);
	}
	if (optind != argc)
		die("unexpected argument '%s'", argv[optind]);
}

/* --dist and --profile: how a send draws its sizes and intervals */
static void opts_dist(struct opts *o)
{
	const char *dist = o->dist_arg, *prof = o->profile_arg;

	o->dist = D_FIXED;
	if (dist) {
		if (!strcmp(dist, "exp"))
			o->dist = D_EXP;
		else if (!strcmp(dist, "pareto"))
			o->dist = D_PARETO;
		else if (strcmp(dist, "fixed"))
			die("--dist fixed|exp|pareto");
	}
	if (prof) {
		if (dist || o->have_size || o->have_iv)
			die("--profile sets sizes and intervals; drop --size/--interval/--dist");
		o->profile = profile_find(prof);
		if (!o->profile)
			die("unknown profile '%s' (thin-gen profiles)", prof);
		o->dist = D_PROFILE;
	}
}

/* A send's options against each other; dies on a conflict. */
void opts_check_send(struct opts *o)
{
	int i;

	if (o->nphases) {
		if (o->duration >= 0 || o->have_size || o->have_iv ||
		    o->dist_arg || o->profile_arg)
			die("--phases sets sizes, intervals and the duration; drop the others");
		o->duration = 0;
		for (i = 0; i < o->nphases; i++)
			o->duration += o->phases[i].seconds;
		o->size = o->phases[0].size;
		o->interval = o->phases[0].interval;
	}
	if (o->duration < 0)
		die("--duration S is required");
	if (o->state_log && o->proto != P_SCTP)
		die("--state-log is SCTP only");
	if ((o->connectx || o->events) && o->proto != P_SCTP)
		die("--connectx and --events are SCTP only");
	if (o->shut_usr2 && (o->proto != P_SCTP || o->one_to_many))
		die("--shutdown-usr2 is for one-to-one SCTP only");
	if (o->proto == P_TCP && o->one_to_many)
		die("--style one-to-many is SCTP only");
	if (o->proto == P_TCP && o->sack_imm)
		die("--sack-immediately is SCTP only");
	if (o->proto == P_TCP && o->thin_set) {
		if (o->thin_strict)
			die("--thin is SCTP only");
		warnx("warning: --thin ignored for TCP");
		o->thin_set = 0;
	}
	opts_dist(o);
}
