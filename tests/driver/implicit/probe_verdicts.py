#!/usr/bin/env python3
"""probe_verdicts.py: which names a .cu file sees without an #include.

names.txt (beside this script) lists probes: a name used as CUDA code uses
it, in a host function, a __global__ function and a __host__ __device__
function, and the verdict of nvcc 13 (with g++ 12, its default C++17) and of
cuemu-nvcc (with g++, and with -ccbin clang++) for each. This script writes
every probe of the table into one .cu file, a function per line, compiles
it with a command, and reads the verdict of each line from the messages:

  A  accepted: the unit builds with the line;
  W  accepted, and the build warns that nvcc refuses the row's name
     (`"NAME" is used without <H>, which nvcc refuses`,
     emulator/compile/cuemu_nvcc_undeclared.c: given once per name, at
     its first use, so W is given to each probe whose statement names a
     name warned about, in every context);
  R  refused: an error at the line.

A unit with an error is compiled again without the refused lines until it
builds, so that an error that stops a compiler early (cuemu-nvcc's fatal
refusal of a host function called from a kernel, nvcc's device stage after
its host stage) hides no line, and so that every accepted line is known to
build: a verdict is never guessed.

  probe_verdicts.py check TOOL TABLE WORK -- COMMAND...
      compiles the probes of TABLE (names.txt) with COMMAND, to which it
      appends the .cu file's name, in folder WORK, and compares each
      verdict with the table's for TOOL (nvcc, g++ or clang++); prints
      each difference as FAIL and exits 1 if there is one.
  probe_verdicts.py show TOOL TABLE WORK -- COMMAND...
      prints the verdicts, a row per name (to write the table again).

names.txt's rows: the name's id, a cell for each of host, device and
host-device code, then the statement that uses the name. Another table
may name its contexts in a line `#contexts NAME...` (host: no qualifier;
global: __global__; device: __device__; hd: __host__ __device__), a cell
for each, and give its unit's first lines as `#include <H>` lines
(tests/driver/devlibc/calls.txt: C library calls with their headers). A cell is nvcc's
verdict, then cuemu-nvcc's with g++ where it differs, then cuemu-nvcc's
with clang++ where that differs from g++'s, separated by colons: `R:W` is
refused by nvcc, accepted with the warning by cuemu-nvcc.
"""
import os
import re
import subprocess
import sys

CONTEXTS = [("host", ""), ("device", "__global__ "),
            ("hd", "__host__ __device__ ")]
# The contexts that a `#contexts` line may name, with their qualifiers.
NAMED_CONTEXTS = {"host": "", "global": "__global__ ",
                  "device": "__device__ ", "hd": "__host__ __device__ "}
TOOLS = ["nvcc", "g++", "clang++"]
# The unit's first lines (a table's `#include` lines).
PRELUDE = []


def read_table(path):
    """Rows (id, {context: {tool: verdict}}, snippet), in the file's order;
    sets CONTEXTS and PRELUDE from the table's lines that name them."""
    global CONTEXTS
    rows = []
    for line in open(path, encoding="utf-8"):
        if line.startswith("#contexts"):
            CONTEXTS = [(c, NAMED_CONTEXTS[c]) for c in line.split()[1:]]
            continue
        if line.startswith("#include"):
            PRELUDE.append(line.rstrip("\n"))
            continue
        if not line.strip() or line.startswith("#"):
            continue
        words = line.split(None, len(CONTEXTS) + 1)
        ident, cells = words[0], words[1:len(CONTEXTS) + 1]
        snippet = words[len(CONTEXTS) + 1].rstrip("\n")
        verdicts = {}
        for (ctx, _), cell in zip(CONTEXTS, cells):
            parts = cell.split(":")
            nvcc = parts[0]
            gxx = parts[1] if len(parts) > 1 else nvcc
            clang = parts[2] if len(parts) > 2 else gxx
            verdicts[ctx] = {"nvcc": nvcc, "g++": gxx, "clang++": clang}
        rows.append((ident, verdicts, snippet))
    return rows


def write_unit(path, probes):
    """One probe per line, after the prelude; returns {line: (id,
    context)}."""
    lines = {}
    with open(path, "w", encoding="utf-8") as out:
        for line in PRELUDE:
            out.write(line + "\n")
        out.write("// Each line uses one name as the table's rows say.\n")
        for n, (ident, ctx, qual, snippet) in enumerate(probes,
                                                        len(PRELUDE) + 2):
            out.write("%svoid probe_%s_%s() { %s }\n" %
                      (qual, ctx, re.sub(r"\W", "_", ident), snippet))
            lines[n] = (ident, ctx)
    return lines


def verdicts(rows, work, command):
    """{(id, context): A, W or R} for the unit that COMMAND compiles."""
    quals = dict(CONTEXTS)
    probes = [(ident, ctx, quals[ctx], snippet) for ident, _, snippet in rows
              for ctx, _ in CONTEXTS]
    result = {}
    warned = set()
    name = "implicit_names.cu"
    for _ in range(len(probes) + 1):
        lines = write_unit(os.path.join(work, name), probes)
        run = subprocess.run(command + [name], cwd=work, text=True,
                             errors="replace", stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT)
        refused = set()
        # nvcc: "name.cu(12): error"; g++ and clang++: "name.cu:12:5: error";
        # cuemu-nvcc's own: "name.cu:12: calling ...".
        at = re.compile(re.escape(name) +
                        r"(?:\((\d+)\):|:(\d+):(?:\d+:)?) (\S+)")
        for text in run.stdout.splitlines():
            m = at.search(text)
            if m and (m.group(3) in ("error:", "calling") or
                      "fatal" in text.split(name)[0]):
                n = int(m.group(1) or m.group(2))
                if n in lines:
                    refused.add(lines[n])
            m = re.search(r'warning : .*"(\w+)" is used without <\w+>, '
                          r"which nvcc refuses", text)
            if m:
                warned.add(m.group(1))
        if run.returncode == 0:
            for ident, ctx, _, snippet in probes:
                names = set(re.findall(r"\w+", snippet))
                result[(ident, ctx)] = "W" if names & warned else "A"
            return result
        if not refused:
            sys.exit("probe_verdicts.py: %s fails at no probe's line:\n%s" %
                     (" ".join(command + [name]), run.stdout[-3000:]))
        for key in refused:
            result[key] = "R"
        probes = [p for p in probes if (p[0], p[1]) not in refused]
    return result


def main():
    args = sys.argv[1:]
    if len(args) < 6 or args[0] not in ("check", "show") or \
            args[1] not in TOOLS or args[4] != "--":
        sys.exit(__doc__)
    mode, tool, table, work, command = args[0], args[1], args[2], args[3], \
        args[5:]
    rows = read_table(table)
    got = verdicts(rows, work, command)
    if mode == "show":
        for ident, _, _ in rows:
            print(ident, " ".join(got[(ident, ctx)] for ctx, _ in CONTEXTS))
        return 0
    failed = 0
    for ident, cells, _ in rows:
        for ctx, _ in CONTEXTS:
            want, have = cells[ctx][tool], got[(ident, ctx)]
            if want != have:
                print("FAIL: %s in %s code: %s gives %s, the table says %s" %
                      (ident, ctx, tool, have, want))
                failed = 1
    if not failed:
        print("PASS: %s: the %d probes' verdicts are the table's" %
              (tool, len(rows) * len(CONTEXTS)))
    return failed


if __name__ == "__main__":
    sys.exit(main())
