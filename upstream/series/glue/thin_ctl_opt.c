/* SCTP_THIN follows the assoc_id rules of RFC 6458 8.1 as the other
 * options do: an id, or SCTP_FUTURE_ASSOC (socket default),
 * SCTP_CURRENT_ASSOC (every existing association) or SCTP_ALL_ASSOC
 * (both).  On one-to-one sockets the id is ignored.
 */
static int sctp_thin_set_params(struct sock *sk, void *kopt,
				unsigned int optlen)
{
	struct sctp_thin_params *p = kopt;
	struct sctp_sock *sp = sctp_sk(sk);
	struct sctp_association *asoc;
	struct sctp_thin_conf conf;
	int err;

	if (optlen != sizeof(*p))
		return -EINVAL;
	err = sctp_thin_conf_check(sk, p);
	if (err)
		return err;

	asoc = sctp_id2assoc(sk, p->stp_assoc_id);
	if (!asoc && p->stp_assoc_id > SCTP_ALL_ASSOC && sctp_style(sk, UDP))
		return -EINVAL;
	if (asoc) {
		conf = asoc->thin_conf;
		sctp_thin_conf_merge(&conf, p);
		return sctp_thin_assoc_set(asoc, &conf);
	}

	if (sctp_style(sk, TCP))
		p->stp_assoc_id = SCTP_FUTURE_ASSOC;
	if (p->stp_assoc_id == SCTP_FUTURE_ASSOC ||
	    p->stp_assoc_id == SCTP_ALL_ASSOC)
		sctp_thin_conf_merge(&sp->thin_conf, p);
	/* An association that cannot get memory keeps its settings; the
	 * others take the new ones, and the call fails with -ENOMEM.
	 */
	if (p->stp_assoc_id == SCTP_CURRENT_ASSOC ||
	    p->stp_assoc_id == SCTP_ALL_ASSOC) {
		list_for_each_entry(asoc, &sp->ep->asocs, asocs) {
			conf = asoc->thin_conf;
			sctp_thin_conf_merge(&conf, p);
			if (sctp_thin_assoc_set(asoc, &conf))
				err = -ENOMEM;
		}
	}
	return err;
}

int sctp_thin_setsockopt(struct sock *sk, int optname, void *kopt,
			 unsigned int optlen)
{
	return sctp_thin_set_params(sk, kopt, optlen);
}

static int sctp_thin_get_params(struct sock *sk, int len,
				char __user *optval, int __user *optlen)
{
	struct sctp_association *asoc;
	const struct sctp_thin_conf *conf;
	struct sctp_thin_params p;

	if (len < sizeof(p))
		return -EINVAL;
	len = sizeof(p);
	if (copy_from_user(&p, optval, len))
		return -EFAULT;

	asoc = sctp_id2assoc(sk, p.stp_assoc_id);
	if (!asoc && p.stp_assoc_id != SCTP_FUTURE_ASSOC &&
	    sctp_style(sk, UDP))
		return -EINVAL;
	conf = asoc ? &asoc->thin_conf : &sctp_sk(sk)->thin_conf;
	p.stp_flags = conf->flags;
	p.stp_rto_min = conf->rto_min;
	p.stp_linear_timeouts_max = conf->lt_max;
	p.stp_rdb_max_bytes = conf->rdb_max_bytes ? : SCTP_THIN_RDB_MTU;
	p.stp_rdb_max_packets = conf->rdb_max_packets;

	if (put_user(len, optlen) || copy_to_user(optval, &p, len))
		return -EFAULT;
	return 0;
}

int sctp_thin_getsockopt(struct sock *sk, int optname, int len,
			 char __user *optval, int __user *optlen)
{
	return sctp_thin_get_params(sk, len, optval, optlen);
}
