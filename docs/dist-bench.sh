#!/bin/bash
# One distributed run of lme N=3 (plain, --continue) on this machine: a
# coordinator with its own NATS server and K worker processes. Prints the
# counts, the wall time and what the NATS server carried.
# usage: docs/dist-bench.sh K [PORT [more check flags, e.g. --compress]]    (after make build)
K=${1:-2}; P=${2:-24222}; B=${MXCHECK:-bin/mxcheck}
shift 2 2>/dev/null
start=$(date +%s.%N)
$B check lme --nodes 3 --continue --symmetry=false --distributed --workers "$K" --listen 127.0.0.1:"$P" --quiet "$@" > /tmp/dist-bench.out 2> /tmp/dist-bench.err &
c=$!
for _ in $(seq "$K"); do $B worker --nats nats://127.0.0.1:"$P" 2>/dev/null & done
wait $c; wait
end=$(date +%s.%N)
grep distinct /tmp/dist-bench.out
echo "wall $(echo "$end - $start" | bc) s"
grep NATS /tmp/dist-bench.err
