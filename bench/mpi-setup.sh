# Sourced by the benchmarks of ns-3's distributed simulator: builds the mpi module and
# mlfabric, lets Open MPI run as root (it refuses unless told), and prints the machine's
# load, which the wall times depend on. Sets ROOT to the checkout.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$ROOT/mlfabric" mpi
"$ROOT/mlfabric" build
[[ "$(id -u)" -ne 0 ]] || export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
