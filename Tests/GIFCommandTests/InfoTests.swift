import Foundation
@_spi(Benchmarks) import GIF
import Testing

@Suite("gif info")
struct InfoTests {
    /// Decodes every frame in-process; returns the first error.
    static func decodeError(_ image: GIFImage) -> GIFError? {
        var frames = image.makeFrameIterator()
        do {
            while try frames.next() != nil {}
            return nil
        } catch {
            return error
        }
    }

    /// `value` as an `Int`, or `nil` for JSON null.
    static func int(_ value: Any?) -> Int? {
        (value as? NSNumber)?.intValue
    }

    static func isNull(_ value: Any?) -> Bool {
        value is NSNull
    }

    @Test("--json parses and matches the scanner", arguments: Corpus.niaFiles)
    func jsonMatchesScanner(file: String) async throws {
        let image = try GIFImage(contentsOf: Corpus.path(file))
        let info = image.info
        let decodeError = Self.decodeError(image)
        let run = try await GIFRun(["info", "--json", Corpus.path(file)])
        #expect(run.status == (decodeError == nil ? 0 : 1))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.output)) as? [String: Any])

        #expect(json["file"] as? String == Corpus.path(file))
        #expect(json["version"] as? String == String(decoding: try Corpus.bytes(file).prefix(6), as: UTF8.self))
        let screen = try #require(json["screen"] as? [String: Any])
        #expect(Self.int(screen["width"]) == info.screenSize.width)
        #expect(Self.int(screen["height"]) == info.screenSize.height)
        let canvas = try #require(json["canvas"] as? [String: Any])
        #expect(Self.int(canvas["width"]) == info.canvasSize.width)
        #expect(Self.int(canvas["height"]) == info.canvasSize.height)
        #expect(Self.int(json["backgroundIndex"]) == Int(info.backgroundIndex))
        if let palette = info.globalPalette {
            #expect(Self.int(json["globalPaletteSize"]) == palette.count)
        } else {
            #expect(Self.isNull(json["globalPaletteSize"]))
        }
        #expect(Self.int(json["frameCount"]) == info.frameCount)

        let loop = try #require(json["loopCount"] as? [String: Any])
        #expect(Self.int(loop["stored"]) == info.loopCount.stored)
        #expect(Self.isNull(loop["stored"]) == (info.loopCount.stored == nil))
        #expect(Self.int(loop["plays"]) == info.loopCount.plays)
        #expect(Self.isNull(loop["plays"]) == (info.loopCount.plays == nil))

        let rawMilliseconds = info.frames.reduce(0) { $0 + $1.delayCentiseconds * 10 }
        let browserMilliseconds = info.frames.reduce(0) { $0 + ($1.delayCentiseconds <= 1 ? 100 : $1.delayCentiseconds * 10) }
        #expect(Self.int(json["durationMilliseconds"]) == rawMilliseconds)
        #expect(Self.int(json["browserDurationMilliseconds"]) == browserMilliseconds)

        let frames = try #require(json["frames"] as? [[String: Any]])
        #expect(frames.count == info.frameCount)
        for (row, frame) in zip(frames, info.frames) {
            #expect(Self.int(row["index"]) == frame.index)
            let rect = try #require(row["rect"] as? [String: Any])
            #expect([rect["x"], rect["y"], rect["width"], rect["height"]].map(Self.int)
                == [frame.rect.x, frame.rect.y, frame.rect.width, frame.rect.height])
            #expect(Self.int(row["delayCentiseconds"]) == frame.delayCentiseconds)
            #expect(Self.int(row["delayMilliseconds"]) == (frame.delayCentiseconds <= 1 ? 100 : frame.delayCentiseconds * 10))
            #expect(Self.int(row["disposal"]) == Int(frame.disposal.rawValue))
            #expect(Self.int(row["transparentIndex"]) == frame.transparentIndex.map(Int.init))
            #expect(Self.isNull(row["transparentIndex"]) == (frame.transparentIndex == nil))
            #expect(row["interlaced"] as? Bool == frame.isInterlaced)
            #expect(Self.int(row["localPaletteSize"]) == frame.localPalette?.count)
            #expect(Self.int(row["dataOffset"]) == frame.dataOffset)
        }
        #expect(json["comments"] as? [String] == info.comments)
        let extensions = try #require(json["applicationExtensions"] as? [[String: Any]])
        #expect(extensions.map { $0["identifier"] as? String } == info.applicationExtensions.map(\.identifier))
        #expect(extensions.map { Self.int($0["offset"]) } == info.applicationExtensions.map(\.offset))
        #expect(extensions.map { Self.int($0["dataSize"]) } == info.applicationExtensions.map(\.data.count))

        if let scanError = info.error {
            let reported = try #require(json["scanError"] as? [String: Any])
            #expect(reported["reason"] as? String == scanError.reason)
            #expect(Self.int(reported["byteOffset"]) == scanError.byteOffset)
        } else {
            #expect(Self.isNull(json["scanError"]))
        }
        if let decodeError {
            let reported = try #require(json["decodeError"] as? [String: Any])
            #expect(reported["reason"] as? String == decodeError.reason)
            #expect(Self.int(reported["frameIndex"]) == decodeError.frameIndex)
            #expect(Self.int(reported["byteOffset"]) == decodeError.byteOffset)
            #expect(Self.int(reported["framesDecoded"]) == decodeError.framesDecoded)
            #expect(run.error == "gif: \(Corpus.path(file)): \(decodeError.description)\n")
        } else {
            #expect(Self.isNull(json["decodeError"]))
            #expect(run.error.isEmpty)
        }
    }

    @Test("--json is stable: keys sorted, same bytes on every run")
    func jsonIsStable() async throws {
        let first = try await GIFRun(["info", "--json", Corpus.path("blink/animated-gif-with-offsets.gif")])
        let second = try await GIFRun(["info", "--json", Corpus.path("blink/animated-gif-with-offsets.gif")])
        #expect(first.output == second.output)
        // The top-level keys (indented by two spaces) appear in sorted order.
        let keys = first.text.split(separator: "\n")
            .filter { $0.hasPrefix("  \"") }
            .map { $0.dropFirst(3).prefix { $0 != "\"" } }
        #expect(keys.count == 15)
        #expect(keys == keys.sorted())
    }

    @Test("text output carries the same facts")
    func text() async throws {
        let file = "blink/animated-gif-with-offsets.gif"
        let info = try GIFImage(contentsOf: Corpus.path(file)).info
        let run = try await GIFRun(["info", Corpus.path(file)])
        #expect(run.status == 0)
        let lines = run.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        func value(_ label: String) -> String? {
            lines.first { $0.hasPrefix(label + ":") }?.dropFirst(label.count + 1).trimmingCharacters(in: .whitespaces)
        }
        #expect(value("version") == "GIF89a")
        #expect(value("canvas") == "\(info.canvasSize.width)x\(info.canvasSize.height)")
        #expect(value("frames") == "\(info.frameCount)")
        #expect(value("decode") == "all frames OK")
        // The table: a header, then one row per frame starting with its index
        // and its rectangle as WxH+X+Y.
        let header = try #require(lines.firstIndex { $0.hasPrefix("frame ") })
        let rows = lines[(header + 1)...].filter { !$0.isEmpty }
        #expect(rows.count == info.frameCount)
        for (row, frame) in zip(rows, info.frames) {
            let cells = row.split(separator: " ")
            #expect(cells[0] == "\(frame.index)")
            #expect(cells[1] == "\(frame.rect.width)x\(frame.rect.height)+\(frame.rect.x)+\(frame.rect.y)")
            #expect(cells[2] == "\(frame.delayCentiseconds)" && cells[3] == "cs")
        }
    }
}
