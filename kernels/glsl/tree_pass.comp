#version 450
// One pass of an in-place tree sum (configs/macro_reduction.json): invocation g adds the FANIN
// values at first, first + stride, ... (first = g * stride * FANIN) and leaves the sum at first.
// After ceil(log_FANIN(n)) passes, with stride FANIN^pass, work[0] holds the sum of all n values.
// The first pass reads `data`, the others `work` (FROM_INPUT, a specialization per repetition).
// Needs LOAD and SUM_PUSH_CONSTANTS from its preamble, and ACCUMULATE and FANIN from its defines.
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const bool FROM_INPUT = true;

SUM_PUSH_CONSTANTS;
layout(std430, binding = 0) readonly buffer Data { float data[]; };
layout(std430, binding = 1) buffer Work { float work[]; };

void main() {
    const uint first = gl_GlobalInvocationID.x * p.stride * FANIN;
    if (first >= p.n) {
        return;
    }
    float sum = 0.0;
    for (uint k = 0; k < FANIN; ++k) {
        const uint i = first + k * p.stride;
        ACCUMULATE(sum, FROM_INPUT ? LOAD(data, i) : LOAD(work, i));
    }
    work[first] = sum;
}
