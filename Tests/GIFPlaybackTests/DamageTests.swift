import GIF
import GIFPlayback
import Playback
import Testing

/// Damage tracking for the host: a host that presents only the rectangle
/// each draw returns, and keeps no frame bookkeeping of its own, shows the
/// right frame after anything that can happen between two draws: steps,
/// skips of many frames, loops starting again, seeks back and forth,
/// pauses, a buffer whose contents were lost (an expose), and a cell
/// resized to another display size.
@Suite struct DamageTests {
    typealias Instant = ManualClock.Instant

    /// A host's two buffers: what the player draws into, and the screen,
    /// which receives only the returned rectangles.
    struct Host {
        var drawing: PlayerDrawTests.HostBuffer
        var screen: [UInt8]

        init(width: Int, height: Int) {
            drawing = PlayerDrawTests.HostBuffer(width: width, height: height)
            screen = [UInt8](repeating: 0x5A, count: width * height * 4)
        }

        /// Draws and presents the changed rectangle; returns what the draw said.
        mutating func drawAndPresent(_ player: Player<Instant>) async throws -> FrameDraw {
            let result = try await drawing.drawWhenReady(player)
            guard case .drawn(_, let changed, _) = result else { return result }
            let (width, stride) = (drawing.width, drawing.bytesPerRow)
            for y in changed.y..<changed.y + changed.height {
                let from = y * stride + changed.x * 4, to = (y * width + changed.x) * 4
                screen.replaceSubrange(to..<to + changed.width * 4, with: drawing.bytes[from..<from + changed.width * 4])
            }
            return result
        }
    }

    /// A small deterministic generator, so that a failure replays.
    struct Steps {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    static func play(
        _ source: GIFFrameSource, expected: [[UInt8]], seed: UInt64, label: String
    ) async throws {
        let clock = ManualClock()
        let player = try Player(source: source, configuration: PlayerConfiguration(loop: .forever), startingAt: clock.now)
        var host = Host(width: player.drawer.width, height: player.drawer.height)
        await player.play(at: clock.now)
        let first = try await host.drawAndPresent(player)
        guard case .drawn(_, let whole, _) = first else {
            Issue.record("\(label): the first draw is \(first)")
            return
        }
        #expect(whole == PixelRect(x: 0, y: 0, width: host.drawing.width, height: host.drawing.height),
                "\(label): a new cell is drawn whole")
        var steps = Steps(state: seed)
        for step in 0..<36 {
            let what: String
            switch steps.next(6) {
            case 0:
                what = "a step"
                if let next = player.nextChangeInstant { clock.advance(to: next) }
            case 1:
                what = "a skip"
                clock.advance(by: .milliseconds(40 * (2 + steps.next(40))))
            case 2:
                let frame = steps.next(source.frameCount)
                what = "a seek to \(frame)"
                try await player.seek(toFrame: frame)
            case 3:
                what = "a pause and a resume"
                await player.pause(at: clock.now)
                clock.advance(by: .milliseconds(500))
                await player.play(at: clock.now)
            case 4:
                what = "an expose"
                for index in host.drawing.bytes.indices where index % 7 == 0 { host.drawing.bytes[index] = 0x33 }
                host.screen = [UInt8](repeating: 0x33, count: host.screen.count)
                player.drawer.invalidate()
            default:
                what = "nothing"
            }
            await player.advance(to: clock.now)
            let frame = player.currentFrame
            _ = try await host.drawAndPresent(player)
            // Counted, not printed: a failure names the step and the bytes off.
            func off(_ pixels: [UInt8]) -> Int {
                pixels == expected[frame] ? 0 : zip(pixels, expected[frame]).count { $0 != $1 }
            }
            let offInBuffer = off(host.drawing.pixels), offOnScreen = off(host.screen)
            #expect(offInBuffer == 0, "\(label) step \(step), after \(what): the buffer holds frame \(frame)")
            #expect(offOnScreen == 0, "\(label) step \(step), after \(what): the screen shows frame \(frame)")
            if offOnScreen != 0 { return }
        }
    }

    @Test func presentingOnlyTheReturnedRectanglesShowsEveryFrame() async throws {
        let image = try GIFImage(contentsOf: GIFFrameSourceTests.fixture("demo.gif"))
        let full = PlayerDrawTests.expectedFrames(image, format: .rgba8)
        try await Self.play(
            GIFFrameSource(image: image, executor: PlayerDrawTests.executor), expected: full, seed: 1, label: "full size")

        // The same cell resized: a new display size is a new drawer, drawn whole first.
        for (seed, size) in [(2, DisplaySize(maxWidth: 70, maxHeight: 70)),
                             (3, DisplaySize(width: 50, height: 50, contentMode: .aspectFill, alignment: .topLeft))] {
            let canvas = image.info.canvasSize
            let filter = BoxFilter(sourceWidth: canvas.width, sourceHeight: canvas.height, displaySize: size)
            let expected = PlayerDrawTests.filtered(full, by: filter)
            let source = try #require(
                GIFFrameSource(image: image, executor: PlayerDrawTests.executor).displaying(at: size) as? GIFFrameSource)
            try await Self.play(source, expected: expected, seed: UInt64(seed), label: "\(size)")
        }
    }
}
