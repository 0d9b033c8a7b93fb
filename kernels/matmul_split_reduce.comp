#version 450
// The reduce pass of a split-K matmul: c[i] = the sum of the splits' partial products
// partial[s * count + i], s = 0 .. splits - 1, in order (see matmul_split.comp).
layout(local_size_x_id = 0) in;

layout(set = 0, binding = 0) readonly buffer Partial { float partial[]; };
layout(set = 0, binding = 1) writeonly buffer C { float c[]; };

layout(push_constant) uniform Params {
    uint count;  // M * N
    uint splits;
} params;

void main() {
    const uint i = gl_GlobalInvocationID.x;
    if (i >= params.count) {
        return;
    }
    float sum = 0.0;
    for (uint s = 0; s < params.splits; ++s) {
        sum += partial[s * params.count + i];
    }
    c[i] = sum;
}
