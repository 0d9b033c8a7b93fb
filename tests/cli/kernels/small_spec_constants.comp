#version 450
// Specialization constants of every 8- and 16-bit type: each is read, so a value packed at the
// wrong width or offset shows in the output.
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require

layout(local_size_x = 64) in;

layout(constant_id = 0) const int8_t offset_i8 = int8_t(-3);
layout(constant_id = 1) const uint8_t offset_u8 = uint8_t(7);
layout(constant_id = 2) const int16_t offset_i16 = -300s;
layout(constant_id = 3) const uint16_t offset_u16 = 1000us;
layout(constant_id = 4) const float16_t scale = 0.5hf;

layout(set = 0, binding = 0) buffer Values {
    float values[];
};

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < values.length()) {
        values[i] = float(i) * float(scale) + float(offset_i8) + float(offset_u8) +
                    float(offset_i16) + float(offset_u16);
    }
}
