# Sourced by the bench scripts (not run by `make bench` itself: not executable): a scratch
# directory, the processes to stop on exit, and the median of numbers on stdin.
tmp=$(mktemp -d)
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done; rm -rf "$tmp"; }
trap cleanup EXIT
median() { sort -n | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
# A process's /proc/PID/status field in MB: `status_mb PID VmRSS` (or VmHWM, RssAnon…).
status_mb() { awk -v key="$2:" '$1 == key { printf "%.1f\n", $2 / 1024 }' "/proc/$1/status"; }
