#version 450
// out = in convolved with a 3 x 3 filter, clamp-to-edge: in and out are H x W row-major, the
// filter is 9 weights, row by row. One invocation per output, nine loads from memory each.
// The reference: the other variants add the nine products in the same order, so they agree to
// rounding.
layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(set = 0, binding = 0) readonly buffer In { float source[]; };
layout(set = 0, binding = 1) readonly buffer Weights { float weights[9]; };
layout(set = 0, binding = 2) writeonly buffer Out { float target[]; };

layout(push_constant) uniform Params {
    uint width;
    uint height;
} params;

void main() {
    const uint x = gl_GlobalInvocationID.x;
    const uint y = gl_GlobalInvocationID.y;
    if (x >= params.width || y >= params.height) {
        return;
    }
    float sum = 0.0;
    for (int dy = -1; dy <= 1; ++dy) {
        const int sy = clamp(int(y) + dy, 0, int(params.height) - 1);
        for (int dx = -1; dx <= 1; ++dx) {
            const int sx = clamp(int(x) + dx, 0, int(params.width) - 1);
            sum += weights[(dy + 1) * 3 + dx + 1] * source[sy * int(params.width) + sx];
        }
    }
    target[y * params.width + x] = sum;
}
