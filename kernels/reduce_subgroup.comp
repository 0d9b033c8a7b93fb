#version 450
// Sum of n floats: each subgroup sums its values with subgroupAdd (one instruction on hardware
// with subgroup arithmetic, no shared-memory round trips), the subgroups' sums meet in shared
// memory, and the workgroups' sums are combined as reduce_combine.glsl describes.
// Needs subgroup arithmetic in compute shaders (the candidate's `requires`).
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_arithmetic : require
layout(local_size_x_id = 0) in;

// One slot per subgroup; a subgroup has at least one invocation, so WG slots always suffice.
shared float subgroup_sums[gl_WorkGroupSize.x];
shared float workgroup_total;

// Every invocation of the workgroup calls this with its value and gets the workgroup's total.
float workgroup_sum(float value) {
    const float mine = subgroupAdd(value);
    if (subgroupElect()) {
        subgroup_sums[gl_SubgroupID] = mine;
    }
    barrier();
    if (gl_SubgroupID == 0) {
        float partial = 0.0;
        for (uint i = gl_SubgroupInvocationID; i < gl_NumSubgroups; i += gl_SubgroupSize) {
            partial += subgroup_sums[i];
        }
        const float total = subgroupAdd(partial);
        if (subgroupElect()) {
            workgroup_total = total;
        }
    }
    barrier();
    const float total = workgroup_total;
    // The next call overwrites workgroup_total; nobody may get there before everyone read it.
    barrier();
    return total;
}

#include "reduce_combine.glsl"
