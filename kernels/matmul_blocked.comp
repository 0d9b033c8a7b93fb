#version 450
// C = A * B, row-major, A is M x K, B is K x N, register-blocked: each invocation computes a
// 4 x 4 block of C, so per step of k it loads 4 values of A and 4 of B from shared memory for 16
// multiply-adds (the naive and tiled kernels load 2 per multiply-add). A workgroup of WX x WY
// invocations covers a (4 WY) x (4 WX) block of C and stages BK-wide slices of A and B in shared
// memory. An invocation's rows and columns are WY and WX apart, so neighbouring invocations
// read neighbouring words (no bank conflicts, coalesced writes). Outside the matrices the
// slices hold zeros, so any M, N, K works.
layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(constant_id = 2) const uint BK = 8;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) writeonly buffer C { float c[]; };

layout(push_constant) uniform Params {
    uint m;
    uint n;
    uint k;
} params;

const uint BLOCK = 4;
const uint BM = gl_WorkGroupSize.y * BLOCK;
const uint BN = gl_WorkGroupSize.x * BLOCK;

shared float slice_a[BM * BK];  // BM rows of BK
shared float slice_b[BK * BN];  // BK rows of BN

void main() {
    const uint wx = gl_WorkGroupSize.x;
    const uint wy = gl_WorkGroupSize.y;
    const uint lx = gl_LocalInvocationID.x;
    const uint ly = gl_LocalInvocationID.y;
    const uint invocations = wx * wy;
    const uint self = gl_LocalInvocationIndex;
    const uint row0 = gl_WorkGroupID.y * BM;
    const uint col0 = gl_WorkGroupID.x * BN;

    float sum[BLOCK][BLOCK];
    for (uint i = 0; i < BLOCK; ++i) {
        for (uint j = 0; j < BLOCK; ++j) {
            sum[i][j] = 0.0;
        }
    }
    for (uint step = 0; step < params.k; step += BK) {
        for (uint e = self; e < BM * BK; e += invocations) {
            const uint r = row0 + e / BK;
            const uint kk = step + e % BK;
            slice_a[e] = r < params.m && kk < params.k ? a[r * params.k + kk] : 0.0;
        }
        for (uint e = self; e < BK * BN; e += invocations) {
            const uint kk = step + e / BN;
            const uint col = col0 + e % BN;
            slice_b[e] = kk < params.k && col < params.n ? b[kk * params.n + col] : 0.0;
        }
        barrier();
        for (uint kk = 0; kk < BK; ++kk) {
            float from_a[BLOCK];
            float from_b[BLOCK];
            for (uint i = 0; i < BLOCK; ++i) {
                from_a[i] = slice_a[(ly + i * wy) * BK + kk];
                from_b[i] = slice_b[kk * BN + lx + i * wx];
            }
            for (uint i = 0; i < BLOCK; ++i) {
                for (uint j = 0; j < BLOCK; ++j) {
                    sum[i][j] += from_a[i] * from_b[j];
                }
            }
        }
        // The next step overwrites the slices.
        barrier();
    }
    for (uint i = 0; i < BLOCK; ++i) {
        const uint row = row0 + ly + i * wy;
        for (uint j = 0; j < BLOCK; ++j) {
            const uint col = col0 + lx + j * wx;
            if (row < params.m && col < params.n) {
                c[row * params.n + col] = sum[i][j];
            }
        }
    }
}
