# shellcheck shell=bash
# rdmadiag lab: command channel between the two VMs of `lab.sh run2`, through
# files in $LAB_SHARED (a host directory mounted over 9p in both VMs). It does
# not use the network, so it keeps working when a test breaks the link on
# purpose. Source it (`. tests/lab/peer.sh`); the functions are:
#
#   peer_agent                 (in B) serve requests until killed
#   peer_run [-t S] CMD...     (in A) run CMD in B, print its stdout/stderr,
#                              return its status; 124 on timeout (default
#                              $PEER_TIMEOUT=60 s), 125 if B is down
#   peer_run_bg CMD...         start CMD in B in the background (own session);
#                              prints a handle once it has started
#   peer_kill HANDLE [SIG]     signal the background command's process group
#                              (default TERM)
#   peer_bg_wait HANDLE [S]    wait for it to end (default 60 s), return its status
#   peer_bg_log HANDLE         print its output so far (stdout+stderr)
#   peer_until [-t S] CMD...   retry CMD in B every 0.1 s until it succeeds
#                              (default 30 s); 1 if it never did
#   wait_until [-t S] CMD...   the same, locally
#   peer_ready [S]             wait for the agent (default $PEER_BOOT_TIMEOUT=120 s)
#
# CMD is joined with spaces and run by bash in B, like ssh does: quote
# accordingly (`peer_run 'echo $LAB_HOST'` expands in B). It runs in the
# caller's directory when that exists in B, else in the repo, with B's
# environment (LAB_* of B).
#
# Layout under $PEER_DIR (default $LAB_SHARED/peer): tmp/ (being written),
# req/ID.fg|ID.bg (requests), run/ (claimed), res/ID.{pid,out,err,log,rc}.
# Every file is written under tmp/ or as NAME.tmp and renamed into place, so
# readers never see partial files; rc is always the last file of a request.

PEER_DIR=${PEER_DIR:-${LAB_SHARED:-/lab/shared}/peer}
PEER_TIMEOUT=${PEER_TIMEOUT:-60}
PEER_BOOT_TIMEOUT=${PEER_BOOT_TIMEOUT:-120}
PEER_POLL=${PEER_POLL:-0.05}

# Sleep without starting a process (costly under TCG): read with a timeout on
# a private fifo that nobody writes to.
_peer_sleep() {
	if [ -z "${_PEER_SLEEP_FD:-}" ] || [ "${_PEER_SLEEP_PID:-}" != "$BASHPID" ]; then
		local f
		f=$(mktemp -u "${TMPDIR:-/tmp}/peer-sleep.XXXXXX")
		mkfifo "$f" && exec {_PEER_SLEEP_FD}<>"$f"
		rm -f "$f"
		_PEER_SLEEP_PID=$BASHPID
	fi
	read -r -t "${1:-$PEER_POLL}" -u "$_PEER_SLEEP_FD" _ || true
}

_peer_now() { # milliseconds
	local t=${EPOCHREALTIME/./}
	echo $((t / 1000))
}

_peer_dead() {
	[ -e "${PEER_DIR%/*}/.peer-dead" ]
}

_peer_id() {
	local t=${EPOCHREALTIME/./}
	echo "${t}-${BASHPID}-${RANDOM}"
}

# ---------------------------------------------------------------- agent (B)

_peer_start() { # ID KIND: run one claimed request
	local id=$1 kind=$2 res=$PEER_DIR/res rc
	local script=$PEER_DIR/run/$id.$kind
	# setsid: the command gets its own session/process group so peer_kill can
	# signal all of it; its first act is to publish its pid (= pgid).
	# shellcheck disable=SC2016 # expanded by the inner bash
	local starter='echo $$ >"$1.tmp" && mv -f "$1.tmp" "$1"; exec bash "$2"'
	if [ "$kind" = bg ]; then
		setsid -w bash -c "$starter" _ "$res/$id.pid" "$script" </dev/null >"$res/$id.log" 2>&1
		rc=$?
	else
		setsid -w bash -c "$starter" _ "$res/$id.pid" "$script" </dev/null \
			>"$res/$id.out.tmp" 2>"$res/$id.err.tmp"
		rc=$?
		mv -f "$res/$id.out.tmp" "$res/$id.out"
		mv -f "$res/$id.err.tmp" "$res/$id.err"
	fi
	echo "$rc" >"$res/$id.rc.tmp" && mv -f "$res/$id.rc.tmp" "$res/$id.rc"
	echo "peer-agent: $id ($kind) exited $rc" >&2
}

peer_agent() {
	mkdir -p "$PEER_DIR"/{tmp,req,run,res} || return 1
	local f name id kind
	echo "$$ $(hostname)" >"$PEER_DIR/tmp/ready" && mv -f "$PEER_DIR/tmp/ready" "$PEER_DIR/ready"
	echo "peer-agent: ready in $(hostname), serving $PEER_DIR" >&2
	shopt -s nullglob
	while :; do
		for f in "$PEER_DIR"/req/*; do
			name=${f##*/}
			id=${name%.*}
			kind=${name##*.}
			mv "$f" "$PEER_DIR/run/$name" 2>/dev/null || continue
			echo "peer-agent: $id ($kind): $(tail -n +2 "$PEER_DIR/run/$name" | head -c 200)" >&2
			_peer_start "$id" "$kind" &
		done
		_peer_sleep
	done
}

# ---------------------------------------------------------------- client (A)

peer_ready() {
	local t=${1:-$PEER_BOOT_TIMEOUT} end
	[ -e "$PEER_DIR/ready" ] && return 0
	end=$(($(_peer_now) + t * 1000))
	until [ -e "$PEER_DIR/ready" ]; do
		if _peer_dead; then
			echo "peer: VM b is down" >&2
			return 125
		fi
		if [ "$(_peer_now)" -ge "$end" ]; then
			echo "peer: no agent in VM b after ${t}s ($PEER_DIR/ready missing)" >&2
			return 124
		fi
		_peer_sleep 0.1
	done
}

# _peer_submit KIND CMD... -> prints the request id
_peer_submit() {
	local kind=$1 id
	shift
	peer_ready "$PEER_BOOT_TIMEOUT" || return $?
	id=$(_peer_id)
	{
		# shellcheck disable=SC2016 # $LAB_REPO is B's
		printf 'cd %q 2>/dev/null || cd "$LAB_REPO" || cd /\n' "$PWD"
		printf '%s\n' "$*"
	} >"$PEER_DIR/tmp/$id.$kind" || return 125
	mv -f "$PEER_DIR/tmp/$id.$kind" "$PEER_DIR/req/$id.$kind" || return 125
	echo "$id"
}

# _peer_wait_file FILE TIMEOUT_S -> 0 when it exists, 124 on timeout, 125 if B is down
_peer_wait_file() {
	local file=$1 t=$2 end
	end=$(($(_peer_now) + t * 1000))
	until [ -e "$file" ]; do
		if _peer_dead; then
			[ -e "$file" ] && return 0
			return 125
		fi
		[ "$(_peer_now)" -lt "$end" ] || return 124
		_peer_sleep
	done
}

peer_run() {
	local t=$PEER_TIMEOUT id rc res=$PEER_DIR/res
	if [ "${1:-}" = -t ]; then
		t=$2
		shift 2
	fi
	id=$(_peer_submit fg "$@") || return $?
	_peer_wait_file "$res/$id.rc" "$t"
	rc=$?
	if [ "$rc" != 0 ]; then
		if [ "$rc" = 124 ]; then
			echo "peer_run: timeout after ${t}s: $*" >&2
			[ -e "$res/$id.pid" ] && peer_run -t 10 "kill -KILL -- -$(cat "$res/$id.pid")" >/dev/null 2>&1
		else
			echo "peer_run: VM b is down: $*" >&2
		fi
		return "$rc"
	fi
	cat "$res/$id.out"
	cat "$res/$id.err" >&2
	return "$(cat "$res/$id.rc")"
}

peer_run_bg() {
	local id rc
	id=$(_peer_submit bg "$@") || return $?
	_peer_wait_file "$PEER_DIR/res/$id.pid" "$PEER_TIMEOUT" || {
		rc=$?
		echo "peer_run_bg: command did not start in VM b: $*" >&2
		return "$rc"
	}
	echo "$id"
}

peer_kill() {
	local id=${1:?handle} sig=${2:-TERM} pid
	pid=$(cat "$PEER_DIR/res/$id.pid" 2>/dev/null) || {
		echo "peer_kill: unknown handle $id" >&2
		return 2
	}
	[ -e "$PEER_DIR/res/$id.rc" ] && return 0
	peer_run -t 20 "kill -$sig -- -$pid 2>/dev/null || ! kill -0 $pid 2>/dev/null"
}

peer_bg_wait() {
	local id=${1:?handle} t=${2:-$PEER_TIMEOUT} rc
	_peer_wait_file "$PEER_DIR/res/$id.rc" "$t" || {
		rc=$?
		echo "peer_bg_wait: $id still running after ${t}s" >&2
		return "$rc"
	}
	return "$(cat "$PEER_DIR/res/$id.rc")"
}

peer_bg_log() {
	cat "$PEER_DIR/res/${1:?handle}.log"
}

peer_until() {
	local t=30
	if [ "${1:-}" = -t ]; then
		t=$2
		shift 2
	fi
	local n=$((t * 10))
	peer_run -t $((t + 30)) "for ((_i = 0; _i < $n; _i++)); do { $*; } >/dev/null 2>&1 && exit 0; sleep 0.1; done; exit 1"
}

wait_until() {
	local t=30 end
	if [ "${1:-}" = -t ]; then
		t=$2
		shift 2
	fi
	end=$(($(_peer_now) + t * 1000))
	until "$@"; do
		[ "$(_peer_now)" -lt "$end" ] || return 1
		_peer_sleep 0.1
	done
}
