#ifndef MOTIONBRIDGE_CSYSTEMD_SHIM_H
#define MOTIONBRIDGE_CSYSTEMD_SHIM_H
/* libsystemd's sd-daemon: the agent tells the service manager that it is ready, what it is doing, that it
   is stopping, and feeds the watchdog (sd_notify, sd_watchdog_enabled). Without NOTIFY_SOCKET these calls
   do nothing. */
#include <systemd/sd-daemon.h>
#endif
