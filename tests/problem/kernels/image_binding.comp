#version 450
// A kernel whose binding 0 is a storage image: problem files may bind only buffers to it.
layout(local_size_x = 64) in;

layout(set = 0, binding = 0, r32f) uniform writeonly image2D picture;
layout(set = 0, binding = 1) buffer Values { float values[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    imageStore(picture, ivec2(int(i), 0), vec4(values[i]));
}
