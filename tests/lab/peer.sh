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
# Layout under $PEER_DIR (default $LAB_SHARED/peer): cmd/ID holds the
# command; the empty marker req/ID.fg or req/ID.bg, created after it, submits
# it; the agent writes res/ID.pid (the command's process group), res/ID.out
# and res/ID.err (foreground) or res/ID.log (background), and last res/ID.rc.
# pid and rc are each written with one write(2) and only read once non-empty;
# out/err/log are complete once rc exists. Nothing in the request path starts
# a process except the command itself (a process costs ~35 ms or more in TCG).

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

_peer_now() { # sets _PEER_NOW to the time in milliseconds (no subshell)
	local t=${EPOCHREALTIME/./}
	_PEER_NOW=$((t / 1000))
}

_peer_cat() { # print a file without starting cat
	local _c=
	IFS= read -r -d '' _c <"$1" || true
	printf '%s' "$_c"
}

_peer_dead() {
	[ -e "${PEER_DIR%/*}/.peer-dead" ]
}

_peer_id() { # sets _PEER_ID to a new unique request id
	local t=${EPOCHREALTIME/./}
	_PEER_ID="${t}-${BASHPID}-${RANDOM}"
}

# ---------------------------------------------------------------- agent (B)

_peer_start() { # ID KIND: run one request (in a subshell of the agent)
	local id=$1 kind=$2 res=$PEER_DIR/res pid rc
	# Job control: the command gets its own process group, so peer_kill can
	# signal all of it.
	set -m
	if [ "$kind" = bg ]; then
		bash "$PEER_DIR/cmd/$id" </dev/null >"$res/$id.log" 2>&1 &
	else
		bash "$PEER_DIR/cmd/$id" </dev/null >"$res/$id.out" 2>"$res/$id.err" &
	fi
	pid=$!
	echo "$pid" >"$res/$id.pid"
	wait "$pid" && rc=0 || rc=$?
	echo "$rc" >"$res/$id.rc"
	echo "peer-agent: $id ($kind) exited $rc" >&"$_PEER_LOG"
}

peer_agent() {
	mkdir -p "$PEER_DIR"/{cmd,req,res} || return 1
	local f name id kind line
	local -A seen=()
	# The agent's log; the subshells' own stderr (job control chatter) is dropped.
	exec {_PEER_LOG}>&2
	echo "$$ $(hostname)" >"$PEER_DIR/ready.tmp" && mv -f "$PEER_DIR/ready.tmp" "$PEER_DIR/ready"
	echo "peer-agent: ready in $(hostname), serving $PEER_DIR" >&2
	shopt -s nullglob
	while :; do
		for f in "$PEER_DIR"/req/*; do
			name=${f##*/}
			[ -z "${seen[$name]:-}" ] || continue
			seen[$name]=1
			id=${name%.*}
			kind=${name##*.}
			line=
			{
				read -r _
				read -r line
			} <"$PEER_DIR/cmd/$id"
			echo "peer-agent: $id ($kind): ${line:0:200}" >&2
			_peer_start "$id" "$kind" 2>/dev/null &
		done
		_peer_sleep
	done
}

# ---------------------------------------------------------------- client (A)

peer_ready() {
	local t=${1:-$PEER_BOOT_TIMEOUT} end
	[ -e "$PEER_DIR/ready" ] && return 0
	_peer_now
	end=$((_PEER_NOW + t * 1000))
	until [ -e "$PEER_DIR/ready" ]; do
		if _peer_dead; then
			echo "peer: VM b is down" >&2
			return 125
		fi
		_peer_now
		if [ "$_PEER_NOW" -ge "$end" ]; then
			echo "peer: no agent in VM b after ${t}s ($PEER_DIR/ready missing)" >&2
			return 124
		fi
		_peer_sleep 0.1
	done
}

# _peer_submit KIND CMD... -> sets _PEER_ID
_peer_submit() {
	local kind=$1
	shift
	peer_ready "$PEER_BOOT_TIMEOUT" || return $?
	_peer_id
	{
		# shellcheck disable=SC2016 # $LAB_REPO is B's
		printf 'cd %q 2>/dev/null || cd "$LAB_REPO" || cd /\n' "$PWD"
		printf '%s\n' "$*"
	} >"$PEER_DIR/cmd/$_PEER_ID" || return 125
	: >"$PEER_DIR/req/$_PEER_ID.$kind" || return 125
}

# _peer_wait_file FILE TIMEOUT_S -> 0 when it is non-empty, 124 on timeout, 125 if B is down
_peer_wait_file() {
	local file=$1 t=$2 end
	_peer_now
	end=$((_PEER_NOW + t * 1000))
	until [ -s "$file" ]; do
		if _peer_dead; then
			[ -s "$file" ] && return 0
			return 125
		fi
		_peer_now
		[ "$_PEER_NOW" -lt "$end" ] || return 124
		_peer_sleep
	done
}

peer_run() {
	local t=$PEER_TIMEOUT id rc res=$PEER_DIR/res
	if [ "${1:-}" = -t ]; then
		t=$2
		shift 2
	fi
	_peer_submit fg "$@" || return $?
	id=$_PEER_ID
	_peer_wait_file "$res/$id.rc" "$t" && rc=0 || rc=$?
	if [ "$rc" != 0 ]; then
		if [ "$rc" = 124 ]; then
			echo "peer_run: timeout after ${t}s: $*" >&2
			# Kill it in B (its pid file may still be on its way).
			if _peer_wait_file "$res/$id.pid" 10 && [ ! -s "$res/$id.rc" ]; then
				local pid
				IFS= read -r pid <"$res/$id.pid"
				peer_run -t 10 "kill -KILL -- -$pid" >/dev/null 2>&1
			fi
		else
			echo "peer_run: VM b is down: $*" >&2
		fi
		return "$rc"
	fi
	_peer_cat "$res/$id.out"
	_peer_cat "$res/$id.err" >&2
	IFS= read -r rc <"$res/$id.rc"
	return "$rc"
}

peer_run_bg() {
	local id rc
	_peer_submit bg "$@" || return $?
	id=$_PEER_ID
	_peer_wait_file "$PEER_DIR/res/$id.pid" "$PEER_TIMEOUT" || {
		rc=$?
		echo "peer_run_bg: command did not start in VM b: $*" >&2
		return "$rc"
	}
	echo "$id"
}

peer_kill() {
	local id=${1:?handle} sig=${2:-TERM} pid
	IFS= read -r pid 2>/dev/null <"$PEER_DIR/res/$id.pid" || {
		echo "peer_kill: unknown handle $id" >&2
		return 2
	}
	[ -s "$PEER_DIR/res/$id.rc" ] && return 0
	peer_run -t 20 "kill -$sig -- -$pid 2>/dev/null || ! kill -0 $pid 2>/dev/null"
}

peer_bg_wait() {
	local id=${1:?handle} t=${2:-$PEER_TIMEOUT} rc
	_peer_wait_file "$PEER_DIR/res/$id.rc" "$t" || {
		rc=$?
		echo "peer_bg_wait: $id still running after ${t}s" >&2
		return "$rc"
	}
	IFS= read -r rc <"$PEER_DIR/res/$id.rc"
	return "$rc"
}

peer_bg_log() {
	_peer_cat "$PEER_DIR/res/${1:?handle}.log"
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
	_peer_now
	end=$((_PEER_NOW + t * 1000))
	until "$@"; do
		_peer_now
		[ "$_PEER_NOW" -lt "$end" ] || return 1
		_peer_sleep 0.1
	done
}
