#!/usr/bin/env bash
# A cluster job across N emulated nodes of one GPU host (as root): each node is a network
# namespace with its own hostname (UTS namespace) and an address on a private bridge, and is
# given its own GPUs (CUDA_VISIBLE_DEVICES), so that MPI goes over TCP between the "nodes" as
# on a cluster, and each rank sees its node-local rank and GPUs as it would there. mpirun stays
# in the host's namespaces and starts its daemons in the nodes through a launch agent (no ssh).
# Rank 0 and the first node's workers share node 1. Everything made is removed at the end
# (processes in the namespaces, the namespaces, the veth pairs and the bridge).
#
# Usage: bench/emulated_nodes.sh [--nodes 2] [--gpus-per-node 2] [--mpirun mpirun] -- \
#            PERMBB solve ARGS...
# Prints what mpirun prints (the result's JSON with --json -); exit status: mpirun's.
set -euo pipefail

nodes=2
gpus_per_node=2
mpirun=mpirun
while [ $# -gt 0 ]; do
  case "$1" in
    --nodes) nodes=$2; shift 2 ;;
    --gpus-per-node) gpus_per_node=$2; shift 2 ;;
    --mpirun) mpirun=$2; shift 2 ;;
    --) shift; break ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) echo "emulated_nodes.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[ $# -gt 0 ] || { echo "emulated_nodes.sh: no command after --" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "emulated_nodes.sh: needs root (namespaces, bridge)" >&2; exit 2; }
# ip comes with iproute2, unshare and nsenter with util-linux (Debian and Ubuntu packages). A
# host without them (a GPU host may lack iproute2) can take another machine's ip on PATH.
for c in ip unshare nsenter; do
  command -v "$c" >/dev/null || {
    echo "emulated_nodes.sh: missing command $c (packages iproute2, util-linux)" >&2; exit 2; }
done

tag=$(($$ % 250 + 1))
net=10.214.$tag
bridge=pbbeb$tag
work=$(mktemp -d)
namespace() { echo "pbbe$tag-$1"; }

cleanup() {
  local i pids
  for ((i = 1; i <= nodes; i++)); do
    pids=$(ip netns pids "$(namespace "$i")" 2>/dev/null || true)
    # shellcheck disable=SC2086
    [ -n "$pids" ] && kill -9 $pids 2>/dev/null || true
    ip link del "pbbe${tag}v$i" 2>/dev/null || true
    ip netns del "$(namespace "$i")" 2>/dev/null || true
  done
  ip link del "$bridge" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

ip link add "$bridge" type bridge
ip addr add "$net.1/24" dev "$bridge"
ip link set "$bridge" up
hostfile=$work/hosts
: >"$hostfile"
for ((i = 1; i <= nodes; i++)); do
  ns=$(namespace "$i")
  ip netns add "$ns"
  ip link add "pbbe${tag}v$i" type veth peer name eth0 netns "$ns"
  ip link set "pbbe${tag}v$i" master "$bridge" up
  ip -n "$ns" addr add "$net.$((10 + i))/24" dev eth0
  ip -n "$ns" link set eth0 up
  ip -n "$ns" link set lo up
  slots=$gpus_per_node
  [ "$i" -eq 1 ] && slots=$((gpus_per_node + 1))  # rank 0 too
  echo "$net.$((10 + i)) slots=$slots" >>"$hostfile"
done

# The launch agent: mpirun calls it as `agent HOST COMMAND...` to start its daemon on a node.
cat >"$work/agent" <<EOF
#!/usr/bin/env bash
host=\$1; shift
i=\$(( \${host##*.} - 10 ))
first=\$(( (i - 1) * $gpus_per_node ))
gpus=\$(seq -s, "\$first" "\$(( first + $gpus_per_node - 1 ))")
exec ip netns exec "pbbe$tag-\$i" unshare --uts env CUDA_VISIBLE_DEVICES="\$gpus" \\
  bash -c "hostname emulated-node-\$i; \$*"
EOF
chmod +x "$work/agent"

ranks=$((1 + nodes * gpus_per_node))
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
"$mpirun" --hostfile "$hostfile" -np "$ranks" --map-by slot --bind-to none --oversubscribe \
  --mca plm rsh --mca plm_rsh_agent "$work/agent" --mca plm_rsh_no_tree_spawn 1 \
  --mca oob_tcp_if_include "$net.0/24" --mca btl tcp,self,vader \
  --mca btl_tcp_if_include "$net.0/24" -x LD_LIBRARY_PATH "$@"
