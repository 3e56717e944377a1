#ifndef HITABLEH
#define HITABLEH
#include "ray.h"
class material;
struct hit_record { float t; vec3 p; vec3 normal; material *mat_ptr; };
class hitable {
public:
    __device__ virtual bool hit(const ray& r, float t_min, float t_max, hit_record& rec) const = 0;
    __device__ virtual ~hitable() {}
};
class sphere : public hitable {
public:
    __device__ sphere() {}
    __device__ sphere(vec3 cen, float r, material *m) : center(cen), radius(r), mat_ptr(m) {}
    __device__ bool hit(const ray& r, float tmin, float tmax, hit_record& rec) const override;
    __device__ ~sphere() override;
    vec3 center; float radius; material *mat_ptr;
};
__device__ bool sphere::hit(const ray& r, float t_min, float t_max, hit_record& rec) const {
    vec3 oc = r.origin() - center;
    float a = dot(r.direction(), r.direction());
    float b = dot(oc, r.direction());
    float c = dot(oc, oc) - radius*radius;
    float disc = b*b - a*c;
    if (disc > 0) {
        float temp = (-b - sqrtf(disc))/a;
        if (temp < t_max && temp > t_min) {
            rec.t = temp; rec.p = r.point_at_parameter(rec.t);
            rec.normal = (rec.p - center) / radius; rec.mat_ptr = mat_ptr; return true;
        }
        temp = (-b + sqrtf(disc)) / a;
        if (temp < t_max && temp > t_min) {
            rec.t = temp; rec.p = r.point_at_parameter(rec.t);
            rec.normal = (rec.p - center) / radius; rec.mat_ptr = mat_ptr; return true;
        }
    }
    return false;
}
class hitable_list : public hitable {
public:
    __device__ hitable_list(hitable **l, int n) { list = l; list_size = n; }
    __device__ virtual bool hit(const ray& r, float tmin, float tmax, hit_record& rec) const {
        hit_record temp_rec; bool hit_anything = false; float closest = tmax;
        for (int i = 0; i < list_size; i++)
            if (list[i]->hit(r, tmin, closest, temp_rec)) { hit_anything = true; closest = temp_rec.t; rec = temp_rec; }
        return hit_anything;
    }
    hitable **list; int list_size;
};
#endif
