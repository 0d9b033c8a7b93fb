#version 450
// Sum of n floats: each workgroup sums its block with a shared-memory tree, then the workgroups'
// sums are combined as reduce_combine.glsl describes. WG (local_size_x_id 0) must be a power of
// two.
#extension GL_GOOGLE_include_directive : require
layout(local_size_x_id = 0) in;

shared float tree[gl_WorkGroupSize.x];

// Every invocation of the workgroup calls this with its value and gets the workgroup's total.
float workgroup_sum(float value) {
    const uint lane = gl_LocalInvocationID.x;
    tree[lane] = value;
    barrier();
    for (uint stride = gl_WorkGroupSize.x / 2; stride > 0; stride /= 2) {
        if (lane < stride) {
            tree[lane] += tree[lane + stride];
        }
        barrier();
    }
    const float total = tree[0];
    // tree[0] is overwritten by the next call; nobody may get there before everyone read it.
    barrier();
    return total;
}

#include "reduce_combine.glsl"
