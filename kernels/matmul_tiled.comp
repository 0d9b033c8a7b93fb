#version 450
// C = A * B, row-major, A is M x K, B is K x N, through shared memory: a T x T workgroup loads a
// T x T tile of A and one of B per step, so each element loaded from memory is used T times.
// The workgroup must be square (local_size_x_id 0 and local_size_y_id 1 both T). Outside the
// matrices the tiles hold zeros, so any M, N, K works.
layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) writeonly buffer C { float c[]; };

layout(push_constant) uniform Params {
    uint m;
    uint n;
    uint k;
} params;

shared float tile_a[gl_WorkGroupSize.x][gl_WorkGroupSize.x];
shared float tile_b[gl_WorkGroupSize.x][gl_WorkGroupSize.x];

void main() {
    const uint t = gl_WorkGroupSize.x;
    const uint lx = gl_LocalInvocationID.x;
    const uint ly = gl_LocalInvocationID.y;
    const uint row = gl_WorkGroupID.y * t + ly;
    const uint col = gl_WorkGroupID.x * t + lx;
    float sum = 0.0;
    for (uint step = 0; step < params.k; step += t) {
        tile_a[ly][lx] = row < params.m && step + lx < params.k ? a[row * params.k + step + lx] : 0.0;
        tile_b[ly][lx] = step + ly < params.k && col < params.n ? b[(step + ly) * params.n + col] : 0.0;
        barrier();
        for (uint i = 0; i < t; ++i) {
            sum += tile_a[ly][i] * tile_b[i][lx];
        }
        // The next step overwrites the tiles.
        barrier();
    }
    if (row < params.m && col < params.n) {
        c[row * params.n + col] = sum;
    }
}
