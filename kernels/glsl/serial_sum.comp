#version 450
// The reference of configs/macro_reduction.json: one invocation adds every value with a
// compensated (Kahan) sum into work[0]. Slow and simple: it checks the tree sums and is never
// their winner (reference_only). Needs LOAD and SUM_PUSH_CONSTANTS from its preamble.
layout(local_size_x = 1) in;

SUM_PUSH_CONSTANTS;
layout(std430, binding = 0) readonly buffer Data { float data[]; };
layout(std430, binding = 1) buffer Work { float work[]; };

void main() {
    float sum = 0.0;
    float lost = 0.0;
    for (uint i = 0; i < p.n; ++i) {
        const float y = LOAD(data, i) - lost;
        const float t = sum + y;
        lost = (t - sum) - y;
        sum = t;
    }
    work[0] = sum;
}
