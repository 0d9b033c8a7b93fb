#version 450
// Sum of n floats, the reference: one workgroup of 256 invocations, each summing every 256th
// element with Kahan compensation, then invocation 0 sums the 256 partial sums the same way.
// Slow on purpose (one workgroup), but its error stays near one rounding of the result, so
// faster variants can be held to a tight relative tolerance.
layout(local_size_x = 256) in;

layout(set = 0, binding = 0) readonly buffer Data { float data[]; };
layout(set = 0, binding = 1) writeonly buffer Sum { float sum[]; };

layout(push_constant) uniform Params {
    uint n;
} params;

shared float partial[256];

// `precise` forbids the reassociation and fused multiply-adds that would cancel the compensation.
void kahan_add(inout float total, inout float compensation, float value) {
    precise float y = value - compensation;
    precise float t = total + y;
    compensation = (t - total) - y;
    total = t;
}

void main() {
    const uint lane = gl_LocalInvocationID.x;
    float total = 0.0;
    float compensation = 0.0;
    for (uint i = lane; i < params.n; i += 256) {
        kahan_add(total, compensation, data[i]);
    }
    partial[lane] = total;
    barrier();
    if (lane == 0) {
        float grand = 0.0;
        float grand_compensation = 0.0;
        for (uint i = 0; i < 256; ++i) {
            kahan_add(grand, grand_compensation, partial[i]);
        }
        sum[0] = grand;
    }
}
