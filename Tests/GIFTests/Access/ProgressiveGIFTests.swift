import Foundation
@_spi(Benchmarks) import GIF
import Testing

/// What a decode ends with: the frames (a digest of each canvas, and whether
/// it was whole), the error that ended it, and the error thrown on opening.
struct DecodeRecord: Equatable, CustomStringConvertible {
    var openError: GIFError?
    var frames: [(digest: Int, complete: Bool)] = []
    var error: GIFError?

    static func == (a: DecodeRecord, b: DecodeRecord) -> Bool {
        a.openError == b.openError && a.error == b.error && a.frames.count == b.frames.count
            && zip(a.frames, b.frames).allSatisfy { $0.digest == $1.digest && $0.complete == $1.complete }
    }

    var description: String {
        "open \(openError.map(String.init(describing:)) ?? "ok"), \(frames.count) frames "
            + "(\(frames.filter { !$0.complete }.count) partial), then \(error.map(String.init(describing:)) ?? "the end")"
    }

    /// The whole-file decode of `bytes`, the reference the stream must match.
    init(wholeFile bytes: [UInt8]) {
        let image: GIFImage
        do {
            image = try GIFImage(bytes: bytes)
        } catch {
            openError = error
            return
        }
        var iterator = image.makeFrameIterator()
        do {
            while let frame = try iterator.next() {
                frames.append((digest(frame.pixels), frame.isComplete))
            }
        } catch {
            self.error = error
        }
    }

    init() {}
}

/// Feeds `bytes` to a ``ProgressiveGIF`` in the chunks `cuts` makes, draining
/// frames after every chunk, then finishes. After each chunk it checks that
/// exactly the frames whose data ends within the bytes received are
/// available (`wholeInfo`: the whole file's scan, when it opens).
func stream(
    _ bytes: [UInt8], cuts: [Int], finishing: Bool = true, wholeInfo: GIFInfo?,
    sourceLocation: SourceLocation = #_sourceLocation
) -> DecodeRecord {
    var record = DecodeRecord()
    var gif = ProgressiveGIF()
    var start = 0
    var mismatches = 0
    var arrived = 0
    func drain(_ gif: inout ProgressiveGIF, _ record: inout DecodeRecord) -> Bool {
        do {
            while let frame = try gif.nextFrame() {
                record.frames.append((digest(frame.pixels), frame.isComplete))
            }
        } catch {
            record.error = error
            return false
        }
        return true
    }
    for end in cuts + [bytes.count] where end > start {
        do {
            try gif.append(bytes[start..<end])
        } catch {
            record.openError = error
            return record
        }
        start = end
        if let wholeInfo, wholeInfo.error == nil, mismatches < 3 {
            // A frame is available once its data's terminator is in, not before.
            while arrived < wholeInfo.frames.count, wholeInfo.frames[arrived].dataEnd <= end { arrived += 1 }
            let expected = arrived
            if gif.availableFrameCount != expected {
                mismatches += 1
                Issue.record(
                    "after \(end) bytes: \(gif.availableFrameCount) frames available, expected \(expected)",
                    sourceLocation: sourceLocation)
            }
        }
        guard drain(&gif, &record) else { return record }
    }
    guard finishing else { return record }
    do {
        try gif.finish()
    } catch {
        record.openError = error
        return record
    }
    _ = drain(&gif, &record)
    return record
}

/// The GIFs streamed: every fixture and every corpus GIF.
let streamedFiles: [String] = {
    let corpus = ["blink", "go", "image-gif", "pillow", "nsgif"].flatMap { Corpus.files(in: $0) }
        .filter { $0.hasSuffix(".gif") }
    return Fixture.names.map { "Fixtures/\($0)" } + corpus.map { "corpus/\($0)" }
}()

func streamedBytes(_ name: String) throws -> [UInt8] {
    name.hasPrefix("Fixtures/")
        ? try Fixture.bytes(String(name.dropFirst("Fixtures/".count)))
        : try Corpus.bytes(String(name.dropFirst("corpus/".count)))
}

/// Progressive decoding: a GIF fed in chunks gives the frames and
/// the error of the whole-file decode, each frame as soon as its last byte
/// is in; a stream cut anywhere ends as the whole-file decode of that prefix.
@Suite("Progressive GIF")
struct ProgressiveGIFTests {
    /// Every file up to 64 KiB; the run's share of the larger ones
    /// (``Sweep``), which are two thirds of the corpus's bytes.
    @Test("Chunks of 4,096 bytes and random splits give the whole-file frames, each available at its last byte",
          arguments: streamedFiles.filter { ((try? streamedBytes($0).count) ?? 0) <= 64 << 10 }
              + Sweep.sample(streamedFiles.filter { ((try? streamedBytes($0).count) ?? 0) > 64 << 10 }, of: "large 4096-byte streaming"))
    func chunkedEqualsWholeFile(_ name: String) throws {
        let bytes = try streamedBytes(name)
        var random = SplitMix64(seed: UInt64(bytes.count))
        let randomCuts = (0..<12).map { _ in Int.random(in: 0...bytes.count, using: &random) }.sorted()
        expectStreamsEqualWholeFile(bytes, chunkings: [
            ("4096-byte", Array(stride(from: 4096, to: bytes.count, by: 4096))),
            ("random", randomCuts),
        ])
    }

    /// The finest splits, on the run's share of the files up to 64 KiB
    /// (``Sweep``; a 750 KB file fed a byte at a time alone takes seconds
    /// under AddressSanitizer): every file in a full run.
    @Test("Chunks of 1 and 7 bytes give the whole-file frames, each available at its last byte",
          arguments: Sweep.sample(
              streamedFiles.filter { Sweep.isFull || ((try? streamedBytes($0).count) ?? 0) <= 64 << 10 },
              of: "fine streaming"))
    func fineChunksEqualWholeFile(_ name: String) throws {
        let bytes = try streamedBytes(name)
        expectStreamsEqualWholeFile(bytes, chunkings: [
            ("1-byte", Array(1..<max(1, bytes.count))),
            ("7-byte", Array(stride(from: 7, to: bytes.count, by: 7))),
        ])
    }

    func expectStreamsEqualWholeFile(
        _ bytes: [UInt8], chunkings: [(label: String, cuts: [Int])], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let whole = DecodeRecord(wholeFile: bytes)
        let info = try? GIFImage(bytes: bytes).info
        for (label, cuts) in chunkings {
            let streamed = stream(bytes, cuts: cuts, wholeInfo: info, sourceLocation: sourceLocation)
            #expect(streamed == whole, "\(label) chunks: \(streamed) vs whole file \(whole)", sourceLocation: sourceLocation)
        }
    }

    /// The run's share of the files (``Sweep``), cut in the header, at the
    /// middle, one byte short and at random points: files up to 8 KiB fed 7
    /// bytes at a time at 12 cuts, larger ones 4,096 at 4.
    @Test("A stream cut anywhere ends with the frames and the error of the whole-file decode of that prefix",
          arguments: Sweep.sample(streamedFiles, of: "cut streams"))
    func cutStreamEqualsPrefix(_ name: String) throws {
        let bytes = try streamedBytes(name)
        let small = bytes.count <= 8_192
        var random = SplitMix64(seed: UInt64(bytes.count) &* 31)
        let fixedCuts = small ? [0, 1, 5, 6, 12, 13, bytes.count / 2, bytes.count - 1] : [13, bytes.count / 2, bytes.count - 1]
        let cutPoints = Set(fixedCuts + (0..<(small ? 4 : 1)).map { _ in Int.random(in: 0...bytes.count, using: &random) })
            .filter { $0 >= 0 && $0 <= bytes.count }.sorted()
        let chunk = small ? 7 : 4_096
        for cut in cutPoints {
            let prefix = Array(bytes[..<cut])
            let whole = DecodeRecord(wholeFile: prefix)
            let streamed = stream(prefix, cuts: Array(stride(from: chunk, to: cut, by: chunk)), wholeInfo: nil)
            #expect(streamed == whole, "cut at \(cut) of \(bytes.count): \(streamed) vs \(whole)")
        }
    }

    @Test("The header is read from its last byte on; the canvas is final at the first frame's descriptor")
    func headerAndCanvas() throws {
        // first-frame-growth.gif: a 4×4 screen whose first frame grows the canvas
        // to 6×6 (Fixtures/README.md), so the canvas is only known at that descriptor.
        let bytes = try Fixture.bytes("first-frame-growth.gif")
        let info = try GIFImage(bytes: bytes).info
        var gif = ProgressiveGIF()
        try gif.append(bytes[..<12])
        #expect(gif.screenSize == nil)
        try gif.append(bytes[12..<13])
        #expect(gif.screenSize == info.screenSize)
        let descriptor = info.frames[0].descriptorOffset
        try gif.append(bytes[13..<descriptor + 9])
        #expect(gif.canvasSize == nil)
        try gif.append(bytes[(descriptor + 9)...])
        #expect(gif.canvasSize == PixelSize(width: 6, height: 6))
        #expect(gif.screenSize == PixelSize(width: 4, height: 4))
    }

    @Test("Bytes that are not a GIF are refused once the format can be named, as the whole-file decode names it")
    func notAGIF() throws {
        let png = try Corpus.bytes("not-gif/green-10.png")
        var wholeError: GIFError?
        do { _ = try GIFImage(bytes: png) } catch { wholeError = error }
        let streamed = stream(png, cuts: Array(stride(from: 1, to: png.count, by: 1)), wholeInfo: nil)
        #expect(streamed.openError != nil)
        #expect(streamed.openError == wholeError)
    }

    @Test("The trailer ends the stream: isComplete, and bytes after it are ignored")
    func trailerEnds() throws {
        let bytes = try Fixture.bytes("loop-2.gif")
        var gif = ProgressiveGIF()
        try gif.append(bytes.dropLast())
        #expect(!gif.isComplete)
        try gif.append(bytes.suffix(1))
        #expect(gif.isComplete)
        try gif.append([0x2C, 0, 0])
        #expect(gif.receivedByteCount == bytes.count)
    }
}
