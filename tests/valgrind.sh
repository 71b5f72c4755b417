#!/bin/bash
# Runs a representative set of host commands against the replay fixtures
# under valgrind (memcheck, --leak-check=full) with a plain build (valgrind
# cannot run the sanitized one): no invalid access, no uninitialised value
# used, no leak. One TAP line per command; valgrind's report of a failing
# one goes to build/test-logs/valgrind/.
#   tests/valgrind.sh          (make check runs it; about a minute)
set -u
cd "$(dirname "$0")/.."
fx=tests/fixtures
bin=build/valgrind/bin/rdmadiag
logs=build/test-logs/valgrind
mkdir -p "$logs"

if ! make -s valgrind-build build/fuzz/gen_res_fixture >"$logs/build.log" 2>&1; then
	echo "1..1"
	echo "not ok 1 - valgrind: the plain build failed (see $logs/build.log)"
	exit 1
fi
res=$(mktemp -d)
trap 'rm -rf "$res"' EXIT
res=$res/generated-200-qps
build/fuzz/gen_res_fixture "$res" 200 >/dev/null

# FIXTURE|ARGS (ARGS word split); hostile fixtures join when present
cases=(
	"lab-rxe|dev show" "lab-rxe|-j dev show" "lab-rxe|-d link show" "lab-rxe|-j link show"
	"lab-rxe|link check" "lab-rxe|-j link check" "lab-rxe|gid show" "lab-rxe|-p gid show"
	"lab-rxe|dev show nosuch" "lab-rxe|link show rxe0/7"
	"mlx5-pcie|-d link show" "mlx5-pcie|-j link check" "mlx5-pcie|gid show"
	"ib-nosm|link check" "ib-nosm|-j link show"
	"counter-rxe|counter show" "counter-rxe|-j counter show" "counter-mlx5|counter show --format prometheus"
	"counter-irdma|-d counter show" "counter-rxe|counter check"
	"$res|qp show" "$res|-j qp show type rc state rts" "$res|cm show" "$res|-j mr show" "$res|res show"
	"$res|-j res show"
)
for d in "$fx"/hostile-*; do
	[ -d "$d" ] && cases+=("$d|-j dev show" "$d|link show" "$d|-j qp show" "$d|-j counter show" "$d|link check")
done

echo "1..${#cases[@]}"
n=0 rc=0
for c in "${cases[@]}"; do
	dir=${c%%|*} args=${c#*|}
	[ -d "$dir" ] || dir=$fx/$dir
	n=$((n + 1))
	log=$logs/$n.log
	# shellcheck disable=SC2086
	valgrind -q --leak-check=full --show-leak-kinds=definite,indirect,possible --errors-for-leak-kinds=definite,indirect,possible \
		--error-exitcode=99 --log-file="$log" "$bin" --replay "$dir" $args >/dev/null 2>&1
	r=$?
	name="valgrind rdmadiag --replay $(basename "$dir") $args"
	if [ "$r" -eq 99 ] || [ -s "$log" ] || [ "$r" -ge 128 ]; then
		echo "not ok $n - $name: exit $r (see $log)"
		head -20 "$log" | sed 's/^/# /'
		rc=1
	else
		echo "ok $n - $name (exit $r, clean)"
		rm -f "$log"
	fi
done
exit $rc
