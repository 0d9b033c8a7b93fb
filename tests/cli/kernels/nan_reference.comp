#version 450
// d = 2 * s + 1 by a loop over the elements, each invocation taking every local-size-th one.
// With NAN_FROM < NAN_TO, the elements in [NAN_FROM, NAN_TO) get 0/0 instead: a reference that
// gives NaN where every correct candidate gives a number.
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint NAN_FROM = 0;
layout(constant_id = 2) const uint NAN_TO = 0;

layout(set = 0, binding = 0) readonly buffer S { float s[]; };
layout(set = 0, binding = 1) writeonly buffer D { float d[]; };

layout(push_constant) uniform Params {
    uint n;
} params;

void main() {
    for (uint i = gl_LocalInvocationID.x; i < params.n; i += gl_WorkGroupSize.x) {
        // Zero from the input, so that the compiler cannot fold 0/0 away.
        float zero = s[i] - s[i];
        d[i] = i >= NAN_FROM && i < NAN_TO ? zero / zero : 2.0 * s[i] + 1.0;
    }
}
