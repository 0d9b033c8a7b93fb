#version 450
// A kernel that never finishes, for the watchdog tests: the loop's exit hangs on a push
// constant (n > 0 always holds) and the volatile store is a side effect no compiler may
// remove. lavapipe (gallivm) ends any loop after 65535 iterations, so hang.json dispatches
// 65535 rows of workgroups: 1.8e13 stores for n = 4096, days on a CPU, forever for a test.
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) volatile buffer Y { float y[]; };

layout(push_constant) uniform Params {
    uint n;
} params;

void main() {
    uint i = gl_GlobalInvocationID.x;
    for (uint k = 0u; params.n > 0u; ++k) {
        if (i < params.n) {
            y[i] = x[i] + float(k);
        }
    }
}
