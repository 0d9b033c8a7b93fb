// The part of the sum kernels that does not depend on how a workgroup sums its values: included
// by reduce_tree.comp and reduce_subgroup.comp after they define
//     float workgroup_sum(float value);  // called by every invocation, returns the total
//
// A candidate is one dispatch, so the workgroups' sums are combined inside it. Each workgroup
// sums ELEMS * WG elements, then, as ATOMIC selects:
// - false (two-pass): writes its sum to partials[workgroup]; the last workgroup to finish (a
//   counter tells) sums the partials in a fixed order, so the result is deterministic;
// - true (atomics): adds its sum into accumulator[0] with a compare-and-swap loop on the float's
//   bits (float atomics are not core Vulkan); the order, and so the rounding, varies per run,
//   and every workgroup contends for one word, but no second pass over partials is needed.
// The last workgroup writes sum[0] and puts counter, accumulator and partials back to zero, so
// the next dispatch needs no clearing (and timing runs that repeat the dispatch stay correct).
// partials must hold at least one float per workgroup.

layout(constant_id = 1) const uint ELEMS = 4;
layout(constant_id = 2) const bool ATOMIC = false;

layout(set = 0, binding = 0) readonly buffer Data { float data[]; };
layout(set = 0, binding = 1) writeonly buffer Sum { float sum[]; };
layout(set = 0, binding = 2) coherent buffer Partials { float partials[]; };
layout(set = 0, binding = 3) coherent buffer Accumulator { uint accumulator[]; };
layout(set = 0, binding = 4) coherent buffer Counter { uint counter[]; };

layout(push_constant) uniform Params {
    uint n;
} params;

shared bool last_workgroup;

void atomic_add_float(float value) {
    uint expected = accumulator[0];
    for (;;) {
        const uint desired = floatBitsToUint(uintBitsToFloat(expected) + value);
        const uint seen = atomicCompSwap(accumulator[0], expected, desired);
        if (seen == expected) {
            return;
        }
        expected = seen;
    }
}

void main() {
    const uint lane = gl_LocalInvocationID.x;
    const uint base = gl_WorkGroupID.x * gl_WorkGroupSize.x * ELEMS + lane;
    float value = 0.0;
    for (uint e = 0; e < ELEMS; ++e) {
        const uint i = base + e * gl_WorkGroupSize.x;
        if (i < params.n) {
            value += data[i];
        }
    }
    const float mine = workgroup_sum(value);

    if (lane == 0) {
        if (ATOMIC) {
            atomic_add_float(mine);
        } else {
            partials[gl_WorkGroupID.x] = mine;
        }
        // Publish the sum before counting this workgroup as done.
        memoryBarrierBuffer();
        last_workgroup = atomicAdd(counter[0], 1) == gl_NumWorkGroups.x - 1;
        memoryBarrierBuffer();
    }
    barrier();
    if (!last_workgroup) {
        return;
    }

    if (ATOMIC) {
        if (lane == 0) {
            sum[0] = uintBitsToFloat(atomicExchange(accumulator[0], 0));
            counter[0] = 0;
        }
        return;
    }
    float value_of_partials = 0.0;
    for (uint i = lane; i < gl_NumWorkGroups.x; i += gl_WorkGroupSize.x) {
        value_of_partials += partials[i];
        partials[i] = 0.0;
    }
    const float total = workgroup_sum(value_of_partials);
    if (lane == 0) {
        sum[0] = total;
        counter[0] = 0;
    }
}
