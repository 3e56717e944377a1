/* module.c: the _vecops extension module (CPython's C API, buffer protocol). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include "vecops.h"

static PyObject* VecopsError;

static int raise_cuda(int code) {
  if (code == 0) return 0;
  PyErr_Format(VecopsError, "CUDA error %d: %s", code, vecops_error_string(code));
  return -1;
}

static int get_buffer(PyObject* obj, Py_buffer* view, const char* fmt, int writable) {
  int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
  if (PyObject_GetBuffer(obj, view, flags) < 0) return -1;
  if (strcmp(view->format, fmt) != 0) {
    PyErr_Format(PyExc_TypeError, "expected format '%s', got '%s'", fmt, view->format);
    PyBuffer_Release(view);
    return -1;
  }
  return 0;
}

static PyObject* py_add(PyObject* self, PyObject* args) {
  PyObject *a, *b, *out;
  Py_buffer va, vb, vo;
  int code;
  if (!PyArg_ParseTuple(args, "OOO", &a, &b, &out)) return NULL;
  if (get_buffer(a, &va, "f", 0) < 0) return NULL;
  if (get_buffer(b, &vb, "f", 0) < 0) { PyBuffer_Release(&va); return NULL; }
  if (get_buffer(out, &vo, "f", 1) < 0) { PyBuffer_Release(&va); PyBuffer_Release(&vb); return NULL; }
  if (va.len != vb.len || va.len != vo.len) {
    PyErr_SetString(PyExc_ValueError, "length mismatch");
    code = -1;
  } else {
    Py_BEGIN_ALLOW_THREADS
    code = vecops_add(va.buf, vb.buf, vo.buf, (long)(va.len / sizeof(float)));
    Py_END_ALLOW_THREADS
    code = raise_cuda(code);
  }
  PyBuffer_Release(&va);
  PyBuffer_Release(&vb);
  PyBuffer_Release(&vo);
  if (code < 0) return NULL;
  Py_RETURN_NONE;
}

static PyObject* py_dot(PyObject* self, PyObject* args) {
  PyObject *a, *b;
  Py_buffer va, vb;
  double result = 0;
  int code;
  if (!PyArg_ParseTuple(args, "OO", &a, &b)) return NULL;
  if (get_buffer(a, &va, "d", 0) < 0) return NULL;
  if (get_buffer(b, &vb, "d", 0) < 0) { PyBuffer_Release(&va); return NULL; }
  Py_BEGIN_ALLOW_THREADS
  code = vecops_dot(va.buf, vb.buf, (long)(va.len / sizeof(double)), &result);
  Py_END_ALLOW_THREADS
  PyBuffer_Release(&va);
  PyBuffer_Release(&vb);
  if (raise_cuda(code) < 0) return NULL;
  return PyFloat_FromDouble(result);
}

static PyObject* py_scan(PyObject* self, PyObject* args) {
  PyObject *in, *out;
  Py_buffer vi, vo;
  int code;
  if (!PyArg_ParseTuple(args, "OO", &in, &out)) return NULL;
  if (get_buffer(in, &vi, "i", 0) < 0) return NULL;
  if (get_buffer(out, &vo, "i", 1) < 0) { PyBuffer_Release(&vi); return NULL; }
  code = vecops_scan_i32(vi.buf, vo.buf, (int)(vi.len / sizeof(int)));
  PyBuffer_Release(&vi);
  PyBuffer_Release(&vo);
  if (raise_cuda(code) < 0) return NULL;
  Py_RETURN_NONE;
}

static PyObject* py_device(PyObject* self, PyObject* noargs) {
  char name[256];
  int sms = 0;
  if (raise_cuda(vecops_device(name, sizeof name, &sms)) < 0) return NULL;
  return Py_BuildValue("(si)", name, sms);
}

static PyMethodDef methods[] = {
    {"add", py_add, METH_VARARGS, "out[:] = a + b (float32)"},
    {"dot", py_dot, METH_VARARGS, "dot product (float64)"},
    {"scan", py_scan, METH_VARARGS, "inclusive scan of up to 1024 int32"},
    {"device", py_device, METH_NOARGS, "(name, SM count) of device 0"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef moddef = {PyModuleDef_HEAD_INIT, "_vecops", NULL, -1, methods};

PyMODINIT_FUNC PyInit__vecops(void) {
  PyObject* m = PyModule_Create(&moddef);
  if (!m) return NULL;
  VecopsError = PyErr_NewException("_vecops.CudaError", PyExc_RuntimeError, NULL);
  Py_INCREF(VecopsError);
  PyModule_AddObject(m, "CudaError", VecopsError);
  return m;
}
