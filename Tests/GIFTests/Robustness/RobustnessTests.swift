import Foundation
import Testing
@testable import GIF

/// Every corpus file decodes or fails with a typed error: no crash, no hang.
@Suite(.timeLimit(.minutes(2))) struct RobustnessTests {
    /// Decodes every frame; returns the frames decoded and the error, if any.
    static func decodeAll(_ bytes: [UInt8]) -> (frames: Int, error: GIFError?) {
        do {
            let image = try GIFImage(bytes: bytes)
            var frames = image.makeFrameIterator()
            var count = 0
            while try frames.next() != nil { count += 1 }
            return (count, nil)
        } catch {
            return (error.framesDecoded, error)
        }
    }

    @Test(arguments: ["nsgif", "pillow", "image-gif/crashtest", "image-gif/regression", "image-gif/stall",
                      "image-gif/samples", "blink", "go", "not-gif"])
    func everyFileDecodesOrFailsTyped(_ folder: String) throws {
        let names = Corpus.files(in: folder).filter { !$0.hasSuffix(".txt") && !$0.contains("LICENSE") && !$0.hasSuffix("COPYING") }
        #expect(!names.isEmpty)
        for name in names {
            let (frames, error) = Self.decodeAll(try Corpus.bytes(name))
            if let error {
                // The evidence is consistent: the error names no frame past
                // the ones decoded plus the one that failed.
                #expect(error.framesDecoded == frames)
                if let index = error.frameIndex { #expect(index <= frames, "\(name): \(error)") }
            }
        }
    }

    @Test func stallFileFinishesQuickly() throws {
        let bytes = try Corpus.bytes("image-gif/stall/issue-101-infinite-empty-loop.gif")
        let clock = ContinuousClock()
        let elapsed = clock.measure { _ = Self.decodeAll(bytes) }
        // A hang check, not a speed figure: the corpus's rule is "within 1 s".
        #expect(elapsed < .seconds(1))
    }

    @Test func pillowFilesThatMustDecodeCleanly() throws {
        // Files whose structure is sound: unusual palettes and extents, not damage.
        for name in ["dispose_bgnd.gif", "dispose_none.gif", "dispose_prev.gif", "iss634.gif", "no_palette.gif",
                     "test_extents.gif", "hopper.gif", "transparent.gif"] {
            let (frames, error) = Self.decodeAll(try Corpus.bytes("pillow/\(name)"))
            #expect(error == nil, "\(name): \(String(describing: error))")
            #expect(frames > 0)
        }
    }
}
