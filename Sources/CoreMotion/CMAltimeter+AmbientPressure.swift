extension CMAltimeter {
    /// Linux only: starts delivering each barometer reading as Apple's ``CMAmbientPressureData`` (the
    /// pressure in kPa, smoothed as the altitude is, and the sensor's temperature; NaN °C without a
    /// thermometer) to `queue`, at the barometer's rate. Without a barometer the handler receives nil and
    /// ``CMErrorNotAvailable``. Replaces updates already running.
    public func linuxStartAmbientPressureUpdates(
        to queue: OperationQueue, withHandler handler: @escaping (CMAmbientPressureData?, (any Error)?) -> Void
    ) {
        let box = UncheckedBox(handler)
        ambient.start(queue: queue) { reading, error in
            let data = UncheckedBox(reading.map {
                CMAmbientPressureData(linuxPressure: $0.pressure / 1000, temperature: $0.temperature ?? .nan, timestamp: $0.timestamp)
            })
            return QueuedCall { box.value(data.value, error) }
        }
    }

    /// Linux only: stops the ambient-pressure updates; no handler call starts after it returns.
    public func linuxStopAmbientPressureUpdates() { ambient.stop() }
}
