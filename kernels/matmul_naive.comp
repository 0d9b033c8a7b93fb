#version 450
// C = A * B, row-major, A is M x K, B is K x N: one invocation per element of C, reading a row
// of A and a column of B straight from memory. The reference: simple enough to be obviously
// right, and it sums k in order, as the other variants do, so they agree to rounding.
layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) writeonly buffer C { float c[]; };

layout(push_constant) uniform Params {
    uint m;
    uint n;
    uint k;
} params;

void main() {
    const uint col = gl_GlobalInvocationID.x;
    const uint row = gl_GlobalInvocationID.y;
    if (row >= params.m || col >= params.n) {
        return;
    }
    float sum = 0.0;
    for (uint i = 0; i < params.k; ++i) {
        sum += a[row * params.k + i] * b[i * params.n + col];
    }
    c[row * params.n + col] = sum;
}
