# needs: gpu
# The lab's device part (what it prints after the host part of output.txt);
# output-gpu.txt is a run on an NVIDIA H200.  Lines starting with bench: vary.
"$B/bin/06_scheduling" | sed -n '/^bench: device/,$p'
