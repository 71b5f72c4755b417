#!/usr/bin/env bats
# Per-QP counters (counter show qp, counter mode [set], counter bind/unbind)
# on tests/fixtures/counter-qp-mlx5, hand-made by mk-counter-fixtures.py: an
# mlx5 port in auto mode by QP type, counter 4 on the RC QPs 178-180, counter 5
# on the UD QPs 200-201. A replayed request has a reply only when its fixture
# file (named after the request's command and attributes) exists, so a
# successful bind/unbind here proves rdmadiag sent exactly that request.

load helpers
bats_require_minimum_version 1.5.0

QP=$BATS_TEST_DIRNAME/../fixtures/counter-qp-mlx5
RXE=$BATS_TEST_DIRNAME/../fixtures/lab-rxe
PROMCHECK=$BATS_TEST_DIRNAME/../tools/promtool-check.sh

@test "show qp: both counters with mode, QP type, bound QPs and grouped hw counters (text)" {
	run --separate-stderr rd --replay "$QP" counter show qp
	assert_success
	assert_line --index 0 'mlx5_0/1: counter_id 4 mode auto qp_type RC lqpns 178,179,180'
	# roce_adp_retrans -> retransmissions; out_of_sequence + packet_seq_err + implied_nak_seq_err -> sequence_errors
	assert_line --index 2 '    retransmission: retransmissions 8 sequence_errors 13 duplicate_requests 3'
	assert_line --index 3 '    rnr: rnr_retries_exceeded 4 rx_out_of_buffer 1'
	assert_line --index 4 '    timeout: ack_timeouts 7'
	assert_line --index 5 'mlx5_0/1: counter_id 5 mode auto qp_type UD lqpns 200,201'
	assert_line --index 7 '    retransmission: retransmissions 0 sequence_errors 0 duplicate_requests 0'
	[ "${#lines[@]}" -eq 10 ]
	# the driver's own names only with -d
	refute_output --partial 'roce_adp_retrans'
	run --separate-stderr rd --replay "$QP" -d counter show qp
	assert_line --partial 'roce_adp_retrans 8'
	assert_line '    other:'
	assert_line '        resp_local_length_error 9'
}

@test "show qp -j: ids, lqpns, vendor-neutral kinds and raw counters" {
	run --separate-stderr rd --replay "$QP" -j counter show qp mlx5_0/1
	assert_success
	j=$output
	[ "$(jq -c '[.counters[].counter_id]' <<<"$j")" = '[4,5]' ]
	[ "$(jq -c '.counters[0] | [.dev, .port, .mode, .qp_type]' <<<"$j")" = '["mlx5_0",1,"auto","rc"]' ]
	[ "$(jq -c '.counters[0].lqpns' <<<"$j")" = '[178,179,180]' ]
	[ "$(jq -c '.counters[1].lqpns' <<<"$j")" = '[200,201]' ]
	[ "$(jq '.counters[0].traffic.rx_rdma_ops' <<<"$j")" = $((1000 + 200 + 0)) ]
	[ "$(jq '.counters[0].retransmission.sequence_errors' <<<"$j")" = $((2 + 5 + 6)) ]
	[ "$(jq '.counters[0].retransmission.counters.packet_seq_err' <<<"$j")" = 5 ]
	[ "$(jq '.counters[1].rnr.rx_out_of_buffer' <<<"$j")" = 11 ]
	[ "$(jq '.counters[0].other.counters.resp_local_length_error' <<<"$j")" = 9 ]
	[ "$(jq 'has("errors")' <<<"$j")" = false ]
}

@test "show qp filters: lqpn (list and range), counter, pid" {
	run --separate-stderr rd --replay "$QP" -j counter show qp lqpn 201
	assert_success
	[ "$(jq -c '[.counters[].counter_id]' <<<"$output")" = '[5]' ]
	run --separate-stderr rd --replay "$QP" -j counter show qp mlx5_0 lqpn 179-181
	[ "$(jq -c '[.counters[].counter_id]' <<<"$output")" = '[4]' ]
	run --separate-stderr rd --replay "$QP" -j counter show qp lqpn 100,200
	[ "$(jq -c '[.counters[].counter_id]' <<<"$output")" = '[5]' ]
	run --separate-stderr rd --replay "$QP" -j counter show qp lqpn 300
	assert_success
	[ "$(jq -c '.counters' <<<"$output")" = '[]' ]
	run --separate-stderr rd --replay "$QP" -j counter show qp counter 4
	[ "$(jq -c '[.counters[].counter_id]' <<<"$output")" = '[4]' ]
	run --separate-stderr rd --replay "$QP" -j counter show qp counter 4 lqpn 200
	assert_success
	[ "$(jq -c '.counters' <<<"$output")" = '[]' ]
	# auto by type: no counter has an owner pid, so a pid filter matches none
	run --separate-stderr rd --replay "$QP" -j counter show qp pid 1234
	assert_success
	[ "$(jq -c '.counters' <<<"$output")" = '[]' ]
}

@test "show qp errors: bad lqpn, unknown filter, unknown counter id, filters without qp" {
	run --separate-stderr rd --replay "$QP" counter show qp lqpn abc
	assert_failure 2
	[[ "$stderr" == *"lqpn: 'abc' is not a number or a range"* ]]
	run --separate-stderr rd --replay "$QP" counter show qp lqpn
	assert_failure 2
	[[ "$stderr" == *"filter 'lqpn' needs a value"* ]]
	run --separate-stderr rd --replay "$QP" counter show qp mlx5_0 state RTS
	assert_failure 2
	[[ "$stderr" == *"unknown filter 'state'"* ]]
	run --separate-stderr rd --replay "$QP" -j counter show qp mlx5_0/1 counter 99
	assert_failure 2
	[[ "$stderr" == *"no per-QP counter 99 on mlx5_0/1"* ]]
	[ "$(jq -c '.counters' <<<"$output")" = '[]' ]
	[ "$(jq -r '.errors[0]' <<<"$output")" = "no per-QP counter 99 on mlx5_0/1; cause: the id is wrong, or the counter was freed when its last QP went away; next: list them with: rdmadiag counter show qp; see the mode with: rdmadiag counter mode" ]
	run --separate-stderr rd --replay "$QP" counter show lqpn 178
	assert_failure 2
	[[ "$stderr" == *"'lqpn' filters the per-QP counters: rdmadiag counter show qp"* ]]
	run --separate-stderr rd --replay "$QP" counter show qp mlx5_9
	assert_failure 3
	[[ "$stderr" == *"no RDMA device named 'mlx5_9'"* ]]
}

@test "show qp --format prometheus/openmetrics: one series per counter, labelled, checked by promtool" {
	for f in prometheus openmetrics; do
		rd --replay "$QP" counter show qp --format $f | "$PROMCHECK" $f
		rd --replay "$QP" -d counter show qp --format $f | "$PROMCHECK" $f
	done
	run --separate-stderr rd --replay "$QP" counter show qp --format openmetrics
	assert_success
	l='device="mlx5_0",port="1",netdev="ens1f0np0"'
	assert_line "rdmadiag_qp_bound_qps{$l,counter_id=\"4\",mode=\"auto\",qp_type=\"rc\"} 3"
	assert_line "rdmadiag_qp_bound_qps{$l,counter_id=\"5\",mode=\"auto\",qp_type=\"ud\"} 2"
	# the same sums as -j: out_of_sequence 2 + packet_seq_err 5 + implied_nak_seq_err 6
	assert_line "rdmadiag_qp_sequence_errors_total{$l,counter_id=\"4\",mode=\"auto\",qp_type=\"rc\"} 13"
	assert_line "rdmadiag_qp_rx_out_of_buffer_total{$l,counter_id=\"5\",mode=\"auto\",qp_type=\"ud\"} 11"
	assert_line "rdmadiag_qp_driver_stat_total{$l,counter_id=\"4\",mode=\"auto\",qp_type=\"rc\",stat=\"packet_seq_err\",source=\"netlink\",group=\"retransmission\"} 5"
	[ "${lines[-1]}" = '# EOF' ]
	# the driver's names outside the map only with -d; no QP numbers as labels
	refute_output --partial 'resp_local_length_error'
	refute_output --partial 'lqpn'
	run --separate-stderr rd --replay "$QP" -d counter show qp --format prometheus
	assert_line --partial 'stat="resp_local_length_error",source="netlink",group="other"} 9'
	refute_output --partial '# EOF'
	# filters apply; a named counter that is not there is an error, with no metrics printed
	run --separate-stderr rd --replay "$QP" counter show qp lqpn 201 --format prometheus
	assert_success
	refute_output --partial 'counter_id="4"'
	assert_output --partial 'counter_id="5"'
	run --separate-stderr rd --replay "$QP" counter show qp counter 99 --format prometheus
	assert_failure 2
	[ -z "$output" ]
	[[ "$stderr" == *"no per-QP counter 99"* ]]
	run --separate-stderr rd --replay "$QP" -j counter show qp --format prometheus
	assert_failure 2
}

@test "mode: auto by type, text and JSON" {
	run --separate-stderr rd --replay "$QP" counter mode
	assert_success
	assert_output 'mlx5_0/1: mode auto auto type'
	run --separate-stderr rd --replay "$QP" -j counter mode mlx5_0/1
	assert_success
	[ "$(jq -c '.modes' <<<"$output")" = '[{"ifname":"mlx5_0/1","dev":"mlx5_0","port":1,"mode":"auto","auto":["type"]}]' ]
}

@test "mode set: sends STAT_SET auto with the mask, reads the mode back; EPERM says CAP_NET_ADMIN" {
	run --separate-stderr rd --replay "$QP" counter mode set mlx5_0/1 auto type
	assert_success
	assert_output 'mlx5_0/1: mode auto auto type'
	# iproute2's spelling, and DEV alone when it has one port
	run --separate-stderr rd --replay "$QP" counter mode set mlx5_0 auto type on
	assert_success
	# the fixture answers auto pid with EPERM, as a kernel does without CAP_NET_ADMIN
	run --separate-stderr rd --replay "$QP" counter mode set mlx5_0/1 auto pid
	assert_failure 3
	[[ "$stderr" == *"turning on auto per-QP counters on mlx5_0/1: permission denied"* ]]
	[[ "$stderr" == *"needs CAP_NET_ADMIN"* ]]
	# a request the fixture has no reply for was not the one recorded: a
	# replay gap, exit 2 (rdmadiag(8))
	run --separate-stderr rd --replay "$QP" counter mode set mlx5_0/1 auto type,pid
	assert_failure 2
	[[ "$stderr" == *"netlink/cmd16-a1=3-a3=1-a75=19-a74=1-a76=3.bin"* ]]
}

@test "mode set: bad words are usage errors" {
	for args in "mlx5_0/1 auto bogus" "mlx5_0/1 auto" "mlx5_0/1 manual type" "mlx5_0/1 auto off on" \
		"mlx5_0/1 auto type yes" "mlx5_0/x auto type"; do
		run --separate-stderr rd --replay "$QP" counter mode set $args
		[ "$status" -eq 2 ] || fail "'mode set $args' exited $status"
		[ -n "$stderr" ]
	done
}

@test "bind: to a named counter, to a new one; the reply's counter id is shown" {
	run --separate-stderr rd --replay "$QP" counter bind mlx5_0/1 lqpn 181 counter 4
	assert_success
	assert_output 'mlx5_0/1: lqpn 181 bound to counter 4'
	run --separate-stderr rd --replay "$QP" -j counter bind mlx5_0/1 lqpn 182
	assert_success
	[ "$(jq -c '.changes' <<<"$output")" = '[{"ifname":"mlx5_0/1","dev":"mlx5_0","port":1,"change":"bound","lqpn":182,"counter_id":6}]' ]
}

@test "bind errors: no such QP, unknown counter id, unsupported driver, bad arguments" {
	run --separate-stderr rd --replay "$QP" counter bind mlx5_0/1 lqpn 999
	assert_failure 2
	[[ "$stderr" == *"cannot bind lqpn 999 on mlx5_0/1: no such QP"* ]]
	run --separate-stderr rd --replay "$QP" counter bind mlx5_0/1 lqpn 181 counter 99
	assert_failure 2
	[[ "$stderr" == *"no per-QP counter 99 on mlx5_0/1"* ]]
	# the fixture answers lqpn 183 with EOPNOTSUPP
	run --separate-stderr rd --replay "$QP" counter bind mlx5_0/1 lqpn 183
	assert_failure 3
	[[ "$stderr" == *"mlx5_0/1: this device/driver does not support per-QP counters"* ]]
	[[ "$stderr" == *"use a device that does (mlx5)"* ]]
	run --separate-stderr rd --replay "$QP" counter bind mlx5_0/1 lqpn abc
	assert_failure 2
	run --separate-stderr rd --replay "$QP" counter bind mlx5_0/1 lqpn 5-9
	assert_failure 2
	[[ "$stderr" == *"lqpn takes one number here"* ]]
	run --separate-stderr rd --replay "$QP" counter bind mlx5_0/1 counter 4
	assert_failure 2
	[[ "$stderr" == *"counter bind needs lqpn N"* ]]
	run --separate-stderr rd --replay "$QP" counter bind lqpn 181
	assert_failure 2
	[[ "$stderr" == *"needs DEV/PORT first"* ]]
}

@test "unbind: every QP of a counter, one DEL each; errors for unknown ids and unbound QPs" {
	run --separate-stderr rd --replay "$QP" counter unbind mlx5_0/1 counter 5
	assert_success
	assert_output "mlx5_0/1: lqpn 200 unbound from counter 5
mlx5_0/1: lqpn 201 unbound from counter 5"
	run --separate-stderr rd --replay "$QP" -j counter unbind mlx5_0/1 counter 5 lqpn 201
	assert_success
	[ "$(jq -c '[.changes[] | [.change, .lqpn, .counter_id]]' <<<"$output")" = '[["unbound",201,5]]' ]
	run --separate-stderr rd --replay "$QP" counter unbind mlx5_0/1 counter 99
	assert_failure 2
	[[ "$stderr" == *"no per-QP counter 99 on mlx5_0/1"* ]]
	run --separate-stderr rd --replay "$QP" counter unbind mlx5_0/1 counter 4 lqpn 200
	assert_failure 2
	[[ "$stderr" == *"lqpn 200 is not bound to counter 4 on mlx5_0/1"* ]]
	run --separate-stderr rd --replay "$QP" counter unbind mlx5_0/1 lqpn 200
	assert_failure 2
	[[ "$stderr" == *"counter unbind needs counter ID"* ]]
}

@test "rxe (recorded in the lab): show qp and mode set say per-QP counters are unsupported" {
	run --separate-stderr rd --replay "$RXE" counter show qp rxe0/1
	assert_failure 3
	[[ "$stderr" == *"rxe0/1: this device/driver does not support per-QP counters (rxe)"* ]]
	run --separate-stderr rd --replay "$RXE" counter mode set rxe0/1 auto type
	assert_failure 3
	[[ "$stderr" == *"does not support per-QP counters (rxe)"* ]]
}

@test "completion offers qp, the filters after it and the auto criteria" {
	run rd __complete 3 rdmadiag counter show ''
	assert_line qp
	refute_line lqpn	# 'counter show lqpn 5' is a usage error
	run rd __complete 4 rdmadiag counter show qp ''
	assert_line lqpn
	run rd __complete 6 rdmadiag counter mode set mlx5_0/1 auto ''
	assert_line type
	assert_line type,pid
	assert_line off
	run rd __complete 2 rdmadiag counter ''
	assert_line bind
	assert_line unbind
	assert_line mode
}
