#!/usr/bin/env python3
"""nvcc_verified.py: the record of which test sources nvcc has compiled.

tests/nvcc_kernels.sh compiles every test kernel, program and example with
the real nvcc, so that cuemu's shims never accept what CUDA rejects. Most of
those files do not change from one run to the next, and compiling all of
them (over 500) costs more than the rest of the suite on a two-core machine
whose compiler cache is cold, as a CI runner's is. This script keeps, in
tests/nvcc_verified.txt, one key per file that nvcc compiled: a SHA-256 over
nvcc's version, the command's options, the file's bytes and the bytes of
every header of the source tree it includes (followed transitively, through
the file's own folder and its -I folders). A file whose key is in the record
was compiled by that nvcc, with those options, from exactly those bytes, so
it is not compiled again; any change to any of them compiles it again.

  nvcc_verified.py pending LIST    the files of LIST (one path per line)
                                   whose key is not recorded, one per line
  nvcc_verified.py record LIST OK  rewrites the record: the keys of the files
                                   of LIST that are recorded already or are
                                   listed in OK (compiled now); files no
                                   longer in LIST drop out

Options: --srcdir (the source tree), --nvcc (nvcc's path), --record (the
record's path, default SRCDIR/tests/nvcc_verified.txt), --base (the options
every compile gets). NVCC_OPTIONS lines are read as tests/nvcc_kernels.sh
reads them.

The test scripts' own nvcc builds (a program linked with NVIDIA's
libraries, a CMake project configured with nvcc, the sources of a Makefile
project) are recorded the same way, in tests/nvcc_builds.txt:

  nvcc_verified.py build LABEL -- COMMAND...
                                   runs COMMAND (an nvcc build) unless the
                                   record holds LABEL with the key of this
                                   command: nvcc's version, the command's
                                   words (the source tree's path and the
                                   test's work folder, --work, written as
                                   names), the bytes of every file of the
                                   source tree that a word names (and the
                                   headers it includes), every file of a
                                   folder of the source tree that a word
                                   names. A build that succeeds is recorded
                                   under its LABEL (one key per label),
                                   except where CI=true, whose clone is
                                   thrown away; its exit status is the
                                   command's. CUEMU_NVCC_ALL=1 runs every
                                   build, as it compiles every file.
"""
import argparse
import fcntl
import hashlib
import os
import re
import shlex
import subprocess
import sys

OPTIONS_RE = re.compile(r".*NVCC_OPTIONS:[ \t]*([^*]*)")
INCLUDE_RE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*([<"])([^">]+)[">]', re.M)


def file_options(text):
    """The NVCC_OPTIONS of a source file, as tests/nvcc_kernels.sh takes
    them (the first such line, up to a '*')."""
    for line in text.splitlines():
        m = OPTIONS_RE.match(line)
        if m:
            return m.group(1).strip()
    return ""


def include_dirs(folder, options, srcdir):
    """The folders an #include is looked up in: -I options (relative to
    the file's folder, where nvcc runs) and the test kernels' folder."""
    dirs = []
    words = shlex.split(options)
    for i, word in enumerate(words):
        path = None
        if word == "-I" and i + 1 < len(words):
            path = words[i + 1]
        elif word.startswith("-I") and len(word) > 2:
            path = word[2:]
        if path:
            dirs.append(os.path.normpath(os.path.join(folder, path)))
    dirs.append(os.path.join(srcdir, "tests", "kernels"))
    return dirs


def tree_headers(path, dirs, srcdir, seen):
    """Every file of the source tree that PATH includes, transitively, in a
    stable order. Headers outside the source tree (CUDA's, the system's)
    belong to nvcc's version, which the key holds."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return
    for kind, name in INCLUDE_RE.findall(text):
        candidates = [os.path.join(os.path.dirname(path), name)] if kind == '"' else []
        candidates += [os.path.join(d, name) for d in dirs]
        for candidate in candidates:
            candidate = os.path.normpath(candidate)
            if os.path.isfile(candidate):
                inside = candidate.startswith(os.path.join(srcdir, ""))
                if inside and candidate not in seen:
                    seen.append(candidate)
                    tree_headers(candidate, dirs, srcdir, seen)
                break


def key_of(path, srcdir, identity):
    """The key of one source file (see the module's comment)."""
    with open(path, "rb") as f:
        data = f.read()
    options = file_options(data.decode("utf-8", errors="replace"))
    digest = hashlib.sha256()
    digest.update(identity)
    digest.update(b"\0" + options.encode() + b"\0")
    digest.update(os.path.relpath(path, srcdir).encode() + b"\0" + data)
    headers = []
    tree_headers(path, include_dirs(os.path.dirname(path), options, srcdir),
                 srcdir, headers)
    for header in headers:
        with open(header, "rb") as f:
            digest.update(b"\0" + os.path.relpath(header, srcdir).encode() +
                          b"\0" + f.read())
    return digest.hexdigest()


def read_list(path):
    with open(path, encoding="utf-8") as f:
        return [line.rstrip("\n") for line in f if line.strip()]


def read_record(path):
    record = {}
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                parts = line.split()
                if len(parts) == 2:
                    record[parts[1]] = parts[0]
    except FileNotFoundError:
        pass
    return record


def word_paths(word):
    """The paths a command word may name: the word, and what follows an
    option's letter or its '=' (-I/x, -L/x, --foo=/x)."""
    paths = [word]
    if word.startswith("-") and len(word) > 2 and word[1] != "-":
        paths.append(word[2:])
    if "=" in word:
        paths.append(word.split("=", 1)[1])
    return paths


def file_name(path, srcdir, work):
    """A file's name in a build's key: its path in the source tree, or, in
    the test's work folder (whose name holds the test's process id, and
    which is inside the source tree in a build there), <work>/ and its path
    in that folder, so that a file that a test writes there (x_after.cpp of
    driver_makefile_options.sh) has one key from run to run."""
    if work and path.startswith(os.path.join(work, "")):
        return "<work>/" + os.path.relpath(path, work)
    return os.path.relpath(path, srcdir)


def build_key(words, label, srcdir, work, version):
    """The key of a test script's nvcc build (see the module's comment)."""
    digest = hashlib.sha256()
    digest.update(version + b"\0" + label.encode() + b"\0")
    # The work folder first: in a build in the source tree it is inside
    # srcdir, and its name (which holds the test's process id) would stay
    # in the key, so that no record would ever match.
    names = ([(work, "<work>")] if work else []) + [(srcdir, "<src>")]
    dirs = []
    for i, word in enumerate(words):
        if word == "-I" and i + 1 < len(words):
            dirs.append(words[i + 1])
        elif word.startswith("-I") and len(word) > 2:
            dirs.append(word[2:])
    dirs = [os.path.abspath(d) for d in dirs]
    dirs.append(os.path.join(srcdir, "tests", "kernels"))
    inside = os.path.join(srcdir, "")
    for i, word in enumerate(words):
        shown = word
        for path, name in names:
            shown = shown.replace(path, name)
        digest.update(b"\0w" + shown.encode())
        # An output (-o NAME) is no input: a file of that name that the test
        # made before (cuemu-nvcc's build of the same program, whose bytes
        # hold the clone's paths) must not change the key.
        if i > 0 and words[i - 1] in ("-o", "--output-file"):
            continue
        for path in word_paths(word):
            path = os.path.abspath(path)
            if not path.startswith(inside):
                continue
            files = []
            if os.path.isfile(path):
                files = [path]
                tree_headers(path, dirs + [os.path.dirname(path)], srcdir,
                             files)
            elif os.path.isdir(path):
                for top, subdirs, found in os.walk(path):
                    subdirs.sort()
                    files += [os.path.join(top, f) for f in sorted(found)]
            for name in files:
                with open(name, "rb") as f:
                    digest.update(b"\0f" + file_name(name, srcdir, work).encode() +
                                  b"\0" + f.read())
    return digest.hexdigest()


def build(args, words, version):
    """Runs a test script's nvcc build unless its key is recorded."""
    srcdir = os.path.abspath(args.srcdir)
    record_path = args.record or os.path.join(srcdir, "tests",
                                              "nvcc_builds.txt")
    work = os.path.abspath(args.work) if args.work else None
    key = build_key(words, args.list, srcdir, work, version)
    if (os.environ.get("CUEMU_NVCC_ALL") != "1" and
            read_record(record_path).get(args.list) == key):
        print("nvcc_verified.py: %s: built by this nvcc from these bytes "
              "before (tests/nvcc_builds.txt), not again" % args.list)
        return 0
    status = subprocess.call(words)
    if status != 0 or os.environ.get("CI") == "true":
        return status
    # Tests run two at a time: the record is rewritten under a lock.
    try:
        with open(record_path + ".lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            record = read_record(record_path)
            record[args.list] = key
            with open(record_path + ".tmp", "w", encoding="utf-8") as out:
                for label in sorted(record):
                    out.write("%s %s\n" % (record[label], label))
            os.replace(record_path + ".tmp", record_path)
    except OSError:
        pass
    return 0


def main():
    if "build" in sys.argv and "--" in sys.argv:
        cut = sys.argv.index("--")
        words = sys.argv[cut + 1:]
        sys.argv = sys.argv[:cut]
    else:
        words = None
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--srcdir", required=True)
    parser.add_argument("--nvcc", required=True)
    parser.add_argument("--base", default="")
    parser.add_argument("--record")
    parser.add_argument("--work")
    parser.add_argument("command", choices=["pending", "record", "build"])
    parser.add_argument("list")
    parser.add_argument("ok", nargs="?")
    args = parser.parse_args()
    srcdir = os.path.abspath(args.srcdir)
    record_path = args.record or os.path.join(srcdir, "tests",
                                              "nvcc_verified.txt")
    version = subprocess.run([args.nvcc, "--version"], capture_output=True,
                             check=True).stdout
    if args.command == "build":
        if not words:
            parser.error("build LABEL -- COMMAND...")
        return build(args, words, version)
    identity = version + b"\0" + args.base.encode()
    record = read_record(record_path)
    files = read_list(args.list)
    keys = {f: key_of(os.path.abspath(f), srcdir, identity) for f in files}

    def rel(path):
        return os.path.relpath(os.path.abspath(path), srcdir)

    if args.command == "pending":
        for f in files:
            if record.get(rel(f)) != keys[f]:
                print(f)
        return 0
    compiled = set(read_list(args.ok)) if args.ok else set()
    lines = []
    for f in files:
        if f in compiled or record.get(rel(f)) == keys[f]:
            lines.append("%s %s\n" % (keys[f], rel(f)))
    with open(record_path + ".tmp", "w", encoding="utf-8") as out:
        out.write("".join(sorted(lines, key=lambda l: l.split()[1])))
    os.replace(record_path + ".tmp", record_path)
    print("nvcc_verified.py: %d of %d files recorded in %s" %
          (len(lines), len(files), rel(record_path)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
