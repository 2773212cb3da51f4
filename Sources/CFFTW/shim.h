#ifndef MOTIONBRIDGE_CFFTW_SHIM_H
#define MOTIONBRIDGE_CFFTW_SHIM_H
/* FFTW 3, single precision (libfftw3f): the real-to-complex transforms of the vibration service's Welch
   spectra. <complex.h> is not included first, so fftwf_complex is float[2] (a Swift tuple). */
#include <fftw3.h>
#endif
