#version 450
// Reflection test kernel: which storage buffers have their runtime array's length taken
// (OpArrayLength). `sized` and one of the `parts` (through an access chain into the array of
// descriptors) are measured; `plain` is written without its length, `params` is a uniform buffer.
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) readonly buffer Sized { float s[]; } sized;
layout(set = 0, binding = 1) writeonly buffer Plain { float p[]; } plain;
layout(set = 0, binding = 2) uniform Params { uint n; } params;
layout(set = 0, binding = 3) readonly buffer Parts { float v[]; } parts[2];

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < params.n && i < uint(sized.s.length()) && i < uint(parts[1].v.length())) {
        plain.p[i] = sized.s[i] + parts[0].v[i];
    }
}
