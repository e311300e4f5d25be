import Foundation
import Testing

/// ARCHITECTURE.md, read as the checks below need it: its module table
/// (each row's module and the package's modules it says that module
/// imports) and every backticked repository path it names.
struct ArchitectureDoc {
    /// One row of the module table.
    struct Module: Equatable {
        var name: String
        var imports: Set<String>
    }

    let text: String

    init() throws {
        text = try String(contentsOf: packageRoot.appendingPathComponent("ARCHITECTURE.md"), encoding: .utf8)
    }

    /// The rows of the table whose header starts `| module |`, in order.
    var modules: [Module] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let header = lines.firstIndex(where: { $0.hasPrefix("| module |") }) else { return [] }
        // The header, then the `|---|` line, then the rows up to the first line not a row.
        return lines[(header + 2)...].prefix { $0.hasPrefix("|") }.map { row in
            let cells = row.split(separator: "|", omittingEmptySubsequences: false)
                .dropFirst().dropLast().map { $0.trimmingCharacters(in: .whitespaces) }
            let name = cells.first.map(backticked)?.first ?? ""
            return Module(name: name, imports: Set(cells.last.map(backticked) ?? []))
        }
    }

    /// Every backticked token that names a path in the repository: one
    /// that starts with a top-level folder of it, or is `Package.swift`.
    var paths: [String] {
        let roots = ["Sources", "Tests", "Benchmarks", "Fuzz", "Examples", "scripts", "Fixtures"]
        return backticked(text).filter { token in
            token == "Package.swift" || roots.contains { token == $0 || token.hasPrefix($0 + "/") }
        }
    }
}

/// The text between each pair of backticks in `text`, in order.
func backticked(_ text: String) -> [String] {
    let parts = text.split(separator: "`", omittingEmptySubsequences: false)
    return stride(from: 1, to: parts.count - 1, by: 2).map { String(parts[$0]) }
}

/// The names of the targets Package.swift declares, each with the folder
/// SwiftPM reads it from (`Sources/NAME`, `Tests/NAME`, or its `path:`).
func packageTargets() throws -> [String: String] {
    let manifest = try String(contentsOf: packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
    let declaration = try Regex(
        #"\.(systemLibrary|target|executableTarget|testTarget)\(\s*name:\s*"([A-Za-z0-9_]+)"(?:\s*,\s*dependencies:\s*\[[^\]]*\])?(?:\s*,\s*path:\s*"([^"]+)")?"#)
    var targets: [String: String] = [:]
    for match in manifest.matches(of: declaration) {
        guard let kind = match.output[1].substring, let name = match.output[2].substring else { continue }
        let folder = match.output[3].substring.map(String.init) ?? (kind == "testTarget" ? "Tests/" : "Sources/") + name
        targets[String(name)] = folder
    }
    return targets
}

/// The modules of `names` that the Swift files under `folder` import.
func imports(under folder: String, among names: Set<String>) throws -> Set<String> {
    let root = packageRoot.appendingPathComponent(folder)
    let files = (FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String] ?? [])
        .filter { $0.hasSuffix(".swift") }
    let statement = try Regex(#"^\s*(?:@[A-Za-z_]+(?:\([^)]*\))?\s+)*import\s+([A-Za-z0-9_]+)\s*$"#)
    var found: Set<String> = []
    for file in files {
        let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
        for line in text.split(separator: "\n") {
            if let match = try statement.wholeMatch(in: String(line)), let module = match.output[1].substring,
               names.contains(String(module)) {
                found.insert(String(module))
            }
        }
    }
    return found
}

@Suite("ARCHITECTURE.md names what is there")
struct ArchitectureDocTests {
    @Test("Its module table names every module under Sources/, each declared in Package.swift, and no other")
    func moduleTableMatchesThePackage() throws {
        let modules = try ArchitectureDoc().modules
        let targets = try packageTargets()
        #expect(modules.count > 10, "the module table was not found or is nearly empty")
        #expect(!modules.contains { $0.name.isEmpty }, "a row of the module table names no module in backticks")
        for module in modules {
            #expect(targets[module.name] == "Sources/" + module.name,
                    "ARCHITECTURE.md names the module \(module.name), which Package.swift does not declare under Sources/")
        }
        let folders = try FileManager.default.contentsOfDirectory(atPath: packageRoot.appendingPathComponent("Sources").path)
            .filter { !$0.hasPrefix(".") }
        #expect(Set(modules.map(\.name)) == Set(folders), "the module table and the folders under Sources/ differ")
    }

    @Test("Each module imports exactly the package's modules its row lists")
    func importsAreTheTablesImports() throws {
        let modules = try ArchitectureDoc().modules
        let names = Set(try packageTargets().keys)
        #expect(modules.count > 10)
        for module in modules {
            let actual = try imports(under: "Sources/" + module.name, among: names)
            #expect(actual == module.imports,
                    "\(module.name) imports \(actual.sorted()); ARCHITECTURE.md says \(module.imports.sorted())")
        }
    }

    @Test("Every repository path it names exists")
    func namedPathsExist() throws {
        let paths = try ArchitectureDoc().paths
        #expect(paths.count > 20, "few paths found: \(paths)")
        for path in Set(paths) {
            #expect(FileManager.default.fileExists(atPath: packageRoot.appendingPathComponent(path).path),
                    "ARCHITECTURE.md names \(path), which does not exist")
        }
    }
}
