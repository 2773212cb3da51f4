#ifndef MOTIONBRIDGE_CMOSQUITTO_SHIM_H
#define MOTIONBRIDGE_CMOSQUITTO_SHIM_H
#include <mosquitto.h>
#include <mqtt_protocol.h>
/* The MQTT client's network thread polls an eventfd beside the socket (Glibc's module lacks it). */
#include <sys/eventfd.h>
#endif
