#ifndef MOTIONBRIDGE_CMOSQUITTO_SHIM_H
#define MOTIONBRIDGE_CMOSQUITTO_SHIM_H
#include <mosquitto.h>
#include <mqtt_protocol.h>
#endif
