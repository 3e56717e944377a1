// bindings.cpp: the pyops module; dtype dispatch happens here, at run time.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "ops.h"

namespace py = pybind11;

namespace {

template <typename T>
py::array_t<T> binary_typed(py::array a, py::array b, pyops::BinaryOp op) {
  auto ca = py::array_t<T, py::array::c_style | py::array::forcecast>::ensure(a);
  auto cb = py::array_t<T, py::array::c_style | py::array::forcecast>::ensure(b);
  if (!ca || !cb) throw py::type_error("cannot convert inputs");
  if (ca.size() != cb.size()) throw py::value_error("size mismatch");
  py::array_t<T> out(ca.request().shape);
  pyops::binary<T>(ca.data(), cb.data(), out.mutable_data(), ca.size(), op);
  return out;
}

py::array binary(py::array a, py::array b, pyops::BinaryOp op) {
  auto dt = a.dtype();
  if (!dt.is(b.dtype())) throw py::type_error("dtypes differ");
  if (dt.is(py::dtype::of<float>())) return binary_typed<float>(a, b, op);
  if (dt.is(py::dtype::of<double>())) return binary_typed<double>(a, b, op);
  if (dt.is(py::dtype::of<int32_t>())) return binary_typed<int32_t>(a, b, op);
  if (dt.is(py::dtype::of<int64_t>())) return binary_typed<int64_t>(a, b, op);
  throw py::type_error("unsupported dtype " + std::string(py::str(dt)));
}

template <typename T>
py::array softmax_typed(py::array_t<T, py::array::c_style> x) {
  if (x.ndim() != 2) throw py::value_error("softmax wants a 2-d array");
  py::array_t<T> y({x.shape(0), x.shape(1)});
  pyops::softmax<T>(x.data(), y.mutable_data(), (int)x.shape(0), (int)x.shape(1));
  return y;
}

}  // namespace

PYBIND11_MODULE(pyops, m) {
  m.doc() = "CUDA kernels behind NumPy arrays";
  py::register_exception<pyops::CudaError>(m, "CudaError", PyExc_RuntimeError);
  py::enum_<pyops::BinaryOp>(m, "BinaryOp")
      .value("add", pyops::BinaryOp::add)
      .value("maximum", pyops::BinaryOp::maximum);
  m.def("binary", &binary, py::arg("a"), py::arg("b"), py::arg("op") = pyops::BinaryOp::add);
  m.def("softmax", &softmax_typed<float>);
  m.def("softmax", &softmax_typed<double>);
  m.def("device_count", &pyops::device_count);
  m.def("spin_async", &pyops::spin_async, py::arg("milliseconds"));
  m.def("synchronize", &pyops::synchronize, py::call_guard<py::gil_scoped_release>());
  m.def("fault", &pyops::fault, py::arg("kind"));
}
