"""Finds a global variable of a loaded module through its ELF symbol table.

Modules are built with hidden visibility, so their __device__ and
__constant__ variables are not in the dynamic symbol table; the static one
(.symtab) still names them. The run-time address is the symbol's value plus
the module's load base, which dlinfo(RTLD_DI_LINKMAP) gives.
"""
import ctypes
import struct

_RTLD_DI_LINKMAP = 2
_SHT_SYMTAB = 2
_SHT_DYNSYM = 11


def _read_symbols(path):
    """Yields (name, value, size) for every defined object symbol."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF" or data[4] != 2:
        raise ValueError(f"{path} is not a 64-bit ELF file")
    endian = "<" if data[5] == 1 else ">"
    (shoff,) = struct.unpack_from(endian + "Q", data, 0x28)
    shentsize, shnum = struct.unpack_from(endian + "HH", data, 0x3A)
    sections = []
    for i in range(shnum):
        fields = struct.unpack_from(endian + "IIQQQQIIQQ", data,
                                    shoff + i * shentsize)
        sections.append(fields)
    for sh in sections:
        sh_type, sh_offset, sh_size, sh_link, sh_entsize = (
            sh[1], sh[4], sh[5], sh[6], sh[9])
        if sh_type not in (_SHT_SYMTAB, _SHT_DYNSYM) or not sh_entsize:
            continue
        strtab = sections[sh_link]
        str_off = strtab[4]
        for j in range(sh_size // sh_entsize):
            name_off, info, _other, shndx, value, size = struct.unpack_from(
                endian + "IBBHQQ", data, sh_offset + j * sh_entsize)
            if shndx == 0 or (info & 0xF) != 1:  # undefined or not STT_OBJECT
                continue
            end = data.index(b"\0", str_off + name_off)
            yield data[str_off + name_off:end].decode(errors="replace"), value, size


def _load_base(path):
    handle = ctypes.CDLL(path)._handle
    libc = ctypes.CDLL(None)
    link_map = ctypes.c_void_p()
    if libc.dlinfo(ctypes.c_void_p(handle), _RTLD_DI_LINKMAP,
                   ctypes.byref(link_map)) != 0:
        raise OSError(f"dlinfo failed for {path}")
    # l_addr is the first member of struct link_map.
    return ctypes.c_size_t.from_address(link_map.value).value


def symbol_address(path, name):
    """(address, size) of the global variable `name` in the loaded module
    at `path`; KeyError when the module defines no such variable."""
    for sym, value, size in _read_symbols(path):
        if sym == name:
            return _load_base(path) + value, size
    raise KeyError(name)
