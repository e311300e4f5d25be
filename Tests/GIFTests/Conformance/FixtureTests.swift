import Testing
import GIF

// Each fixture's expected canvases are written here from its construction
// (Fixtures/README.md, Sources/GIFFixtureGenerator), never from a decoder's
// output. Maps: one character per pixel, R G B Y C M W Z = palette entries
// 0–7, K opaque black, . transparent black (see CanvasMap).

/// The fixtures directory holds exactly the files these tests know about.
@Suite("Fixtures: inventory")
struct FixtureInventoryTests {
    static let known = [
        "delays.gif", "demo.gif", "disposal-0.gif", "disposal-1.gif", "disposal-2.gif", "disposal-3-first-frame.gif",
        "disposal-3.gif", "disposal-4.gif", "disposal-5.gif", "disposal-6.gif", "disposal-7.gif",
        "extra-pixel-data.gif", "first-frame-growth.gif", "gce-last-wins.gif", "index-past-palette.gif",
        "interlace.gif", "local-palette.gif", "loop-2.gif", "loop-absent.gif", "loop-forever.gif",
        "loop-latest-wins.gif", "no-palette.gif", "no-trailer.gif", "palette-256.gif", "screen-recording.gif",
        "transparency.gif", "truncated.gif", "unknown-block.gif", "zero-size-frame.gif",
    ]

    @Test func everyFixtureIsCovered() {
        #expect(Fixture.names == Self.known)
    }

    @Test(arguments: known)
    func isAGIF89a(_ name: String) throws {
        let image = try Fixture.open(name)
        #expect(image.info.version == .gif89a)
        #expect(image.info.frameCount > 0)
    }
}

@Suite("Fixtures: disposal")
struct DisposalFixtureTests {
    /// 4×4: red fill (keep); blue 2×2 at (1,1) and green at (0,0) with
    /// disposal n; yellow at (3,3) (keep).
    @Test(arguments: 0...7)
    func disposal(_ n: Int) throws {
        let image = try Fixture.open("disposal-\(n).gif")
        let expected: Disposal = switch n {
        case 0: .unspecified
        case 1: .keep
        case 2: .restoreBackground
        case 3: .restorePrevious
        default: .reserved(UInt8(n))
        }
        #expect(image.info.canvasSize == PixelSize(width: 4, height: 4))
        #expect(image.info.backgroundIndex == 5)
        #expect(image.info.frames.map(\.disposal) == [.keep, expected, expected, .keep])
        #expect(image.info.frames.map(\.disposal.rawValue) == [1, UInt8(n), UInt8(n), 1])
        #expect(image.info.frames.map(\.rect) == [
            PixelRect(x: 0, y: 0, width: 4, height: 4), PixelRect(x: 1, y: 1, width: 2, height: 2),
            PixelRect(x: 0, y: 0, width: 1, height: 1), PixelRect(x: 3, y: 3, width: 1, height: 1),
        ])

        let frames = try Fixture.frames(of: image)
        #expect(frames.count == 4)
        #expect(frames.map(\.index) == [0, 1, 2, 3])
        #expect(frames.allSatisfy { $0.isComplete })
        #expect(frames.map(\.disposal) == [.keep, expected, expected, .keep])
        #expect(CanvasMap.render(frames[0]) == "RRRR\nRRRR\nRRRR\nRRRR")
        #expect(CanvasMap.render(frames[1]) == "RRRR\nRBBR\nRBBR\nRRRR")
        switch n {
        case 2:
            // Blue's rectangle, then green's, cleared to transparent black
            // (never to the magenta background colour).
            #expect(CanvasMap.render(frames[2]) == "GRRR\nR..R\nR..R\nRRRR")
            #expect(CanvasMap.render(frames[3]) == ".RRR\nR..R\nR..R\nRRRY")
        case 3, 4:
            // Each restores the red fill that was under it.
            #expect(CanvasMap.render(frames[2]) == "GRRR\nRRRR\nRRRR\nRRRR")
            #expect(CanvasMap.render(frames[3]) == "RRRR\nRRRR\nRRRR\nRRRY")
        default:
            // 0, 1, 5, 6, 7 keep.
            #expect(CanvasMap.render(frames[2]) == "GRRR\nRBBR\nRBBR\nRRRR")
            #expect(CanvasMap.render(frames[3]) == "GRRR\nRBBR\nRBBR\nRRRY")
        }
    }

    /// 4×4: red fill with disposal 3, then blue 2×2 at (1,1).
    @Test func restorePreviousOnTheFirstFrame() throws {
        let frames = try Fixture.frames("disposal-3-first-frame.gif")
        #expect(frames.map(\.disposal) == [.restorePrevious, .keep])
        #expect(frames.count == 2)
        #expect(CanvasMap.render(frames[0]) == "RRRR\nRRRR\nRRRR\nRRRR")
        #expect(CanvasMap.render(frames[1]) == "....\n.BB.\n.BB.\n....")
    }
}

@Suite("Fixtures: transparency and control extensions")
struct TransparencyFixtureTests {
    /// 4×4: red with transparent gray (7) at (3,3); a checkerboard of blue
    /// (x + y odd) and transparent white (6, x + y even); opaque gray at (0,0)
    /// without a GCE.
    @Test func transparentPixelsKeepTheCanvas() throws {
        let image = try Fixture.open("transparency.gif")
        #expect(image.info.frames.map(\.transparentIndex) == [7, 6, nil])
        #expect(image.info.frames.map(\.hasControlExtension) == [true, true, false])
        let frames = try Fixture.frames(of: image)
        #expect(frames.count == 3)
        #expect(CanvasMap.render(frames[0]) == "RRRR\nRRRR\nRRRR\nRRR.")
        #expect(CanvasMap.render(frames[1]) == "RBRB\nBRBR\nRBRB\nBRB.")
        #expect(CanvasMap.render(frames[2]) == "ZBRB\nBRBR\nRBRB\nBRB.")
    }

    /// The raw checkerboard frame: indices as stored; the transparent index
    /// gives alpha 0 and keeps white's RGB.
    @Test func rawFrameKeepsTheTransparentIndexRGB() throws {
        let raw = try Fixture.open("transparency.gif").rawFrame(at: 1)
        let checker: [UInt8] = (0..<16).map { (p: Int) -> UInt8 in (p % 4 + p / 4) % 2 == 0 ? 6 : 2 }
        #expect(raw.indices == checker)
        #expect(raw.isComplete)
        let rgba = raw.rgba()
        let expected: [UInt8] = checker.flatMap { $0 == 6 ? [255, 255, 255, 0] : [0, 0, 255, 255] }
        #expect(rgba == expected)
    }

    /// 2×2. GCE (disposal 2, 50 cs) then GCE (disposal 1, 7 cs, transparent
    /// 1); frame 0 red with green at (1,0). Frame 1, no GCE: green at (1,0).
    @Test func theLastControlExtensionWins() throws {
        let image = try Fixture.open("gce-last-wins.gif")
        let info = image.info.frames
        #expect(info.count == 2)
        #expect(info.map(\.disposal) == [.keep, .unspecified])
        #expect(info.map(\.delayCentiseconds) == [7, 0])
        #expect(info.map(\.transparentIndex) == [1, nil])
        let frames = try Fixture.frames(of: image)
        #expect(CanvasMap.render(frames[0]) == "R.\nRR")
        // Disposal 2 from the first GCE would have cleared the canvas; the
        // transparency of frame 0's GCE would have hidden this green.
        #expect(CanvasMap.render(frames[1]) == "RG\nRR")
    }
}

@Suite("Fixtures: interlace")
struct InterlaceFixtureTests {
    /// Entry i of the 16-entry ramp: (16i, 128, 255 − 16i).
    static func ramp(_ i: Int) -> RGBA { RGBA(UInt8(16 * i), 128, UInt8(255 - 16 * i)) }

    /// 4×10: frame 0 interlaced, pixel (x, y) = (y + 2x) mod 16; frame 1
    /// interlaced at (1,1) 2×9, pixel (fx, fy) = (fx + fy + 8) mod 16.
    @Test func rowsLandInPassOrder() throws {
        let image = try Fixture.open("interlace.gif")
        #expect(image.info.frames.map(\.isInterlaced) == [true, true])
        #expect(image.info.frames.map(\.rect) == [
            PixelRect(x: 0, y: 0, width: 4, height: 10), PixelRect(x: 1, y: 1, width: 2, height: 9),
        ])
        #expect(image.info.globalPalette?.colors.count == 16)
        let frames = try Fixture.frames(of: image)
        #expect(frames.count == 2)
        let first = { (x: Int, y: Int) in Self.ramp((y + 2 * x) % 16) }
        #expect(firstDifference(frames[0], first) == nil)
        #expect(firstDifference(frames[1]) { x, y in
            (1...2).contains(x) && (1...9).contains(y) ? Self.ramp((x - 1 + y - 1 + 8) % 16) : first(x, y)
        } == nil)
    }

    @Test func rawFrameIsInDisplayOrder() throws {
        let raw = try Fixture.open("interlace.gif").rawFrame(at: 0)
        #expect(raw.indices == (0..<40).map { (p: Int) -> UInt8 in UInt8((p / 4 + 2 * (p % 4)) % 16) })
    }
}

@Suite("Fixtures: palettes")
struct PaletteFixtureTests {
    static let local: [Character: RGBA] = CanvasMap.standard.merging([
        "a": RGBA(10, 20, 30), "b": RGBA(40, 50, 60), "c": RGBA(70, 80, 90), "d": RGBA(100, 110, 120),
    ]) { $1 }

    /// 4×4: columns red, green, blue, yellow; a 4×2 frame at (0,2) with local
    /// table a b c d by column; global cyan (4) at (3,0).
    @Test func aLocalTableWinsForItsFrameOnly() throws {
        let image = try Fixture.open("local-palette.gif")
        #expect(image.info.globalPalette?.colors.count == 8)
        #expect(image.info.frames.map { $0.localPalette?.colors.count } == [nil, 4, nil])
        #expect(image.info.frames[1].localPalette?.colors == [
            Palette.Color(red: 10, green: 20, blue: 30), Palette.Color(red: 40, green: 50, blue: 60),
            Palette.Color(red: 70, green: 80, blue: 90), Palette.Color(red: 100, green: 110, blue: 120),
        ])
        let frames = try Fixture.frames(of: image)
        #expect(frames.count == 3)
        #expect(CanvasMap.render(frames[0], legend: Self.local) == "RGBY\nRGBY\nRGBY\nRGBY")
        #expect(CanvasMap.render(frames[1], legend: Self.local) == "RGBY\nRGBY\nabcd\nabcd")
        #expect(CanvasMap.render(frames[2], legend: Self.local) == "RGBC\nRGBY\nabcd\nabcd")
    }

    /// 4×2, no colour table anywhere, transparent index 3; rows 0 1 2 3 / 3 2 1 0.
    @Test func noTableMeansOpaqueBlack() throws {
        let image = try Fixture.open("no-palette.gif")
        #expect(image.info.globalPalette == nil)
        #expect(image.info.frames.map(\.localPalette) == [nil])
        let frames = try Fixture.frames(of: image)
        #expect(frames.count == 1)
        #expect(CanvasMap.render(frames[0]) == "KKK.\n.KKK")
        #expect(try image.rawFrame(at: 0).indices == [0, 1, 2, 3, 3, 2, 1, 0])
    }

    /// 4×2, a 2-entry table (red, green); rows 0 1 2 3 / 3 2 1 0.
    @Test func anIndexPastTheTableIsOpaqueBlack() throws {
        let image = try Fixture.open("index-past-palette.gif")
        #expect(image.info.globalPalette?.colors == [
            Palette.Color(red: 255, green: 0, blue: 0), Palette.Color(red: 0, green: 255, blue: 0),
        ])
        let frames = try Fixture.frames(of: image)
        #expect(frames.count == 1)
        #expect(CanvasMap.render(frames[0]) == "RGKK\nKKGR")
        let raw = try image.rawFrame(at: 0)
        #expect(raw.indices == [0, 1, 2, 3, 3, 2, 1, 0])
        #expect(raw.rgba() == [
            255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255,
            0, 0, 0, 255, 0, 0, 0, 255, 0, 255, 0, 255, 255, 0, 0, 255,
        ])
    }

    /// Entry i of the 256-entry table: (i, 255 − i, 7i mod 256).
    static func full(_ i: Int) -> RGBA { RGBA(UInt8(i), UInt8(255 - i), UInt8(i * 7 & 0xFF)) }

    /// 16×16: index 16y + x, then the transpose 16x + y.
    @Test func everyIndexOfAFullTable() throws {
        let image = try Fixture.open("palette-256.gif")
        #expect(image.info.globalPalette?.colors.count == 256)
        #expect(image.info.globalPalette?.colors[200] == Palette.Color(red: 200, green: 55, blue: 0x78))
        let frames = try Fixture.frames(of: image)
        #expect(frames.count == 2)
        #expect(firstDifference(frames[0]) { x, y in Self.full(16 * y + x) } == nil)
        #expect(firstDifference(frames[1]) { x, y in Self.full(16 * x + y) } == nil)
    }
}

@Suite("Fixtures: canvas and frame shapes")
struct CanvasFixtureTests {
    /// Screen 4×4; red 4×4 at (2,2) grows the canvas to 6×6; blue 4×4 at
    /// (4,4) with disposal 2; green at (0,0); yellow 2×2 at (10,10).
    @Test func theFirstFrameGrowsTheCanvasLaterOnesAreClipped() throws {
        let image = try Fixture.open("first-frame-growth.gif")
        #expect(image.info.screenSize == PixelSize(width: 4, height: 4))
        #expect(image.info.canvasSize == PixelSize(width: 6, height: 6))
        #expect(image.info.frames.map(\.rect) == [
            PixelRect(x: 2, y: 2, width: 4, height: 4), PixelRect(x: 4, y: 4, width: 4, height: 4),
            PixelRect(x: 0, y: 0, width: 1, height: 1), PixelRect(x: 10, y: 10, width: 2, height: 2),
        ])
        let frames = try Fixture.frames(of: image)
        #expect(frames.count == 4)
        #expect(frames.allSatisfy { $0.size == PixelSize(width: 6, height: 6) })
        #expect(CanvasMap.render(frames[0]) == "......\n......\n..RRRR\n..RRRR\n..RRRR\n..RRRR")
        #expect(CanvasMap.render(frames[1]) == "......\n......\n..RRRR\n..RRRR\n..RRBB\n..RRBB")
        #expect(CanvasMap.render(frames[2]) == "G.....\n......\n..RRRR\n..RRRR\n..RR..\n..RR..")
        #expect(CanvasMap.render(frames[3]) == "G.....\n......\n..RRRR\n..RRRR\n..RR..\n..RR..")
    }

    /// 4×4: red (10 cs); 0×2 at (1,1) (20 cs, disposal 2); 3×0 at (2,2)
    /// (30 cs, disposal 2); green at (0,0) (40 cs).
    @Test func zeroSizeFramesCountButPaintNothing() throws {
        let image = try Fixture.open("zero-size-frame.gif")
        #expect(image.info.frameCount == 4)
        #expect(image.info.frames.map(\.rect) == [
            PixelRect(x: 0, y: 0, width: 4, height: 4), PixelRect(x: 1, y: 1, width: 0, height: 2),
            PixelRect(x: 2, y: 2, width: 3, height: 0), PixelRect(x: 0, y: 0, width: 1, height: 1),
        ])
        #expect(image.info.frames.map(\.delayCentiseconds) == [10, 20, 30, 40])
        #expect(image.info.totalDuration == .seconds(1))
        let frames = try Fixture.frames(of: image)
        #expect(frames.count == 4)
        #expect(frames.map(\.delay) == [.milliseconds(100), .milliseconds(200), .milliseconds(300), .milliseconds(400)])
        #expect(frames.allSatisfy { $0.isComplete })
        #expect(CanvasMap.render(frames[0]) == "RRRR\nRRRR\nRRRR\nRRRR")
        #expect(CanvasMap.render(frames[1]) == "RRRR\nRRRR\nRRRR\nRRRR")
        #expect(CanvasMap.render(frames[2]) == "RRRR\nRRRR\nRRRR\nRRRR")
        #expect(CanvasMap.render(frames[3]) == "GRRR\nRRRR\nRRRR\nRRRR")
    }

    /// 4×4 screen: a 4×2 frame whose data holds rows red, green, blue,
    /// yellow; then white at (0,0).
    @Test func pixelDataPastTheRectangleIsIgnored() throws {
        let image = try Fixture.open("extra-pixel-data.gif")
        #expect(image.info.frames.map(\.rect) == [
            PixelRect(x: 0, y: 0, width: 4, height: 2), PixelRect(x: 0, y: 0, width: 1, height: 1),
        ])
        let frames = try Fixture.frames(of: image)
        #expect(frames.count == 2)
        #expect(CanvasMap.render(frames[0]) == "RRRR\nGGGG\n....\n....")
        #expect(CanvasMap.render(frames[1]) == "WRRR\nGGGG\n....\n....")
        #expect(try image.rawFrame(at: 0).indices == [0, 0, 0, 0, 1, 1, 1, 1])
    }
}

@Suite("Fixtures: loops and delays")
struct TimingFixtureTests {
    struct LoopCase: Sendable, CustomTestStringConvertible {
        var name: String
        var stored: Int?
        var plays: Int?
        var testDescription: String { name }
    }

    static let loops = [
        LoopCase(name: "loop-absent.gif", stored: nil, plays: 1),
        LoopCase(name: "loop-forever.gif", stored: 0, plays: nil),
        LoopCase(name: "loop-2.gif", stored: 2, plays: 3),
        LoopCase(name: "loop-latest-wins.gif", stored: 2, plays: 3),
    ]

    /// 2×2: red then green, 10 cs each, with the loop extension(s) named.
    @Test(arguments: loops)
    func loopCount(_ loop: LoopCase) throws {
        let image = try Fixture.open(loop.name)
        #expect(image.info.loopCount.stored == loop.stored)
        #expect(image.info.loopCount.plays == loop.plays)
        #expect(image.info.loopCount.isForever == (loop.plays == nil))
        // Loop extensions are not listed with the other application extensions.
        #expect(image.info.applicationExtensions.isEmpty)
        let frames = try Fixture.frames(of: image)
        #expect(frames.count == 2)
        #expect(frames.map(\.info.delayCentiseconds) == [10, 10])
        #expect(CanvasMap.render(frames[0]) == "RR\nRR")
        #expect(CanvasMap.render(frames[1]) == "GG\nGG")
    }

    /// 2×2: red, green, blue, yellow with delays 0, 1, 2, 10 cs; loops
    /// forever; one comment.
    @Test func delaysAreRawAndBrowserNormalised() throws {
        let image = try Fixture.open("delays.gif")
        let info = image.info
        #expect(info.comments == ["delays 0, 1, 2 and 10 centiseconds"])
        #expect(info.loopCount.stored == 0)
        #expect(info.loopCount.plays == nil)
        #expect(info.frames.map(\.delayCentiseconds) == [0, 1, 2, 10])
        #expect(info.frames.map(\.delay) == [.zero, .milliseconds(10), .milliseconds(20), .milliseconds(100)])
        #expect(info.frames.map(\.browserDelay) == [
            .milliseconds(100), .milliseconds(100), .milliseconds(20), .milliseconds(100),
        ])
        #expect(info.totalDuration == .milliseconds(130))
        #expect(info.browserDuration == .milliseconds(320))
        let frames = try Fixture.frames(of: image)
        #expect(frames.map(\.delay) == info.frames.map(\.delay))
        #expect(frames.map(\.browserDelay) == info.frames.map(\.browserDelay))
        #expect(frames.map { CanvasMap.render($0) } == ["RR\nRR", "GG\nGG", "BB\nBB", "YY\nYY"])
    }
}

@Suite("Fixtures: stream ends")
struct StreamFixtureTests {
    /// palette-256.gif cut half-way through frame 1's data: frame 0 (index
    /// 16y + x) whole; frame 1 (index 16x + y) shows a prefix of its pixels in
    /// stream order over frame 0; then a truncation error naming frame 1.
    @Test func aTruncatedFileKeepsTheFramesBeforeTheCut() throws {
        let whole = try Fixture.bytes("palette-256.gif")
        let cut = try Fixture.bytes("truncated.gif")
        #expect(cut.count < whole.count)
        #expect(Array(whole.prefix(cut.count)) == cut)

        let image = try GIFImage(bytes: cut)
        #expect(image.info.frameCount == 2)
        #expect(image.info.frames.map(\.isTruncated) == [false, true])
        #expect(image.info.hasTrailer == false)
        #expect(image.info.error?.kind == .truncated(block: .imageData))
        #expect(image.info.error?.frameIndex == 1)

        var iterator = image.makeFrameIterator()
        let first = try #require(try iterator.next())
        #expect(first.isComplete)
        #expect(firstDifference(first) { x, y in PaletteFixtureTests.full(16 * y + x) } == nil)

        // How far frame 1 got depends on where LZW codes fall, not on a rule;
        // the rule is that what was decoded is shown, in stream order, over
        // frame 0, and the rest keeps frame 0.
        let decoded = try image.rawFrame(at: 1).decodedPixelCount
        #expect(decoded > 0 && decoded < 256)
        let partial = try #require(try iterator.next())
        #expect(partial.index == 1)
        #expect(partial.isComplete == false)
        #expect(firstDifference(partial) { x, y in
            PaletteFixtureTests.full(16 * y + x < decoded ? 16 * x + y : 16 * y + x)
        } == nil)

        let error = #expect(throws: GIFError.self) { _ = try iterator.next() }
        #expect(error?.kind == .truncated(block: .imageData))
        #expect(error?.frameIndex == 1)
        #expect(error?.framesDecoded == 2)
        #expect(try iterator.next() == nil)
    }

    /// The same file read from its path, and frame 0 asked for directly.
    @Test func theFrameBeforeTheCutIsReachableDirectly() throws {
        let image = try Fixture.open("truncated.gif")
        let frame = try image.frame(at: 0)
        #expect(frame.isComplete)
        #expect(firstDifference(frame) { x, y in PaletteFixtureTests.full(16 * y + x) } == nil)
    }

    /// 2×2: red, green, no trailer.
    @Test func aMissingTrailerIsNotAnError() throws {
        let image = try Fixture.open("no-trailer.gif")
        #expect(image.info.hasTrailer == false)
        #expect(image.info.error == nil)
        let frames = try Fixture.frames(of: image)
        #expect(frames.map { CanvasMap.render($0) } == ["RR\nRR", "GG\nGG"])
    }

    /// 2×2: red, the byte 0x99, then a green frame.
    @Test func anUnknownBlockEndsTheStream() throws {
        let image = try Fixture.open("unknown-block.gif")
        #expect(image.info.frameCount == 1)
        #expect(image.info.hasTrailer == false)
        #expect(image.info.error == nil)
        let frames = try Fixture.frames(of: image)
        #expect(frames.map { CanvasMap.render($0) } == ["RR\nRR"])
    }
}
