import Foundation
import Testing

/// The layering the README promises, checked on the sources and on Package.swift: the model and
/// everything under Apple's API (fusion, the HAL, the engine, CoreMotion) know nothing of the wire format
/// (MotionContract and its C parsers, Jansson and libcbor) or of MQTT, and the model needs no Foundation
/// and no C at all.
@Suite struct ModuleBoundaryTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The modules each target depends on, as Package.swift declares them.
    static func declaredDependencies() throws -> [String: Set<String>] {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let pattern = try NSRegularExpression(
            pattern: #"\.(?:target|executableTarget|testTarget|systemLibrary)\(\s*name:\s*"([^"]+)"\s*(?:,\s*dependencies:\s*\[([^\]]*)\])?"#)
        var dependencies: [String: Set<String>] = [:]
        let text = manifest as NSString
        for match in pattern.matches(in: manifest, range: NSRange(location: 0, length: text.length)) {
            let name = text.substring(with: match.range(at: 1))
            let list = match.range(at: 2).location == NSNotFound ? "" : text.substring(with: match.range(at: 2))
            dependencies[name] = Set(list.split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespacesAndNewlines).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }.filter { !$0.isEmpty })
        }
        return dependencies
    }

    /// `target` and everything it depends on, directly or not.
    static func closure(of target: String, in dependencies: [String: Set<String>]) -> Set<String> {
        var seen: Set<String> = []
        var pending = [target]
        while let next = pending.popLast() {
            for dependency in dependencies[next, default: []] where seen.insert(dependency).inserted {
                pending.append(dependency)
            }
        }
        return seen
    }

    /// The modules the Swift files under `Sources/module` import.
    static func imports(of module: String) throws -> Set<String> {
        let directory = root.appendingPathComponent("Sources").appendingPathComponent(module)
        let files = try #require(FileManager.default.enumerator(atPath: directory.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        #expect(!files.isEmpty, "no sources in \(directory.path)")
        var modules: Set<String> = []
        for file in files {
            let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ")
                if let index = words.firstIndex(of: "import"), index + 1 < words.count,
                    words[..<index].allSatisfy({ $0.hasPrefix("@") })
                {
                    modules.insert(String(words[index + 1]))
                }
            }
        }
        return modules
    }

    static let wireFormat: Set<String> = ["MotionContract", "CJansson", "CCBOR", "MQTT", "CMosquitto"]

    @Test("the engine and CoreMotion do not depend on the contract, Jansson, libcbor or MQTT, even indirectly")
    func engineAndAPIKnowNoWireFormat() throws {
        let dependencies = try Self.declaredDependencies()
        #expect(dependencies["MotionContract"]?.contains("CJansson") == true, "the manifest was not read")
        for target in ["MotionModel", "MotionMath", "MotionFusion", "MotionHAL", "MotionEngine", "CoreMotion"] {
            #expect(dependencies[target] != nil, "\(target) is not in Package.swift")
            let reached = Self.closure(of: target, in: dependencies)
            #expect(reached.isDisjoint(with: Self.wireFormat), "\(target) reaches \(reached.intersection(Self.wireFormat).sorted())")
            let imported = try Self.imports(of: target)
            #expect(imported.isDisjoint(with: Self.wireFormat), "\(target) imports \(imported.intersection(Self.wireFormat).sorted())")
        }
    }

    @Test("the model imports nothing but MotionMath: no Foundation, no C")
    func modelIsPure() throws {
        #expect(try Self.declaredDependencies()["MotionModel"] == ["MotionMath"])
        #expect(try Self.imports(of: "MotionModel") == ["MotionMath"])
    }
}

/// The README's module table says what each module depends on and which Foundation it imports: checked
/// against Package.swift and the sources, so that it stays true.
@Suite struct ModuleTableTests {
    /// The table's rows: module → (Foundation column, dependencies column).
    static func readmeTable() throws -> [String: (foundation: String, dependencies: Set<String>)] {
        let readme = try String(contentsOf: ModuleBoundaryTests.root.appendingPathComponent("README.md"), encoding: .utf8)
        var rows: [String: (String, Set<String>)] = [:]
        var inTable = false
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("| module | role | Foundation | depends on") {
                inTable = true
                continue
            }
            guard inTable else { continue }
            if line.hasPrefix("|---") { continue }
            guard line.hasPrefix("| `") else { break }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            // "", module, role, Foundation, depends on, ""
            guard cells.count >= 6 else { continue }
            let module = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            let listed = cells[cells.count - 2]
            let dependencies = listed == "nothing" ? [] : Set(listed.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
            rows[module] = (cells[cells.count - 3], dependencies)
        }
        return rows
    }

    /// `Foundation`, `FoundationEssentials` or `none`: the widest the module's sources import.
    static func foundation(of module: String) throws -> String {
        let imported = try ModuleBoundaryTests.imports(of: module)
        if imported.contains("Foundation") { return "Foundation" }
        if imported.contains("FoundationEssentials") { return "FoundationEssentials" }
        return "none"
    }

    @Test("every Swift module in Sources has a row, with Package.swift's dependencies and the Foundation it imports")
    func tableIsTrue() throws {
        let table = try Self.readmeTable()
        let declared = try ModuleBoundaryTests.declaredDependencies()
        let sources = try FileManager.default.contentsOfDirectory(
            atPath: ModuleBoundaryTests.root.appendingPathComponent("Sources").path)
        // The C targets (system libraries and shims) have no Swift sources.
        let swiftModules = sources.filter { module in
            let directory = ModuleBoundaryTests.root.appendingPathComponent("Sources").appendingPathComponent(module).path
            return FileManager.default.enumerator(atPath: directory)?.contains { ($0 as? String)?.hasSuffix(".swift") == true } == true
        }.sorted()
        #expect(!table.isEmpty, "no module table in the README")
        #expect(Set(table.keys) == Set(swiftModules), "rows \(table.keys.sorted()) against Sources \(swiftModules)")
        for module in swiftModules {
            guard let row = table[module] else { continue }
            #expect(row.dependencies == declared[module], "\(module): README \(row.dependencies.sorted()), Package.swift \(declared[module].map { $0.sorted() } ?? [])")
            // Found first, then compared: Swift Testing 6.0's #expect cannot take a throwing call inside.
            let imported = try Self.foundation(of: module)
            #expect(row.foundation == imported, "\(module): README says \(row.foundation)")
        }
    }
}
