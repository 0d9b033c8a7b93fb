#version 450
// out = in convolved with a 3 x 3 filter, clamp-to-edge (see stencil_naive.comp), through shared
// memory: a WX x WY workgroup loads its (WX + 2) x (WY + 2) block of in once, halo included, and
// reads the nine neighbours from there, so each input is loaded about once instead of nine
// times, at the cost of a barrier and the halo's extra loads.
layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(set = 0, binding = 0) readonly buffer In { float source[]; };
layout(set = 0, binding = 1) readonly buffer Weights { float weights[9]; };
layout(set = 0, binding = 2) writeonly buffer Out { float target[]; };

layout(push_constant) uniform Params {
    uint width;
    uint height;
} params;

const uint TW = gl_WorkGroupSize.x + 2;
const uint TH = gl_WorkGroupSize.y + 2;
shared float tile[TH * TW];

void main() {
    // Tile (0, 0) is in's element (x0 - 1, y0 - 1).
    const int x0 = int(gl_WorkGroupID.x * gl_WorkGroupSize.x);
    const int y0 = int(gl_WorkGroupID.y * gl_WorkGroupSize.y);
    const uint invocations = gl_WorkGroupSize.x * gl_WorkGroupSize.y;
    for (uint e = gl_LocalInvocationIndex; e < TH * TW; e += invocations) {
        const int sx = clamp(x0 + int(e % TW) - 1, 0, int(params.width) - 1);
        const int sy = clamp(y0 + int(e / TW) - 1, 0, int(params.height) - 1);
        tile[e] = source[sy * int(params.width) + sx];
    }
    barrier();

    const uint x = gl_GlobalInvocationID.x;
    const uint y = gl_GlobalInvocationID.y;
    if (x >= params.width || y >= params.height) {
        return;
    }
    const uint lx = gl_LocalInvocationID.x;
    const uint ly = gl_LocalInvocationID.y;
    float sum = 0.0;
    for (uint dy = 0; dy < 3; ++dy) {
        for (uint dx = 0; dx < 3; ++dx) {
            sum += weights[dy * 3 + dx] * tile[(ly + dy) * TW + lx + dx];
        }
    }
    target[y * params.width + x] = sum;
}
