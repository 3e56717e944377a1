"""cupy.who: prints the device arrays of a dictionary (the caller's
globals by default) in CuPy's table, as cupy/_misc/who.py lays it out."""
import sys


def who(vardict=None):
    """Prints the name, shape, bytes and dtype of each cupy.ndarray in
    `vardict`; an array seen under an earlier name counts once."""
    import fake_cupy
    if vardict is None:
        vardict = sys._getframe(1).f_globals
    rows = []
    first_name = {}
    for name in sorted(vardict):
        var = vardict[name]
        if not isinstance(var, fake_cupy.ndarray):
            continue
        original = id(var) not in first_name
        label = name if original else f"{name} ({first_name[id(var)]})"
        first_name.setdefault(id(var), name)
        rows.append((label, " x ".join(map(str, var.shape)), str(var.nbytes),
                     var.dtype.name, original))
    total = sum(int(row[2]) for row in rows if row[4])
    if rows:
        widths = [max(10, max(len(row[i]) for row in rows)) for i in range(3)]
        header = "Name {} Shape {} Bytes {} Type".format(
            *(" " * width for width in widths))
        print("{}\n{}\n".format(header, "=" * (len(header) + 5)))
        for label, shape, nbytes, dtype, _ in rows:
            print(f"{label} {' ' * (widths[0] - len(label) + 4)} {shape} "
                  f"{' ' * (widths[1] - len(shape) + 5)} {nbytes} "
                  f"{' ' * (widths[2] - len(nbytes) + 5)} {dtype}")
    print(f"\nUpper bound on total bytes  =       {total}")
