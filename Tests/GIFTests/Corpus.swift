import Foundation

/// Finds the third-party corpora in `../shared/corpus`, read in place.
enum Corpus {
    /// `…/shared/corpus`, found from this file's path, not the working directory.
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // GIFTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // the package
        .deletingLastPathComponent()  // its parent
        .appendingPathComponent("shared/corpus")

    /// The path of `name` inside the corpus.
    static func path(_ name: String) -> String {
        root.appendingPathComponent(name).path
    }

    /// The bytes of `name` inside the corpus.
    static func bytes(_ name: String) throws -> [UInt8] {
        try Array(Data(contentsOf: root.appendingPathComponent(name)))
    }

    /// One line of a `nia-crc32.txt`: `OK.` or `BAD`, the CRC-32, the file.
    struct NIAEntry: Sendable, CustomStringConvertible {
        var ok: Bool
        var crc: UInt32
        var path: String
        var description: String { path }
    }

    /// The entries of `blink/nia-crc32.txt` and `go/nia-crc32.txt`.
    static let niaEntries: [NIAEntry] = ["blink", "go"].flatMap { folder in
        let text = (try? String(contentsOf: root.appendingPathComponent("\(folder)/nia-crc32.txt"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line -> NIAEntry? in
            let parts = line.split(separator: " ")
            guard parts.count == 3, let crc = UInt32(parts[1], radix: 16) else { return nil }
            return NIAEntry(ok: parts[0] == "OK.", crc: crc, path: "\(folder)/\(parts[2])")
        }
    }

    /// Every regular file under `folder`, relative to the corpus root, sorted.
    static func files(in folder: String) -> [String] {
        let base = root.appendingPathComponent(folder)
        guard let walker = FileManager.default.enumerator(atPath: base.path) else { return [] }
        return walker.compactMap { $0 as? String }
            .filter { name in
                var isDirectory: ObjCBool = false
                let exists = FileManager.default.fileExists(
                    atPath: base.appendingPathComponent(name).path, isDirectory: &isDirectory)
                return exists && !isDirectory.boolValue
            }
            .map { "\(folder)/\($0)" }
            .sorted()
    }
}
