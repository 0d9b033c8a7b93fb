#version 450
// One pass of a multi-pass sum: each workgroup sums WG * ELEMS consecutive values of
// src[src_offset .. src_offset + count) with a shared-memory tree and writes its total to
// dst[dst_offset + workgroup]. Run as steps of one candidate, passes of fan-in WG * ELEMS turn n
// values into ceil_div(n, WG * ELEMS) partial sums, then fewer, until one workgroup writes the
// total. src and dst may be two halves of one scratch buffer (ping-pong), never overlapping.
// WG (local_size_x_id 0) must be a power of two.
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint ELEMS = 4;

layout(set = 0, binding = 0) readonly buffer Source { float src[]; };
layout(set = 0, binding = 1) writeonly buffer Destination { float dst[]; };

layout(push_constant) uniform Params {
    uint src_offset;
    uint dst_offset;
    uint count;
} params;

shared float tree[gl_WorkGroupSize.x];

void main() {
    const uint lane = gl_LocalInvocationID.x;
    const uint block = gl_WorkGroupID.x * gl_WorkGroupSize.x * ELEMS;
    // Neighbouring invocations read neighbouring values on every iteration.
    float value = 0.0;
    for (uint e = 0; e < ELEMS; ++e) {
        const uint i = block + e * gl_WorkGroupSize.x + lane;
        if (i < params.count) {
            value += src[params.src_offset + i];
        }
    }
    tree[lane] = value;
    barrier();
    for (uint stride = gl_WorkGroupSize.x / 2; stride > 0; stride /= 2) {
        if (lane < stride) {
            tree[lane] += tree[lane + stride];
        }
        barrier();
    }
    if (lane == 0) {
        dst[params.dst_offset + gl_WorkGroupID.x] = tree[0];
    }
}
