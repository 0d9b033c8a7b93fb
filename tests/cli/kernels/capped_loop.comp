#version 450
// d = 2 * s + 1 by a loop over the elements, each invocation taking every local-size-th one.
// With MAX_STEPS set, each invocation stops after that many steps, as lavapipe ends a loop after
// 65,535 iterations, and leaves the rest of d unwritten: a reference that stops early.
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint MAX_STEPS = 0xffffffffu;

layout(set = 0, binding = 0) readonly buffer S { float s[]; };
layout(set = 0, binding = 1) writeonly buffer D { float d[]; };

layout(push_constant) uniform Params {
    uint n;
} params;

void main() {
    uint steps = 0;
    for (uint i = gl_LocalInvocationID.x; i < params.n && steps < MAX_STEPS;
         i += gl_WorkGroupSize.x) {
        d[i] = 2.0 * s[i] + 1.0;
        ++steps;
    }
}
