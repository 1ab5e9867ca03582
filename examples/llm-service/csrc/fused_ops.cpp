// Python bindings for the fused kernels (built by setup.py as llm_service._C).
#include <ATen/cuda/CUDAContext.h>
#include <torch/extension.h>

#include "fused_ops.h"

torch::Tensor rms_norm(torch::Tensor x, torch::Tensor weight, double eps) {
  TORCH_CHECK(x.is_cuda() && x.is_contiguous(), "rms_norm expects a contiguous CUDA tensor");
  auto y = torch::empty_like(x);
  launch_rms_norm(x.data_ptr<float>(), weight.data_ptr<float>(), y.data_ptr<float>(),
                  static_cast<int>(x.size(0)), static_cast<int>(x.size(1)), static_cast<float>(eps),
                  at::cuda::getCurrentCUDAStream());
  return y;
}

int64_t count_positive(torch::Tensor logits) {
  auto count = torch::zeros({1}, logits.options().dtype(torch::kInt32));
  launch_count_positive(logits.data_ptr<float>(), static_cast<int>(logits.numel()),
                        count.data_ptr<int>(), at::cuda::getCurrentCUDAStream());
  return count.item<int64_t>();
}

torch::Tensor dequant_kv(torch::Tensor q, torch::Tensor scales, int64_t block_elems) {
  auto out = torch::empty(q.sizes(), scales.options());
  launch_dequant_kv(q.data_ptr<int8_t>(), scales.data_ptr<float>(), out.data_ptr<float>(),
                    static_cast<int>(block_elems), static_cast<int>(q.numel()),
                    at::cuda::getCurrentCUDAStream());
  return out;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("rms_norm", &rms_norm, "Fused RMSNorm");
  m.def("count_positive", &count_positive, "Number of positive logits");
  m.def("dequant_kv", &dequant_kv, "Dequantise an int8 KV-cache block");
  m.def("preferred_block_size", &preferred_block_size, "Threads per block for this device");
}
