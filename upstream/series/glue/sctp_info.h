struct sctp_info {
	/* thin streams (SCTP_THIN) */
	__u32	sctpi_thin_flags;	/* SCTP_THIN_* switched on */
	__u32	sctpi_thin_state;	/* SCTP_THIN_STATE_* */
	__u32	sctpi_thin_in_flight;	/* DATA packets in flight */
	__u32	sctpi_thin_lossrate;	/* estimate, 65536 = 1.0 */
	__u64	sctpi_thin_transitions;	/* thin <-> thick */
	__u64	sctpi_thin_pkts_sent;	/* DATA packets sent, rtx included */
	__u64	sctpi_thin_pkts_lost;	/* packets declared lost */
	__u64	sctpi_thin_timeouts;	/* T3-rtx expiries */
	__u64	sctpi_thin_strikes_deferred; /* expiries stock would not
					      * have had yet: no error
					      */
	__u64	sctpi_thin_restarts;	/* RFC 7765 restarts */
	__u64	sctpi_thin_resyncs;	/* outqueue purges */
	__u64	sctpi_thin_sack_immediately; /* packets given the I-bit */
	__u64	sctpi_thin_guard_undone; /* guard counts taken back by dups */
	__u64	sctpi_thin_rto_min_clamps; /* RTO set from the thin RTOmin */
	__u64	sctpi_thin_fast_rtx;	/* fast rtx on the first indication */
	__u64	sctpi_thin_linear_timeouts; /* expiries without backoff */
	__u64	sctpi_thin_rdb_chunks;	/* DATA chunk copies bundled */
	__u64	sctpi_thin_rdb_bytes;	/* their bytes */
	__u64	sctpi_thin_rdb_repaired; /* losses a copy repaired */
	__u64	sctpi_thin_rdb_gated;	/* packets without copies: a queue */
};
