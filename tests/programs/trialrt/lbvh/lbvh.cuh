#pragma once
#include "geometry.cuh"
#include "morton.cuh"

// Builds a linear BVH on the device (Karras 2012): Morton codes, a radix
// sort, the hierarchy from the sorted codes, and a bottom-up refit.
// Node 0 is the root; internal nodes are 0..n-2, leaves n-1..2n-2.
// sort_with_cub: cub::DeviceRadixSort, else thrust::sort_by_key.
void build_lbvh(const triangle *d_tris, int n, bvh_node *d_nodes, bool sort_with_cub);

// Builds a BVH on the host by median splits, in the same layout.
void build_host_bvh(const triangle *tris, int n, bvh_node *nodes);

// Traces rays against the BVH: closest hits, with an explicit stack.
void trace_rays(const bvh_node *d_nodes, const triangle *d_tris, const float3 *d_orig,
                const float3 *d_dir, hit *d_hits, int nrays);

// The same, by testing every triangle.
void trace_rays_brute(const triangle *d_tris, int ntris, const float3 *d_orig, const float3 *d_dir,
                      hit *d_hits, int nrays);
