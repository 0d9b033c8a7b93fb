#pragma once

/// The front door of the Vulkan compute engine: include this one header.
///
/// The engine runs SPIR-V compute kernels and times them; it knows nothing of tuning. A minimal
/// use, running y = a * x + y (spvtune's saxpy kernel) and timing it:
///
///     vulkan::Instance instance;  // InstanceOptions: the validation layer and its sink
///     // "" picks the default (a GPU first); an index, a UUID or part of a name picks another
///     vulkan::Device device(instance, vulkan::select_device(instance.devices(), ""));
///     // Loaded and reflected: entry points, bindings, push constants, workgroup size
///     const auto module = vulkan::SpirvModule::load("saxpy.spv");
///     const vulkan::Specialization workgroup{0, std::uint32_t{64}};  // constant_id 0
///     vulkan::ComputePipeline pipeline(device, module, "main", std::span(&workgroup, 1));
///
///     vulkan::Buffer x(device, n * sizeof(float)), y(device, n * sizeof(float));
///     x.upload(vulkan::make_fill(vulkan::ElementType::f32, n, vulkan::FillRandom{1, -1, 1}));
///     y.upload(vulkan::make_fill(vulkan::ElementType::f32, n, vulkan::FillZeros{}));
///     const vulkan::BufferBinding bindings[] = {{0, 0, &x}, {0, 1, &y}};  // set, binding
///     // Checked against the reflection and the device's limits, naming the pipeline
///     vulkan::ComputeJob job(device, pipeline, bindings, push_constants /* a, n */,
///                            {(n + 63) / 64, 1, 1});
///     job.run();                                   // waited for; y.download() sees its writes
///     vulkan::BatchedTimer timer;                  // repeats the job to fill a minimum window
///     const vulkan::DispatchTiming t = timer.sample(job);  // t.per_dispatch_ns, t.method
///
/// Errors are exceptions derived from vulkan::Error: a failed call names it and its VkResult,
/// a lost device, a timeout and bad SPIR-V each have their own type. A PipelineCache passed to
/// ComputePipeline keeps compiled pipelines between runs; device.info().identity says what the
/// hardware is.
#include <spvtune/vulkan/batched_timer.hpp>
#include <spvtune/vulkan/buffer.hpp>
#include <spvtune/vulkan/capabilities.hpp>
#include <spvtune/vulkan/compute_job.hpp>
#include <spvtune/vulkan/compute_pipeline.hpp>
#include <spvtune/vulkan/device.hpp>
#include <spvtune/vulkan/device_identity.hpp>
#include <spvtune/vulkan/device_selector.hpp>
#include <spvtune/vulkan/error.hpp>
#include <spvtune/vulkan/host_data.hpp>
#include <spvtune/vulkan/instance.hpp>
#include <spvtune/vulkan/physical_device_info.hpp>
#include <spvtune/vulkan/pipeline_cache.hpp>
#include <spvtune/vulkan/spirv_module.hpp>
#include <spvtune/vulkan/spirv_reflection.hpp>
