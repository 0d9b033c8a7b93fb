#version 450
// out = transpose(in): in is R x C row-major, out is C x R row-major. One invocation per
// element: reads along rows (neighbouring invocations, neighbouring words) but writes down
// columns, R words apart, which is what the tiled variants avoid.
layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(set = 0, binding = 0) readonly buffer In { float source[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float target[]; };

layout(push_constant) uniform Params {
    uint rows;
    uint cols;
} params;

void main() {
    const uint col = gl_GlobalInvocationID.x;
    const uint row = gl_GlobalInvocationID.y;
    if (row < params.rows && col < params.cols) {
        target[col * params.rows + row] = source[row * params.cols + col];
    }
}
