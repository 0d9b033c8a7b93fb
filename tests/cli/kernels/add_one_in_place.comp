#version 450
// y = x + 1 computed in place in x (an in-place update bound to a buffer declared input): its
// own output is right, but the next candidate to read x sees x + 1.
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) buffer X { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Y { float y[]; };

layout(push_constant) uniform Params {
    uint n;
} params;

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < params.n) {
        x[i] += 1.0;
        y[i] = x[i];
    }
}
