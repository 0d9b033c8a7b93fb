#version 450
// total += scale * values[i] for every i < count, accumulated with atomics into a buffer that
// starts at zero; count and scale come from a uniform buffer.

layout(local_size_x_id = 0) in;

layout(set = 0, binding = 0) readonly buffer Values {
    uint values[];
};
layout(set = 0, binding = 1) uniform Params {
    uint count;
    uint scale;
};
layout(set = 0, binding = 2) buffer Total {
    uint total;
};

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < count) {
        atomicAdd(total, values[i] * scale);
    }
}
