// Semi-Lagrangian advection of a Gaussian blob in a rotating flow, with
// texture objects over cudaArrays (clamp, linear filtering) and surface
// output, ping-ponging between two arrays; checked against a host version
// of the same interpolation.
#include "cfd/advect.cuh"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <cstdio>
#include <utility>
#include <vector>

namespace {

float host_sample(const std::vector<float> &q, int nx, int ny, float x, float y) {
  // Bilinear with clamp-to-edge, as the texture unit does (x, y are
  // coordinates with texel centres at integers here).
  const float fx = std::floor(x), fy = std::floor(y);
  const float ax = x - fx, ay = y - fy;
  auto at = [&](int i, int j) {
    i = std::min(std::max(i, 0), nx - 1);
    j = std::min(std::max(j, 0), ny - 1);
    return q[size_t(j) * nx + i];
  };
  const int i0 = int(fx), j0 = int(fy);
  return (1 - ax) * (1 - ay) * at(i0, j0) + ax * (1 - ay) * at(i0 + 1, j0) +
         (1 - ax) * ay * at(i0, j0 + 1) + ax * ay * at(i0 + 1, j0 + 1);
}

void host_advect(const std::vector<float> &q, std::vector<float> &out, int nx,
                 int ny, float dt, const cfd::RotationField &f) {
  out.resize(q.size());
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      float u, v;
      f.velocity(float(i), float(j), u, v);
      const float xm = i - 0.5f * dt * u, ym = j - 0.5f * dt * v;
      f.velocity(xm, ym, u, v);
      out[size_t(j) * nx + i] = host_sample(q, nx, ny, i - dt * u, j - dt * v);
    }
}

struct Field {
  cudaArray_t array = nullptr;
  cudaTextureObject_t tex = 0;
  cudaSurfaceObject_t surf = 0;
};

Field make_field(int nx, int ny) {
  Field f;
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  CUDA_CHECK(cudaMallocArray(&f.array, &desc, nx, ny, cudaArraySurfaceLoadStore));

  cudaResourceDesc res;
  std::memset(&res, 0, sizeof(res));
  res.resType = cudaResourceTypeArray;
  res.res.array.array = f.array;

  cudaTextureDesc td;
  std::memset(&td, 0, sizeof(td));
  td.addressMode[0] = cudaAddressModeClamp;
  td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModeLinear;
  td.readMode = cudaReadModeElementType;
  td.normalizedCoords = 0;
  CUDA_CHECK(cudaCreateTextureObject(&f.tex, &res, &td, nullptr));
  CUDA_CHECK(cudaCreateSurfaceObject(&f.surf, &res));
  return f;
}

void free_field(Field &f) {
  CUDA_CHECK(cudaDestroyTextureObject(f.tex));
  CUDA_CHECK(cudaDestroySurfaceObject(f.surf));
  CUDA_CHECK(cudaFreeArray(f.array));
}

} // namespace

int main() {
  cfd::print_device_banner();
  const int nx = 64, ny = 48, steps = 20;
  const float dt = 0.5f;
  const cfd::RotationField flow{nx / 2.0f, ny / 2.0f, 0.05f};

  std::vector<float> q0(size_t(nx) * ny);
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const float dx = i - 0.7f * nx, dy = j - 0.5f * ny;
      q0[size_t(j) * nx + i] = std::exp(-(dx * dx + dy * dy) / 30.0f);
    }

  Field a = make_field(nx, ny), b = make_field(nx, ny);
  CUDA_CHECK(cudaMemcpy2DToArray(a.array, 0, 0, q0.data(), nx * sizeof(float),
                                 nx * sizeof(float), ny, cudaMemcpyHostToDevice));
  dim3 block(16, 16);
  dim3 grid(cfd::div_up(nx, 16), cfd::div_up(ny, 16));
  Field *src = &a, *dst = &b;
  for (int s = 0; s < steps; ++s) {
    cfd::advect_kernel<<<grid, block>>>(src->tex, dst->surf, nx, ny, dt, flow);
    CUDA_CHECK(cudaGetLastError());
    std::swap(src, dst);
  }
  CUDA_CHECK(cudaDeviceSynchronize());

  std::vector<float> dev(q0.size());
  CUDA_CHECK(cudaMemcpy2DFromArray(dev.data(), nx * sizeof(float), src->array, 0,
                                   0, nx * sizeof(float), ny,
                                   cudaMemcpyDeviceToHost));
  double *d_sum = nullptr;
  CUDA_CHECK(cudaMalloc(&d_sum, sizeof(double)));
  CUDA_CHECK(cudaMemset(d_sum, 0, sizeof(double)));
  cfd::surface_sum_kernel<<<grid, block>>>(src->surf, nx, ny, d_sum);
  double dev_sum = 0.0;
  CUDA_CHECK(cudaMemcpy(&dev_sum, d_sum, sizeof(double), cudaMemcpyDeviceToHost));

  std::vector<float> ref = q0, tmp;
  for (int s = 0; s < steps; ++s) {
    host_advect(ref, tmp, nx, ny, dt, flow);
    ref.swap(tmp);
  }
  double err = 0.0, host_sum = 0.0, sum = 0.0, peak = 0.0;
  for (size_t c = 0; c < ref.size(); ++c) {
    err = std::fmax(err, std::fabs(double(dev[c]) - ref[c]));
    host_sum += ref[c];
    sum += dev[c];
    peak = std::fmax(peak, dev[c]);
  }
  // The texture unit interpolates with 8 bits of fraction: allow for it.
  const bool ok = err < 2e-2 && std::fabs(dev_sum - sum) < 1e-3 * sum &&
                  std::fabs(sum - host_sum) < 1e-2 * host_sum && peak > 0.5;
  std::printf("advect %dx%d, %d steps: max diff %.3e, mass %.4f (host %.4f, "
              "surface %.4f), peak %.3f\n",
              nx, ny, steps, err, sum, host_sum, dev_sum, peak);
  CUDA_CHECK(cudaFree(d_sum));
  free_field(a);
  free_field(b);
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
