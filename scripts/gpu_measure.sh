#!/usr/bin/env bash
# GPU measurement of the trainer on a device machine (issue #13): wgpu (Vulkan).
# Expects .gpu/bones.gz (cargo build --profile dist --features wgpu, gzipped), the
# Vulkan loader .debs in .gl/ (docs: the device README) and writes logs under $OUT.
# Runs the `gpu` preset and variants made from it here (16 env threads; 2,048
# envs with 8 minibatches; 16,384 envs; the same with a 256x2 network), each
# bounded in time (about 11 minutes in all: more than one 10-minute device call
# allows, so split the runs between calls).
set -u
gzip -dc .gpu/bones.gz > /tmp/bones && chmod +x /tmp/bones
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
[ -f /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json ] && export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
nproc; nvidia-smi -L
ldconfig -p | grep -c libvulkan
nvidia-smi --query-gpu=timestamp,memory.used,utilization.gpu --format=csv -l 2 > $OUT/smi.csv 2>&1 &
sed 's/^env_threads = 8/env_threads = 16/' configs/gpu.toml > /tmp/gpu-t16.toml
sed 's/^num_envs = 4096/num_envs = 2048/; s/^env_threads = 8/env_threads = 16/; s/^num_minibatches = 16/num_minibatches = 8/' configs/gpu.toml > /tmp/gpu-2k.toml
sed 's/^num_envs = 4096/num_envs = 16384/; s/^env_threads = 8/env_threads = 16/' configs/gpu.toml > /tmp/gpu-16k.toml
sed 's/^hidden = 512/hidden = 256/; s/^depth = 3/depth = 2/' /tmp/gpu-16k.toml > /tmp/gpu-16k-256.toml
run() { # name config hands limit
  echo "=== $1 $(date +%T)"
  T=""; [ -x /usr/bin/time ] && T="/usr/bin/time -v"
  $T timeout "$4" /tmp/bones train --config "$2" --hands "$3" --device wgpu --out /tmp/run-$1 > $OUT/$1.log 2>&1
  echo "rc=$?"; grep -E "trained|Maximum resident|Elapsed" $OUT/$1.log; tail -3 $OUT/$1.log
}
run preset configs/gpu.toml 100000 150
run t16 /tmp/gpu-t16.toml 100000 110
run e2k /tmp/gpu-2k.toml 100000 110
run e16k /tmp/gpu-16k.toml 200000 150
run e16k256 /tmp/gpu-16k-256.toml 200000 120
kill %1 2>/dev/null; sort -t, -k2 -n $OUT/smi.csv | tail -2
