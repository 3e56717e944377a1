"""cupy.ndarray.flags of the fake CuPy: CuPy's Flags class.

CuPy's flags (cupy/_core/flags.pyx) hold three read-only values,
``c_contiguous``, ``f_contiguous`` and ``owndata`` (the array is not a
view: its ``base`` is None), with the properties ``fnc`` and ``forc`` and
indexing by 'C_CONTIGUOUS', 'F_CONTIGUOUS' and 'OWNDATA'. NumPy's other
flags (``writeable``, ``aligned``, the one-letter keys) are not there: code
that reads them fails on a GPU, so it fails here too.
"""


class Flags:
    """The memory layout of a cupy.ndarray."""

    __slots__ = ("_c_contiguous", "_f_contiguous", "_owndata")

    def __init__(self, c_contiguous, f_contiguous, owndata):
        self._c_contiguous = bool(c_contiguous)
        self._f_contiguous = bool(f_contiguous)
        self._owndata = bool(owndata)

    c_contiguous = property(lambda self: self._c_contiguous)
    f_contiguous = property(lambda self: self._f_contiguous)
    owndata = property(lambda self: self._owndata)

    @property
    def fnc(self):
        return self.f_contiguous and not self.c_contiguous

    @property
    def forc(self):
        return self.f_contiguous or self.c_contiguous

    def __getitem__(self, name):
        if name == "C_CONTIGUOUS":
            return self.c_contiguous
        if name == "F_CONTIGUOUS":
            return self.f_contiguous
        if name == "OWNDATA":
            return self.owndata
        raise KeyError("%s is not defined for cupy.ndarray.flags" % name)

    def __repr__(self):
        return "\n".join("  %s : %s" % (name, self[name]) for name in
                         ("C_CONTIGUOUS", "F_CONTIGUOUS", "OWNDATA"))
