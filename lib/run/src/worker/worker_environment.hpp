#pragma once

#include <string>
#include <vector>

namespace spvtune::run::worker {

/// The environment a worker process starts with ("NAME=value" strings): this process's, with
/// the C library's allocator set for buffers of megabytes, and the changes a sanitizer build
/// needs (see worker_environment.cpp).
std::vector<std::string> worker_environment();

}  // namespace spvtune::run::worker
