import Foundation
import GIF
import GIFPlayback
import Playback
import Testing

/// The signature every document's snippet function has.
typealias SnippetDocument = (
    String, [UInt8], GIFImage, any FrameSource, ContinuousClock, Player<ContinuousClock.Instant>
) async throws -> Void

/// Runs a document's snippets on `Fixtures/demo.gif` (240 frames, 160 × 120,
/// looping forever), with the names the docs say their snippets may use.
func run(_ document: SnippetDocument) async throws {
    let path = packageRoot.appendingPathComponent("Fixtures/demo.gif").path
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    let image = try GIFImage(bytes: bytes)
    let source = GIFFrameSource(image: image)
    let clock = ContinuousClock()
    let player = try Player(source: source, startingAt: clock.now)
    try await document(path, bytes, image, source, clock, player)
}

/// Each document's snippets run in order, as a reader would run them; the
/// functions they only declare are compiled, not called.
@Suite("Documentation snippets run")
struct RunSnippetsTests {
    @Test("The README's snippets run")
    func readme() async throws { try await run(Snippets.readme) }

    @Test("Decoding a GIF's snippets run")
    func decodingAGIF() async throws { try await run(Snippets.decodingAGIF) }

    @Test("Playing a GIF's snippets run")
    func playingAGIF() async throws { try await run(Snippets.playingAGIF) }

    @Test("Playing a feed's snippets run")
    func playingAFeed() async throws { try await run(Snippets.playingAFeed) }

    @Test("Loading progressively's snippets run")
    func loadingProgressively() async throws { try await run(Snippets.loadingProgressively) }
}
