#version 450
// A synthetic tuning space with a known answer, for benchmarking the search strategies.
//
// The output, y = a * x, does not depend on the four specialization constants A, B, C and D.
// The run time does: every invocation first spins a loop whose length grows with the squared
// distance of (A, B, C, D) from the best point (4, 2, 5, 3), so the space is a bowl with a single
// best point. The loop's result is multiplied by a push constant the problem file sets to zero:
// the compiler cannot know that, so it cannot drop the loop, and the output stays exact.
layout(local_size_x = 64) in;

layout(constant_id = 1) const int A = 1;
layout(constant_id = 2) const int B = 1;
layout(constant_id = 3) const int C = 1;
layout(constant_id = 4) const int D = 1;

layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Y { float y[]; };

layout(push_constant) uniform Params {
    float a;
    uint n;
    float zero;             // 0: keeps the loop's work without letting it reach the output
    uint base_iterations;   // the loop's length is base + step * (squared distance + 1)
    uint step_iterations;
} params;

// The squared distance from the best point, plus one, folded at pipeline creation: integer
// arithmetic only, which specialization-constant operations allow (no vectors, no float
// conversions). The one keeps the best point's loop length from folding to the bare base: on
// lavapipe that loop ran slower than its neighbours' longer ones, which hid the best point.
const int dA = A - 4;
const int dB = B - 2;
const int dC = C - 5;
const int dD = D - 3;
const uint distance2 = uint(dA * dA + dB * dB + dC * dC + dD * dD) + 1u;

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= params.n) {
        return;
    }
    uint iterations = params.base_iterations + params.step_iterations * distance2;
    float v = x[i];
    float acc = v;
    // Halving and adding keeps acc bounded (below 2|v| + 1), so zero * acc is exactly zero.
    for (uint k = 0; k < iterations; ++k) {
        acc = acc * 0.5 + v;
    }
    y[i] = params.a * v + params.zero * acc;
}
