#version 450
// out = transpose(in): in is R x C row-major, out is C x R row-major, through a T x T tile in
// shared memory, so both the reads of in and the writes of out go along rows. The workgroup is
// T x ROWS (local_size_x_id 0 = T, local_size_y_id 1 = ROWS, T a multiple of ROWS); each
// invocation moves T / ROWS elements, which spreads the index arithmetic and keeps the
// workgroup small for large tiles.
// The tile is read down its columns; with PAD = 0 and T a multiple of the number of shared
// memory banks those reads all hit one bank. PAD = 1 pads each row by a word so they spread over
// every bank; it costs T words of shared memory.
layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(constant_id = 2) const uint PAD = 0;

layout(set = 0, binding = 0) readonly buffer In { float source[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float target[]; };

layout(push_constant) uniform Params {
    uint rows;
    uint cols;
} params;

shared float tile[gl_WorkGroupSize.x][gl_WorkGroupSize.x + PAD];

void main() {
    const uint t = gl_WorkGroupSize.x;
    const uint lx = gl_LocalInvocationID.x;
    const uint ly = gl_LocalInvocationID.y;
    const uint first_row = gl_WorkGroupID.y * t;
    const uint first_col = gl_WorkGroupID.x * t;

    for (uint y = ly; y < t; y += gl_WorkGroupSize.y) {
        const uint row = first_row + y;
        const uint col = first_col + lx;
        if (row < params.rows && col < params.cols) {
            tile[y][lx] = source[row * params.cols + col];
        }
    }
    barrier();
    // Row first_col + y of out holds column first_col + y of in.
    for (uint y = ly; y < t; y += gl_WorkGroupSize.y) {
        const uint out_row = first_col + y;
        const uint out_col = first_row + lx;
        if (out_row < params.cols && out_col < params.rows) {
            target[out_row * params.rows + out_col] = tile[lx][y];
        }
    }
}
