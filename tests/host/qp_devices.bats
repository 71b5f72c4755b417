#!/usr/bin/env bats
# qp watch's (and dev monitor's) device events: RDMA netlink monitor events replayed from the
# SYNTHESIZED fixtures tests/fixtures/monitor-* (tests/fixtures/make-monitor.py;
# the lab kernel 6.1 sends no monitor events), and the polling fallback.

load helpers
bats_require_minimum_version 1.5.0

# watch FIXTURE ARGS...: qp watch -j on the fixture, one JSON object per line
watch_json() {
	local fx=$1
	shift
	run rd --replay "$FIXTURES/monitor-$fx" -j qp watch --interval 0.01 "$@"
}

# events: the device events of $output, "event dev[/port] [old] [netdev] source" per line
events() {
	jq -r 'select(.event | test("^(dev|netdev)_")) |
		[.event, ((.dev // "-") + (if .port then "/\(.port)" else "" end)), (.old_dev // "-"),
		 (.netdev // "-"), .source] | join(" ")' <<<"$output"
}

# The device events the monitor-events fixture holds, in order (make-monitor.py).
fixture_events() {
	cat <<'EOF'
dev_added rxe1 - - netlink
netdev_attached rxe1/1 - rxenet1 netlink
dev_renamed rxe9 rxe1 - netlink
netdev_renamed - - lan5 netlink
netdev_detached rxe9/1 - - netlink
dev_removed rxe9 - - netlink
EOF
}

@test "monitor fixtures: the generator reproduces the committed ones" {
	tmp=$BATS_TEST_TMPDIR/mon
	mkdir -p "$tmp"
	run python3 "$FIXTURES/make-monitor.py" "$tmp"
	assert_success
	for d in "$tmp"/monitor-*; do
		diff -r "$d" "$FIXTURES/$(basename "$d")"
	done
	[ "$(ls -d "$tmp"/monitor-* | wc -l)" -eq "$(ls -d "$FIXTURES"/monitor-* | wc -l)" ]
}

@test "qp watch prints the kernel's device events in its stream (events mode)" {
	watch_json events --count 4
	assert_success
	jq -e . <<<"$output" >/dev/null
	diff <(events) <(fixture_events)
	# the added device's QPs are watched from the next round on, and go with it
	[ "$(jq -r 'select(.event == "created") | "\(.dev) \(.lqpn)"' <<<"$output")" = "rxe1 40" ]
	[ "$(jq -r 'select(.event == "destroyed") | .lqpn' <<<"$output")" = 40 ]
	[ "$(jq -r 'select(.event == "netdev_attached") | "\(.dev_index) \(.netdev_index)"' <<<"$output")" = "2 5" ]
}

@test "events mode compares the device list each round; changes no event reported are printed from it, once" {
	# the polling fixture's changing device list, but a kernel that sends
	# events and sent none: the compare finds every change, as polling does
	fx=$BATS_TEST_TMPDIR/quiet
	cp -r "$FIXTURES/monitor-poll" "$fx"
	cp "$FIXTURES/monitor-events/netlink/cmd6.bin" "$fx/netlink/"
	run rd --replay "$fx" -d -j qp watch --count 5 --interval 0.01
	assert_success
	[ "$(head -n 1 <<<"$output" | jq -r .mode)" = events ]
	quiet=$(events)
	[ "$(jq -r 'select(.event == "created") | .lqpn' <<<"$output" | tr '\n' ' ')" = "40 41 " ]
	watch_json poll --count 5
	diff <(echo "$quiet") <(events)
	[ "$(wc -l <<<"$quiet")" -eq 4 ]
}

@test "events mode: the compare fills the events' gaps (dump before the event, no rename event, lost event), none twice" {
	watch_json gaps --count 5
	assert_success
	diff <(events) - <<'EOF'
dev_added rxe1 - - poll
netdev_attached rxe1/1 - rxenet1 netlink
dev_renamed rxe9 rxe1 - poll
dev_removed rxe9 - - poll
dev_added rxe1 - - netlink
EOF
	[ "$(jq -r 'select(.event == "created") | .lqpn' <<<"$output" | tr '\n' ' ')" = "40 41 " ]
	qp_events=$(events)
	# dev monitor: the same; a watch of rxe0 alone: none of it
	run rd --replay "$FIXTURES/monitor-gaps" -j dev monitor --count 5 --interval 0.01
	assert_success
	diff <(events) <(echo "$qp_events")
	run rd --replay "$FIXTURES/monitor-gaps" -j dev monitor rxe0 --count 5 --interval 0.01
	assert_success
	[ -z "$output" ]
}

@test "polling fallback (a 6.1 kernel): device changes found by comparing the list each round" {
	watch_json poll --count 5
	assert_success
	diff <(events) - <<'EOF'
dev_added rxe1 - - poll
dev_renamed rxe9 rxe1 - poll
dev_removed rxe9 - - poll
dev_added rxe1 - - poll
EOF
	# the same name again is a new device (index 3), with its own QPs
	[ "$(jq -r 'select(.event == "dev_added") | .dev_index' <<<"$output" | tr '\n' ' ')" = "2 3 " ]
	[ "$(jq -r 'select(.event == "created") | .lqpn' <<<"$output" | tr '\n' ' ')" = "40 41 " ]
}

@test "-d says which mode the watch uses and why" {
	run rd --replay "$FIXTURES/monitor-poll" -d qp watch --count 1 --interval 0.01
	assert_success
	assert_line "device_watch: elapsed_s 0.000 mode poll reason this kernel sends no RDMA monitor events (Linux 6.12 and later do)"
	run rd --replay "$FIXTURES/monitor-poll" qp watch --count 1 --interval 0.01
	refute_line --partial device_watch
	run rd --replay "$FIXTURES/monitor-events" -d -j qp watch --count 1 --interval 0.01
	[ "$(head -n 1 <<<"$output" | jq -r '"\(.event) \(.mode)"')" = "device_watch events" ]
}

@test "text output names the events with their device, port and netdev" {
	run rd --replay "$FIXTURES/monitor-events" qp watch --count 2 --interval 0.01
	assert_success
	assert_line --regexp '^dev_added: elapsed_s [0-9.]+ dev rxe1$'
	assert_line --regexp '^netdev_attached: elapsed_s [0-9.]+ dev rxe1 port 1 netdev rxenet1$'
}

@test "a watch limited to one device leaves the other devices' events out" {
	watch_json events rxe0 --count 4
	assert_success
	[ -z "$(events)" ]
	watch_json poll rxe0 --count 5
	assert_success
	[ -z "$(events)" ]
	watch_json events rxe1 --count 4
	assert_failure 3	# not there at the start: named clearly, as before
}

@test "hostile monitor messages: unknown type, missing type, cut attribute, cut chunk, long record" {
	watch_json hostile --count 5
	assert_success
	jq -e . <<<"$output" >/dev/null
	# nothing is invented from the broken events; the re-read list says what changed
	diff <(events) - <<<"dev_added rxe1 - - poll"
	[ "$(jq -r 'select(.event == "created") | .lqpn' <<<"$output")" = 40 ]
}

@test "a recording without monitor attributes (made before) polls and replays as before" {
	run rd --replay "$FIXTURES/lab-rxe" -d qp watch --count 1 --interval 0.01
	assert_line --partial "mode poll reason the recording has no RDMA system attributes"
}

@test "dev monitor prints the same device events alone, in both modes" {
	run rd --replay "$FIXTURES/monitor-events" -j dev monitor --count 4 --interval 0.01
	assert_success
	diff <(events) <(fixture_events)
	[ "$(jq -r .event <<<"$output" | grep -vc '^dev_\|^netdev_')" -eq 0 ]
	run rd --replay "$FIXTURES/monitor-poll" -d dev monitor --count 5 --interval 0.01
	assert_success
	assert_line --index 0 --partial "device_watch: elapsed_s 0.000 mode poll"
	assert_line --index 1 --regexp '^dev_added: elapsed_s [0-9.]+ dev rxe1 dev_index 2 source poll$'
	[ "${#lines[@]}" -eq 5 ]
}

@test "dev monitor: a named device not there yet is waited for, its addition reported; bad arguments are usage errors" {
	run --separate-stderr rd --replay "$FIXTURES/monitor-poll" dev monitor rxe7 --count 1
	assert_success
	assert_equal "$stderr" "rdmadiag: no RDMA device named 'rxe7' yet: waiting for it to be added ('rdmadiag dev show' lists the devices here)"
	[ -z "$output" ]
	# rxe1 is added during the recording: reported as it comes, and only what is rxe1's
	run --separate-stderr rd --replay "$FIXTURES/monitor-events" dev monitor rxe1 --count 3
	assert_success
	assert_line --index 0 --regexp '^dev_added: elapsed_s [0-9.]+ dev rxe1$'
	refute_output --partial 'rxe0'
	# qp watch of a device that is not there is still an error: it has no QPs to wait for
	run rd --replay "$FIXTURES/monitor-poll" qp watch rxe7 --count 1
	assert_failure 3
	assert_output --partial "no RDMA device named 'rxe7'"
	run rd --replay "$FIXTURES/monitor-poll" -j dev monitor rxe0 --count 5 --interval 0.01
	assert_success
	[ -z "$output" ]
	run rd dev monitor rxe0 rxe1
	assert_failure 2
	run rd dev monitor --count 0
	assert_failure 2
	run rd dev monitor --interval -1
	assert_failure 2
}

# The monitor events a real 6.12 kernel sent (tests/fixtures/lab612-monitor, recorded in the lab).
@test "a real 6.12 recording: link add, rename, delete; the rename the kernel did not announce comes from the compare" {
	run rd --replay "$FIXTURES/lab612-monitor" -d -j dev monitor --count 24 --interval 0.01
	assert_success
	[ "$(head -n 1 <<<"$output" | jq -r '"\(.event) \(.mode)"')" = "device_watch events" ]
	run jq -r 'select(.event != "device_watch") |
		[.event, .dev, (.old_dev // "-"), (.port // "-"), .dev_index, (.netdev // "-"), (.netdev_index // "-"),
		 .source] | join(" ")' <<<"$output"
	assert_output "dev_added rxe9 - - 1 - - netlink
netdev_attached rxe9 - 1 1 rxenet9 3 netlink
dev_renamed rxe8 rxe9 - 1 - - poll
dev_removed rxe8 - - 1 - - netlink"
	# the kernel's own events: REGISTER, UNREGISTER, NETDEV_ATTACH; no RENAME (4)
	[ "$(attrs_by_event "$FIXTURES/lab612-monitor/netlink/monitor.bin" | cut -d: -f1 | tr '\n' ' ')" = "0 1 2 " ]
}

# attrs_by_event MONITOR_BIN: "event_type: attribute types in order" per message, once each
attrs_by_event() {
	python3 - "$1" <<'PY'
import struct, sys
data, seen = open(sys.argv[1], "rb").read(), set()
while data:
    _, n = struct.unpack_from("<II", data); chunk, data = data[8:8 + n], data[8 + n:]
    while len(chunk) >= 16:
        mlen = struct.unpack_from("<I", chunk)[0]; msg, chunk = chunk[16:mlen], chunk[(mlen + 3) & ~3:]
        types, etype = [], None
        while len(msg) >= 4:
            alen, atype = struct.unpack_from("<HH", msg); types.append(atype)
            if atype == 102: etype = msg[4]
            msg = msg[(alen + 3) & ~3:]
        seen.add("%s: %s" % (etype, " ".join(map(str, types))))
print("\n".join(sorted(seen)))
PY
}

@test "the synthesized monitor fixtures lay out register/attach/unregister as the real 6.12 kernel does" {
	real=$(attrs_by_event "$FIXTURES/lab612-monitor/netlink/monitor.bin")
	echo "real: $real"
	[ "$(wc -l <<<"$real")" -eq 3 ]
	made=$(attrs_by_event "$FIXTURES/monitor-events/netlink/monitor.bin")
	while read -r line; do
		grep -qxF "$line" <<<"$made"
	done <<<"$real"
}

@test "qp watch DEV/PORT: a QP that leaves RESET for another port has left, it is not destroyed" {
	fx=$FIXTURES/monitor-qp-port
	run --separate-stderr rd --replay "$fx" -j qp watch rxe0/1 --count 4 --interval 0.01 --stuck 100
	assert_failure 1	# QP 18 enters ERR on port 1
	ev=$(jq -sc '[.[] | select(.event) | [.event, .lqpn, .state, .port]]' <<<"$output")
	[ "$ev" = '[["present",17,"reset",null],["present",18,"rts",1],["left",17,"init",2],["state",18,"err",1],["flag",18,"err",1]]' ]
	# on port 2 the same QP is followed through its states, and its destruction is told there
	run --separate-stderr rd --replay "$fx" -j qp watch rxe0/2 --count 4 --interval 0.01 --stuck 100
	assert_success
	ev=$(jq -sc '[.[] | select(.event) | [.event, .lqpn, .state // .old_state]]' <<<"$output")
	[ "$ev" = '[["present",17,"reset"],["present",19,"rts"],["state",17,"init"],["state",17,"rts"],["destroyed",19,"rts"],["destroyed",17,"rts"]]' ]
	# the whole device: every QP destroyed once, none left
	run --separate-stderr rd --replay "$fx" -j qp watch rxe0 --count 4 --interval 0.01 --stuck 100
	[ "$(jq -sc '[.[] | select(.event == "destroyed") | .lqpn]' <<<"$output")" = '[19,17]' ]
	[ "$(jq -sc '[.[] | select(.event == "left")] | length' <<<"$output")" = 0 ]
	# a QP that comes back into the view (RESET again) has entered
	cp -r "$fx" "$BATS_TEST_TMPDIR/back"
	cp "$fx/netlink/cmd10-dump-a1=1.bin" "$BATS_TEST_TMPDIR/back/netlink/cmd10-dump-a1=1.bin~3"
	run --separate-stderr rd --replay "$BATS_TEST_TMPDIR/back" -j qp watch rxe0/1 --count 3 --interval 0.01 --stuck 100
	assert_success
	[ "$(jq -sc '[.[] | select(.lqpn == 17) | [.event, .state]]' <<<"$output")" = '[["present","reset"],["left","init"],["entered","reset"]]' ]
}
