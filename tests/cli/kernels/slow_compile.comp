#version 450
// y = 2 * x, after 384 dependent steps of sin/cos on a running value that a zero push constant
// then multiplies away: quick to run (tens of ms at n = 4096 on lavapipe) but seconds to compile
// for a driver that compiles a pipeline at its first dispatch, as LLVM optimises the unrolled
// chain. The steps are not folded away: the zero is only known at run time.
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) writeonly buffer Y { float y[]; };

layout(push_constant) uniform Params {
    uint n;
    float zero;
} params;

#define STEP value = sin(value * 1.37 + x[(i + uint(abs(value))) % params.n]) + cos(value);
#define STEPS_4 STEP STEP STEP STEP
#define STEPS_16 STEPS_4 STEPS_4 STEPS_4 STEPS_4
#define STEPS_64 STEPS_16 STEPS_16 STEPS_16 STEPS_16
#define STEPS_128 STEPS_64 STEPS_64

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= params.n) {
        return;
    }
    float value = x[i];
    STEPS_128 STEPS_128 STEPS_128
    y[i] = 2.0 * x[i] + params.zero * value;
}
