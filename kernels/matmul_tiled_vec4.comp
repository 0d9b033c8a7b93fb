#version 450
// C = A * B, row-major, A is M x K, B is K x N, with 16-byte accesses to B and C: each invocation
// computes four neighbouring elements of one row of C, reading B and writing C through vec4[]
// views of the float buffers. A T x T workgroup covers T rows and 4T columns; per step it stages
// a T x T tile of A (floats) and a T x T tile of B's vec4s in shared memory. The vec4 views need N
// to be a multiple of 4 (the problem's constraint); M and K may be anything. The K products are
// added in the same order as the other variants, one vec4 lane per column.
layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { vec4 b[]; };
layout(set = 0, binding = 2) writeonly buffer C { vec4 c[]; };

layout(push_constant) uniform Params {
    uint m;
    uint n;
    uint k;
} params;

shared float tile_a[gl_WorkGroupSize.x][gl_WorkGroupSize.x];
shared vec4 tile_b[gl_WorkGroupSize.x][gl_WorkGroupSize.x];

void main() {
    const uint t = gl_WorkGroupSize.x;
    const uint lx = gl_LocalInvocationID.x;
    const uint ly = gl_LocalInvocationID.y;
    const uint columns = params.n / 4;  // vec4s per row of B and C
    const uint row = gl_WorkGroupID.y * t + ly;
    const uint column = gl_WorkGroupID.x * t + lx;  // in vec4s
    vec4 sum = vec4(0.0);
    for (uint step = 0; step < params.k; step += t) {
        tile_a[ly][lx] = row < params.m && step + lx < params.k ? a[row * params.k + step + lx] : 0.0;
        tile_b[ly][lx] = step + ly < params.k && column < columns ? b[(step + ly) * columns + column]
                                                                  : vec4(0.0);
        barrier();
        for (uint i = 0; i < t; ++i) {
            sum += tile_a[ly][i] * tile_b[i][lx];
        }
        // The next step overwrites the tiles.
        barrier();
    }
    if (row < params.m && column < columns) {
        c[row * columns + column] = sum;
    }
}
