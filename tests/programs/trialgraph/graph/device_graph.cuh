// device_graph.cuh: the device-side CSR view and its upload.
#ifndef TRIALGRAPH_DEVICE_GRAPH_CUH
#define TRIALGRAPH_DEVICE_GRAPH_CUH
#include "csr_graph.h"
#include "cuda_util.h"

struct DeviceCsr {
  index_t nnodes;
  index_t nedges;
  const index_t *__restrict__ row_start;
  const index_t *__restrict__ edge_dst;
  const weight_t *__restrict__ edge_wt;

  __device__ __forceinline__ index_t begin(index_t v) const { return __ldg(row_start + v); }
  __device__ __forceinline__ index_t end(index_t v) const { return __ldg(row_start + v + 1); }
  __device__ __forceinline__ index_t degree(index_t v) const { return end(v) - begin(v); }
  __host__ __device__ index_t num_nodes() const { return nnodes; }
};

class GraphOnDevice {
 public:
  explicit GraphOnDevice(const CsrGraph &g)
      : rows_(g.nnodes + 1), dst_(g.nedges), wt_(g.nedges) {
    rows_.upload(g.row_start.data());
    dst_.upload(g.edge_dst.data());
    wt_.upload(g.edge_wt.data());
    view_ = DeviceCsr{g.nnodes, g.nedges, rows_.ptr, dst_.ptr, wt_.ptr};
  }
  const DeviceCsr &view() const { return view_; }

 private:
  DeviceArray<index_t> rows_;
  DeviceArray<index_t> dst_;
  DeviceArray<weight_t> wt_;
  DeviceCsr view_;
};

#endif  // TRIALGRAPH_DEVICE_GRAPH_CUH
