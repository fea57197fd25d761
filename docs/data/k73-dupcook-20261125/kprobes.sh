T=/sys/kernel/tracing
[ -d $T/events ] || mount -t tracefs none $T
for f in sctp_unpack_cookie sctp_auth_chunk_verify security_sctp_assoc_request sctp_sf_do_5_2_4_dupcook sctp_sf_pdiscard sctp_association_new sctp_auth_verify_cookie_params sctp_assoc_set_bind_addr_from_cookie; do
	echo "r:r_$f $f ret=\$retval" >> $T/kprobe_events || echo "no kprobe $f"
	echo "p:p_$f $f" >> $T/kprobe_events || echo "no kprobe p $f"
done
echo 1 > $T/events/kprobes/enable
echo 1 > $T/tracing_on
bash build/dupcook/run.sh 1 >/dev/null 2>&1
echo 0 > $T/tracing_on
grep -v "^#" $T/trace | head -80
