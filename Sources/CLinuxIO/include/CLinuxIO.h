// CLinuxIO: the few Linux I/O calls Swift cannot make directly (variadic ioctl with kernel structs, and
// GNU extensions that Swift's Glibc module does not import). Every function returns 0 on success or a
// negative errno value; nothing else is kept in C.
#ifndef CLINUXIO_H
#define CLINUXIO_H

#include <spawn.h>
#include <stdint.h>

/// Reads `length` bytes from consecutive registers of the chip at 7-bit `address`, starting at `first_register`,
/// in one I2C_RDWR transaction: a write of the register number, a repeated start, and the read.
int clinuxio_i2c_read_registers(int fd, uint16_t address, uint8_t first_register, uint8_t *buffer, uint16_t length);

/// Writes `length` bytes (the register number first, then its data) to the chip at 7-bit `address` in one
/// I2C_RDWR message.
int clinuxio_i2c_write(int fd, uint16_t address, const uint8_t *bytes, uint16_t length);

/// Whether `fd` is an I2C adapter (`I2C_FUNCS` answers) that can do plain I2C transfers (`I2C_FUNC_I2C`).
/// Returns 1, 0, or a negative errno value.
int clinuxio_i2c_supports_transfers(int fd);

/// Adds to `actions` the closing, in the child, of every descriptor from `lowest` up: glibc's
/// `posix_spawn_file_actions_addclosefrom_np` (2.34), a GNU extension. Runs after the actions added before it,
/// so descriptors dup2'ed below `lowest` stay open.
int clinuxio_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest);

/// Creates a pipe whose two descriptors are close-on-exec from the start (`pipe2(O_CLOEXEC)`, a GNU
/// extension), so no child started meanwhile by another thread inherits them.
int clinuxio_pipe_close_on_exec(int descriptors[2]);

/// The kernel's view of the wall clock's discipline (`adjtimex(2)` with no change requested).
struct clinuxio_clock_status {
    /// 1 when the clock is synchronized: the call did not return TIME_ERROR and STA_UNSYNC is clear.
    int synchronized;
    /// The estimated error, µs (`esterror`).
    long estimated_error_us;
    /// The maximum error, µs (`maxerror`): it grows by 500 ppm while nothing disciplines the clock.
    long maximum_error_us;
    /// The `status` bits (STA_*).
    int status;
};

/// Reads the clock's status into `out`. Returns 0 or a negative errno value.
int clinuxio_clock_status(struct clinuxio_clock_status *out);

/// Sets the calling thread's timer slack (`prctl(PR_SET_TIMERSLACK)`, variadic in C): how much later than
/// asked the kernel may end its timed sleeps, to group wake-ups. `nanoseconds` 0 restores the default
/// (50 µs for a normal thread). Threads created afterwards by this thread inherit it.
int clinuxio_set_timer_slack(unsigned long nanoseconds);

/// The calling thread's timer slack, ns, or a negative errno value.
long clinuxio_timer_slack(void);

#endif
