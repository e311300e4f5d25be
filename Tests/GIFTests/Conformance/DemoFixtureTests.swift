import Testing
import GIF

/// `demo.gif` as constructed (Sources/GIFFixtureGenerator/Fixtures/Fixture+Demo.swift),
/// restated here: 160×120, 6 segments of 40 frames, looping forever. Frame
/// 40s fills the canvas with index x/10 + 16·((y/8 + s) mod 14) (disposal
/// s mod 2, 20 cs); frames 40s + j (j = 1…39) are 16×16 discs at
/// (4 + 3j + 4s, 4 + 2·|(5j + 9s) mod 96 − 48|), 4 cs, transparent index 0
/// outside (2u−15)² + (2v−15)² ≤ 225, ring (> 121) index 224 + j mod 16, core
/// 240 + (5s + j) mod 16, disposal 3, 2, 1 for s mod 3 = 0, 1, 2.
enum DemoModel {
    static let width = 160
    static let height = 120

    static func color(_ i: Int) -> RGBA {
        i < 224 ? RGBA(UInt8(64 + 12 * (i % 16)), UInt8(64 + 12 * (i / 16)), 160) : RGBA(255, UInt8(8 * (i - 224)), 40)
    }

    static func background(_ x: Int, _ y: Int, segment s: Int) -> Int {
        x / 10 + 16 * ((y / 8 + s) % 14)
    }

    static func spriteRect(_ j: Int, segment s: Int) -> PixelRect {
        PixelRect(x: 4 + 3 * j + 4 * s, y: 4 + 2 * abs((5 * j + 9 * s) % 96 - 48), width: 16, height: 16)
    }

    /// The sprite's index at (u, v) of its rectangle, `nil` where transparent.
    static func sprite(_ j: Int, segment s: Int, _ u: Int, _ v: Int) -> Int? {
        let du = 2 * u - 15, dv = 2 * v - 15
        let d = du * du + dv * dv
        return d > 225 ? nil : d > 121 ? 224 + j % 16 : 240 + (5 * s + j) % 16
    }

    static func spriteDisposal(segment s: Int) -> UInt8 { [3, 2, 1][s % 3] }

    static func rect(of k: Int) -> PixelRect {
        k % 40 == 0 ? PixelRect(x: 0, y: 0, width: width, height: height) : spriteRect(k % 40, segment: k / 40)
    }

    static func disposal(of k: Int) -> UInt8 {
        k % 40 == 0 ? UInt8(k / 40 % 2) : spriteDisposal(segment: k / 40)
    }

    /// The canvas shown for frame `k`: the segment's grid, what earlier
    /// sprites of the segment left after their disposal, then sprite `k`.
    static func canvas(frame k: Int) -> [RGBA] {
        let s = k / 40, j = k % 40
        var canvas = (0..<width * height).map { (p: Int) -> RGBA in color(background(p % width, p / width, segment: s)) }
        func paint(_ j: Int) {
            let r = spriteRect(j, segment: s)
            for v in 0..<16 {
                for u in 0..<16 {
                    if let i = sprite(j, segment: s, u, v) { canvas[(r.y + v) * width + r.x + u] = color(i) }
                }
            }
        }
        if j > 0 {
            for earlier in 1..<j {
                switch spriteDisposal(segment: s) {
                case 1: paint(earlier)
                case 2:
                    let r = spriteRect(earlier, segment: s)
                    for v in 0..<16 {
                        for u in 0..<16 { canvas[(r.y + v) * width + r.x + u] = .clear }
                    }
                default: break  // 3: restored to what was there before it.
                }
            }
            paint(j)
        }
        return canvas
    }
}

@Suite("Fixtures: demo animation")
struct DemoFixtureTests {
    @Test func structure() throws {
        let info = try Fixture.open("demo.gif").info
        #expect(info.canvasSize == PixelSize(width: 160, height: 120))
        #expect(info.frameCount == 240)
        #expect(info.loopCount.stored == 0)
        #expect(info.loopCount.plays == nil)
        #expect(info.comments == ["swift-gif-engine demo: 240 frames, 160x120"])
        #expect(info.frames.map(\.rect) == (0..<240).map(DemoModel.rect(of:)))
        #expect(info.frames.map(\.disposal.rawValue) == (0..<240).map(DemoModel.disposal(of:)))
        #expect(info.frames.map(\.delayCentiseconds) == (0..<240).map { $0 % 40 == 0 ? 20 : 4 })
        #expect(info.frames.map(\.transparentIndex) == (0..<240).map { $0 % 40 == 0 ? nil : 0 })
        #expect(info.totalDuration == .milliseconds(6 * (200 + 39 * 40)))
        #expect(info.hasTrailer)
        #expect(info.error == nil)
    }

    @Test func everyFrameMatchesTheConstruction() throws {
        var iterator = try Fixture.open("demo.gif").makeFrameIterator()
        var count = 0
        var differences: [String] = []
        while let frame = try iterator.next() {
            #expect(frame.index == count)
            let expected = DemoModel.canvas(frame: frame.index)
            if let difference = firstDifference(frame, { x, y in expected[y * DemoModel.width + x] }) {
                differences.append(difference)
            }
            count += 1
        }
        #expect(count == 240)
        // One line for all frames: a wrong rule usually breaks dozens of them.
        #expect(differences.isEmpty, "\(differences.count) frames differ, first: \(differences.first ?? "")")
    }
}
