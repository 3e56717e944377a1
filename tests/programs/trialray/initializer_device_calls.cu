/* Member initializers that call __device__ functions, in classes whose
 * constructors are __device__ and that kernels alone construct, as a ray
 * tracer's camera and materials are built on the device: a constructor
 * defined after its class whose initializers call a __device__ function,
 * one defined after its class (empty) in a class whose default member
 * initializer calls one, one of a namespace's class named from the
 * global namespace (`::geo::Ray::Ray`), and the same forms defined in
 * their class. nvcc accepts them all (its host compile keeps no body of a
 * __device__ constructor); cuemu-nvcc's host pass compiled the
 * constructors defined after their class, so that their calls of
 * __device__ functions were refused ("calling a __device__ function
 * ("radians") from a __host__ function is not allowed"). */
#include <cstdio>

__device__ float radians(float degrees) { return degrees * 0.5f; }
__device__ int next_id() { return 7; }

struct Camera {
  float half;
  const float &fov;
  float scale;
  __device__ Camera(const float &degrees);
};

__device__ Camera::Camera(const float &degrees)
    : half(radians(degrees)), fov(degrees) {
  scale = radians(half);
}

struct Material {
  int id = next_id();
  float albedo;
  __device__ Material();
};

__device__ Material::Material() : albedo(0.25f) {}

struct Texture {
  int id = next_id();
  __device__ Texture();
};

__device__ Texture::Texture() {}

namespace geo {
struct Ray {
  float t;
  __device__ Ray(float at);
};
} // namespace geo

__device__ ::geo::Ray::Ray(float at) : t(at + radians(at)) {}

/* The same forms defined in their class. */
struct Inline {
  int id = next_id();
  float half;
  __device__ Inline(float degrees) : half(radians(degrees)) {}
};

__global__ void build(float *out) {
  const float degrees = 8.0f;
  Camera camera(degrees);
  Material material;
  Texture texture;
  geo::Ray ray(2.0f);
  Inline in(4.0f);
  out[0] = camera.half + camera.scale + camera.fov;
  out[1] = (float)(material.id + texture.id + in.id) + material.albedo;
  out[2] = ray.t + in.half;
}

int main() {
  float *out;
  if (cudaMallocManaged(&out, 3 * sizeof(float)) != cudaSuccess)
    return 1;
  build<<<1, 1>>>(out);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    printf("kernel failed\n");
    return 1;
  }
  /* 4 + 2 + 8; 21.25; 3 + 2. */
  if (out[0] != 14.0f || out[1] != 21.25f || out[2] != 5.0f) {
    printf("got %g %g %g\n", out[0], out[1], out[2]);
    return 1;
  }
  printf("PASS\n");
  return 0;
}
