#!/bin/sh
# cuemu_filter_stubs.sh LIBRARY...: prints the assembly of a filter
# library's stubs (emulator/export/toolkit.am): one definition of each
# dynamic symbol that the LIBRARY files define, of the same kind (a
# function, an object or a thread-local object) and size, under its name
# without its version. The first library that defines a name gives it.
#
# A filter library is an ELF shared object whose symbols the dynamic linker
# looks up in its filtees (DT_FILTER, DT_AUXILIARY) first: linked with
# these stubs and the LIBRARY files as its filtees, it links as a library
# that defines each of their symbols (for the link editor, which records it
# alone in the program) and loads as them (a program or ctypes.CDLL that
# loads it runs their code). Functions stop with an invalid instruction,
# which nothing runs while the filtees load; an object keeps its size, which
# a copy relocation of a program uses.
set -eu

for lib in "$@"; do
  readelf --dyn-syms -W "$lib" || exit 1
done | awk '
  # readelf writes a size past 99999 in hexadecimal; mawk has no strtonum.
  function hex(s,   i, n) {
    n = 0
    for (i = 3; i <= length(s); i++)
      n = n * 16 + index("0123456789abcdef", tolower(substr(s, i, 1))) - 1
    return n
  }
  # readelf: Num: Value Size Type Bind Vis Ndx Name
  $1 ~ /^[0-9]+:$/ && NF >= 8 && $7 != "UND" && $7 != "ABS" &&
  ($5 == "GLOBAL" || $5 == "WEAK") && ($6 == "DEFAULT" || $6 == "PROTECTED") {
    name = $8
    sub(/@.*/, "", name)
    if (name == "" || (name in seen)) next
    seen[name] = 1
    size = $3 + 0
    if ($3 ~ /^0x/) size = hex($3)
    bind = ($5 == "WEAK") ? ".weak" : ".globl"
    if ($4 == "FUNC" || $4 == "IFUNC" || $4 == "NOTYPE") {
      printf "\t.text\n\t%s \"%s\"\n\t.type \"%s\", @function\n\"%s\":\n\tud2\n", bind, name, name, name
    } else if ($4 == "OBJECT" || $4 == "TLS") {
      if ($4 == "TLS") printf "\t.section .tbss,\"awT\",@nobits\n"
      else printf "\t.bss\n"
      printf "\t.balign 16\n\t%s \"%s\"\n\t.type \"%s\", @object\n\t.size \"%s\", %d\n\"%s\":\n\t.zero %d\n", bind, name, name, name, size, name, (size > 0 ? size : 1)
    }
  }
  END { printf "\t.section .note.GNU-stack,\"\",@progbits\n" }'
