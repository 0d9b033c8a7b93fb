#version 450
// out = in convolved with a 3 x 3 filter, clamp-to-edge (see stencil_naive.comp), walking down
// columns: each invocation computes ROWS outputs of one column, keeping the three input rows
// under the filter in registers, so each output costs three new loads instead of nine, with no
// shared memory and no barrier; fewer, longer-running invocations are the price.
layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(constant_id = 2) const uint ROWS = 4;

layout(set = 0, binding = 0) readonly buffer In { float source[]; };
layout(set = 0, binding = 1) readonly buffer Weights { float weights[9]; };
layout(set = 0, binding = 2) writeonly buffer Out { float target[]; };

layout(push_constant) uniform Params {
    uint width;
    uint height;
} params;

// in's row y (clamped) at columns x - 1, x, x + 1 (clamped).
vec3 load_row(int x, int y) {
    const int w = int(params.width);
    const int row = clamp(y, 0, int(params.height) - 1) * w;
    return vec3(source[row + max(x - 1, 0)], source[row + x], source[row + min(x + 1, w - 1)]);
}

float apply(vec3 above, vec3 middle, vec3 below) {
    float sum = 0.0;
    sum += weights[0] * above.x;
    sum += weights[1] * above.y;
    sum += weights[2] * above.z;
    sum += weights[3] * middle.x;
    sum += weights[4] * middle.y;
    sum += weights[5] * middle.z;
    sum += weights[6] * below.x;
    sum += weights[7] * below.y;
    sum += weights[8] * below.z;
    return sum;
}

void main() {
    const uint x = gl_GlobalInvocationID.x;
    const uint first = gl_GlobalInvocationID.y * ROWS;
    if (x >= params.width || first >= params.height) {
        return;
    }
    vec3 above = load_row(int(x), int(first) - 1);
    vec3 middle = load_row(int(x), int(first));
    const uint last = min(first + ROWS, params.height);
    for (uint y = first; y < last; ++y) {
        const vec3 below = load_row(int(x), int(y) + 1);
        target[y * params.width + x] = apply(above, middle, below);
        above = middle;
        middle = below;
    }
}
