import Foundation
import Testing
@testable import GIF

/// Canvases in the host's layout, each frame's changed rectangle, and
/// drawing into a host buffer with a row stride.
@Suite struct PixelLayoutTests {
    /// Every GIF in the corpus folders of GIFs.
    static let corpus: [String] = ["blink", "go", "image-gif", "nsgif", "pillow"]
        .flatMap { Corpus.files(in: $0) }
        .filter { $0.hasSuffix(".gif") }

    /// Every frame an iterator returns, until it ends or throws.
    static func frames(_ image: GIFImage, format: PixelFormat = .rgba8) -> (frames: [CompositedFrame], error: GIFError?) {
        var iterator = image.makeFrameIterator(pixelFormat: format)
        var frames: [CompositedFrame] = []
        do {
            while let frame = try iterator.next() { frames.append(frame) }
            return (frames, nil)
        } catch {
            return (frames, error)
        }
    }

    /// `colour × alpha / 255`, rounded, in floating point, at
    /// `alpha << 8 | colour` (a table, so the debug build converts fast).
    static let premultiplied: [UInt8] = (0..<65_536).map { i in
        UInt8((Double(i & 0xFF) * Double(i >> 8) / 255).rounded())
    }

    /// RGBA8 pixels turned into premultiplied BGRA8 here, independently of
    /// the library: each colour times alpha / 255, rounded, then B, G, R, A.
    static func premultipliedBGRA(_ rgba: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: rgba.count)
        premultiplied.withUnsafeBufferPointer { table in
            rgba.withUnsafeBufferPointer { rgba in
                out.withUnsafeMutableBufferPointer { out in
                    var i = 0
                    while i < rgba.count {
                        let alpha = Int(rgba[i + 3]) << 8
                        out[i] = table[alpha | Int(rgba[i + 2])]
                        out[i + 1] = table[alpha | Int(rgba[i + 1])]
                        out[i + 2] = table[alpha | Int(rgba[i])]
                        out[i + 3] = rgba[i + 3]
                        i += 4
                    }
                }
            }
        }
        return out
    }

    /// On the run's share of the corpus (``Sweep``): the reference
    /// conversion runs pixel by pixel in test code.
    @Test(arguments: Sweep.sample(corpus, of: "premultiplied"))
    func premultipliedBGRAIsTheRGBAConverted(_ file: String) throws {
        guard let image = try? GIFImage(contentsOf: Corpus.path(file)) else { return }
        let rgba = Self.frames(image)
        let bgra = Self.frames(image, format: .premultipliedBGRA8)
        #expect(bgra.frames.count == rgba.frames.count)
        #expect(bgra.error == rgba.error)
        for (b, a) in zip(bgra.frames, rgba.frames) {
            #expect(b.pixelFormat == .premultipliedBGRA8 && a.pixelFormat == .rgba8)
            #expect(b.pixels == Self.premultipliedBGRA(a.pixels), "frame \(a.index)")
            #expect(b.changedRect == a.changedRect && b.isComplete == a.isComplete, "frame \(a.index)")
        }
        // pixel(x:y:) reads RGBA whatever the layout.
        if let b = bgra.frames.last, let a = rgba.frames.last, a.size.area > 0 {
            let x = a.size.width / 2, y = a.size.height / 2
            #expect(b.pixel(x: x, y: y) == a.pixel(x: x, y: y))
        }
    }

    /// Checks `frame.changedRect` against a full comparison with `previous`
    /// (frame `index` − 1's pixels): inside the canvas, and every pixel that
    /// differs inside it.
    static func checkChangedRect(_ frame: CompositedFrame, after previous: [UInt8]?, _ file: String) {
        let size = frame.size, rect = frame.changedRect
        let inside = rect.x >= 0 && rect.y >= 0 && rect.width >= 0 && rect.height >= 0
            && rect.x + rect.width <= size.width && rect.y + rect.height <= size.height
        #expect(inside, "\(file) frame \(frame.index): \(rect) outside \(size.width)x\(size.height)")
        guard let previous else {
            #expect(rect == PixelRect(x: 0, y: 0, width: size.width, height: size.height), "\(file) frame 0")
            return
        }
        // Each row's bytes outside the rectangle, compared with memcmp (a
        // loop over pixels is slow in a debug build).
        var rowsDiffering: [Int] = []
        previous.withUnsafeBytes { before in
            frame.pixels.withUnsafeBytes { now in
                let rowBytes = size.width * 4
                func same(_ offset: Int, _ count: Int) -> Bool {
                    count <= 0 || memcmp(before.baseAddress! + offset, now.baseAddress! + offset, count) == 0
                }
                for y in 0..<size.height {
                    let start = y * rowBytes
                    let equal = y >= rect.y && y < rect.y + rect.height
                        ? same(start, rect.x * 4)
                            && same(start + (rect.x + rect.width) * 4, (size.width - rect.x - rect.width) * 4)
                        : same(start, rowBytes)
                    if !equal { rowsDiffering.append(y) }
                }
            }
        }
        #expect(rowsDiffering.isEmpty, "\(file) frame \(frame.index): rows \(rowsDiffering.prefix(5)) change outside \(rect)")
    }

    @Test(arguments: corpus)
    func changedRectCoversEveryChangedPixel(_ file: String) throws {
        guard let image = try? GIFImage(contentsOf: Corpus.path(file)), image.info.frameCount > 1 else { return }
        var previous: [UInt8]?
        for frame in Self.frames(image).frames {
            Self.checkChangedRect(frame, after: previous, file)
            previous = frame.pixels
        }
    }

    /// A seeker's changed rectangle is relative to frame index − 1 however
    /// the frame was reached: in order, back through a checkpoint, or after
    /// a rewind.
    @Test(arguments: ["pillow/dispose_prev.gif", "pillow/dispose_bgnd.gif", "blink/animated.gif"])
    func seekingGivesTheSameChangedRect(_ file: String) throws {
        let image = try GIFImage(contentsOf: Corpus.path(file))
        let expected = Self.frames(image).frames.map(\.changedRect)
        var budget = DecodingBudget.default
        budget.checkpointBytes = image.info.canvasSize.area * 4 * 2
        var seeker = image.makeSeeker(budget: budget)
        let count = expected.count
        for index in [count - 1, 1, count / 2, 0, count - 1, (count / 2 + 1) % count] {
            #expect(try seeker.frame(at: index).changedRect == expected[index], "frame \(index)")
        }
    }

    static let palette: [[UInt8]] = [[0, 0, 0], [255, 0, 0], [0, 255, 0], [0, 0, 255]]

    @Test func changedRectJoinsTheFrameAndThePreviousDisposal() throws {
        var gif = GIFBuilder(width: 4, height: 4, palette: Self.palette)
        gif.image(width: 4, height: 4, indices: [UInt8](repeating: 1, count: 16))
        gif.control(disposal: 2)
        gif.image(x: 1, y: 1, width: 2, height: 2, indices: [2, 2, 2, 2])
        gif.image(x: 0, y: 0, width: 1, height: 1, indices: [3])
        gif.control(disposal: 1)
        gif.image(x: 3, y: 3, width: 1, height: 1, indices: [2])
        // Past the right edge, after a frame that keeps its pixels.
        gif.image(x: 9, y: 0, width: 2, height: 2, indices: [1, 1, 1, 1])
        gif.control(disposal: 3)
        gif.image(x: 2, y: 0, width: 2, height: 1, indices: [3, 3])
        gif.image(x: 0, y: 3, width: 1, height: 1, indices: [2])
        gif.trailer()
        let frames = Self.frames(try GIFImage(bytes: gif.bytes)).frames
        #expect(frames.map(\.changedRect) == [
            PixelRect(x: 0, y: 0, width: 4, height: 4),  // frame 0: the whole canvas
            PixelRect(x: 1, y: 1, width: 2, height: 2),  // frame 0 disposed of nothing
            PixelRect(x: 0, y: 0, width: 3, height: 3),  // (0,0 1x1) with frame 1's cleared (1,1 2x2)
            PixelRect(x: 3, y: 3, width: 1, height: 1),
            PixelRect(x: 0, y: 0, width: 0, height: 0),  // off the canvas, nothing disposed
            PixelRect(x: 2, y: 0, width: 2, height: 1),
            PixelRect(x: 0, y: 0, width: 4, height: 4),  // (0,3 1x1) with frame 5's restored (2,0 2x1)
        ])
    }

    /// A frame with a transparent index changes only the box of the pixels
    /// it draws (plus what the previous frame's disposal restored), however
    /// large its rectangle: an optimiser's frames cover the canvas and are
    /// transparent but where something moved.
    @Test func changedRectIsTheBoxOfTheDrawnPixels() throws {
        let width = 20, height = 12
        /// A frame of `w` × `h` indices, transparent (0) but at `drawn`.
        func frame(_ w: Int, _ h: Int, drawn: [(x: Int, y: Int, index: UInt8)]) -> [UInt8] {
            var indices = [UInt8](repeating: 0, count: w * h)
            for pixel in drawn { indices[pixel.y * w + pixel.x] = pixel.index }
            return indices
        }
        var gif = GIFBuilder(width: width, height: height, palette: Self.palette)
        gif.image(width: width, height: height, indices: [UInt8](repeating: 1, count: width * height))
        gif.control(transparent: 0)
        gif.image(width: width, height: height, indices: frame(width, height, drawn: [(3, 2, 2), (17, 9, 2)]))
        gif.control(disposal: 2, transparent: 0)
        gif.image(x: 2, y: 1, width: 16, height: 10, indices: frame(16, 10, drawn: [(10, 5, 3)]))
        gif.control(transparent: 0)
        gif.image(width: width, height: height, indices: frame(width, height, drawn: []))
        gif.control(transparent: 0)
        gif.image(width: width, height: height, indices: frame(width, height, drawn: []))
        gif.control(transparent: 0)
        gif.image(width: width, height: height, indices: frame(width, height, drawn: [(19, 11, 3), (0, 11, 0)]))
        // The transparent index drawn as a colour when it is not the frame's.
        gif.control(transparent: 3)
        gif.image(width: width, height: height, indices: frame(width, height, drawn: [(8, 4, 3)]))
        gif.trailer()
        let image = try GIFImage(bytes: gif.bytes)
        let expected = [
            PixelRect(x: 0, y: 0, width: width, height: height),  // frame 0: the whole canvas
            PixelRect(x: 3, y: 2, width: 15, height: 8),  // from (3,2) to (17,9)
            PixelRect(x: 12, y: 6, width: 1, height: 1),  // frame (10,5) at (2,1)
            PixelRect(x: 2, y: 1, width: 16, height: 10),  // nothing drawn; frame 2's rectangle cleared
            PixelRect(x: 0, y: 0, width: 0, height: 0),  // nothing drawn, nothing disposed
            PixelRect(x: 19, y: 11, width: 1, height: 1),
            PixelRect(x: 0, y: 0, width: width, height: height),  // every index but 3 drawn
        ]
        for format in PixelFormat.allCases {
            let frames = Self.frames(image, format: format).frames
            #expect(frames.map(\.changedRect) == expected, "\(format)")
            var previous: [UInt8]?
            for frame in frames {
                Self.checkChangedRect(frame, after: previous, "built")
                previous = frame.pixels
            }
        }
        // The same from the index tier, frames held as runs and drawn in bands.
        var seeker = image.makeSeeker()
        for index in expected.indices { _ = try seeker.frame(at: index) }
        for index in expected.indices {
            #expect(try seeker.frame(at: index).changedRect == expected[index], "seeker frame \(index)")
        }
    }

    // MARK: Host buffers

    /// Canvas rows of `pixels` (`width × 4` bytes each) equal `buffer`'s rows
    /// `stride` apart, and the padding after each row is still `fill`.
    static func checkBuffer(
        _ buffer: [UInt8], stride: Int, equals pixels: [UInt8], width: Int, height: Int, fill: UInt8,
        _ label: String
    ) {
        let rowBytes = width * 4
        for y in 0..<height {
            let row = Array(buffer[y * stride..<y * stride + rowBytes])
            #expect(row == Array(pixels[y * rowBytes..<(y + 1) * rowBytes]), "\(label) row \(y)")
            let padding = buffer[(y * stride + rowBytes)..<min(buffer.count, (y + 1) * stride)]
            #expect(padding.allSatisfy { $0 == fill }, "\(label) padding after row \(y)")
        }
    }

    @Test(arguments: PixelFormat.allCases)
    func hostBufferWithAStrideGetsTheRowsAndKeepsItsPadding(_ format: PixelFormat) throws {
        let image = try Fixture.open("demo.gif")
        let width = image.info.canvasSize.width, height = image.info.canvasSize.height
        let stride = width * 4 + 12
        let expected = Self.frames(image, format: format).frames
        var seeker = image.makeSeeker(pixelFormat: format)
        #expect(seeker.pixelFormat == format)
        var full = [UInt8](repeating: 0xA5, count: stride * height)
        var changedOnly = [UInt8](repeating: 0xA5, count: stride * height)
        // In order, with only the changed rectangle written after frame 0:
        // the buffer holds every frame whole.
        for index in 0..<min(expected.count, 40) {
            let copy = try full.withUnsafeMutableBytes {
                try seeker.copyFrame(at: index, into: $0, bytesPerRow: stride)
            }
            #expect(copy == FrameCopy(index: index, changedRect: expected[index].changedRect, isComplete: true))
            Self.checkBuffer(full, stride: stride, equals: expected[index].pixels, width: width, height: height,
                             fill: 0xA5, "\(format) frame \(index)")
            try changedOnly.withUnsafeMutableBytes {
                _ = try seeker.copyFrame(at: index, into: $0, bytesPerRow: stride, onlyChanged: true)
            }
            Self.checkBuffer(changedOnly, stride: stride, equals: expected[index].pixels, width: width,
                             height: height, fill: 0xA5, "\(format) changed only, frame \(index)")
        }
        // Out of order, whole frames.
        for index in [expected.count - 1, 3, 100, 0] where index < expected.count {
            try full.withUnsafeMutableBytes { _ = try seeker.copyFrame(at: index, into: $0, bytesPerRow: stride) }
            Self.checkBuffer(full, stride: stride, equals: expected[index].pixels, width: width, height: height,
                             fill: 0xA5, "\(format) seek to \(index)")
        }
    }

    @Test func hostBufferOfTheExactSizeIsEnough() throws {
        let image = try Fixture.open("demo.gif")
        let width = image.info.canvasSize.width, height = image.info.canvasSize.height
        let stride = width * 4 + 3
        // The last row needs no padding.
        var buffer = [UInt8](repeating: 0, count: (height - 1) * stride + width * 4)
        var seeker = image.makeSeeker()
        try buffer.withUnsafeMutableBytes { _ = try seeker.copyFrame(at: 2, into: $0, bytesPerRow: stride) }
        Self.checkBuffer(buffer, stride: stride, equals: try image.frame(at: 2).pixels, width: width,
                         height: height, fill: 0, "exact")
    }

    @Test func wrongStrideOrSizeIsATypedError() throws {
        let image = try Fixture.open("demo.gif")
        let width = image.info.canvasSize.width, height = image.info.canvasSize.height
        var seeker = image.makeSeeker()
        var buffer = [UInt8](repeating: 7, count: width * 4 * height)
        func copy(bytesPerRow: Int, count: Int) -> GIFError.Kind? {
            buffer.withUnsafeMutableBytes { raw -> GIFError.Kind? in
                do {
                    try seeker.copyFrame(at: 1, into: UnsafeMutableRawBufferPointer(rebasing: raw[0..<count]),
                                         bytesPerRow: bytesPerRow)
                    return nil
                } catch {
                    return (error as? GIFError)?.kind
                }
            }
        }
        let rowBytes = width * 4
        #expect(copy(bytesPerRow: rowBytes - 1, count: buffer.count)
            == .buffer(.rowStrideTooSmall(bytesPerRow: rowBytes - 1, minimum: rowBytes)))
        #expect(copy(bytesPerRow: -rowBytes, count: buffer.count)
            == .buffer(.rowStrideTooSmall(bytesPerRow: -rowBytes, minimum: rowBytes)))
        #expect(copy(bytesPerRow: rowBytes, count: buffer.count - 1)
            == .buffer(.bufferTooSmall(byteCount: buffer.count - 1, needed: buffer.count)))
        #expect(copy(bytesPerRow: rowBytes + 4, count: buffer.count)
            == .buffer(.bufferTooSmall(byteCount: buffer.count, needed: buffer.count + 4 * (height - 1))))
        #expect(copy(bytesPerRow: Int.max / 2, count: buffer.count)
            == .buffer(.bufferTooSmall(byteCount: buffer.count, needed: Int.max)))
        #expect(copy(bytesPerRow: rowBytes, count: 0) == .buffer(.bufferTooSmall(byteCount: 0, needed: buffer.count)))
        // Nothing was written by the failed calls.
        #expect(buffer.allSatisfy { $0 == 7 })
        #expect(copy(bytesPerRow: rowBytes, count: buffer.count) == nil)
        #expect(buffer == (try image.frame(at: 1).pixels))
    }
}
