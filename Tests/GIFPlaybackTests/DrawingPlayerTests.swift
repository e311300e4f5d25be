import Foundation
@_spi(Benchmarks) import GIF
@_spi(Benchmarks) import GIFPlayback
@_spi(Benchmarks) import Playback
import Testing

/// A host-drawn player writes into the host's buffer, changed rectangles
/// only, exactly the frames a whole-file decode composites: in order, with
/// frames skipped by a slow host, after seeks and loop restarts, with every
/// frame's indices held or none; and it decodes each frame once when the
/// indices fit.
@Suite struct DrawingPlayerTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/corpus")

    /// The animated corpus GIFs that decode whole (errors are
    /// ``draw(into:bytesPerRow:)``'s other test), up to 2 million pixels.
    static let files: [String] = ["blink", "go", "image-gif", "pillow"].flatMap { folder -> [String] in
        let names = (try? FileManager.default.contentsOfDirectory(atPath: corpus.appendingPathComponent(folder).path)) ?? []
        return names.filter { $0.hasSuffix(".gif") }.sorted().map { "\(folder)/\($0)" }
    }

    /// Bytes between the rows of the host's buffer beyond the canvas row:
    /// they hold ``padding`` and must keep it.
    static let slack = 12
    static let padding: UInt8 = 0xA5

    /// The instant the players start at: a manual clock's, so the tests
    /// name the instants they advance to.
    static let start = ManualClock().now

    /// A player of `image` starting at ``start``.
    static func player(
        _ image: GIFImage, configuration: PlayerConfiguration = .init(),
        budget: DecodingBudget = .default
    ) throws -> DrawingPlayer<ManualClock.Instant> {
        try DrawingPlayer(image: image, configuration: configuration, budget: budget, startingAt: start)
    }

    /// The frames of the plain whole-file iterator (no seeker, no stored
    /// indices, whole canvases): the CRC-32 of each, or `nil` when a frame
    /// fails or the GIF is not a multi-frame one this test takes.
    static func expected(_ image: GIFImage) -> [Int]? {
        guard image.info.frameCount > 1, image.info.canvasSize.area <= 2_000_000 else { return nil }
        var iterator = image.makeFrameIterator()
        var digests: [Int] = []
        let size = image.info.canvasSize
        while let frame = try? iterator.next() {
            guard frame.isComplete else { return nil }
            digests.append(canvasDigest(frame.pixels, width: size.width, height: size.height))
        }
        return digests.count == image.info.frameCount ? digests : nil
    }

    /// A host buffer for `player`: rows ``slack`` bytes longer than the
    /// canvas's, all of it ``padding``.
    final class HostBuffer {
        let bytesPerRow: Int, rowBytes: Int, height: Int
        var bytes: [UInt8]
        init(_ player: DrawingPlayer<ManualClock.Instant>) {
            rowBytes = player.width * 4
            bytesPerRow = rowBytes + DrawingPlayerTests.slack
            height = player.height
            bytes = [UInt8](repeating: DrawingPlayerTests.padding, count: bytesPerRow * height)
        }
        /// The frame written and where (`nil`: the buffer held it), or
        /// the decoder's error of a draw that failed.
        func draw(_ player: DrawingPlayer<ManualClock.Instant>) throws -> FrameCopy? {
            switch try bytes.withUnsafeMutableBytes({ try player.draw(into: $0, bytesPerRow: bytesPerRow) }) {
            case .unchanged: return nil
            case .drawn(let frame, let changed, let isComplete):
                return FrameCopy(index: frame, changedRect: changed, isComplete: isComplete)
            case .late(let frame, _), .still(let frame, _), .failed(let frame, _, _):
                throw player.failure ?? GIFError(.frameOutOfRange(frame, count: player.image.info.frameCount))
            }
        }
        /// The canvas rows without the slack, and whether the slack kept
        /// its padding.
        var canvas: (digest: Int, slackKept: Bool) {
            let kept = bytes.withUnsafeBytes { raw in
                (0..<height).allSatisfy { row in
                    raw[row * bytesPerRow + rowBytes..<(row + 1) * bytesPerRow].allSatisfy { $0 == DrawingPlayerTests.padding }
                }
            }
            return (rowsDigest(bytes, rowBytes: rowBytes, bytesPerRow: bytesPerRow, height: height), kept)
        }
    }

    @Test func loopTwoFixtureDrawsRedThenGreenIntoAStridedBuffer() throws {
        // Fixtures/README.md: loop-2.gif is 2×2, red then green, 10 cs each.
        let path = GIFFrameSourceTests.fixture("loop-2.gif")
        let player = try Self.player(try GIFImage(contentsOf: path))
        let buffer = HostBuffer(player)
        let red: [UInt8] = [255, 0, 0, 255], green: [UInt8] = [0, 255, 0, 255]
        let slack = [UInt8](repeating: Self.padding, count: Self.slack)
        let first = try #require(try buffer.draw(player))
        #expect(first.index == 0 && first.changedRect == PixelRect(x: 0, y: 0, width: 2, height: 2))
        #expect(buffer.bytes == red + red + slack + red + red + slack)
        #expect(try buffer.draw(player) == nil)
        player.play()
        player.advance(to: Self.start.advanced(by: .milliseconds(150)))
        let second = try #require(try buffer.draw(player))
        #expect(second.index == 1)
        #expect(buffer.bytes == green + green + slack + green + green + slack)
    }

    @Test func aSharedEpochPlacesFramesOnTheHostClock() throws {
        // Fixtures/README.md: loop-2.gif is red then green, 10 cs each, so
        // a loop is 200 ms: green from 100 ms to 200 ms after its start.
        let image = try GIFImage(contentsOf: GIFFrameSourceTests.fixture("loop-2.gif"))
        let epoch = Self.start, joined = epoch.advanced(by: .milliseconds(150))
        let inStep = try DrawingPlayer(
            image: image, configuration: PlayerConfiguration(loop: .forever), startingAt: joined, epoch: epoch)
        let alone = try DrawingPlayer(image: image, configuration: PlayerConfiguration(loop: .forever), startingAt: joined)
        inStep.play()
        alone.play()
        #expect(inStep.origin == epoch && alone.origin == joined && inStep.now == joined)
        #expect(inStep.playhead.currentFrame == 1 && inStep.nextChangeInstant == epoch.advanced(by: .milliseconds(200)))
        #expect(alone.playhead.currentFrame == 0 && alone.nextChangeInstant == joined.advanced(by: .milliseconds(100)))
        inStep.advance(to: epoch.advanced(by: .milliseconds(250)))
        #expect(inStep.playhead.currentFrame == 0)
    }

    @Test func aBufferTooSmallIsAnErrorBeforeAnythingIsWritten() throws {
        // Fixtures/README.md: loop-2.gif is 2×2, so a row takes 8 bytes and
        // the canvas 16 with rows 8 apart.
        let player = try Self.player(try GIFImage(contentsOf: GIFFrameSourceTests.fixture("loop-2.gif")))
        var bytes = [UInt8](repeating: 7, count: 15)
        #expect(throws: PixelBufferError.bufferTooSmall(byteCount: 15, needed: 16)) {
            try bytes.withUnsafeMutableBytes { try player.draw(into: $0, bytesPerRow: 8) }
        }
        #expect(throws: PixelBufferError.rowStrideTooSmall(bytesPerRow: 7, minimum: 8)) {
            try bytes.withUnsafeMutableBytes { try player.draw(into: $0, bytesPerRow: 7) }
        }
        #expect(bytes.allSatisfy { $0 == 7 })
        #expect(player.drawnFrame == nil)
    }

    @Test func aFrameCutShortIsDrawnAndSaysSo() throws {
        // Fixtures/README.md: truncated.gif has frame 0 intact, frame 1
        // partial, then a truncation error naming frame 1.
        let image = try GIFImage(contentsOf: GIFFrameSourceTests.fixture("truncated.gif"))
        let player = try Self.player(image)
        let buffer = HostBuffer(player)
        _ = try buffer.draw(player)
        try player.seek(toFrame: 1)
        // The frame asked for that fails part-way is drawn with the rows
        // decoded, and says so.
        let partial = try #require(try buffer.draw(player))
        #expect(partial.index == 1 && !partial.isComplete)
        #expect(player.drawnFrame == 1)
        try player.seek(toFrame: 0)
        let again = try #require(try buffer.draw(player))
        #expect(again.changedRect == PixelRect(x: 0, y: 0, width: player.width, height: player.height))
    }

    /// Fixtures/demo.gif with frame 5's LZW data overwritten by ones, so
    /// that its decode fails at its first code: frames 1–39 are 16 × 16
    /// discs with disposal 3 (Fixtures/README.md), so stepping over frame
    /// 5 restores the area under frame 4 and then fails.
    static func demoWithFrameFiveBroken() throws -> GIFImage {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: GIFFrameSourceTests.fixture("demo.gif"))))
        let frame = try GIFImage(bytes: bytes).info.frames[5]
        // The minimum code size, a sub-block's length, then its data.
        for offset in frame.dataOffset + 2..<frame.dataOffset + 12 { bytes[offset] = 0xFF }
        return try GIFImage(bytes: bytes)
    }

    /// A draw that fails writes nothing into the host's buffer, even when
    /// it steps over the failing frame from one drawn before: a host shows
    /// the frame the player says it holds. Two loops, the second with
    /// every frame's indices and outcome stored, stepping one and then two
    /// frames at a time.
    @Test func aFailedDrawLeavesTheBufferAsItWas() throws {
        let image = try Self.demoWithFrameFiveBroken()
        let player = try Self.player(image, configuration: PlayerConfiguration(loop: .forever))
        let buffer = HostBuffer(player)
        player.play()
        var failures = 0
        for step in [1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2] + Array(repeating: 1, count: 240) + [1, 1, 1, 2, 2, 2, 1, 2] {
            for _ in 0..<step { player.advance(to: player.nextChangeInstant ?? player.now) }
            let before = (buffer.bytes, player.drawnFrame)
            do {
                _ = try buffer.draw(player)
            } catch {
                failures += 1
                let unchanged = buffer.bytes == before.0
                #expect(unchanged, "a failed draw at frame \(player.playhead.currentFrame) wrote into the buffer")
                #expect(player.drawnFrame == nil || player.drawnFrame == before.1)
            }
        }
        #expect(failures > 0, "no draw failed: the broken frame was not reached")
    }

    /// After one loop drawn in order, the player copies each frame's
    /// recorded change instead of compositing it: into a buffer whose rows
    /// are the canvas's own (whole-width changes go in one copy) and one
    /// with padded rows, every draw of three loops, stepping one frame, two
    /// and twenty, equals the whole-file decode; the changes are counted in the
    /// player's bytes, within its checkpoint budget; and a budget too small
    /// for them keeps none, with the same frames.
    @Test(arguments: ["demo.gif", "screen-recording.gif"])
    func recordedChangesDrawTheWholeFileDecode(_ name: String) throws {
        let image = try GIFImage(contentsOf: GIFFrameSourceTests.fixture(name))
        let expected = try #require(Self.expected(image))
        let width = image.info.canvasSize.width, height = image.info.canvasSize.height
        // The changes are kept within the checkpoint bytes: 8 MiB holds
        // them; none, or one canvas, does not (both files' changes take
        // more than a canvas), whatever the index budget.
        let standard = DecodingBudget.default
        let budgets = [
            (0, standard.checkpointBytes, standard.indexBytes, true), (8, 0, standard.indexBytes, false),
            (12, 0, image.info.framePixelCount, false), (20, width * height * 4, standard.indexBytes, false),
        ]
        for (padding, checkpoints, indexBytes, kept) in budgets {
            let player = try Self.player(
                image, configuration: PlayerConfiguration(loop: .forever),
                budget: DecodingBudget(checkpointBytes: checkpoints, indexBytes: indexBytes))
            let bytesPerRow = width * 4 + padding
            var buffer = [UInt8](repeating: 0xA5, count: bytesPerRow * height)
            player.play()
            var bytesAfterFirstLoop = 0
            for step in 0..<3 * image.info.frameCount {
                if step == image.info.frameCount + 1 { bytesAfterFirstLoop = player.checkpointAndIndexBytes }
                // Through part of the third loop, two frames at a time and
                // now and then twenty (a host far behind: the changes on
                // the way copied, not the whole frame composited).
                let late = step > 2 * image.info.frameCount
                let frames = late && step % 7 == 0 ? 20 : late && step % 3 == 0 ? 2 : 1
                for _ in 0..<frames { player.advance(to: try #require(player.nextChangeInstant)) }
                _ = try buffer.withUnsafeMutableBytes { try player.draw(into: $0, bytesPerRow: bytesPerRow) }
                let frame = player.playhead.currentFrame
                let digest = rowsDigest(buffer, rowBytes: width * 4, bytesPerRow: bytesPerRow, height: height)
                #expect(digest == expected[frame], "\(name) frame \(frame) step \(step) padding \(padding)")
            }
            // Each frame's change covers at least its own rectangle, four
            // bytes a pixel: more than all the frames' indices, one a pixel.
            let changes = image.info.frames.dropFirst().reduce(0) {
                $0 + $1.rect.clipped(toWidth: width, height: height).area * 4
            }
            let recorded = player.drawsFromRecordedChanges
            #expect(recorded == kept, "\(name) checkpoints \(checkpoints) indices \(indexBytes)")
            #expect((bytesAfterFirstLoop >= changes) == kept, "\(name): \(bytesAfterFirstLoop) bytes held")
            #expect(player.decodeCount == image.info.frameCount, "\(name): frames decoded again")
        }
    }

    /// A failed expectation that names a player reflects it, field by
    /// field: every value under it, its locks included, can be reflected
    /// (a lock's mutex cannot be copied out, and would trap).
    @Test func aPlayerCanBeReflected() throws {
        let image = try GIFImage(contentsOf: GIFFrameSourceTests.fixture("demo.gif"))
        let player = try Self.player(image, configuration: PlayerConfiguration(loop: .forever))
        let buffer = HostBuffer(player)
        player.play()
        for _ in 0..<3 {
            _ = try buffer.draw(player)
            player.advance(to: try #require(player.nextChangeInstant))
        }
        var seen = 0
        func walk(_ value: Any, depth: Int) {
            seen += 1
            guard depth < 8 else { return }
            for child in Mirror(reflecting: value).children { walk(child.value, depth: depth + 1) }
        }
        walk(player, depth: 0)
        #expect(seen > 1)
    }

    /// Frames that change nothing have empty recorded changes: zero-size
    /// frames (Fixtures/README.md: a red 4 × 4 canvas, two empty frames,
    /// then green at (0, 0)) loop from their recorded changes, every draw
    /// the whole-file decode's frame.
    @Test func emptyChangesAreRecordedAndDrawn() throws {
        let image = try GIFImage(contentsOf: GIFFrameSourceTests.fixture("zero-size-frame.gif"))
        let expected = try #require(Self.expected(image))
        let player = try Self.player(image, configuration: PlayerConfiguration(loop: .forever))
        let buffer = HostBuffer(player)
        player.play()
        for step in 0..<3 * image.info.frameCount {
            _ = try buffer.draw(player)
            let frame = player.playhead.currentFrame
            #expect(buffer.canvas.digest == expected[frame], "frame \(frame) step \(step)")
            player.advance(to: try #require(player.nextChangeInstant))
        }
        #expect(player.drawsFromRecordedChanges)
    }

    /// Three loops drawn frame by frame, one loop drawn every second or
    /// third frame (the stepped path), then seeks; each drawn buffer checked
    /// against the whole-file decode.
    @Test(arguments: files)
    func everyDrawEqualsTheWholeFileDecode(_ file: String) throws {
        guard let image = try? GIFImage(contentsOf: Self.corpus.appendingPathComponent(file).path),
            let expected = Self.expected(image)
        else { return }
        let need = image.info.frames.reduce(0) { $0 + $1.rect.clipped(toWidth: image.info.canvasSize.width, height: image.info.canvasSize.height).area }
        for indexBudget in [DecodingBudget.default.indexBytes, 0] {
            let player = try Self.player(
                image, configuration: PlayerConfiguration(loop: .forever),
                budget: DecodingBudget(checkpointBytes: image.info.canvasSize.area * 4 * 4, indexBytes: indexBudget))
            let buffer = HostBuffer(player)
            func check(_ context: String) throws {
                let drawn = try buffer.draw(player)
                let frame = player.playhead.currentFrame
                #expect(drawn == nil || drawn?.index == frame, "\(file) \(context)")
                let (digest, slackKept) = buffer.canvas
                #expect(digest == expected[frame], "\(file) frame \(frame) \(context) budget \(indexBudget)")
                #expect(slackKept, "\(file) frame \(frame)")
            }
            player.play()
            try check("start")
            var decodes: [Int] = []
            for loop in 0..<3 {
                for _ in 0..<image.info.frameCount {
                    player.advance(to: try #require(player.nextChangeInstant))
                    try check("loop \(loop)")
                }
                decodes.append(player.decodeCount)
            }
            if indexBudget >= need {
                #expect(decodes[0] == expected.count && decodes[2] == decodes[0], "\(file) decodes \(decodes)")
            }
            var skip = 2
            for _ in 0..<image.info.frameCount / 2 {
                for _ in 0..<skip { player.advance(to: try #require(player.nextChangeInstant)) }
                try check("skipping \(skip)")
                skip = 5 - skip
            }
            for target in [expected.count - 1, 0, expected.count / 2, (expected.count / 2 + 1) % expected.count, 1] {
                try player.seek(toFrame: target)
                try check("seek \(target)")
            }
            player.invalidate()
            for row in 0..<buffer.height {
                let start = row * buffer.bytesPerRow
                buffer.bytes.replaceSubrange(start..<start + buffer.rowBytes, with: repeatElement(0, count: buffer.rowBytes))
            }
            try check("after invalidate")
        }
    }
}
