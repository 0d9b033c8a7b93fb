#version 450
// y = a * x + y four adjacent elements at a time, VECS vec4s per invocation.
//
// The f32 buffers are read through vec4[] views: one 16-byte load or store per group of four,
// with no reliance on the compiler merging scalar accesses. A view of 16-byte elements needs a
// buffer whose size is a multiple of 16 bytes, so the problem pads its buffers to a multiple of
// four floats; n, the real length, may end inside the last vec4, whose lanes at or past n are
// padding this kernel must leave as they are (the scalar reference never writes them either).
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint VECS = 1;

layout(set = 0, binding = 0) readonly buffer X { vec4 x[]; };
layout(set = 0, binding = 1) buffer Y { vec4 y[]; };

layout(push_constant) uniform Params {
    float a;
    uint n;
} params;

void main() {
    const uint groups = (params.n + 3) / 4;
    const uint base = gl_WorkGroupID.x * gl_WorkGroupSize.x * VECS + gl_LocalInvocationID.x;
    for (uint v = 0; v < VECS; ++v) {
        const uint g = base + v * gl_WorkGroupSize.x;
        if (g >= groups) {
            return;
        }
        const vec4 result = params.a * x[g] + y[g];
        if (4 * g + 4 <= params.n) {
            y[g] = result;
        } else {
            for (uint lane = 0; 4 * g + lane < params.n; ++lane) {
                y[g][lane] = result[lane];
            }
        }
    }
}
