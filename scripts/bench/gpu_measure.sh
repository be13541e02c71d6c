#!/usr/bin/env bash
# The scaling measurement of the trainer on a device machine (issue 26): hands/hour,
# GPU memory and utilisation for the CPU alone with 1, 2, 4, 8 and 16 threads
# (`cpu-full`, the actor-learner with one worker per thread beyond the learner's),
# and the GPU learner (the `gpu` preset: 14 CPU rollout workers, the update on the
# GPU through wgpu/Vulkan). Expects .gpu/bones.gz (`cargo build --profile dist
# --features wgpu`, gzipped) and the Vulkan loader .debs in .gl/ (the device
# README); writes logs under $OUT. Each run is bounded in time: about 8 minutes
# in all, inside one 10-minute device call.
#
#   scripts/bench/gpu_measure.sh [cpu|gpu|all]
set -u
what=${1:-all}
gzip -dc .gpu/bones.gz > /tmp/bones && chmod +x /tmp/bones
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
[ -f /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json ] && export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
nproc; nvidia-smi -L
nvidia-smi --query-gpu=timestamp,memory.used,utilization.gpu --format=csv -l 1 > "$OUT/smi.csv" 2>&1 &
run() { # name threads limit_s bones-train-args...
  local name=$1 threads=$2 limit=$3; shift 3
  echo "=== $name ($threads threads) $(date +%T)"
  T=""; [ -x /usr/bin/time ] && T="/usr/bin/time -v"
  RAYON_NUM_THREADS=$threads $T timeout "$limit" /tmp/bones train "$@" --out "/tmp/run-$name" > "$OUT/$name.log" 2>&1
  echo "rc=$?"; grep -E "trained|Maximum resident|Elapsed" "$OUT/$name.log"
}
if [ "$what" != gpu ]; then
  run cpu1 1 70 --config cpu-full --hands 60000 --workers 0
  for t in 2 4 8 16; do
    run "cpu$t" "$t" 70 --config cpu-full --hands $((t * 60000)) --workers $((t - 1))
  done
fi
if [ "$what" != cpu ]; then
  run gpu14 16 150 --config gpu --hands 1000000 --device wgpu
fi
kill %1 2>/dev/null
echo "GPU memory (MiB) and utilisation (%), peak and mean over the runs:"
awk -F', ' 'NR > 1 { m = $2 + 0; u = $3 + 0; if (m > pm) pm = m; su += u; n++ } END { if (n) printf "peak %d MiB, mean %.0f%%\n", pm, su / n }' "$OUT/smi.csv"
