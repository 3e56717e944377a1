#!/usr/bin/env python3
"""headers_verified.py: the record of which headers compiled alone.

tests/headers_alone.sh compiles every shim and public header on its own
with g++, clang++, gcc and clang (over 300 compiles), and most headers do
not change from one run to the next. This script keeps, in
tests/headers_alone.txt, one key per compiler and header that compiled: a
SHA-256 over the compiler's --version, the options, the name the header is
included by, and the bytes of the header and of every header of the source
tree it includes (followed transitively through the include folders, as
scripts/nvcc_verified.py follows them). A compile whose key is recorded is
not run again; any change to any of them runs it.

  headers_verified.py pending CC OPTIONS LIST
                         the lines of LIST ("NAME PATH": the name a
                         one-line unit includes, the header's path) whose
                         key is not recorded
  headers_verified.py record CC OPTIONS LIST
                         records the keys of the lines of LIST (compiled
                         now), keeping the other compilers' and headers'
                         keys

Options: --srcdir (the source tree), --dir (an include folder, repeated),
--record (default SRCDIR/tests/headers_alone.txt).
"""
import argparse
import fcntl
import hashlib
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nvcc_verified import INCLUDE_RE, read_record  # noqa: E402


class Tree:
    """The source tree's headers, each read and parsed once: a header's
    includes resolved as nvcc_verified.tree_headers() resolves them."""

    def __init__(self, dirs, srcdir):
        self.dirs = dirs
        self.inside = os.path.join(srcdir, "")
        self.data = {}
        self.includes = {}

    def read(self, path):
        if path not in self.data:
            with open(path, "rb") as f:
                self.data[path] = f.read()
            found = []
            text = self.data[path].decode("utf-8", errors="replace")
            for kind, name in INCLUDE_RE.findall(text):
                candidates = ([os.path.join(os.path.dirname(path), name)]
                              if kind == '"' else [])
                candidates += [os.path.join(d, name) for d in self.dirs]
                for candidate in candidates:
                    candidate = os.path.normpath(candidate)
                    if os.path.isfile(candidate):
                        if candidate.startswith(self.inside):
                            found.append(candidate)
                        break
            self.includes[path] = found
        return self.data[path]

    def closure(self, path):
        """PATH and every header of the tree it includes, transitively, in
        a stable order."""
        seen = [path]
        for f in seen:
            self.read(f)
            seen += [i for i in self.includes[f] if i not in seen]
        return seen


def key_of(name, path, tree, srcdir, identity):
    digest = hashlib.sha256()
    digest.update(identity + b"\0" + name.encode())
    for f in tree.closure(os.path.abspath(path)):
        digest.update(b"\0" + os.path.relpath(f, srcdir).encode() + b"\0" +
                      tree.read(f))
    return digest.hexdigest()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--srcdir", required=True)
    parser.add_argument("--dir", action="append", default=[])
    parser.add_argument("--record")
    parser.add_argument("command", choices=["pending", "record"])
    parser.add_argument("cc")
    parser.add_argument("options")
    parser.add_argument("list")
    args = parser.parse_args()
    srcdir = os.path.abspath(args.srcdir)
    record_path = args.record or os.path.join(srcdir, "tests",
                                              "headers_alone.txt")
    version = subprocess.run([args.cc, "--version"], capture_output=True,
                             check=True).stdout
    identity = version + b"\0" + args.options.encode()
    dirs = [os.path.abspath(d) for d in args.dir]
    with open(args.list, encoding="utf-8") as f:
        lines = [line.split() for line in f if line.strip()]
    # The record's labels: the compiler's name and the included name.
    tool = os.path.basename(args.cc)
    tree = Tree(dirs, srcdir)
    keys = {(name, path): key_of(name, path, tree, srcdir, identity)
            for name, path in lines}
    if args.command == "pending":
        record = read_record(record_path)
        for (name, path), key in keys.items():
            if record.get("%s:%s" % (tool, name)) != key:
                print(name, path)
        return 0
    # Tests run two at a time: the record is rewritten under a lock.
    with open(record_path + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        record = read_record(record_path)
        for (name, path), key in keys.items():
            record["%s:%s" % (tool, name)] = key
        with open(record_path + ".tmp", "w", encoding="utf-8") as out:
            for label in sorted(record):
                out.write("%s %s\n" % (record[label], label))
        os.replace(record_path + ".tmp", record_path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
