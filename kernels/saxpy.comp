#version 450
// y = a * x + y, one element per invocation. The workgroup size is a specialization constant so
// that one SPIR-V module serves every workgroup-size candidate.
layout(local_size_x_id = 0) in;

layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) buffer Y { float y[]; };

layout(push_constant) uniform Params {
    float a;
    uint n;
} params;

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < params.n) {
        y[i] = params.a * x[i] + y[i];
    }
}
