/* The thin-stream part of struct sctp_info (sctp_diag: ss --sctp -i). */
void sctp_thin_get_info(const struct sctp_association *asoc,
			struct sctp_info *info)
{
	const struct sctp_thin_assoc *ta = asoc->thin;

	info->sctpi_thin_flags = asoc->thin_conf.flags;
	if (!ta)
		return;
	info->sctpi_thin_state =
		(ta->core.thin ? SCTP_THIN_STATE_THIN : 0) |
		(ta->core.saturated ? SCTP_THIN_STATE_SATURATED : 0) |
		(ta->core.congested ? SCTP_THIN_STATE_CONGESTED : 0);
	info->sctpi_thin_in_flight = ta->core.in_flight;
	info->sctpi_thin_lossrate = sctp_thin_core_lossrate(&ta->core);
	info->sctpi_thin_transitions = ta->core.transitions;
	info->sctpi_thin_pkts_sent = ta->core.pkts_sent;
	info->sctpi_thin_pkts_lost = ta->core.pkts_lost;
	info->sctpi_thin_timeouts = ta->timeouts;
	info->sctpi_thin_strikes_deferred = ta->strikes_deferred;
	info->sctpi_thin_restarts = ta->restart_corrections;
	info->sctpi_thin_resyncs = ta->resyncs;
	info->sctpi_thin_sack_immediately = ta->sack_immediately;
	info->sctpi_thin_guard_undone = ta->core.guard_undone;
	info->sctpi_thin_rto_min_clamps = ta->rto_min_clamps;
	info->sctpi_thin_fast_rtx = ta->fast_rtx;
	info->sctpi_thin_linear_timeouts = ta->linear_timeouts;
	info->sctpi_thin_rdb_chunks = ta->rdb.chunks;
	info->sctpi_thin_rdb_bytes = ta->rdb.bytes;
	info->sctpi_thin_rdb_repaired = ta->rdb.repaired;
	info->sctpi_thin_rdb_gated = ta->rdb.gated;
}
