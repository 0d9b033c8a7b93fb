#version 450
// y = x + 1, reading x only: the correct candidates of input_write.json.
layout(local_size_x_id = 0) in;

layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Y { float y[]; };

layout(push_constant) uniform Params {
    uint n;
} params;

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < params.n) {
        y[i] = x[i] + 1.0;
    }
}
