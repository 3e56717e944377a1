#!/bin/sh
# programs_trialsig.sh: the programs of tests/programs/trialsig, from a
# trial of signal-processing code written the way public SDR and audio
# DSP projects write it: an FIR filter bank with taps in __constant__
# memory (cudaMemcpyToSymbol), shared-memory tiles holding the filter's
# history, float and __half2 versions and a polyphase decimator; a
# spectrogram (Hann and Blackman windows from cosf, sinpif and __cosf,
# batched R2C cuFFT by cufftPlanMany with padded output rows on a stream,
# dB by log10f, against a host DFT); overlap-save convolution through C2C
# cuFFT with cuComplex.h; a digital down-converter (an NCO of a double
# phase accumulator and sincosf, float2 mixing, a CIC decimator whose
# integrators wrap around modulo 2^32, an FM discriminator by atan2f); a
# delay-and-sum beamformer (fractional delays, warp-shuffle sums over
# channels, batches on three streams from pinned buffers, an IIR biquad
# whose double state flows between batches through events); a
# multichannel STFT/ISTFT captured into a CUDA graph with its cuFFT calls
# (interleaved input by istride, a work area set by the program);
# fractional delays by a texture's linear filtering with cooperative
# groups' reduce; and a channelizer on a zero-copy ring buffer (1009- and
# 1000-point FFTs, Z2Z, thrust::complex, the project's own float2
# operators, cudaLaunchHostFunc, cuFFT's error codes). They are built as
# one program (PROGRAMS_COMBINE), then the ones with shared memory, shuffles
# and atomics run again under the reverse and a random schedule.
srcdir=${CUEMU_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${CUEMU_BUILDDIR:-.}
keep=$(cd "$builddir" && pwd)/tests/tmp/programs_trialsig.$$
mkdir -p "$keep" || exit 1
PROGRAMS_COMBINE=1 PROGRAMS_KEEP=$keep \
  sh "$srcdir/tests/programs.sh" "$srcdir/tests/programs/trialsig" || {
  rm -rf "$keep"
  exit 1
}
status=0
for schedule in reverse random:7; do
  for program in fir_bank beamformer stft_graph frac_delay; do
    out=$(cd "$keep" && CUEMU_SCHEDULE=$schedule "./$program" 2>&1)
    if printf '%s\n' "$out" | grep -qx PASS; then
      echo "PASS: $program under CUEMU_SCHEDULE=$schedule"
    else
      echo "FAIL: $program under CUEMU_SCHEDULE=$schedule:"
      printf '%s\n' "$out"
      status=1
    fi
  done
done
rm -rf "$keep"
exit $status
