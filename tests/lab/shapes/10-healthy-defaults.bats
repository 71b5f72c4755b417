#!/usr/bin/env bats
# The healthy default invocations, exactly as a user types them (no --iters,
# --duration or --timeout), in each lab shape: run-tests.sh runs this file on
# a fresh pair of VMs per shape (LAB_SHAPE: default, smp2, cpu-default, netem,
# jumbo, ipv6; see tests/lab/README.md). A healthy path must never FAIL.
# perftest runs beside them on the same pair: where it completes, so must we.
# Figures go to the TAP stream as comments ("# shape ...").

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'
bats_require_minimum_version 1.5.0

RD=${RDMADIAG_BIN:-rdmadiag/rdmadiag}

setup() {
	[ "${LAB:-}" = 1 ] && [ -n "${LAB_SHARED:-}" ] ||
		skip "not inside a two-VM lab run (run: LAB_SHAPE=... tests/lab/lab.sh run2-agent bats ...)"
	. "$LAB_REPO/tests/lab/peer.sh"
	. "$LAB_REPO/tests/lab/gid.sh"
	SHAPE=${LAB_SHAPE:-default}
	# the figures' label: the shape, and the kernel where it is not bookworm's 6.1
	LABEL=$SHAPE
	case $(uname -r) in 6.1.*) ;; *) LABEL=$SHAPE-k$(uname -r | cut -d. -f1,2) ;; esac
	# the address a user of this shape tests: the IPv6 one in the ipv6 shape
	PEER=$LAB_PEER_IP
	[ "$SHAPE" != ipv6 ] || PEER=$LAB_PEER_IP6
	SERVE=
}

teardown() {
	[ -n "${SERVE:-}" ] && { peer_kill "$SERVE" TERM; peer_bg_wait "$SERVE" 10 || true; }
	return 0
}

start_serve() {
	SERVE=$(peer_run_bg "exec $RD path serve")
	peer_until -t 30 "ss -Hltn 'sport = :4792' | grep -q ."
}

figure() { # a comment line in the TAP stream
	echo "# shape $LABEL: $*" >&3
}

# The verdict lines of a report, for the TAP comments and for a failure.
verdicts() {
	# 400 columns: a WARN's counters come after the figures (the
	# retransmissions behind a latency warning were cut off at 150)
	grep -E '^(PASS|WARN|FAIL|SKIP) ' <<<"$1" | cut -c1-400
}

@test "the shape is what it says (vCPUs, CPU model, qdisc, MTU, IPv6 address)" {
	cpus=$(nproc)
	model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
	figure "kernel $(uname -r), $cpus vCPU, $model, $(tc qdisc show dev "$LAB_NIC" | head -n 1 | cut -d' ' -f2), MTU $(cat /sys/class/net/"$LAB_NIC"/mtu)"
	case "$SHAPE" in
	smp2) [ "$cpus" = 2 ] ;;
	cpu-default) [ "$cpus" = 1 ] && [[ "$model" == *"QEMU Virtual CPU"* ]] ;;
	netem) tc qdisc show dev "$LAB_NIC" | grep -q 'netem .*delay 10ms' && peer_run "tc qdisc show dev $LAB_NIC" | grep -q 'delay 10ms' ;;
	jumbo) [ "$(cat /sys/class/net/"$LAB_NIC"/mtu)" = 9000 ] && [ "$(peer_run cat /sys/class/net/"$LAB_NIC"/mtu)" = 9000 ] ;;
	ipv6) ip -6 addr show dev "$LAB_NIC" | grep -q "inet6 $LAB_IP6/64" && ping -6 -c 1 -W 5 "$PEER" >/dev/null ;;
	default) [ "$cpus" = 1 ] && [ "$(cat /sys/class/net/"$LAB_NIC"/mtu)" = 1500 ] ;;
	*) false ;;
	esac
}

@test "path test loopback" {
	t0=$SECONDS
	run "$RD" path test loopback
	figure "path test loopback: exit $status in $((SECONDS - t0)) s"
	verdicts "$output" | sed "s/^/# shape $LABEL:   /" >&3
	echo "$output"
	assert_success
	refute_line --regexp "^FAIL"
}

@test "path test peer ADDR against path serve" {
	start_serve
	t0=$SECONDS
	run "$RD" path test peer "$PEER"
	figure "path test peer $PEER: exit $status in $((SECONDS - t0)) s"
	verdicts "$output" | sed "s/^/# shape $LABEL:   /" >&3
	echo "$output"
	assert_success
	refute_line --regexp "^FAIL"
	for id in control resolve config rc_connect; do
		assert_line --regexp "^PASS  path\.$id "
	done
	# on a device clocksource (shape smp2: hpet) round trips are timed with
	# the TSC where RDTSCP is there, else the figure says it reads high
	local cs
	cs=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)
	case $cs in
	hpet | acpi_pm)
		if grep -qw rdtscp /proc/cpuinfo; then
			assert_line --regexp "^(PASS|WARN)  path\.rc_latency .*; clocksource $cs: timed with the TSC"
		else
			assert_line --regexp "^(PASS|WARN)  path\.rc_latency .*; clocksource $cs, a device read per round trip"
		fi
		;;
	*) refute_line --partial "; clocksource $cs" ;;
	esac
}

@test "link check" {
	local cs
	run "$RD" link check
	verdicts "$output" | grep -v '^PASS' | sed "s/^/# shape $LABEL:   /" >&3 || true
	echo "$output"
	assert_success
	refute_line --regexp "^FAIL"
	# kernel.clocksource against sysfs: shape smp2's guests fall back to hpet
	cs=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)
	case $cs in
	hpet | acpi_pm) assert_line --regexp "^WARN  kernel\.clocksource +host +$cs \(available: " ;;
	*) assert_line --regexp "^PASS  kernel\.clocksource +host +$cs \(available: " ;;
	esac
}

@test "system check peer ADDR against path serve" {
	start_serve
	t0=$SECONDS
	run "$RD" system check peer "$PEER"
	figure "system check peer $PEER: exit $status in $((SECONDS - t0)) s"
	echo "$output"
	assert_success
	refute_line --regexp "^FAIL"
}

# perftest runs ONE transfer of each kind to the peer; its figures go to the
# TAP stream. When perftest itself does not complete (seen on a host at load
# 13: ib_write_bw "Failed status 9", retry exceeded, with its 0.5 s retry
# budget), there is no reference: the test says so and skips, never passes.
perftest_pair() { # NAME ARGS...: server in B, client here; figures in $output
	local name=$1 h
	shift
	h=$(peer_run_bg "exec $name -d $LAB_RXE -x $px $*")
	peer_until -t 30 "ss -Hltn 'sport = :18515' | grep -q ."
	run timeout 120 "$name" -d "$LAB_RXE" -x "$x" "$@" "$LAB_PEER_IP"
	peer_bg_wait "$h" 20 || true
	# A client that gives up can print nothing past its header: the
	# server's words say which side failed and why.
	[ "$status" = 0 ] || perftest_said "$name client" "$output"
	[ "$status" = 0 ] || perftest_said "$name server (B)" "$(peer_bg_log "$h")"
}

perftest_said() { # WHO OUTPUT: its last lines as TAP comments
	local line
	while IFS= read -r line; do
		figure "$1: $line"
	done < <(tail -n 8 <<<"$2")
}

@test "perftest beside it on the same pair (ib_write_bw -D 3, ib_send_lat -n 1000): its figures" {
	if [ "$SHAPE" = ipv6 ]; then	# fd00:77::N, as sysfs spells a GID
		want=$(printf 'fd00:0077:0000:0000:0000:0000:0000:%04x' "0x${LAB_IP6##*:}")
		pwant=$(printf 'fd00:0077:0000:0000:0000:0000:0000:%04x' "0x${LAB_PEER_IP6##*:}")
	else
		want=$(lab_ipv4_gid "$LAB_IP")
		pwant=$(lab_ipv4_gid "$LAB_PEER_IP")
	fi
	# the RoCE v2 GID of each host's address on the path: perftest's -x
	x=$(lab_gid_index "$LAB_RXE" "$want")
	px=$(peer_run "$(declare -f lab_gid_index); lab_gid_index $LAB_RXE $pwant")
	[ -n "$x" ] && [ -n "$px" ]
	failed=
	perftest_pair ib_write_bw -D 3
	if [ "$status" = 0 ]; then
		figure "ib_write_bw -D 3 (GID $x): $(awk '$1 ~ /^[0-9]+$/ && NF >= 5 { print $4 " MB/s avg, " $2 " iterations" }' <<<"$output" | tail -n 1)"
	else
		failed="ib_write_bw exit $status: $(grep -m 1 -iE 'fail|error|couldn' <<<"$output" || echo "${output##*$'\n'}")"
		figure "$failed"
	fi
	perftest_pair ib_send_lat -n 1000
	if [ "$status" = 0 ]; then
		figure "ib_send_lat -n 1000 (GID $x): $(awk '$1 ~ /^[0-9]+$/ && NF >= 7 { print "typical " $5 " us (t_min " $3 ", t_max " $4 ")" }' <<<"$output" | tail -n 1)"
	else
		failed="$failed${failed:+; }ib_send_lat exit $status: $(grep -m 1 -iE 'fail|error|couldn' <<<"$output" || echo "${output##*$'\n'}")"
		figure "ib_send_lat exit $status"
	fi
	[ -z "$failed" ] || skip "perftest did not complete on this pair, no reference figures: $failed"
}
