#version 450
// Specialization constants of each scalar kind, named, so problem files can set them by SpecId
// or by name and the value types can be checked against the declared ones.
layout(local_size_x_id = 0) in;

layout(constant_id = 1) const int shift = 0;
layout(constant_id = 2) const float scale = 1.0;
layout(constant_id = 3) const bool negate = false;

layout(set = 0, binding = 0) buffer Data { float data[]; };
layout(set = 1, binding = 2) uniform Params { uint count; } params;

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < params.count) {
        float v = data[i] * scale + float(shift);
        data[i] = negate ? -v : v;
    }
}
