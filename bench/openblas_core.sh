# bench/openblas_core.sh: sourced by bench/cpu.sh and bench/cpu_ab.sh.
#
# openblas_core CPUBENCH prints the OpenBLAS kernel set (OPENBLAS_CORETYPE)
# of the instruction set tick's CPU kernels are built for, as the cpubench
# binary CPUBENCH reports it: SkylakeX for AVX-512, Haswell for AVX2, empty
# otherwise (OpenBLAS then picks for itself). OpenBLAS 0.3.21 does not
# recognize every CPU and may fall back to its SSE3 kernels, so the anchors
# are forced to the same ISA as tick; OPENBLAS_CORETYPE, when set, wins.
openblas_core() {
	_isa=$("$1" -only none -limits=false | sed -n 's/^#device\t.*C (\([^,]*\),.*/\1/p')
	case "$_isa" in
	AVX-512) _core=SkylakeX ;;
	AVX2*) _core=Haswell ;;
	*) _core= ;;
	esac
	echo "${OPENBLAS_CORETYPE:-$_core}"
}
