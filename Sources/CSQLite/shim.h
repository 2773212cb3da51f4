#ifndef MOTIONBRIDGE_CSQLITE_SHIM_H
#define MOTIONBRIDGE_CSQLITE_SHIM_H
/* SQLite, the store behind the MQTT client's durable offline buffer. */
#include <sqlite3.h>

/* SQLITE_TRANSIENT is a cast macro Swift cannot import: "copy the bound value now". */
static inline sqlite3_destructor_type motion_sqlite_transient(void) { return SQLITE_TRANSIENT; }
#endif
