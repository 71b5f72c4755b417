#!/usr/bin/env bats
# contrib/slurm/rdmadiag-healthcheck.sh under a real Slurm: munged, slurmctld
# and slurmd from Debian's packages (scripts/install-deps.sh test) on this
# machine, one node on 127.0.0.1, everything in a temporary directory. The
# health check runs every 2 s through a wrapper whose rdmadiag replays a
# failing recording (lab-rxe: link check fails kernel.modules) or a healthy
# snapshot (snapshot-lab), switched by a symbolic link. slurmd needs root;
# CI runs as root.

load helpers
bats_require_minimum_version 1.5.0

CONTRIB=$BATS_TEST_DIRNAME/../../contrib

# wait_until SECONDS COMMAND...: polls every 0.5 s; fails after SECONDS
wait_until() {
	local end=$((SECONDS + $1))
	shift
	until "$@"; do
		[ "$SECONDS" -lt "$end" ] || return 1
		sleep 0.5
	done
}

free_port() {
	/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# stop PIDFILE: TERM, up to 10 s, then KILL
stop_pidfile() {
	local pid
	pid=$(cat "$1" 2>/dev/null) || return 0
	kill "$pid" 2>/dev/null || return 0
	for _ in $(seq 20); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.5; done
	kill -9 "$pid" 2>/dev/null || true
}

write_conf() {
	local ctld_port slurmd_port
	ctld_port=$(free_port)
	slurmd_port=$(free_port)
	cat >"$S/slurm.conf" <<-CONF
		ClusterName=rdmadiagtest
		SlurmctldHost=$NODE(127.0.0.1)
		SlurmctldPort=$ctld_port
		SlurmdPort=$slurmd_port
		SlurmUser=root
		SlurmdUser=root
		AuthType=auth/munge
		AuthInfo=socket=$S/munge.sock
		CredType=cred/munge
		StateSaveLocation=$S/state
		SlurmdSpoolDir=$S/spool
		SlurmctldPidFile=$S/slurmctld.pid
		SlurmdPidFile=$S/slurmd.pid
		SlurmctldLogFile=$S/slurmctld.log
		SlurmdLogFile=$S/slurmd.log
		ProctrackType=proctrack/linuxproc
		TaskPlugin=task/none
		SelectType=select/cons_tres
		SelectTypeParameters=CR_CPU
		JobAcctGatherType=jobacct_gather/none
		AccountingStorageType=accounting_storage/none
		MpiDefault=none
		ReturnToService=2
		HealthCheckProgram=$S/healthcheck
		HealthCheckInterval=2
		HealthCheckNodeState=ANY
		NodeName=$NODE NodeAddr=127.0.0.1 CPUs=1 State=UNKNOWN
		PartitionName=test Nodes=$NODE Default=YES MaxTime=5 State=UP
	CONF
}

write_wrappers() {
	printf '#!/bin/sh\nexec "%s" --replay "%s" "$@"\n' "$RDMADIAG" "$FIXTURES/lab-rxe" >"$S/rd-fail"
	printf '#!/bin/sh\nexec "%s" --snapshot "%s" "$@"\n' "$RDMADIAG" "$FIXTURES/snapshot-lab/snapshot.tar" >"$S/rd-pass"
	# slurmd runs it with a bare environment: say where Slurm and rdmadiag are
	cat >"$S/healthcheck" <<-HC
		#!/bin/sh
		export SLURM_CONF="$S/slurm.conf" RDMADIAG="$S/rd" PATH=/usr/sbin:/usr/bin:/sbin:/bin
		echo run >>"$S/healthcheck.runs"
		exec "$CONTRIB/slurm/rdmadiag-healthcheck.sh"
	HC
	chmod +x "$S/rd-fail" "$S/rd-pass" "$S/healthcheck"
	ln -sfn rd-pass "$S/rd"
}

setup_file() {
	[ "$(id -u)" = 0 ] || return 0
	S=$(mktemp -d /tmp/rdmadiag-slurm.XXXXXX)
	NODE=$(hostname -s)
	export S NODE SLURM_CONF=$S/slurm.conf
	chmod 755 "$S"	# munged wants its socket's directory searchable by all
	mkdir -p "$S/state" "$S/spool"
	head -c 1024 /dev/urandom >"$S/munge.key"
	chmod 400 "$S/munge.key"
	write_conf
	write_wrappers
	# --force: munged refuses to run as root otherwise
	munged --force --key-file="$S/munge.key" --socket="$S/munge.sock" --pid-file="$S/munged.pid" \
		--log-file="$S/munged.log" --seed-file="$S/munged.seed"
	slurmctld -i -f "$S/slurm.conf"
	wait_until 20 scontrol ping
	slurmd -f "$S/slurm.conf" -N "$NODE"
	wait_until 30 node_is idle
}

teardown_file() {
	[ -n "${S:-}" ] || return 0
	stop_pidfile "$S/slurmd.pid"
	stop_pidfile "$S/slurmctld.pid"
	stop_pidfile "$S/munged.pid"
	rm -rf "$S"
}

setup() {
	[ "$(id -u)" = 0 ] || skip "slurmd needs root (CI runs as root)"
}

# node_is STATE: sinfo's long state of the node, such as idle or drained
node_is() {
	[ "$(sinfo -h -N -n "$NODE" -o %T)" = "$1" ]
}

reason() {
	scontrol show node "$NODE" | sed -n 's/^ *Reason=//p'
}

# runs: how many times slurmd ran the health check so far
runs() {
	wc -l <"$S/healthcheck.runs" 2>/dev/null || echo 0
}

ran_since() {
	[ "$(runs)" -ge "$1" ]
}

@test "a failing rdmadiag verdict drains the node naming the check; passing again resumes it" {
	ln -sfn rd-fail "$S/rd"
	wait_until 30 node_is drained
	run reason
	assert_output --regexp '^rdmadiag: kernel\.modules on host \(device layer, link check\) \[root@'
	run scontrol show node "$NODE"
	assert_output --partial 'State=IDLE+DRAIN'
	run sinfo -h -R -o '%E|%N'
	assert_output "rdmadiag: kernel.modules on host (device layer, link check)|$NODE"
	ln -sfn rd-pass "$S/rd"
	wait_until 30 node_is idle
	run reason
	assert_output ''
}

@test "a drain an admin set for another reason stays while rdmadiag passes" {
	ln -sfn rd-pass "$S/rd"
	scontrol update NodeName="$NODE" State=DRAIN Reason="admin: fan replaced, burn-in"
	n=$(runs)
	wait_until 30 ran_since $((n + 2))
	run node_is drained
	assert_success
	run reason
	assert_output --partial 'admin: fan replaced, burn-in'
	scontrol update NodeName="$NODE" State=RESUME
	wait_until 30 node_is idle
}

@test "srun runs the fleet's per-node link check step on the node and report merge reads it" {
	out=$S/lc
	mkdir -p "$out"
	# contrib/README.md: clush -w NODES 'rdmadiag -j link check > /shared/lc/$(hostname -s).json'
	run timeout 60 srun -N1 -w "$NODE" -t 1 sh -c "'$S/rd' -j link check > '$out'/\$(hostname -s).json"
	assert_success
	[ -s "$out/$NODE.json" ]
	run rd report merge "$out"
	assert_success
	assert_line 'merged 1 report'
	assert_output --partial 'lab-a'
	run rd -j report merge "$out"
	[ "$(jq '.checks.nodes_checked' <<<"$output")" = 1 ]
}
