// The element a kernel reads and writes: float, or vec4 when USE_VEC4 is 1 (a vec4[] view of
// an f32 buffer, four floats per load). Shared by the GLSL candidates of this folder.
#ifndef USE_VEC4
#define USE_VEC4 0
#endif

#if USE_VEC4
#define ELEMENT vec4
#define ELEMENT_WIDTH 4u
#else
#define ELEMENT float
#define ELEMENT_WIDTH 1u
#endif
