#version 450
// Reads an f32 buffer as an array of 12-byte structs (three floats, std430): a stride that is a
// multiple of 4 bytes but of no larger element size.
layout(local_size_x = 64) in;

struct Point {
    float x;
    float y;
    float z;
};

layout(std430, set = 0, binding = 0) buffer Points { Point points[]; };

layout(push_constant) uniform Params {
    uint n;
} params;

void main() {
    const uint i = gl_GlobalInvocationID.x;
    if (i < params.n) {
        points[i].x = points[i].y + points[i].z;
    }
}
