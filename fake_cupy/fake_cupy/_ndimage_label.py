"""cupyx.scipy.ndimage.label with CuPy's arguments
(cupyx/scipy/ndimage/_measurements.py): the input must be a cupy array, the
structure is read on the host (a NumPy array, a list or a cupy array, made a
NumPy bool array), and the output is a cupy array (filled, and the count
alone returned) or a dtype (int32 by default). The labels are SciPy's, which
CuPy's tests compare its own with."""
import numpy
import scipy.ndimage


def label(input, structure=None, output=None):
    """Labels the connected features of input; (labels, count), or the count
    alone when output is a cupy array."""
    import fake_cupy
    from fake_cupy._ndarray import ndarray
    if not isinstance(input, ndarray):
        raise TypeError("input must be cupy.ndarray")
    if input.dtype.char in "FD":
        raise TypeError("Complex type not supported")
    if structure is None:
        structure = scipy.ndimage.generate_binary_structure(input.ndim, 1)
    elif isinstance(structure, ndarray):
        structure = structure.get()
    structure = numpy.array(structure, dtype=bool)
    if structure.ndim != input.ndim:
        raise RuntimeError("structure and input must have equal rank")
    for extent in structure.shape:
        if extent != 3:
            raise ValueError("structure dimensions must be equal to 3")
    if isinstance(output, ndarray):
        if output.shape != input.shape:
            raise ValueError("output shape not correct")
        caller_provided_output = True
    else:
        caller_provided_output = False
        output = fake_cupy.empty(input.shape,
                                 numpy.int32 if output is None else output)
    labels, count = scipy.ndimage.label(input.get(), structure)
    output[...] = fake_cupy.asarray(labels)
    count = int(count)
    return count if caller_provided_output else (output, count)
