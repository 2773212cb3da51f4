// swift-tools-version: 6.0
// MotionBridge: IMU → sensor fusion → Apple's CoreMotion API on Linux → MQTT.
// Module layout and dependency rules: see README.md ("Architecture").
import PackageDescription

let package = Package(
    name: "MotionBridge",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "CoreMotion", targets: ["CoreMotion"]),
        .library(name: "RemoteMotion", targets: ["RemoteMotion"]),
        .library(name: "MotionMath", targets: ["MotionMath"]),
        .library(name: "MotionModel", targets: ["MotionModel"]),
        .library(name: "MotionContract", targets: ["MotionContract"]),
        .library(name: "MotionFleet", targets: ["MotionFleet"]),
        .library(name: "MotionEngine", targets: ["MotionEngine"]),
        .library(name: "MotionHAL", targets: ["MotionHAL"]),
        .library(name: "MotionFusion", targets: ["MotionFusion"]),
        .library(name: "MotionVibration", targets: ["MotionVibration"]),
        .library(name: "MQTT", targets: ["MQTT"]),
        .library(name: "MotionLog", targets: ["MotionLog"]),
        .library(name: "MotionSupervision", targets: ["MotionSupervision"]),
        .library(name: "MotionAgent", targets: ["MotionAgent"]),
        .executable(name: "motion-agent", targets: ["motion-agent"]),
        .executable(name: "motionctl", targets: ["motionctl"]),
        .executable(name: "motion-bench", targets: ["motion-bench"]),
        .executable(name: "tilt-monitor", targets: ["tilt-monitor"]),
    ],
    targets: [
        .systemLibrary(
            name: "CMosquitto",
            pkgConfig: "libmosquitto",
            providers: [.apt(["libmosquitto-dev"])]
        ),
        // SQLite: the MQTT client's durable offline buffer.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // OpenSSL's libcrypto (libmosquitto loads it anyway): random bytes and PBKDF2 for motionctl provision,
        // SHA-256 of the agent's configuration report.
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // libcbor: the CBOR (RFC 8949) form of the data topics.
        .systemLibrary(name: "CCBOR", pkgConfig: "libcbor", providers: [.apt(["libcbor-dev"])]),
        // libsystemd's sd-daemon: readiness, status, stopping and the watchdog for a Type=notify unit.
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        // Jansson: the strict JSON parser for the configuration and control commands.
        .systemLibrary(name: "CJansson", pkgConfig: "jansson", providers: [.apt(["libjansson-dev"])]),
        // FFTW 3 in single precision: the vibration service's spectra.
        .systemLibrary(name: "CFFTW", pkgConfig: "fftw3f", providers: [.apt(["libfftw3-dev"])]),
        // The few Linux I/O calls Swift cannot make (I2C_RDWR and I2C_FUNCS ioctls; closefrom in posix_spawn and
        // pipe2, GNU extensions that the Glibc module leaves out).
        .target(name: "CLinuxIO"),
        // The programs' one command-line scanner.
        .target(name: "MotionCommandLine"),
        // Vectors, quaternions, 3×3 matrices, eigen decomposition, Euler angles, locations: no Foundation.
        .target(name: "MotionMath"),
        // The one logger of every module: a front type over a handler (standard error in the journal's or a
        // terminal's form; a capture in the tests). No Foundation.
        .target(name: "MotionLog", dependencies: ["MotionMath"]),
        // Getting devices back and doing things on time: the clock every retry and periodic report runs on
        // (Dispatch's, or a test's manual one), the back-off value and the device supervisor. No Foundation.
        .target(name: "MotionSupervision"),
        // What motion is made of, for every layer: the sample values, services, reference frames and
        // magnetic-field accuracies. No Foundation, no C, no wire format.
        .target(name: "MotionModel", dependencies: ["MotionMath"]),
        .target(name: "MotionHAL", dependencies: ["CLinuxIO", "MotionMath", "MotionSupervision"]),
        .target(name: "MotionFusion", dependencies: ["MotionMath", "MotionModel"]),
        // Condition monitoring of machines: Welch spectra through FFTW, peaks and running speed, velocity RMS
        // in both domains, the time-domain statistics and ISO 20816's severity zones.
        .target(name: "MotionVibration", dependencies: ["CFFTW", "MotionFusion"]),
        // The contract's wire format over the model: topics, payload encoders and decoders (JSON and CBOR).
        // For publishers and subscribers alike: no HAL, no fusion, no Foundation.
        .target(name: "MotionContract", dependencies: ["MotionMath", "MotionModel", "CJansson", "CCBOR"]),
        // The fleet's side of the contract: device patterns and the ledger of what a broker says about each device.
        .target(name: "MotionFleet", dependencies: ["MotionContract", "MotionMath"]),
        // The guided calibration (gyroscope still, six faces, turning for the magnetometer) as a state machine.
        .target(name: "MotionCalibration", dependencies: ["MotionFusion", "MotionHAL", "MotionMath"]),
        // The device, fusion at the full rate and routing to subscriptions, under Apple's API and the agent.
        .target(name: "MotionEngine", dependencies: ["MotionHAL", "MotionFusion", "MotionLog", "MotionMath", "MotionModel", "MotionSupervision"]),
        // One SQLite connection with typed results, for the MQTT client's offline journal and CoreMotion's sensor recorder.
        .target(name: "MotionStorage", dependencies: ["CSQLite"]),
        .target(name: "CoreMotion", dependencies: ["MotionEngine", "MotionHAL", "MotionFusion", "MotionMath", "MotionModel", "MotionStorage"]),
        .target(name: "MQTT", dependencies: ["CMosquitto", "CSQLite", "MotionLog", "MotionStorage", "MotionSupervision"]),
        // Apple's CMMotionManager for a board across the network: its topics on a broker as a motion source.
        .target(name: "RemoteMotion", dependencies: ["CoreMotion", "MotionContract", "MotionEngine", "MotionFusion", "MQTT"]),
        .target(
            name: "MotionAgent",
            dependencies: [
                "MotionEngine", "MotionContract", "MotionCommandLine", "MotionFusion", "MotionHAL", "MotionLog", "MotionMath", "MotionSupervision",
                "MotionVibration", "MQTT", "CJansson", "CCrypto", "CSystemd",
            ]),
        .executableTarget(name: "motion-agent", dependencies: ["MotionAgent", "MotionCommandLine", "MotionLog"]),
        .executableTarget(name: "motionctl", dependencies: ["MotionAgent", "MotionCalibration", "MotionFleet", "MotionCommandLine", "MotionContract", "MotionEngine", "MQTT", "MotionFusion", "MotionHAL", "MotionLog", "MotionMath", "CCrypto"]),
        // A real mosquitto on a free loopback port, for the tests and the benchmarks, and the child-process
        // helper it starts it with.
        .target(name: "PrivateBroker", dependencies: ["CLinuxIO", "MQTT"]),
        // Performance benchmarks of the agent and the MQTT client (see docs/BENCHMARKS.md).
        // The benchmarks start their broker with the same PrivateBroker as the tests.
        .executableTarget(
            name: "motion-bench",
            dependencies: [
                "FusionReference", "MQTT", "MotionAgent", "MotionCommandLine", "MotionContract", "MotionEngine", "MotionFusion",
                "MotionHAL", "MotionMath", "PrivateBroker",
            ]),

        // iPhone-style motion code, unchanged, on Linux (the README's guide).
        .executableTarget(name: "tilt-monitor", dependencies: ["CoreMotion", "RemoteMotion"], path: "Examples/tilt-monitor"),

        // Shared by the test targets: a real mosquitto on a free loopback port, a recording subscriber,
        // and register-level emulations of I²C IMU chips on an emulated bus.
        .target(name: "MotionTestSupport", dependencies: ["MQTT", "MotionHAL", "MotionLog", "MotionSupervision", "PrivateBroker"], path: "Tests/MotionTestSupport"),
        // VQF as published, the reference the attitude filter is measured against (not shipped).
        .target(name: "FusionReference", dependencies: ["MotionMath"], path: "Tests/FusionReference"),

        .testTarget(name: "MotionMathTests", dependencies: ["MotionMath", "MotionTestSupport"]),
        .testTarget(name: "MotionModelTests", dependencies: ["MotionMath", "MotionModel"]),
        .testTarget(name: "MotionCommandLineTests", dependencies: ["MotionCommandLine"]),
        .testTarget(name: "MotionLogTests", dependencies: ["MotionLog", "MotionTestSupport"]),
        .testTarget(name: "MotionSupervisionTests", dependencies: ["MotionSupervision", "MotionTestSupport"]),
        .testTarget(name: "MotionContractTests", dependencies: ["MotionContract", "MotionMath"]),
        .testTarget(name: "MotionFleetTests", dependencies: ["MotionFleet", "MotionContract", "MotionMath"]),

        .testTarget(name: "MotionHALTests", dependencies: ["MotionHAL", "MotionMath", "MotionTestSupport"]),
        .testTarget(name: "MotionCalibrationTests", dependencies: ["MotionCalibration", "MotionFusion", "MotionHAL", "MotionMath"]),
        .testTarget(name: "MotionFusionTests", dependencies: ["FusionReference", "MotionFusion", "MotionHAL", "MotionMath", "MotionTestSupport"]),
        .testTarget(name: "MotionVibrationTests", dependencies: ["MotionHAL", "MotionTestSupport", "MotionVibration"]),
        .testTarget(
            name: "CoreMotionTests",
            dependencies: ["CoreMotion", "MotionEngine", "MotionHAL", "MotionLog", "MotionMath", "MotionModel", "MotionStorage", "MotionSupervision", "MotionTestSupport"],
            // The list of Apple's surface the AppleSurface files name.
            exclude: ["AppleSurface/APPLE-COREMOTION-SURFACE.md"]),
        .testTarget(
            name: "MotionEngineTests", dependencies: ["MotionEngine", "MotionHAL", "MotionLog", "MotionSupervision", "MotionTestSupport"]),
        .testTarget(name: "MQTTTests", dependencies: ["MQTT", "MotionStorage", "MotionTestSupport"]),
        .testTarget(
            name: "MotionAgentTests",
            dependencies: [
                "CoreMotion", "MotionAgent", "MotionCommandLine", "MotionContract", "MotionEngine", "MotionFusion", "MotionHAL", "MotionMath",
                "MotionSupervision", "MQTT", "MotionTestSupport",
            ]),
        .testTarget(name: "RemoteMotionTests", dependencies: ["AgentTestSupport", "MotionContract", "MotionTestSupport", "RemoteMotion", "motion-agent"]),

        // The programs as a user runs them, against real brokers: the agent (MotionAgentIntegrationTests) and
        // motionctl (MotionctlTests), spawned from the build's products with AgentTestSupport's helpers.
        .target(
            name: "AgentTestSupport", dependencies: ["MotionAgent", "MotionContract", "MQTT", "MotionTestSupport"], path: "Tests/AgentTestSupport"),
        .testTarget(
            name: "MotionAgentIntegrationTests",
            dependencies: [
                "AgentTestSupport", "MotionAgent", "MotionContract", "MotionHAL", "MQTT", "MotionTestSupport", "motion-agent", "motionctl",
                "tilt-monitor",
            ]),
        .testTarget(
            name: "MotionctlTests",
            dependencies: [
                "AgentTestSupport", "MotionAgent", "MotionContract", "MotionEngine", "MotionFusion", "MotionHAL", "MotionMath", "MQTT",
                "MotionTestSupport", "motion-agent", "motionctl", "motion-bench",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
