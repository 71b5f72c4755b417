#!/bin/bash
# rdmadiag test lab: a real kernel RDMA stack (Soft-RoCE, rdma_rxe) in Debian's
# kernel booted under qemu (TCG, no KVM needed). See tests/lab/README.md.
#
#   lab.sh prepare                         install deps, fetch kernel, build initramfs (cached)
#   lab.sh run1 [--timeout S] CMD...       run CMD in one VM (rxe0 on dummy rxenet0)
#   lab.sh run2 [--timeout S] CMD_A -- CMD_B   two VMs on one link, CMD_A in A, CMD_B in B
#   lab.sh run2-agent [--timeout S] CMD_A  run2 with the peer.sh agent as CMD_B
#   lab.sh shell                           interactive shell in one VM
#
# Exit codes of run1/run2: the command's own (CMD_A's for run2); 124 when the
# lab timeout hit; 125 when a VM failed to boot, to set up RDMA, or died.
#
# LAB_SHAPE=NAME boots the VMs in another shape (default: -cpu max, 1 vCPU,
# MTU 1500, IPv4 only): smp2, cpu-default, netem, jumbo, ipv6 (see README).
set -euo pipefail

LAB_SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$LAB_SRC/../.." && pwd)
# LAB_KERNEL_PKG boots another kernel package than linux-image-amd64's (a
# meta package like linux-image-6.12-amd64 or an exact linux-image-<ver>);
# its kernel and initramfs live in a build dir of their own.
KERNEL_SELECTOR=${LAB_KERNEL_PKG:-linux-image-amd64}
if [ -n "${LAB_KERNEL_PKG:-}" ]; then
	BUILD=${LAB_BUILD_DIR:-$REPO/build/lab-$LAB_KERNEL_PKG}
else
	BUILD=${LAB_BUILD_DIR:-$REPO/build/lab}
fi
SLOT_DIR=${LAB_SLOT_DIR:-/tmp/rdmadiag-lab-slots}
LAB_MEM=${LAB_MEM:-1024}
LAB_KEEP_LOGS=${LAB_KEEP_LOGS:-30}
# Lab shapes: what differs from the default VM, on the qemu side (vCPUs, CPU
# model) here, on the guest side (link delay, MTU, IPv6) in guest/stage2,
# which reads LAB_SHAPE from the VM's config. Why: verdicts proven on one VM
# shape only gave false failures on ordinary machines (issue 20).
LAB_SHAPE=${LAB_SHAPE:-default}
SHAPE_CPU=(-cpu max)
SHAPE_SMP=1
case "${LAB_VCPU_SCHED:-}" in
'' | idle) ;;
*) echo "lab: bad LAB_VCPU_SCHED '$LAB_VCPU_SCHED' (idle, or unset)" >&2; exit 2 ;;
esac
case "$LAB_SHAPE" in
default | netem | jumbo | ipv6) ;;
smp2) SHAPE_SMP=2 ;;	# two vCPUs per VM, as every real host has several
cpu-default) SHAPE_CPU=() ;;	# qemu's default CPU model (qemu64), fewer CPU features
*)
	echo "lab: bad LAB_SHAPE '$LAB_SHAPE' (default, smp2, cpu-default, netem, jumbo, ipv6)" >&2
	exit 2
	;;
esac
# Modules the initramfs needs before it can reach the host's root and modules.
INITRD_MODULES="virtio_pci 9pnet_virtio 9p overlay"
EXIT_TIMEOUT=124
EXIT_INFRA=125

msg() { echo "lab: $*" >&2; }
die() {
	msg "$*"
	exit "$EXIT_INFRA"
}

usage() {
	sed -n '2,15s/^# \{0,1\}//p' "${BASH_SOURCE[0]}" >&2
	exit 2
}

rel() { # path relative to the repo, for messages
	case "$1" in
	"$REPO"/*) echo "${1#"$REPO"/}" ;;
	*) echo "$1" ;;
	esac
}

# ---------------------------------------------------------------- prepare

need_cmds="qemu-system-x86_64 busybox cpio gzip depmod modprobe dpkg rdma ibv_devinfo rping ib_write_bw ibv_ud_pingpong bats ss flock timeout"

deps_ok() {
	local c
	for c in $need_cmds; do
		command -v "$c" >/dev/null 2>&1 || return 1
	done
	[ -f /usr/lib/bats/bats-assert/load.bash ] && [ -f /usr/lib/bats/bats-support/load.bash ] &&
		file_is_static /bin/busybox
}

file_is_static() {
	# busybox-static's binary; the dynamic busybox package cannot run in the initramfs.
	[ -x "$1" ] && ! ldd "$1" >/dev/null 2>&1
}

# resolve_kernel_pkg NAME: a meta package -> its linux-image-<ver> dependency;
# an exact image package -> itself; unknown -> nothing.
resolve_kernel_pkg() {
	local dep
	dep=$(apt-cache depends "$1" 2>/dev/null |
		awk '$1 == "Depends:" && $2 ~ /^linux-image-[0-9]/ { print $2; exit }')
	if [ -n "$dep" ]; then
		echo "$dep"
	elif apt-cache show "$1" 2>/dev/null | grep -q '^Filename: .*/linux-image-'; then
		echo "$1"
	fi
}

kernel_pkg() {
	local p
	p=$(resolve_kernel_pkg "$KERNEL_SELECTOR")
	if [ -z "$p" ] && [ "$(id -u)" = 0 ]; then
		apt-get update -qq >/dev/null 2>&1 || true
		p=$(resolve_kernel_pkg "$KERNEL_SELECTOR")
	fi
	echo "$p"
}

# A build dir serves one kernel selector, so that an override never replaces
# the default kernel cache other runs share (and the other way round).
check_build_selector() {
	local had
	had=$(cat "$BUILD/kernel.selector" 2>/dev/null || true)
	# dirs prepared before the selector was recorded hold linux-image-amd64's kernel
	if [ -z "$had" ] && [ -s "$BUILD/kernel.pkg" ]; then
		had=linux-image-amd64
	fi
	[ -z "$had" ] || [ "$had" = "$KERNEL_SELECTOR" ] ||
		die "build dir $(rel "$BUILD") holds the kernel of $had, not $KERNEL_SELECTOR; set LAB_BUILD_DIR to another dir (or unset it: each LAB_KERNEL_PKG gets build/lab-PKG)"
	# (the default dir is left as it was: no marker means linux-image-amd64)
	if [ "$KERNEL_SELECTOR" != linux-image-amd64 ] && [ -d "$BUILD" ]; then
		echo "$KERNEL_SELECTOR" >"$BUILD/kernel.selector"
	fi
}

prepare_kernel() {
	local pkg kver deb tmp
	pkg=$(kernel_pkg)
	if [ -z "$pkg" ]; then
		if [ -s "$BUILD/kernel.ver" ] && [ -d "$BUILD/kernel" ]; then
			msg "cannot resolve $KERNEL_SELECTOR with apt-cache; keeping cached kernel $(cat "$BUILD/kernel.ver")"
			return 0
		fi
		die "cannot resolve $KERNEL_SELECTOR with apt-cache (run apt-get update; LAB_KERNEL_PKG names a linux-image package)"
	fi
	kver=${pkg#linux-image-}
	if [ "$(cat "$BUILD/kernel.pkg" 2>/dev/null)" = "$pkg" ] && [ -d "$BUILD/kernel/lib/modules/$kver" ] &&
		[ -f "$BUILD/kernel/lib/modules/$kver/modules.dep" ]; then
		return 0
	fi
	msg "fetching kernel package $pkg"
	mkdir -p "$BUILD/cache"
	rm -f "$BUILD"/cache/*.deb.partial
	deb=$(find "$BUILD/cache" -maxdepth 1 -name "${pkg}_*.deb" | sort | tail -n 1)
	if [ -z "$deb" ]; then
		(cd "$BUILD/cache" && apt-get download "$pkg" >/dev/null 2>&1) ||
			(cd "$BUILD/cache" && apt-get download "$pkg") || die "apt-get download $pkg failed"
		deb=$(find "$BUILD/cache" -maxdepth 1 -name "${pkg}_*.deb" | sort | tail -n 1)
		[ -n "$deb" ] || die "apt-get download $pkg left no .deb"
	fi
	tmp=$BUILD/kernel.tmp
	rm -rf "$tmp"
	mkdir -p "$tmp"
	dpkg -x "$deb" "$tmp" || die "dpkg -x $deb failed"
	[ -f "$tmp/boot/vmlinuz-$kver" ] || die "no vmlinuz-$kver in $deb"
	depmod -b "$tmp" "$kver" || die "depmod failed"
	rm -rf "$BUILD/kernel"
	mv "$tmp" "$BUILD/kernel"
	echo "$kver" >"$BUILD/kernel.ver"
	echo "$pkg" >"$BUILD/kernel.pkg"
	# Keep only the current package in the cache.
	find "$BUILD/cache" -name 'linux-image-*.deb' ! -name "${pkg}_*" -delete
}

initrd_stamp() {
	local kver=$1
	{
		echo "$kver $INITRD_MODULES"
		cat "$LAB_SRC/guest/init"
		busybox 2>&1 | sed -n 1p
	} | md5sum | cut -d' ' -f1
}

prepare_initrd() {
	local kver kdir stamp tmp m line
	kver=$(cat "$BUILD/kernel.ver")
	kdir=$BUILD/kernel
	stamp=$(initrd_stamp "$kver")
	if [ -f "$BUILD/initrd.gz" ] && [ "$(cat "$BUILD/initrd.stamp" 2>/dev/null)" = "$stamp" ]; then
		return 0
	fi
	msg "building initramfs"
	tmp=$BUILD/initrd.tmp
	rm -rf "$tmp"
	mkdir -p "$tmp"/{bin,dev,proc,sys,mnt,mods}
	cp /bin/busybox "$tmp/bin/busybox"
	install -m 0755 "$LAB_SRC/guest/init" "$tmp/init"
	: >"$tmp/mods/order"
	for m in $INITRD_MODULES; do
		modprobe -d "$kdir" -S "$kver" --show-depends "$m" >"$tmp/deps" ||
			die "modprobe --show-depends $m failed"
		while read -r line; do
			case "$line" in
			builtin\ *) continue ;;
			insmod\ *) ;;
			*) die "unexpected modprobe output: $line" ;;
			esac
			line=${line#insmod }
			line=${line%% *}
			local base=${line##*/}
			# compressed modules (6.12's .ko.xz) are stored unpacked: compare
			# the unpacked name, or a shared dependency is inserted twice
			local ko=${base%.xz}
			ko=${ko%.zst}
			grep -qxF "$ko" "$tmp/mods/order" && continue
			case "$base" in
			*.ko) cp "$line" "$tmp/mods/$ko" ;;
			*.ko.xz) xz -dc "$line" >"$tmp/mods/$ko" ;;
			*.ko.zst) zstd -qdc "$line" >"$tmp/mods/$ko" ;;
			*) die "unknown module format: $line" ;;
			esac
			echo "$ko" >>"$tmp/mods/order"
		done <"$tmp/deps"
		rm -f "$tmp/deps"
	done
	(cd "$tmp" && find . -print0 | LC_ALL=C sort -z | cpio --null -o -H newc --quiet -R 0:0) |
		gzip -1 >"$BUILD/initrd.gz.tmp" || die "cpio failed"
	mv "$BUILD/initrd.gz.tmp" "$BUILD/initrd.gz"
	rm -rf "$tmp"
	echo "$stamp" >"$BUILD/initrd.stamp"
}

cmd_prepare() {
	mkdir -p "$BUILD"
	local lock
	exec {lock}>"$BUILD/.prepare.lock"
	flock "$lock"
	if ! deps_ok; then
		msg "installing lab dependencies (scripts/install-deps.sh lab)"
		"$REPO/scripts/install-deps.sh" lab || die "scripts/install-deps.sh lab failed"
		hash -r
		deps_ok || die "dependencies still missing after install-deps.sh: need $need_cmds, bats-assert, bats-support, busybox-static"
	fi
	check_build_selector
	prepare_kernel
	prepare_initrd
	exec {lock}>&-
}

ensure_prepared() {
	check_build_selector
	if [ -s "$BUILD/kernel.ver" ] && [ -f "$BUILD/initrd.gz" ] &&
		[ "$(cat "$BUILD/initrd.stamp" 2>/dev/null)" = "$(initrd_stamp "$(cat "$BUILD/kernel.ver")")" ]; then
		return 0
	fi
	cmd_prepare
}

# ---------------------------------------------------------------- slots

# At most two VMs on the machine at once, across all users of the lab: a VM
# holds one of two flock'ed slot files for as long as its qemu runs (qemu
# inherits the lock fd, so the slot is held even if lab.sh itself is killed).
SLOT_FDS=()
acquire_slots() {
	local want=$1 i fd waited=0
	mkdir -p "$SLOT_DIR"
	chmod 1777 "$SLOT_DIR" 2>/dev/null || true
	if [ "$want" = 2 ]; then
		for i in 0 1; do
			exec {fd}>>"$SLOT_DIR/slot$i"
			if ! flock -n "$fd"; then
				[ "$waited" = 1 ] || msg "waiting for both VM slots ($SLOT_DIR)"
				waited=1
				flock "$fd"
			fi
			SLOT_FDS+=("$fd")
		done
		return 0
	fi
	while :; do
		for i in 0 1; do
			exec {fd}>>"$SLOT_DIR/slot$i"
			if flock -n "$fd"; then
				SLOT_FDS+=("$fd")
				return 0
			fi
			exec {fd}>&-
		done
		[ "$waited" = 1 ] || msg "waiting for a free VM slot ($SLOT_DIR)"
		waited=1
		sleep 0.5
	done
}

# ---------------------------------------------------------------- VMs

RUN_ID=
RUN_DIR=
new_run() {
	mkdir -p "$BUILD/logs"
	RUN_ID=$(date +%Y%m%d-%H%M%S)-$$
	RUN_DIR=$BUILD/logs/$RUN_ID
	mkdir -p "$RUN_DIR"
	# Prune old runs.
	local old
	old=$(find "$BUILD/logs" -mindepth 1 -maxdepth 1 -type d | LC_ALL=C sort | head -n -"$LAB_KEEP_LOGS")
	if [ -n "$old" ]; then
		# shellcheck disable=SC2086
		rm -rf $old
	fi
}

# vm_config DIR HOST IP PEER_IP NIC KIND MAC -- CMD...
vm_config() {
	local dir=$1 host=$2 ip=$3 peer=$4 nic=$5 kind=$6 mac=$7
	shift 7
	[ "$1" = -- ] && shift
	mkdir -p "$dir"
	{
		printf 'LAB_HOST=%q\n' "$host"
		printf 'LAB_IP=%q\n' "$ip"
		printf 'LAB_PEER_IP=%q\n' "$peer"
		printf 'LAB_NIC=%q\n' "$nic"
		printf 'LAB_NIC_KIND=%q\n' "$kind"
		printf 'LAB_NIC_MAC=%q\n' "$mac"
		printf 'LAB_RXE=rxe0\n'
		printf 'LAB_REPO=%q\n' "$REPO"
		printf 'LAB_RUN_DIR=%q\n' "$dir"
		printf 'RDMADIAG_BIN=%q\n' "${RDMADIAG_BIN:-rdmadiag/rdmadiag}"
		printf 'LAB_TERM=%q\n' "${LAB_TERM:-}"
		printf 'LAB_SHAPE=%q\n' "$LAB_SHAPE"
		# IPv6 addresses of the ipv6 shape (/64 on the lab link), and for tests that add them
		printf 'LAB_IP6=fd00:77::%s\n' "${ip##*.}"
		[ -z "$peer" ] || printf 'LAB_PEER_IP6=fd00:77::%s\n' "${peer##*.}"
	} >"$dir/config"
	: >"$dir/env"
	local v
	for v in ${LAB_ENV:-}; do
		if [ -n "${!v+x}" ]; then
			printf '%s=%s\n' "$v" "${!v}" >>"$dir/env"
		fi
	done
	{
		echo "# generated by tests/lab/lab.sh"
		printf 'cd %q || exit 125\n' "$REPO"
		if [ $# -gt 0 ]; then
			printf 'exec'
			printf ' %q' "$@"
			printf '\n'
		fi
	} >"$dir/cmd"
	cp "$LAB_SRC/guest/stage2" "$dir/stage2"
	: >"$dir/output"
	rm -f "$dir/rc" "$dir/started" "$dir/setup-error"
}

# vm_argv DIR MODE [SHARED_DIR] [NETDEV_OPTS MAC]  -> fills QEMU_ARGV
QEMU_ARGV=()
vm_argv() {
	local dir=$1 mode=$2 shared=${3:-} netdev=${4:-} mac=${5:-} kver append
	kver=$(cat "$BUILD/kernel.ver")
	append="console=ttyS0 quiet panic=-1 lab.mode=$mode lab.shared=$([ -n "$shared" ] && echo 1 || echo 0) ${LAB_APPEND:-}"
	# shellcheck disable=SC2054 # commas belong to qemu option values
	QEMU_ARGV=(qemu-system-x86_64 -machine pc -accel tcg "${SHAPE_CPU[@]}" -m "$LAB_MEM" -smp "$SHAPE_SMP"
		-nodefaults -display none -no-reboot -no-user-config
		-kernel "$BUILD/kernel/boot/vmlinuz-$kver" -initrd "$BUILD/initrd.gz" -append "$append"
		-fsdev "local,id=hostroot,path=/,security_model=none,readonly=on,multidevs=remap"
		-device virtio-9p-pci,fsdev=hostroot,mount_tag=hostroot
		-fsdev "local,id=modules,path=$BUILD/kernel/lib/modules,security_model=none,readonly=on"
		-device virtio-9p-pci,fsdev=modules,mount_tag=modules
		-fsdev "local,id=io,path=$dir,security_model=none"
		-device virtio-9p-pci,fsdev=io,mount_tag=io)
	# shellcheck disable=SC2206 # word splitting wanted: extra qemu options
	[ -z "${LAB_QEMU_EXTRA:-}" ] || QEMU_ARGV+=(${LAB_QEMU_EXTRA})
	# thread names ("CPU 0/TCG") for vcpu_sched
	[ -z "${LAB_VCPU_SCHED:-}" ] || QEMU_ARGV+=(-name "lab,debug-threads=on")
	if [ -n "$shared" ]; then
		# shellcheck disable=SC2054
		QEMU_ARGV+=(-fsdev "local,id=shared,path=$shared,security_model=none"
			-device virtio-9p-pci,fsdev=shared,mount_tag=shared)
	fi
	if [ -n "$netdev" ]; then
		QEMU_ARGV+=(-netdev "socket,id=n0,$netdev" -device "virtio-net-pci,netdev=n0,mac=$mac")
	fi
	if [ "$mode" = shell ]; then
		QEMU_ARGV+=(-serial mon:stdio)
	else
		QEMU_ARGV+=(-serial "file:$dir/console.log")
	fi
}

# vm_start DIR TIMEOUT -> starts qemu (under timeout) in the background, sets VM_PID
VM_PID=
ALL_PIDS=()
vm_start() {
	local dir=$1 t=$2
	date +%s.%N >"$dir/t-start"
	timeout -k 10 "$t" "${QEMU_ARGV[@]}" </dev/null >"$dir/qemu.log" 2>&1 &
	VM_PID=$!
	ALL_PIDS+=("$VM_PID")
	[ -z "${LAB_VCPU_SCHED:-}" ] || vcpu_sched "$VM_PID" "$dir" &
}

# vcpu_sched TIMEOUT_PID DIR (LAB_VCPU_SCHED=idle, for benchmarks): puts the
# vCPU threads of the qemu under TIMEOUT_PID in SCHED_IDLE. Both VMs' vCPUs
# spin while a latency test polls its CQ; qemu's I/O threads, which carry
# every packet of the link between the VMs, then waited behind them for a
# CPU of the 2-core host (up to a host tick per hop) and gave each round
# trip a random delay: perftest's own p50 moved from 313 to 1136 us between
# runs. With the vCPUs idle-class an I/O thread runs as soon as it wakes.
# Not for the test suites: on a loaded host idle-class vCPUs starve.
vcpu_sched() {
	local parent=$1 dir=$2 qpid t n=0 tries
	for ((tries = 0; tries < 100; tries++)); do
		qpid=$(pgrep -P "$parent" -x qemu-system-x86 | head -1) || true
		if [ -n "$qpid" ]; then
			for t in /proc/"$qpid"/task/*; do
				case $(cat "$t/comm" 2>/dev/null) in
				CPU\ */TCG) chrt --idle -p 0 "${t##*/}" && n=$((n + 1)) ;;
				esac
			done
			[ "$n" -eq 0 ] || break
		fi
		sleep 0.1
	done
	echo "vCPU threads put in SCHED_IDLE: $n" >"$dir/vcpu-sched"
	[ "$n" -gt 0 ] || msg "LAB_VCPU_SCHED: no vCPU thread of qemu found to put in SCHED_IDLE"
}

cleanup() {
	local p
	for p in "${ALL_PIDS[@]}"; do
		kill "$p" 2>/dev/null || true
	done
}

on_signal() {
	msg "interrupted; stopping VMs"
	cleanup
	wait 2>/dev/null || true
	exit 130
}

# vm_verdict DIR NAME QEMU_STATUS -> prints problems; returns the exit code to use
vm_verdict() {
	local dir=$1 name=$2 st=$3
	if [ -f "$dir/rc" ]; then
		return "$(cat "$dir/rc")"
	fi
	if [ "$st" = 124 ] || [ "$st" = 137 ]; then
		msg "VM $name: timeout after ${LAB_TIMEOUT_USED}s (console log: $(rel "$dir")/console.log)"
		return "$EXIT_TIMEOUT"
	fi
	if [ -f "$dir/setup-error" ]; then
		msg "VM $name: $(head -n 1 "$dir/setup-error") (console log: $(rel "$dir")/console.log)"
	elif [ -f "$dir/started" ]; then
		msg "VM $name died while running the command (console log: $(rel "$dir")/console.log)"
	else
		msg "VM $name failed to boot (qemu status $st; console log: $(rel "$dir")/console.log, qemu: $(rel "$dir")/qemu.log)"
		if [ -s "$dir/qemu.log" ]; then
			sed 's/^/lab:   qemu: /' "$dir/qemu.log" | head -n 5 >&2
		fi
		tail -n 5 "$dir/console.log" 2>/dev/null | sed 's/^/lab:   console: /' >&2
	fi
	return "$EXIT_INFRA"
}

boot_time() { # "booted in N s" from qemu start to the started marker
	local dir=$1 t0 t1
	if [ ! -f "$dir/started" ]; then
		printf 'did not finish booting'
		return 0
	fi
	t0=$(cat "$dir/t-start")
	t1=$(stat -c %.9Y "$dir/started")
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "booted in %.1fs", b - a }'
}

parse_timeout() { # sets LAB_TIMEOUT_USED and ARGS_LEFT
	LAB_TIMEOUT_USED=${LAB_TIMEOUT:-600}
	ARGS_LEFT=()
	while [ $# -gt 0 ]; do
		case "$1" in
		--timeout)
			[ $# -ge 2 ] || usage
			LAB_TIMEOUT_USED=$2
			shift 2
			;;
		--timeout=*)
			LAB_TIMEOUT_USED=${1#--timeout=}
			shift
			;;
		*) break ;;
		esac
	done
	case "$LAB_TIMEOUT_USED" in
	'' | *[!0-9]*) die "bad --timeout '$LAB_TIMEOUT_USED' (whole seconds)" ;;
	esac
	ARGS_LEFT=("$@")
}

cmd_run1() {
	parse_timeout "$@"
	set -- "${ARGS_LEFT[@]}"
	[ $# -gt 0 ] || usage
	ensure_prepared
	new_run
	local dir=$RUN_DIR/a st=0 rc=0 tailpid
	vm_config "$dir" a 192.168.77.1 "" rxenet0 dummy "" -- "$@"
	vm_argv "$dir" run
	acquire_slots 1
	trap on_signal INT TERM HUP
	trap cleanup EXIT
	vm_start "$dir" "$LAB_TIMEOUT_USED"
	tail -s 0.1 -n +1 -f --pid="$VM_PID" "$dir/output" &
	tailpid=$!
	wait "$VM_PID" || st=$?
	wait "$tailpid" || true
	[ -z "${LAB_VERBOSE:-}" ] || msg "VM a $(boot_time "$dir"); logs: $(rel "$RUN_DIR")"
	vm_verdict "$dir" a "$st" || rc=$?
	exit "$rc"
}

# Stops a VM started for a link that could not be made, and reaps it.
vm_stop() {
	kill "$1" 2>/dev/null || true
	wait "$1" 2>/dev/null || true
}

udp_port_bound() {
	ss -Hlun "sport = :$1" 2>/dev/null | grep -q .
}

# vm_start_on_udp DIR NAME SHARED LOCAL_PORT REMOTE_PORT MAC: starts the VM whose
# NIC sends to 127.0.0.1:REMOTE_PORT from LOCAL_PORT, and waits until qemu
# has bound it. Sets VM_PID; returns 1 when the port was taken (retry with
# another), dies on any other failure.
vm_start_on_udp() {
	local dir=$1 name=$2 shared=$3 lport=$4 rport=$5 mac=$6 pid i
	vm_argv "$dir" run "$shared" "udp=127.0.0.1:$rport,localaddr=127.0.0.1:$lport" "$mac"
	vm_start "$dir" "$LAB_TIMEOUT_USED"
	pid=$VM_PID
	for i in $(seq 100); do
		udp_port_bound "$lport" && return 0
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.05
	done
	kill -0 "$pid" 2>/dev/null && udp_port_bound "$lport" && return 0
	vm_stop "$pid"
	grep -qi 'in use' "$dir/qemu.log" 2>/dev/null && return 1
	msg "VM $name: qemu did not start ($(rel "$dir")/qemu.log):"
	sed 's/^/lab:   qemu: /' "$dir/qemu.log" >&2
	exit "$EXIT_INFRA"
}

cmd_run2() {
	parse_timeout "$@"
	set -- "${ARGS_LEFT[@]}"
	local -a cmd_a=() cmd_b=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		cmd_a+=("$1")
		shift
	done
	[ "${1:-}" = -- ] || usage
	shift
	cmd_b=("$@")
	if [ ${#cmd_a[@]} -eq 0 ] || [ ${#cmd_b[@]} -eq 0 ]; then
		usage
	fi
	ensure_prepared
	new_run
	local da=$RUN_DIR/a db=$RUN_DIR/b shared=$RUN_DIR/shared
	mkdir -p "$shared"
	chmod 1777 "$shared"
	vm_config "$da" a 192.168.77.1 192.168.77.2 labnet0 virtio 52:54:00:77:00:01 -- "${cmd_a[@]}"
	vm_config "$db" b 192.168.77.2 192.168.77.1 labnet0 virtio 52:54:00:77:00:02 -- "${cmd_b[@]}"
	acquire_slots 2
	trap on_signal INT TERM HUP
	trap cleanup EXIT

	# The link: UDP datagrams between two 127.0.0.1 ports, one per VM. Like
	# a wire, a VM that does not take its frames (its link set down) loses
	# them; over qemu's stream socket (listen=/connect=) it made the other
	# VM's qemu stop sending, until that VM's virtio-net TX queue timed out
	# (NETDEV WATCHDOG) and stayed dead for the rest of the run.
	local pa pb apid="" bpid="" try
	for try in 1 2 3 4 5 6 7 8 9 10; do
		pa=$((20000 + (RANDOM * 32768 + RANDOM) % 30000))
		pb=$((pa + 1))
		if udp_port_bound "$pa" || udp_port_bound "$pb"; then
			continue
		fi
		if ! vm_start_on_udp "$da" a "$shared" "$pa" "$pb" 52:54:00:77:00:01; then
			msg "port $pa busy (try $try), retrying"
			continue
		fi
		apid=$VM_PID
		vm_start_on_udp "$db" b "$shared" "$pb" "$pa" 52:54:00:77:00:02 && break
		msg "port $pb busy (try $try), retrying"
		vm_stop "$apid"
		apid=""
	done
	[ -n "$apid" ] || die "no free pair of UDP ports for the VM link after 10 tries"
	bpid=$VM_PID

	local tailpid sta=0 stb=0 done_pid="" b_done=0
	tail -s 0.1 -n +1 -f --pid="$apid" "$da/output" &
	tailpid=$!
	while :; do
		done_pid=""
		if [ "$b_done" = 0 ]; then
			wait -n -p done_pid "$apid" "$bpid" && st=0 || st=$?
		else
			wait "$apid" && st=0 || st=$?
			done_pid=$apid
		fi
		if [ "$done_pid" = "$bpid" ]; then
			stb=$st
			b_done=1
			echo "VM b is down" >"$shared/.peer-dead"
			if [ ! -f "$db/started" ]; then
				# B never came up: A's run is pointless.
				msg "VM b failed to come up; stopping VM a"
				kill "$apid" 2>/dev/null || true
			fi
			continue
		fi
		if [ "$done_pid" = "$apid" ]; then
			sta=$st
			break
		fi
		[ -n "$done_pid" ] || break
	done
	wait "$tailpid" || true
	if [ "$b_done" = 0 ]; then
		# The run ends with CMD_A: shut B down.
		kill "$bpid" 2>/dev/null || true
		wait "$bpid" && stb=0 || stb=$?
		# Killed on purpose: not a failure of B.
		[ -f "$db/started" ] && stb=0
	fi
	if [ -s "$db/output" ]; then
		sed 's/^/# [b] /' "$db/output"
	fi
	[ -z "${LAB_VERBOSE:-}" ] ||
		msg "VM a $(boot_time "$da"), VM b $(boot_time "$db"); logs: $(rel "$RUN_DIR")"
	local rca=0 rcb=0
	vm_verdict "$da" a "$sta" || rca=$?
	if [ -f "$db/rc" ]; then
		rcb=$(cat "$db/rc")
		[ "$rcb" = 0 ] || msg "VM b: CMD_B exited with status $rcb"
	elif [ ! -f "$db/started" ] || [ -f "$db/setup-error" ]; then
		vm_verdict "$db" b "$stb" || rcb=$?
	fi
	if [ "$rca" = 0 ] && [ "$rcb" != 0 ]; then
		[ "$rcb" = "$EXIT_INFRA" ] || [ "$rcb" = "$EXIT_TIMEOUT" ] || rcb=1
		exit "$rcb"
	fi
	if [ "$rca" = 0 ] && [ ! -f "$db/started" ]; then
		exit "$EXIT_INFRA"
	fi
	exit "$rca"
}

cmd_shell() {
	[ -t 0 ] || die "shell needs a terminal"
	ensure_prepared
	new_run
	local dir=$RUN_DIR/a
	vm_config "$dir" a 192.168.77.1 "" rxenet0 dummy "" --
	LAB_TERM=${TERM:-linux}
	sed -i "s/^LAB_TERM=.*/LAB_TERM=$(printf %q "$LAB_TERM")/" "$dir/config"
	vm_argv "$dir" shell
	acquire_slots 1
	msg "booting (quit qemu with Ctrl-A x; logs: $(rel "$RUN_DIR"))"
	"${QEMU_ARGV[@]}"
}

main() {
	local sub=${1:-}
	[ $# -gt 0 ] && shift
	case "$sub" in
	prepare) cmd_prepare "$@" ;;
	run1) cmd_run1 "$@" ;;
	run2) cmd_run2 "$@" ;;
	run2-agent)
		parse_timeout "$@"
		[ ${#ARGS_LEFT[@]} -gt 0 ] || usage
		cmd_run2 --timeout "$LAB_TIMEOUT_USED" "${ARGS_LEFT[@]}" -- \
			bash -c ". $(printf %q "$LAB_SRC/peer.sh") && peer_agent"
		;;
	shell) cmd_shell "$@" ;;
	-h | --help | help) usage ;;
	*) usage ;;
	esac
}

main "$@"
