// posix_spawn_file_actions_addclosefrom_np and pipe2 are GNU extensions.
#define _GNU_SOURCE
#include "CLinuxIO.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <linux/i2c-dev.h>
#include <linux/i2c.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/timex.h>

static int transfer(int fd, struct i2c_msg *messages, unsigned count) {
    struct i2c_rdwr_ioctl_data data = { .msgs = messages, .nmsgs = count };
    int result;
    do {
        result = ioctl(fd, I2C_RDWR, &data);
    } while (result < 0 && errno == EINTR);
    return result < 0 ? -errno : 0;
}

int clinuxio_i2c_read_registers(int fd, uint16_t address, uint8_t first_register, uint8_t *buffer, uint16_t length) {
    struct i2c_msg messages[2] = {
        { .addr = address, .flags = 0, .len = 1, .buf = &first_register },
        { .addr = address, .flags = I2C_M_RD, .len = length, .buf = buffer },
    };
    return transfer(fd, messages, 2);
}

int clinuxio_i2c_write(int fd, uint16_t address, const uint8_t *bytes, uint16_t length) {
    struct i2c_msg message = { .addr = address, .flags = 0, .len = length, .buf = (uint8_t *)bytes };
    return transfer(fd, &message, 1);
}

int clinuxio_i2c_supports_transfers(int fd) {
    unsigned long functions = 0;
    if (ioctl(fd, I2C_FUNCS, &functions) < 0) return -errno;
    return (functions & I2C_FUNC_I2C) ? 1 : 0;
}

int clinuxio_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest) {
    return -posix_spawn_file_actions_addclosefrom_np(actions, lowest);
}

int clinuxio_pipe_close_on_exec(int descriptors[2]) {
    return pipe2(descriptors, O_CLOEXEC) < 0 ? -errno : 0;
}

int clinuxio_clock_status(struct clinuxio_clock_status *out) {
    struct timex request = { .modes = 0 };
    int state = adjtimex(&request);
    if (state < 0) return -errno;
    out->synchronized = state != TIME_ERROR && (request.status & STA_UNSYNC) == 0;
    out->estimated_error_us = request.esterror;
    out->maximum_error_us = request.maxerror;
    out->status = request.status;
    return 0;
}

int clinuxio_set_timer_slack(unsigned long nanoseconds) {
    return prctl(PR_SET_TIMERSLACK, nanoseconds, 0, 0, 0) < 0 ? -errno : 0;
}

long clinuxio_timer_slack(void) {
    int result = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
    return result < 0 ? -errno : result;
}
