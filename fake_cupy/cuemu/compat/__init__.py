"""Calling conventions of other kernel-testing libraries over cuemu's
helpers (cuemu.compat.cunumpy)."""
