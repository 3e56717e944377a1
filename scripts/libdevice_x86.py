#!/usr/bin/env python3
"""libdevice_x86.py: turns the CUDA toolkit's libdevice (NVIDIA's device
math library, as LLVM IR text from llvm-dis) into IR that LLVM compiles
for the host, so that emulated kernels compute sin, exp, pow, erf... with
the GPU's own algorithms and get the GPU's bits, not glibc's.

    llvm-dis -o - libdevice.10.bc | libdevice_x86.py > out.ll

What changes:
- the target is the host's (x86-64 Linux); address spaces are dropped
  (libdevice's tables live in the global space);
- __nvvm_reflect queries are answered as nvcc answers them by default:
  no flush to zero, IEEE square root, compute capability 9.0;
- each NVVM intrinsic that the math functions use becomes a call of
  cuemu_ld_<name> (emulator/device/cuemu_libdevice_ops.c), which computes
  what PTX specifies (the .approx ones exactly rounded, within their bounds);
- each inline PTX statement becomes a call of a function defined below in
  IR (carry chains are wide integer arithmetic);
- the functions are renamed __nv_NAME -> cuemu_nv_NAME.

The output also names nothing of the input that is left unhandled: an
intrinsic or asm statement this script does not know stays as it is, and
the build's check (make) refuses the object if one is still reachable
after the unused functions are removed.
"""
import re
import sys

X86_LAYOUT = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
X86_TRIPLE = "x86_64-pc-linux-gnu"

# The answers of __nvvm_reflect, by the queried name.
REFLECT = {"__CUDA_FTZ": 0, "__CUDA_PREC_SQRT": 1, "__CUDA_ARCH": 900}

# NVVM intrinsics implemented by cuemu_libdevice_ops.c.
INTRINSICS = """
fma.rn.d fma.rn.f fma.rn.ftz.f fma.rm.f fma.rm.ftz.f fma.rz.f fma.rz.ftz.f
fma.rp.f fma.rp.ftz.f
add.rn.d add.rn.f add.rn.ftz.f add.rz.d add.rz.f add.rz.ftz.f
mul.rn.d mul.rn.f mul.rn.ftz.f mul.rz.f mul.rz.ftz.f
div.rn.f div.rn.ftz.f div.approx.f div.approx.ftz.f
sqrt.rn.d sqrt.rn.f sqrt.rn.ftz.f sqrt.approx.f sqrt.approx.ftz.f
rcp.approx.ftz.d rsqrt.approx.d rsqrt.approx.f rsqrt.approx.ftz.f
ex2.approx.f ex2.approx.ftz.f lg2.approx.f lg2.approx.ftz.f
sin.approx.f sin.approx.ftz.f cos.approx.f cos.approx.ftz.f tanh.approx.f32
fabs.d fabs.f fabs.ftz.f fmin.d fmin.f fmin.ftz.f fmax.d fmax.f fmax.ftz.f
floor.d floor.f floor.ftz.f ceil.d ceil.f ceil.ftz.f trunc.d trunc.f
trunc.ftz.f round.d round.f round.ftz.f saturate.f saturate.ftz.f
d2i.hi d2i.lo d2i.rn lohi.i2d f2i.rn f2i.rn.ftz f2i.rz f2i.rz.ftz
""".split()

# Inline PTX of libdevice and the function that replaces each statement.
ASM = {
    "rcp.approx.ftz.f32 $0,$1;": "cuemu_ld_rcp_approx_ftz_f",
    "rsqrt.approx.ftz.f64 $0, $1;": "cuemu_ld_rsqrt_approx_ftz_d",
    "sub.rn.f32 $0, $1, $2;": "cuemu_ld_sub_rn_f",
    "sub.rn.ftz.f32 $0, $1, $2;": "cuemu_ld_sub_rn_ftz_f",
    "sub.rn.f64 $0, $1, $2;": "cuemu_ld_sub_rn_d",
}
# Statements known by their instructions (their text is long): a fixed
# sequence of instruction names, and the function that replaces it.
ASM_SHAPES = [
    (["mad.lo.cc.u32", "madc.hi.u32"], "cuemu_ld_asm_mad_wide32"),
    (["mov.b64"] * 2 + ["mul.lo.u32", "mul.hi.u32", "mad.lo.cc.u32",
      "madc.hi.u32", "mad.lo.cc.u32", "madc.hi.cc.u32", "madc.hi.u32",
      "mad.lo.cc.u32", "addc.u32"] + ["mov.b64"] * 2,
     "cuemu_ld_asm_mul_wide64"),
    (["mov.b64"] * 3 + ["mad.lo.cc.u32", "madc.hi.cc.u32", "madc.hi.u32",
      "mad.lo.cc.u32", "madc.hi.cc.u32", "madc.hi.u32", "mad.lo.cc.u32",
      "madc.lo.cc.u32", "addc.u32"] + ["mov.b64"] * 2,
     "cuemu_ld_asm_mad_wide64"),
    (["mov.b64"] * 4 + ["add.cc.u32", "addc.cc.u32", "addc.cc.u32",
      "addc.u32"] + ["mov.b64"] * 2, "cuemu_ld_asm_add128"),
    (["mov.b64"] * 4 + ["sub.cc.u32", "subc.cc.u32", "subc.cc.u32",
      "subc.u32"] + ["mov.b64"] * 2, "cuemu_ld_asm_sub128"),
    (["setp.equ.f64", "selp.f64"], "cuemu_ld_asm_select_equ"),
]

# The replacements of the multi-instruction statements, in IR: carry
# chains are exact wide integer arithmetic.
ASM_IR = r"""
define internal { i32, i32 } @cuemu_ld_asm_mad_wide32(i32 %a, i32 %b, i32 %c) alwaysinline {
  %a64 = zext i32 %a to i64
  %b64 = zext i32 %b to i64
  %c64 = zext i32 %c to i64
  %p = mul i64 %a64, %b64
  %s = add i64 %p, %c64
  %lo = trunc i64 %s to i32
  %sh = lshr i64 %s, 32
  %hi = trunc i64 %sh to i32
  %r0 = insertvalue { i32, i32 } undef, i32 %lo, 0
  %r1 = insertvalue { i32, i32 } %r0, i32 %hi, 1
  ret { i32, i32 } %r1
}

define internal { i64, i64 } @cuemu_ld_split128(i128 %v) alwaysinline {
  %lo = trunc i128 %v to i64
  %sh = lshr i128 %v, 64
  %hi = trunc i128 %sh to i64
  %r0 = insertvalue { i64, i64 } undef, i64 %lo, 0
  %r1 = insertvalue { i64, i64 } %r0, i64 %hi, 1
  ret { i64, i64 } %r1
}

define internal i128 @cuemu_ld_join128(i64 %lo, i64 %hi) alwaysinline {
  %l = zext i64 %lo to i128
  %h = zext i64 %hi to i128
  %hs = shl i128 %h, 64
  %v = or i128 %hs, %l
  ret i128 %v
}

define internal { i64, i64 } @cuemu_ld_asm_mul_wide64(i64 %a, i64 %b) alwaysinline {
  %a128 = zext i64 %a to i128
  %b128 = zext i64 %b to i128
  %p = mul i128 %a128, %b128
  %r = call { i64, i64 } @cuemu_ld_split128(i128 %p)
  ret { i64, i64 } %r
}

define internal { i64, i64 } @cuemu_ld_asm_mad_wide64(i64 %a, i64 %b, i64 %c) alwaysinline {
  %a128 = zext i64 %a to i128
  %b128 = zext i64 %b to i128
  %c128 = zext i64 %c to i128
  %p = mul i128 %a128, %b128
  %s = add i128 %p, %c128
  %r = call { i64, i64 } @cuemu_ld_split128(i128 %s)
  ret { i64, i64 } %r
}

define internal double @cuemu_ld_asm_select_equ(double %a, double %b, double %t, double %f) alwaysinline {
  %p = fcmp ueq double %a, %b
  %r = select i1 %p, double %t, double %f
  ret double %r
}
"""

# 128-bit sums and differences of (low, high) pairs of 64-bit words.
for _op in ("add", "sub"):
    ASM_IR += r"""
define internal { i64, i64 } @cuemu_ld_asm_%s128(i64 %%alo, i64 %%ahi, i64 %%blo, i64 %%bhi) alwaysinline {
  %%a = call i128 @cuemu_ld_join128(i64 %%alo, i64 %%ahi)
  %%b = call i128 @cuemu_ld_join128(i64 %%blo, i64 %%bhi)
  %%s = %s i128 %%a, %%b
  %%r = call { i64, i64 } @cuemu_ld_split128(i128 %%s)
  ret { i64, i64 } %%r
}
""" % (_op, _op)

ASM_CALL = re.compile(
    r'call (?P<type>\{[^}]*\}|\S+) asm (?:sideeffect )?(?:convergent )?'
    r'"(?P<text>(?:[^"\\]|\\.)*)", "(?P<cons>[^"]*)"\(')
REFLECT_CALL = re.compile(
    r'call i32 @__nvvm_reflect\(i8\* getelementptr inbounds \(\[\d+ x i8\], '
    r'\[\d+ x i8\]\* (?P<name>@\.str[.\d]*), i32 0, i32 0\)\)(?: #\d+)?')
STRING = re.compile(r'^(?P<name>@\.str[.\d]*) = .*c"(?P<text>[^"\\]*)\\00"')
INTRINSIC = re.compile(r'@llvm\.nvvm\.(?P<name>[a-z0-9_.]+)')


def asm_replacement(text):
    """The function that replaces an inline PTX statement, or None."""
    if text in ASM:
        return ASM[text]
    body = text.replace("\\0A", "\n").replace("\\09", "\t")
    ops = [line.split()[0] for line in body.splitlines()
           if line.split() and line.split()[0][0] not in "{}." ]
    for shape, name in ASM_SHAPES:
        if ops == shape:
            return name
    return None


def transform(lines):
    strings = {}
    for line in lines:
        m = STRING.match(line)
        if m:
            strings[m.group("name")] = m.group("text")
    handled = set(INTRINSICS)
    out = []
    for line in lines:
        if line.startswith("target datalayout"):
            out.append('target datalayout = "%s"\n' % X86_LAYOUT)
            continue
        if line.startswith("target triple"):
            out.append('target triple = "%s"\n' % X86_TRIPLE)
            continue
        if line.startswith("!nvvmir.version") or line.startswith("!nvvm.annotations"):
            continue
        line = re.sub(r" addrspace\(\d+\)", "", line)
        m = REFLECT_CALL.search(line)
        if m:
            value = REFLECT[strings[m.group("name")]]
            line = line[:m.start()] + "add i32 0, %d" % value + line[m.end():]
        m = ASM_CALL.search(line)
        if m:
            name = asm_replacement(m.group("text"))
            if name:
                line = (line[:m.start()] + "call %s @%s(" % (m.group("type"), name)
                        + line[m.end():])
        line = INTRINSIC.sub(
            lambda i: ("@cuemu_ld_" + i.group("name").replace(".", "_"))
            if i.group("name") in handled else i.group(0), line)
        line = line.replace("@__nv_", "@cuemu_nv_")
        out.append(line)
    out.append(ASM_IR)
    # The scalar replacements of inline PTX are cuemu_libdevice_ops.c's:
    # declared here unless an intrinsic of the same name already is.
    text = "".join(out)
    for name in sorted(set(ASM.values())):
        if ("@%s(" % name) in text and not re.search(r"declare [^@]*@%s\(" % name, text):
            kind = name.rsplit("_", 1)[1]
            ty = {"f": "float", "d": "double"}[kind]
            arity = 1 if "rcp" in name or "rsqrt" in name else 2
            out.append("declare %s @%s(%s)\n" % (ty, name, ", ".join([ty] * arity)))
    return out


def main():
    sys.stdout.writelines(transform(sys.stdin.readlines()))


if __name__ == "__main__":
    main()
