#version 450
// y = x, with the read bounds-checked but not the write: every invocation of the last workgroup
// writes, so a count that is not a multiple of 64 is overrun (n = 1002: 22 elements past y's end).
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Y { float y[]; };

layout(push_constant) uniform Params {
    uint n;
} params;

void main() {
    uint i = gl_GlobalInvocationID.x;
    y[i] = i < params.n ? x[i] : 0.0;
}
