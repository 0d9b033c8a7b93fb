#version 450
// The split pass of a split-K matmul (C = A * B, row-major, A is M x K, B is K x N): workgroup z
// computes, for each element of C, the sum over its slice of K, k in [z * slice, (z + 1) * slice),
// and writes it to partial[z * M * N + row * N + col]. matmul_split_reduce.comp then adds the
// slices. More workgroups for a small M x N with a long K, at the cost of a second pass.
layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) writeonly buffer Partial { float partial[]; };

layout(push_constant) uniform Params {
    uint m;
    uint n;
    uint k;
    uint slice;  // K values per split: ceil_div(K, splits)
} params;

void main() {
    const uint col = gl_GlobalInvocationID.x;
    const uint row = gl_GlobalInvocationID.y;
    const uint split = gl_WorkGroupID.z;
    if (row >= params.m || col >= params.n) {
        return;
    }
    const uint first = split * params.slice;
    const uint last = min(params.k, first + params.slice);
    float sum = 0.0;
    for (uint i = first; i < last; ++i) {
        sum += a[row * params.k + i] * b[i * params.n + col];
    }
    partial[split * params.m * params.n + row * params.n + col] = sum;
}
