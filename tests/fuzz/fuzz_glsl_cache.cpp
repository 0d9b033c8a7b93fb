// Fuzzes the GLSL cache entry reader (lib/problem's GlslCache): any bytes as a request's entry
// give the entry's SPIR-V, a plain miss, or a warning naming the entry, never a crash, a hang or
// an exception. The request's source does not compile, so an entry is all that can make the
// output ok and a miss costs one failed compile. "@GLSLANG@" in the input is this glslang's
// version, so that seeds (scripts/fuzz-seeds.py) get past the version check to the includes
// and the SPIR-V.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <unistd.h>

#include <spvtune/problem/glsl_cache.hpp>
#include <spvtune/problem/glsl_compiler.hpp>

namespace {

namespace fs = std::filesystem;

const fs::path& cache_dir() {
    static const fs::path dir = [] {
        const fs::path path =
            fs::temp_directory_path() / ("spvtune-fuzz-glsl-" + std::to_string(::getpid()));
        fs::create_directories(path / "glsl");
        return path / "glsl";
    }();
    return dir;
}

spvtune::problem::GlslRequest request() {
    spvtune::problem::GlslRequest request;
    request.file = cache_dir().parent_path() / "kernel.comp";
    request.source = "#version 450\nnot a shader\n";
    return request;
}

void replace_all(std::string& text, std::string_view from, const std::string& to) {
    for (std::size_t at = text.find(from); at != std::string::npos;
         at = text.find(from, at + to.size())) {
        text.replace(at, from.size(), to);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string entry(reinterpret_cast<const char*>(data), size);
    static const std::string version = spvtune::problem::glslang_version();
    replace_all(entry, "@GLSLANG@", version);
    std::string warning;
    const spvtune::problem::GlslCache cache(cache_dir(),
                                            [&](const std::string& text) { warning = text; });
    const fs::path path = cache.entry_path(request());
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(entry.data(), static_cast<std::streamsize>(entry.size()));
    }
    const spvtune::problem::GlslOutput output = cache.compile(request());
    if (output.ok && output.words.empty()) {
        std::fprintf(stderr, "an entry gave empty SPIR-V\n");
        std::abort();
    }
    if (!warning.empty() && warning.find(path.string()) == std::string::npos) {
        std::fprintf(stderr, "a warning that does not name the entry: %s\n", warning.c_str());
        std::abort();
    }
    return 0;
}
