import GIF
import GIFPlayback
import Playback

/// ``Player/currentImage()``'s contract as a property: for a GIF, a pixel
/// layout, a display size and a play script, every image is the reference
/// frame, its changed rectangle covers every pixel where the frame differs
/// from the one before, and every image the host still holds keeps its
/// pixels while the player draws on (at most two canvases, whatever the
/// host holds).
extension DrawingContract {
    /// Which images the host keeps as it goes.
    package enum Holding: String, CaseIterable, Sendable {
        /// Lets go of each image at once: the player draws into one canvas.
        case none
        /// Keeps the previous image until the next arrives, as a view
        /// swapping images does.
        case previous
        /// Keeps the last two.
        case lastTwo
        /// Keeps a random few, for random spans.
        case random
    }

    /// Plays `run`'s script through a ``Player`` of `image` (seeking to each
    /// step's frame, then asking for its image), keeping images as
    /// `holding` says, and checks each image and every image held.
    package static func checkImages(
        _ image: GIFImage, references: References, run: Case, holding: Holding, executor: FrameDecodeExecutor,
        seed: UInt64
    ) async -> Outcome {
        guard let expected = references.frames(run.format, at: run.size) else { return .passed }
        let full = GIFFrameSource(image: image, executor: executor, pixelFormat: run.format)
        let source = run.size.map { full.displaying(at: $0) } ?? full
        guard let player = try? Player(source: source, startingAt: ContinuousClock.now) else {
            return .failed("no player")
        }
        let canvasBytes = expected.first?.count ?? 0
        var random = GeneratedGIF.Random(state: seed)
        var held: [RenderedFrame] = []
        for (n, step) in run.script.steps(frames: expected.count, seed: seed).enumerated() {
            guard case .draw(let asked) = step else {
                held.removeAll()
                continue
            }
            let index = asked % expected.count
            let shown: RenderedFrame
            do {
                try await player.seek(toFrame: index)
                shown = try await player.currentImage()
            } catch {
                return .failed("step \(n) (frame \(index)): threw \(error)")
            }
            let label = "step \(n) (frame \(index), holding \(holding))"
            guard shown.index == index, shown.pixels.count == canvasBytes else {
                return .failed("\(label): got frame \(shown.index) of \(shown.pixels.count) bytes")
            }
            if shown.pixels != expected[index] { return .failed("\(label): the pixels are not the reference's") }
            if index > 0, let change = firstChange(
                from: expected[index - 1], to: expected[index], width: shown.width, outside: shown.changedRect) {
                return .failed("\(label): pixel \(change) changed from frame \(index - 1) outside \(shown.changedRect)")
            }
            for kept in held where kept.pixels != expected[kept.index] {
                return .failed("\(label): a held image of frame \(kept.index) changed")
            }
            let canvases = player.imageCanvasBytes
            if canvases > 2 * canvasBytes { return .failed("\(label): \(canvases) bytes of canvases") }
            switch holding {
            case .none: break
            case .previous: held = [shown]
            case .lastTwo: held = (held + [shown]).suffix(2)
            case .random:
                if random.chance(40) { held.append(shown) }
                if !held.isEmpty, held.count > 3 || random.chance(20) { held.remove(at: random.below(held.count)) }
            }
        }
        return .passed
    }
}
