#version 450
// y = a * x + y with ELEMS elements per invocation. A workgroup owns one block of WG * ELEMS
// elements and steps through it WG at a time, so neighbouring invocations still touch
// neighbouring elements (coalesced) while each invocation spreads its launch and index cost
// over ELEMS elements and fewer workgroups are dispatched.
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint ELEMS = 4;

layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) buffer Y { float y[]; };

layout(push_constant) uniform Params {
    float a;
    uint n;
} params;

void main() {
    const uint base = gl_WorkGroupID.x * gl_WorkGroupSize.x * ELEMS + gl_LocalInvocationID.x;
    for (uint e = 0; e < ELEMS; ++e) {
        const uint i = base + e * gl_WorkGroupSize.x;
        if (i < params.n) {
            y[i] = params.a * x[i] + y[i];
        }
    }
}
