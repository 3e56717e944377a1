"""cupy.cuda.cufft of the fake CuPy: the plan classes and cufftType values
(see _fft_plan.py); the transforms themselves are cupy.fft's."""
from fake_cupy._fft_plan import (CUFFT_C2C, CUFFT_C2R, CUFFT_D2Z,
                                 CUFFT_FORWARD, CUFFT_INVERSE, CUFFT_R2C,
                                 CUFFT_Z2D, CUFFT_Z2Z, Plan1d, PlanNd,
                                 get_current_plan)

__all__ = ["CUFFT_C2C", "CUFFT_C2R", "CUFFT_D2Z", "CUFFT_FORWARD",
           "CUFFT_INVERSE", "CUFFT_R2C", "CUFFT_Z2D", "CUFFT_Z2Z", "Plan1d",
           "PlanNd", "get_current_plan"]
