#version 450
// The reference of configs/macro_reduction.json, a compensated (Kahan) sum in two passes: first
// each of `slices` invocations adds one contiguous slice of the values into work[1 + slice], then
// one invocation adds the slices into work[0] (COMBINE, a specialization per step). Slow and
// simple: it checks the tree sums and is never their winner (reference_only). Needs LOAD and
// SUM_PUSH_CONSTANTS from its preamble.
//
// Why slices: llvmpipe (lavapipe) ends the loops of one shader invocation after 65535 iterations
// in all, so one invocation adding every value summed only the first 65535 of a larger n. A slice
// holds at most 32768 values up to the bucket's largest n (16M).
layout(local_size_x = 64) in;
layout(constant_id = 0) const bool COMBINE = false;

SUM_PUSH_CONSTANTS;
layout(std430, binding = 0) readonly buffer Data { float data[]; };
layout(std430, binding = 1) buffer Work { float work[]; };

const uint slices = 512;

void main() {
    float sum = 0.0;
    float lost = 0.0;
    uint begin = 1;
    uint end = 1 + slices;
    if (!COMBINE) {
        const uint length = (p.n + slices - 1) / slices;
        begin = min(gl_GlobalInvocationID.x * length, p.n);
        end = min(begin + length, p.n);
    } else if (gl_GlobalInvocationID.x != 0) {
        return;
    }
    for (uint i = begin; i < end; ++i) {
        const float y = (COMBINE ? work[i] : LOAD(data, i)) - lost;
        const float t = sum + y;
        lost = (t - sum) - y;
        sum = t;
    }
    work[COMBINE ? 0 : 1 + gl_GlobalInvocationID.x] = sum;
}
