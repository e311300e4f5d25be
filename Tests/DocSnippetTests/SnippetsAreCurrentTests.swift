import Foundation
import Testing

/// The package root, found from this file's path.
let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The Swift blocks of the README and the DocC articles, read the way
/// `scripts/snippets.py` reads them: keyed `file:line`, import lines and
/// manifest fragments left out, blank lines emptied.
func documentedSnippets() throws -> [(key: String, lines: [String])] {
    var documents = [packageRoot.appendingPathComponent("README.md")]
    let sources = packageRoot.appendingPathComponent("Sources")
    for module in try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted() {
        let moduleURL = sources.appendingPathComponent(module)
        let catalogs = (try? FileManager.default.contentsOfDirectory(atPath: moduleURL.path)) ?? []
        for catalog in catalogs.sorted() where catalog.hasSuffix(".docc") {
            let catalogURL = moduleURL.appendingPathComponent(catalog)
            let articles = try FileManager.default.contentsOfDirectory(atPath: catalogURL.path)
            documents += articles.sorted().filter { $0.hasSuffix(".md") }.map { catalogURL.appendingPathComponent($0) }
        }
    }
    var found: [(key: String, lines: [String])] = []
    for document in documents {
        let relative = String(document.path.dropFirst(packageRoot.path.count + 1))
        let lines = try String(contentsOf: document, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        found += swiftBlocks(in: lines).map { ("\(relative):\($0.offset + 1)", $0.lines) }
    }
    return found + (try documentedExamples())
}

/// The Swift blocks of the doc comments in `Sources`, read the way
/// `scripts/snippets.py` reads them: files in path order, the text of each
/// file's `///` lines (the marker and one space after it removed) read as
/// Markdown, each block keyed `file#n` (its place in its file).
func documentedExamples() throws -> [(key: String, lines: [String])] {
    let sources = packageRoot.appendingPathComponent("Sources")
    let files = (FileManager.default.enumerator(atPath: sources.path)?.allObjects as? [String] ?? [])
        .filter { $0.hasSuffix(".swift") }
        .map { "Sources/" + $0 }
        .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    var found: [(key: String, lines: [String])] = []
    for relative in files {
        let text = try String(contentsOf: packageRoot.appendingPathComponent(relative), encoding: .utf8)
        let comments = text.split(separator: "\n", omittingEmptySubsequences: false).compactMap { line -> Substring? in
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            guard trimmed.hasPrefix("///") else { return nil }
            let comment = trimmed.dropFirst(3)
            return comment.first == " " ? comment.dropFirst() : comment
        }
        found += swiftBlocks(in: comments).enumerated().map { ("\(relative)#\($0.offset + 1)", $0.element.lines) }
    }
    return found
}

/// The ```swift blocks of `lines` (a Markdown file's, or a Swift file's doc
/// comment text), read the way `scripts/snippets.py` reads them: each
/// block's first line's offset and its lines, import lines and manifest
/// fragments left out, blank lines emptied, the fence's indentation removed.
func swiftBlocks(in lines: [Substring]) -> [(offset: Int, lines: [String])] {
    var found: [(offset: Int, lines: [String])] = []
    var current: [String]?
    var start = 0
    var indent = 0
    for (offset, line) in lines.enumerated() {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if current == nil {
            if trimmed == "```swift" {
                current = []
                start = offset + 1
                indent = line.prefix { $0 == " " }.count
            }
        } else if trimmed == "```" {
            if current?.first?.trimmingCharacters(in: .whitespaces) != "// Package.swift" {
                found.append((start, current ?? []))
            }
            current = nil
        } else if !(trimmed.hasPrefix("import ") && !trimmed.dropFirst(7).contains(" ")) {
            current?.append(trimmed.isEmpty ? "" : String(line.dropFirst(min(indent, line.prefix { $0 == " " }.count))))
        }
    }
    return found
}

/// The blocks of `Snippets.swift` and `DocCommentSnippets.swift`, keyed by
/// their `// begin` markers.
func generatedSnippets() throws -> [(key: String, lines: [String])] {
    try generatedSnippets(in: "Snippets.swift") + generatedSnippets(in: "DocCommentSnippets.swift")
}

/// The blocks of a generated file, keyed by their `// begin` markers.
func generatedSnippets(in name: String) throws -> [(key: String, lines: [String])] {
    let file = packageRoot.appendingPathComponent("Tests/DocSnippetTests").appendingPathComponent(name)
    let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
    var found: [(key: String, lines: [String])] = []
    var key: String?
    var body: [String] = []
    for line in lines {
        if line.hasPrefix("        // begin ") {
            key = String(line.dropFirst("        // begin ".count))
            body = []
        } else if let open = key, line == "        // end \(open)" {
            found.append((open, body))
            key = nil
        } else if key != nil {
            body.append(line.hasPrefix("        ") ? String(line.dropFirst(8)) : String(line))
        }
    }
    return found
}

@Suite("Documentation snippets")
struct SnippetsAreCurrentTests {
    @Test("Snippets.swift and DocCommentSnippets.swift hold every Swift block of the docs and the doc comments, verbatim (rerun `make snippets` after a doc edit)")
    func snippetsAreCurrent() throws {
        let documented = try documentedSnippets()
        let generated = try generatedSnippets()
        #expect(documented.count > 20)
        #expect(documented.filter { $0.key.contains("#") }.count > 20)
        #expect(documented.map(\.key) == generated.map(\.key))
        for (doc, gen) in zip(documented, generated) where doc.key == gen.key {
            #expect(doc.lines == gen.lines, "\(doc.key) differs from the generated file: run make snippets")
        }
    }
}
