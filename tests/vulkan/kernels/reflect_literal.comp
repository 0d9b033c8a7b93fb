#version 450
// Reflection test kernel: a literal workgroup size, one binding of each descriptor kind, typed
// and named specialization constants and a push-constant block with a matrix. The result is
// meaningless; every declaration is used except `unused`, which reflection must leave out.
layout(local_size_x = 64, local_size_y = 2, local_size_z = 1) in;

layout(constant_id = 3) const bool use_bias = true;
layout(constant_id = 5) const int shift = -7;
layout(constant_id = 7) const float scale = 2.5;

layout(set = 0, binding = 1) readonly buffer Unused { float u[]; } unused;
layout(set = 0, binding = 2) uniform Params { vec4 bias; uint count; } params;
layout(set = 0, binding = 3, rgba32f) uniform readonly image2D source_image;
layout(set = 0, binding = 4) uniform sampler2D textures[3];
layout(set = 0, binding = 5) uniform samplerBuffer texels;
layout(set = 0, binding = 6, r32ui) uniform uimageBuffer counters;
layout(set = 1, binding = 0) writeonly buffer Out { float head[4]; vec2 data[]; } out_buffer;
layout(set = 2, binding = 0) uniform texture2D separate_texture;
layout(set = 2, binding = 1) uniform sampler separate_sampler;

layout(push_constant) uniform Push {
    uint n;
    float alpha;
    vec4 offset;
    mat4 transform;
} pc;

void main() {
    uint i = gl_GlobalInvocationID.x;
    float v = pc.alpha * float(shift) * scale;
    v += imageLoad(source_image, ivec2(0)).x + texture(textures[1], vec2(0)).x;
    v += texelFetch(texels, 0).x;
    v += texture(sampler2D(separate_texture, separate_sampler), vec2(0)).x;
    if (use_bias) {
        v += params.bias.x;
    }
    imageStore(counters, 0, uvec4(pc.n));
    if (i < params.count) {
        out_buffer.data[i] = vec2(v) + pc.offset.xy + pc.transform[0].xy;
    }
}
