#version 450
// y = a * x + y four adjacent elements at a time, VECS groups of four per invocation.
//
// The problem format binds buffers of scalar elements and requires a shader's runtime array to
// have the buffer's element stride, so the arrays are declared float[] and each group is read
// as four adjacent floats at a 16-byte aligned index: the pattern that vectorising compilers
// (Mesa's load/store vectoriser, vendor compilers) merge into one 128-bit access.
// The last n % 4 elements do not fill a group; the first invocations of the dispatch do them.
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint VECS = 1;

layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) buffer Y { float y[]; };

layout(push_constant) uniform Params {
    float a;
    uint n;
} params;

void main() {
    const uint groups = params.n / 4;
    const uint base = gl_WorkGroupID.x * gl_WorkGroupSize.x * VECS + gl_LocalInvocationID.x;
    for (uint v = 0; v < VECS; ++v) {
        const uint g = base + v * gl_WorkGroupSize.x;
        if (g < groups) {
            const uint i = 4 * g;
            const vec4 xs = vec4(x[i], x[i + 1], x[i + 2], x[i + 3]);
            const vec4 ys = params.a * xs + vec4(y[i], y[i + 1], y[i + 2], y[i + 3]);
            y[i] = ys.x;
            y[i + 1] = ys.y;
            y[i + 2] = ys.z;
            y[i + 3] = ys.w;
        }
    }
    const uint tail = gl_GlobalInvocationID.x;
    if (tail < params.n % 4) {
        const uint i = 4 * groups + tail;
        y[i] = params.a * x[i] + y[i];
    }
}
