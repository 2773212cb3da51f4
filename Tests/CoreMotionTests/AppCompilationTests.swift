import Foundation
import Testing

/// The apps of `Tests/AppCompilation`, compiled from outside the package against the built `CoreMotion`
/// module, as an app that depends on the library is: `swiftc -typecheck -swift-version 6`, every file
/// alone. Needs the toolchain and the build beside the tests, so it is skipped where the tests run
/// without them (the arm64 suites under qemu).
@Suite struct AppCompilationTests {
    /// The package's root.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// The build directory the tests run from (`.build/<triple>/debug`).
    static let buildDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()

    static var swiftc: String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"
        return path.split(separator: ":").map { "\($0)/swiftc" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static var canCompile: Bool {
        swiftc != nil && FileManager.default.fileExists(atPath: buildDirectory.appendingPathComponent("Modules/CoreMotion.swiftmodule").path)
    }

    /// swiftc's arguments that find CoreMotion and the C modules under it.
    static func arguments(for file: URL) throws -> [String] {
        var arguments = ["-typecheck", "-swift-version", "6", "-I", buildDirectory.appendingPathComponent("Modules").path]
        let built = try FileManager.default.contentsOfDirectory(atPath: buildDirectory.path).filter { $0.hasSuffix(".build") }
        for directory in built {
            let map = buildDirectory.appendingPathComponent(directory).appendingPathComponent("module.modulemap")
            if FileManager.default.fileExists(atPath: map.path) { arguments += ["-Xcc", "-fmodule-map-file=\(map.path)"] }
        }
        let sources = root.appendingPathComponent("Sources")
        for target in try FileManager.default.contentsOfDirectory(atPath: sources.path) where target.hasPrefix("C") {
            let directory = sources.appendingPathComponent(target)
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("module.modulemap").path) {
                arguments += ["-Xcc", "-fmodule-map-file=\(directory.appendingPathComponent("module.modulemap").path)"]
            }
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("include").path) {
                arguments += ["-Xcc", "-I", "-Xcc", directory.appendingPathComponent("include").path]
            }
        }
        return arguments + [file.path]
    }

    static var apps: [String] {
        let directory = root.appendingPathComponent("Tests/AppCompilation").path
        return ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".swift") }.sorted()
    }

    @Test(.enabled(if: canCompile, "needs swiftc and the build's modules"), arguments: apps)
    func anAppOutsideThePackageCompiles(_ app: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(Self.swiftc))
        process.arguments = try Self.arguments(for: Self.root.appendingPathComponent("Tests/AppCompilation").appendingPathComponent(app))
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0 && !text.contains("error:"), "\(app):\n\(text)")
        #expect(!text.contains("warning:"), "\(app) compiles with warnings:\n\(text)")
    }
}
