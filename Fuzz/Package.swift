// swift-tools-version: 6.0
// libFuzzer targets for every parser of outside input (see README.md here). Built only by run.sh, with
// -sanitize=fuzzer,address: libFuzzer provides main, so these cannot be part of the main package's build.
import PackageDescription

let package = Package(
    name: "MotionBridgeFuzz",
    dependencies: [.package(name: "MotionBridge", path: "..")],
    targets: [
        // libFuzzer's driver as each target's entry point (see the header).
        .target(name: "FuzzerEntry", path: "Targets/Entry"),
        .executableTarget(
            name: "fuzz-control-command",
            dependencies: [
                "FuzzerEntry", .product(name: "MotionAgent", package: "MotionBridge"),
                .product(name: "MotionContract", package: "MotionBridge"),
            ],
            path: "Targets/ControlCommand"),
        .executableTarget(
            name: "fuzz-configuration", dependencies: ["FuzzerEntry", .product(name: "MotionAgent", package: "MotionBridge")],
            path: "Targets/Configuration"),
        .executableTarget(
            name: "fuzz-payloads",
            dependencies: [
                "FuzzerEntry", .product(name: "MotionContract", package: "MotionBridge"),
                .product(name: "MotionFleet", package: "MotionBridge"),
            ],
            path: "Targets/Payloads"),
        .executableTarget(
            name: "fuzz-cbor", dependencies: ["FuzzerEntry", .product(name: "MotionContract", package: "MotionBridge")],
            path: "Targets/CBOR"),
        .executableTarget(
            name: "fuzz-sparkplug", dependencies: ["FuzzerEntry", .product(name: "MotionContract", package: "MotionBridge")],
            path: "Targets/Sparkplug"),
        .executableTarget(
            name: "fuzz-recording", dependencies: ["FuzzerEntry", .product(name: "MotionHAL", package: "MotionBridge")],
            path: "Targets/Recording"),
    ],
    swiftLanguageModes: [.v6]
)
