#version 450
// y = FACTOR * x on the first n / PART elements. One shader gives the tune tests every kind of
// candidate: slow (workgroups of one invocation), fast, wrong (FACTOR != 2) and one that leaves
// half of its output unwritten (PART = 2).
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const float FACTOR = 2.0;
layout(constant_id = 2) const uint PART = 1;

layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Y { float y[]; };

layout(push_constant) uniform Params {
    uint n;
} params;

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < params.n / PART) {
        y[i] = FACTOR * x[i];
    }
}
