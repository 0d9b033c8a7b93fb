#version 450
#extension GL_GOOGLE_include_directive : require
// out = w * x + (1 - w) * y over n floats. Not built with the other kernels: spvtune compiles it
// per grid point of configs/glsl_variants.json, whose "defines" pick the variant. The defaults
// below let the file compile on its own (glslangValidator -V blend.comp).

#ifndef WG_SIZE
#define WG_SIZE 64
#endif
// Elements (or vec4s) each invocation handles: fewer workgroups, more work per invocation.
#ifndef PER_THREAD
#define PER_THREAD 1
#endif

#include "element.glsl"

layout(local_size_x = WG_SIZE) in;

layout(push_constant) uniform Params {
    uint n;
    float w;
} p;

layout(std430, set = 0, binding = 0) readonly buffer X { ELEMENT x[]; };
layout(std430, set = 0, binding = 1) readonly buffer Y { ELEMENT y[]; };
layout(std430, set = 0, binding = 2) writeonly buffer Out { ELEMENT o[]; };

void main() {
    // With vec4 elements n is a multiple of 4: spvtune refuses a key whose buffers do not
    // hold whole vec4s.
    const uint count = p.n / ELEMENT_WIDTH;
    // Per step, neighbouring invocations touch neighbouring elements, so loads stay coalesced.
    const uint first = gl_WorkGroupID.x * WG_SIZE * PER_THREAD + gl_LocalInvocationID.x;
    for (uint k = 0; k < PER_THREAD; ++k) {
        const uint i = first + k * WG_SIZE;
        if (i < count) {
            o[i] = mix(y[i], x[i], p.w);
        }
    }
}
