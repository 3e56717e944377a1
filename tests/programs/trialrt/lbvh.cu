// Builds a BVH three ways (the device LBVH twice, and on the host), traces
// the same rays through each, and checks every closest hit against a
// brute-force host intersection. The trial's lbvh_trace.cu and
// host_bvh.cpp are in this file, and its lbvh_build.cu in a header, for the
// build's time (the trial compiles them apart, with -rdc=true).
#include <cstdio>
#include <cmath>
#include <vector>
#include <random>
#include <chrono>
#include "lbvh/lbvh.cuh"
#include "lbvh/lbvh_build.cuh"
#include <algorithm>
#include <cassert>
#include "rt/cuda_check.h"

// Traversal (lbvh_trace.cu in the trial).
#define STACK_SIZE 64

template <int StackSize>
__global__ void trace_kernel(const bvh_node *__restrict__ nodes, const triangle *__restrict__ tris,
                             const float3 *orig, const float3 *dir, hit *hits, int nrays) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= nrays) return;
    float3 o = orig[r], d = dir[r];
    float3 inv = make_float3(1.0f / d.x, 1.0f / d.y, 1.0f / d.z);
    int stack[StackSize];
    int sp = 0;
    stack[sp++] = 0;
    hit best;
    best.t = 1e30f;
    best.prim = -1;
    unsigned int visited = 0;
    while (sp > 0) {
        int node = stack[--sp];
        const bvh_node &nd = nodes[node];
        float tnear;
        visited++;
        if (!ray_box(o, inv, nd.box, best.t, tnear)) continue;
        if (nd.prim >= 0) {
            float t;
            if (intersect_triangle(o, d, tris[nd.prim], t) && (t < best.t || (t == best.t && nd.prim < best.prim))) {
                best.t = t;
                best.prim = nd.prim;
            }
        } else {
            // near child last, so it is popped first
            float tl = 0, tr = 0;
            bool hl = ray_box(o, inv, nodes[nd.left].box, best.t, tl);
            bool hr = ray_box(o, inv, nodes[nd.right].box, best.t, tr);
            if (hl && hr) {
                if (tl < tr) { stack[sp++] = nd.right; stack[sp++] = nd.left; }
                else { stack[sp++] = nd.left; stack[sp++] = nd.right; }
            } else if (hl) {
                stack[sp++] = nd.left;
            } else if (hr) {
                stack[sp++] = nd.right;
            }
            assert(sp <= StackSize);
        }
    }
    hits[r] = best;
    atomicAdd(&g_nodes_visited, visited);
}

__global__ void brute_kernel(const triangle *tris, int ntris, const float3 *orig, const float3 *dir, hit *hits,
                             int nrays) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= nrays) return;
    hit best;
    best.t = 1e30f;
    best.prim = -1;
    for (int k = 0; k < ntris; k++) {
        float t;
        if (intersect_triangle(orig[r], dir[r], tris[k], t) && t < best.t) {
            best.t = t;
            best.prim = k;
        }
    }
    hits[r] = best;
}

void trace_rays(const bvh_node *d_nodes, const triangle *d_tris, const float3 *d_orig, const float3 *d_dir,
                hit *d_hits, int nrays) {
    trace_kernel<STACK_SIZE><<<(nrays + 63) / 64, 64>>>(d_nodes, d_tris, d_orig, d_dir, d_hits, nrays);
    CUDA_KERNEL_CHECK();
}

void trace_rays_brute(const triangle *d_tris, int ntris, const float3 *d_orig, const float3 *d_dir, hit *d_hits,
                      int nrays) {
    brute_kernel<<<(nrays + 127) / 128, 128>>>(d_tris, ntris, d_orig, d_dir, d_hits, nrays);
    CUDA_KERNEL_CHECK();
}

// The host BVH (host_bvh.cpp in the trial).
namespace {

struct builder {
    const triangle *tris;
    bvh_node *nodes;
    std::vector<int> ids;
    int next;

    int build(int lo, int hi, int parent) {
        int me = next++;
        bvh_node &n = nodes[me];
        n.parent = parent;
        aabb b = aabb_empty();
        aabb cb = aabb_empty();
        for (int k = lo; k < hi; k++) {
            aabb tb = tri_bounds(tris[ids[k]]);
            b = merge(b, tb);
            float3 c = centroid(tb);
            aabb p{c, c};
            cb = merge(cb, p);
        }
        n.box = b;
        if (hi - lo == 1) {
            n.prim = ids[lo];
            n.left = n.right = -1;
            return me;
        }
        float ex = cb.hi.x - cb.lo.x, ey = cb.hi.y - cb.lo.y, ez = cb.hi.z - cb.lo.z;
        int axis = (ex >= ey && ex >= ez) ? 0 : (ey >= ez ? 1 : 2);
        int mid = (lo + hi) / 2;
        std::nth_element(ids.begin() + lo, ids.begin() + mid, ids.begin() + hi, [&](int a, int c) {
            float3 ca = centroid(tri_bounds(tris[a])), cc = centroid(tri_bounds(tris[c]));
            float va = axis == 0 ? ca.x : axis == 1 ? ca.y : ca.z;
            float vc = axis == 0 ? cc.x : axis == 1 ? cc.y : cc.z;
            return va < vc || (va == vc && a < c);
        });
        n.prim = -1;
        int l = build(lo, mid, me);
        int r = build(mid, hi, me);
        nodes[me].left = l;
        nodes[me].right = r;
        return me;
    }
};

} // namespace

void build_host_bvh(const triangle *tris, int n, bvh_node *nodes) {
    builder b;
    b.tris = tris;
    b.nodes = nodes;
    b.ids.resize(n);
    for (int k = 0; k < n; k++) b.ids[k] = k;
    b.next = 0;
    b.build(0, n, -1);
}

static void make_scene(std::vector<triangle> &tris, int grid, int extra, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    // a height field
    for (int j = 0; j < grid; j++) {
        for (int i = 0; i < grid; i++) {
            auto h = [&](int a, int b) { return 0.3f * sinf(a * 0.7f) * cosf(b * 0.5f); };
            float3 p00 = make_float3((float)i, h(i, j), (float)j);
            float3 p10 = make_float3((float)i + 1, h(i + 1, j), (float)j);
            float3 p01 = make_float3((float)i, h(i, j + 1), (float)j + 1);
            float3 p11 = make_float3((float)i + 1, h(i + 1, j + 1), (float)j + 1);
            tris.push_back({p00, p10, p11});
            tris.push_back({p00, p11, p01});
        }
    }
    // floating debris
    for (int k = 0; k < extra; k++) {
        float3 c = make_float3(u(rng) * grid, 0.5f + 2.0f * u(rng), u(rng) * grid);
        auto j = [&]() { return (u(rng) - 0.5f) * 0.8f; };
        tris.push_back({make_float3(c.x + j(), c.y + j(), c.z + j()), make_float3(c.x + j(), c.y + j(), c.z + j()),
                        make_float3(c.x + j(), c.y + j(), c.z + j())});
    }
}

static bool same_hit(const hit &a, const hit &b) {
    if (a.prim == b.prim) return true;
    // two triangles at the same distance (a shared edge)
    return a.prim >= 0 && b.prim >= 0 && fabsf(a.t - b.t) <= 1e-4f * fmaxf(1.0f, fabsf(a.t));
}

static bool check_tree(const std::vector<bvh_node> &nodes, int n) {
    // every triangle in exactly one leaf, every child inside its parent's box
    std::vector<int> seen(n, 0);
    for (size_t k = 0; k < nodes.size(); k++) {
        const bvh_node &nd = nodes[k];
        if (nd.prim >= 0) {
            seen[nd.prim]++;
            continue;
        }
        for (int c : {nd.left, nd.right}) {
            const aabb &b = nodes[c].box;
            if (nodes[c].parent != (int)k) return false;
            if (b.lo.x < nd.box.lo.x || b.lo.y < nd.box.lo.y || b.lo.z < nd.box.lo.z || b.hi.x > nd.box.hi.x ||
                b.hi.y > nd.box.hi.y || b.hi.z > nd.box.hi.z)
                return false;
        }
    }
    for (int k = 0; k < n; k++)
        if (seen[k] != 1) return false;
    return true;
}

int main() {
    std::vector<triangle> tris;
    make_scene(tris, 16, 300, 42);
    const int n = (int)tris.size();
    const int w = 48, h = 32, nrays = w * h;
    std::vector<float3> orig(nrays), dir(nrays);
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            orig[y * w + x] = make_float3(-3.0f, 6.0f, -3.0f);
            float3 target = make_float3(16.0f * x / (w - 1), 0.0f, 16.0f * y / (h - 1));
            dir[y * w + x] = make_float3(target.x + 3.0f, target.y - 6.0f, target.z + 3.0f);
        }
    }

    triangle *d_tris;
    float3 *d_orig, *d_dir;
    hit *d_hits;
    bvh_node *d_nodes;
    checkCudaErrors(cudaMalloc(&d_tris, n * sizeof(triangle)));
    checkCudaErrors(cudaMalloc(&d_orig, nrays * sizeof(float3)));
    checkCudaErrors(cudaMalloc(&d_dir, nrays * sizeof(float3)));
    checkCudaErrors(cudaMalloc(&d_hits, nrays * sizeof(hit)));
    checkCudaErrors(cudaMalloc(&d_nodes, (2 * n - 1) * sizeof(bvh_node)));
    checkCudaErrors(cudaMemcpy(d_tris, tris.data(), n * sizeof(triangle), cudaMemcpyHostToDevice));
    checkCudaErrors(cudaMemcpy(d_orig, orig.data(), nrays * sizeof(float3), cudaMemcpyHostToDevice));
    checkCudaErrors(cudaMemcpy(d_dir, dir.data(), nrays * sizeof(float3), cudaMemcpyHostToDevice));

    // host reference
    std::vector<hit> ref(nrays);
    int hits_found = 0;
    for (int r = 0; r < nrays; r++) {
        ref[r].t = 1e30f;
        ref[r].prim = -1;
        for (int k = 0; k < n; k++) {
            float t;
            if (intersect_triangle(orig[r], dir[r], tris[k], t) && t < ref[r].t) {
                ref[r].t = t;
                ref[r].prim = k;
            }
        }
        hits_found += ref[r].prim >= 0;
    }

    bool ok = hits_found > nrays / 2;
    std::vector<hit> got(nrays);
    std::vector<bvh_node> nodes(2 * n - 1);
    const char *names[] = {"lbvh", "lbvh again", "host bvh", "brute"};
    for (int way = 0; way < 4; way++) {
        unsigned int zero = 0;
        checkCudaErrors(cudaMemcpyToSymbol(g_nodes_visited, &zero, sizeof(zero)));
        checkCudaErrors(cudaMemcpyToSymbol(g_refit_steps, &zero, sizeof(zero)));
        auto t0 = std::chrono::steady_clock::now();
        if (way < 2) {
            build_lbvh(d_tris, n, d_nodes, way == 0);
        } else if (way == 2) {
            build_host_bvh(tris.data(), n, nodes.data());
            checkCudaErrors(cudaMemcpy(d_nodes, nodes.data(), nodes.size() * sizeof(bvh_node), cudaMemcpyHostToDevice));
        }
        if (way < 3) {
            checkCudaErrors(cudaMemcpy(nodes.data(), d_nodes, nodes.size() * sizeof(bvh_node), cudaMemcpyDeviceToHost));
            if (!check_tree(nodes, n)) {
                printf("%s: malformed tree\n", names[way]);
                ok = false;
                continue;
            }
            trace_rays(d_nodes, d_tris, d_orig, d_dir, d_hits, nrays);
        } else {
            trace_rays_brute(d_tris, n, d_orig, d_dir, d_hits, nrays);
        }
        checkCudaErrors(cudaDeviceSynchronize());
        double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        checkCudaErrors(cudaMemcpy(got.data(), d_hits, nrays * sizeof(hit), cudaMemcpyDeviceToHost));
        unsigned int visited = 0, refit = 0;
        checkCudaErrors(cudaMemcpyFromSymbol(&visited, g_nodes_visited, sizeof(visited)));
        checkCudaErrors(cudaMemcpyFromSymbol(&refit, g_refit_steps, sizeof(refit)));
        int bad = 0;
        for (int r = 0; r < nrays; r++)
            if (!same_hit(got[r], ref[r])) bad++;
        printf("%-12s %6.1f ms, %u nodes visited, %u refit steps, %d/%d rays wrong\n", names[way], ms, visited,
               refit, bad, nrays);
        if (bad) ok = false;
        if (way < 2 && refit != (unsigned)(n - 1)) ok = false;
        if (way < 3 && visited == 0) ok = false;
    }
    cudaFree(d_tris);
    cudaFree(d_orig);
    cudaFree(d_dir);
    cudaFree(d_hits);
    cudaFree(d_nodes);
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
