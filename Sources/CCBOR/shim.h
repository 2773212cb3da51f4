#ifndef MOTIONBRIDGE_CCBOR_SHIM_H
#define MOTIONBRIDGE_CCBOR_SHIM_H
/* libcbor (RFC 8949): the compact binary form of the data topics. MotionContract writes with its
   encoding functions straight into one buffer and reads with its streaming decoder, item by item, so
   that no declared length is trusted before the bytes are there. */
#include <cbor.h>
#endif
