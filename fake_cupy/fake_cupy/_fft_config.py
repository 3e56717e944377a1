"""cupy.fft.config of the fake CuPy: the switches (enable_nd_planning,
use_multi_gpus) and cuFFT's plan cache, per thread and device, with CuPy's
methods (cupy/fft/_cache.pyx). The fake's transforms are NumPy's and keep no
plans, so a cache stays empty; its size and memory limits are kept and
checked as CuPy's are, so code that clears or limits it runs unchanged."""
import threading

enable_nd_planning = True
use_multi_gpus = False
_devices = None

_local = threading.local()


class PlanCache:
    """cupy.fft._cache.PlanCache: at most `size` plans and `memsize` bytes
    (-1: no limit, 0: the cache is off)."""

    def __init__(self, size=16, memsize=-1, dev=-1):
        _validate(size, memsize)
        self.size = size
        self.memsize = memsize
        self.dev = dev
        self._plans = {}

    @property
    def is_enabled(self):
        return self.size != 0 and self.memsize != 0

    def get_curr_size(self):
        return len(self._plans)

    def get_size(self):
        return self.size

    def set_size(self, size):
        _validate(size, self.memsize)
        self.size = size

    def get_curr_memsize(self):
        return 0

    def get_memsize(self):
        return self.memsize

    def set_memsize(self, size):
        _validate(self.size, size)
        self.memsize = size

    def get(self, key, default=None):
        return self._plans.get(key, default)

    def __getitem__(self, key):
        return self._plans[key]

    def __setitem__(self, key, plan):
        if self.is_enabled:
            self._plans[key] = plan

    def __delitem__(self, key):
        del self._plans[key]

    def clear(self):
        self._plans.clear()

    def show_info(self):
        print(self)

    def __repr__(self):
        def limit(value):
            return "(unlimited)" if value == -1 else value
        return (f"------------------- cuFFT plan cache (device {self.dev}) "
                "-------------------\n"
                f"cache enabled? {self.is_enabled}\n"
                f"current / max size   : {self.get_curr_size()} / "
                f"{limit(self.size)} (counts)\n"
                f"current / max memsize: {self.get_curr_memsize()} / "
                f"{limit(self.memsize)} (bytes)\n\n"
                "cached plans (most recently used first):\n")


def _validate(size, memsize):
    if size < -1 or memsize < -1:
        raise ValueError("invalid input")


def get_plan_cache():
    """The plan cache of this thread and the current device."""
    from fake_cupy import _runtime
    dev = _runtime.Device().id
    caches = getattr(_local, "caches", None)
    if caches is None:
        caches = _local.caches = {}
    if dev not in caches:
        caches[dev] = PlanCache(dev=dev)
    return caches[dev]


def clear_plan_cache():
    get_plan_cache().clear()


def get_plan_cache_size():
    return get_plan_cache().get_size()


def set_plan_cache_size(size):
    get_plan_cache().set_size(size)


def get_plan_cache_max_memsize():
    return get_plan_cache().get_memsize()


def set_plan_cache_max_memsize(size):
    get_plan_cache().set_memsize(size)


def show_plan_cache_info():
    """Prints the plan caches of this thread, as CuPy does."""
    print("=============== cuFFT plan cache info (all devices) ===============")
    for cache in getattr(_local, "caches", {}).values():
        cache.show_info()


def set_cufft_gpus(gpus):
    """The devices of multi-GPU transforms (used with use_multi_gpus): a
    count or a list of at least two device ids."""
    global _devices
    if isinstance(gpus, int):
        devs = list(range(gpus))
    elif isinstance(gpus, list):
        devs = gpus
    else:
        raise ValueError("gpus must be an int or a list of int.")
    if len(devs) <= 1:
        raise ValueError("Must use at least 2 GPUs.")
    _devices = tuple(devs)
