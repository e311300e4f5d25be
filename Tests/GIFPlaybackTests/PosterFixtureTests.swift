import Foundation
import GIF
import GIFPlayback
import Playback
import Testing

/// Posters of a real GIF, against averages computed here from the decoder's
/// own first frame.
@Suite struct PosterFixtureTests {
    static let demo = GIFFrameSourceTests.fixture("demo.gif")

    /// Demo.gif is 160 × 120; its first frame is an opaque full-canvas grid,
    /// so the box filter is the plain mean of each `factor` × `factor` block.
    @Test(arguments: [(40, 4), (80, 2)])
    func firstFrameIsTheBlockMean(maxSize: Int, factor: Int) async throws {
        let frame = try GIFImage(contentsOf: Self.demo).frame(at: 0)
        #expect(frame.size == PixelSize(width: 160, height: 120))
        #expect(stride(from: 3, to: frame.pixels.count, by: 4).allSatisfy { frame.pixels[$0] == 255 })
        let width = 160 / factor, height = 120 / factor
        var expected: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                for channel in 0..<4 {
                    var sum = 0
                    for dy in 0..<factor {
                        for dx in 0..<factor {
                            sum += Int(frame.pixels[((y * factor + dy) * 160 + x * factor + dx) * 4 + channel])
                        }
                    }
                    expected.append(UInt8((Double(sum) / Double(factor * factor)).rounded()))
                }
            }
        }
        let poster = try await Poster.make(from: GIFFrameSource(contentsOf: Self.demo), maxSize: maxSize)
        #expect(poster.width == width && poster.height == height)
        #expect(poster.pixels == expected)
    }

    /// 128 is not a whole fraction of 160: source pixels straddle output
    /// pixels and are weighted by the area they give each (within rounding).
    @Test func fractionalScaleMatchesAnAreaWeightedMean() async throws {
        let frame = try GIFImage(contentsOf: Self.demo).frame(at: 0)
        let poster = try await Poster.make(from: GIFFrameSource(contentsOf: Self.demo), maxSize: 128)
        #expect(poster.width == 128 && poster.height == 96)
        let scale = 160.0 / 128.0
        var worst = 0
        for y in 0..<96 {
            for x in 0..<128 {
                let x0 = Double(x) * scale, x1 = x0 + scale, y0 = Double(y) * scale, y1 = y0 + scale
                var sums = [0.0, 0.0, 0.0]
                for sy in Int(y0)..<min(120, Int(y1.rounded(.up))) {
                    let wy = min(y1, Double(sy + 1)) - max(y0, Double(sy))
                    for sx in Int(x0)..<min(160, Int(x1.rounded(.up))) {
                        let w = (min(x1, Double(sx + 1)) - max(x0, Double(sx))) * wy
                        for c in 0..<3 { sums[c] += w * Double(frame.pixels[(sy * 160 + sx) * 4 + c]) }
                    }
                }
                for c in 0..<3 {
                    let expected = Int((sums[c] / (scale * scale)).rounded())
                    worst = max(worst, abs(expected - Int(poster.pixels[(y * 128 + x) * 4 + c])))
                }
            }
        }
        #expect(worst <= 1)
    }
}
