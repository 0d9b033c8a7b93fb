#version 450
// y = 2 * x, reading x REPEAT times over: the same work as scale.comp done again, a contender
// planted slower by a known amount. The extra reads are multiplied by a zero that arrives at run
// time (a push constant), so no compiler can fold them away and the output stays exactly 2 * x.
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint REPEAT = 1;

layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Y { float y[]; };

layout(push_constant) uniform Params {
    uint n;
    float zero;
} params;

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= params.n) {
        return;
    }
    float extra = 0.0;
    for (uint r = 1; r < REPEAT; ++r) {
        extra += x[(i + r * 4099u) % params.n];
    }
    y[i] = 2.0 * x[i] + params.zero * extra;
}
