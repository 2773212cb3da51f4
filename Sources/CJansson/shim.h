#ifndef MOTIONBRIDGE_CJANSSON_SHIM_H
#define MOTIONBRIDGE_CJANSSON_SHIM_H
/* Jansson, the strict JSON parser behind the agent's configuration and command readers. */
#include <jansson.h>

/* The value's type (json_typeof is a macro, which Swift cannot call). */
static inline json_type motion_json_type(const json_t *json) { return json_typeof(json); }
/* The error's code (the inline json_error_code, under a name that is not also the enum's). */
static inline enum json_error_code motion_json_error_code(const json_error_t *error) { return json_error_code(error); }
#endif
