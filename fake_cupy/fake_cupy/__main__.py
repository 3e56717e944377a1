"""python -m fake_cupy SCRIPT [ARGS...]: runs a CuPy program with the fake
installed as cupy, then synchronizes (so that a pending kernel error or
lifetime report is not lost)."""
import runpy
import sys


def main():
    if len(sys.argv) < 2:
        print("usage: python -m fake_cupy SCRIPT [ARGS...]", file=sys.stderr)
        return 2
    import fake_cupy
    fake_cupy.install()
    sys.argv = sys.argv[1:]
    # As `python SCRIPT` does, the script's folder comes first on sys.path
    # (in place of the current folder that -m put there).
    import os
    sys.path[0] = os.path.dirname(os.path.abspath(sys.argv[0]))
    try:
        runpy.run_path(sys.argv[0], run_name="__main__")
    finally:
        fake_cupy.cuda.check_pending()
    return 0


if __name__ == "__main__":
    sys.exit(main())
