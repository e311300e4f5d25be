@_spi(Benchmarks) import GIF

/// What `gif info` reports about one file; encoded as the `--json` output and
/// rendered as the text output, so both carry the same facts.
///
/// Optional fields are written as `null` rather than left out, so every key
/// is always present.
struct InfoReport: Codable, Equatable {
    /// A width and height.
    struct Size: Codable, Equatable {
        var width: Int
        var height: Int
    }

    /// A frame rectangle as stored (unclipped).
    struct Rect: Codable, Equatable {
        var x: Int
        var y: Int
        var width: Int
        var height: Int
    }

    /// The loop count: `stored` is `null` without a loop extension, `plays` is
    /// `null` for forever.
    struct Loops: Codable, Equatable {
        @NullWhenAbsent var stored: Int?
        @NullWhenAbsent var plays: Int?
    }

    /// One row of the frame table.
    struct Frame: Codable, Equatable {
        var index: Int
        var rect: Rect
        /// The delay as stored, in centiseconds.
        var delayCentiseconds: Int
        /// The delay browsers show, in milliseconds (0 or 1 cs become 100 ms).
        var delayMilliseconds: Int
        /// The disposal field, 0–7.
        var disposal: Int
        /// The disposal's name: none, keep, background, previous, reserved(N).
        var disposalName: String
        @NullWhenAbsent var transparentIndex: Int?
        var interlaced: Bool
        /// Entries in the frame's local colour table; `null` without one.
        @NullWhenAbsent var localPaletteSize: Int?
        /// Byte offset of the frame's image data (the LZW code size byte).
        var dataOffset: Int
    }

    /// An application extension other than the loop extension.
    struct Extension: Codable, Equatable {
        var identifier: String
        /// Bytes after the identifier's sub-block.
        var dataSize: Int
        /// Byte offset of the extension's `0x21` introducer.
        var offset: Int
    }

    /// A decode error and where it happened.
    struct Failure: Codable, Equatable {
        /// The whole one-line description: reason, location, frames decoded.
        var message: String
        var reason: String
        @NullWhenAbsent var frameIndex: Int?
        @NullWhenAbsent var byteOffset: Int?
        var framesDecoded: Int

        init(_ error: GIFError) {
            message = error.description
            reason = error.reason
            frameIndex = error.frameIndex
            byteOffset = error.byteOffset
            framesDecoded = error.framesDecoded
        }
    }

    var file: String
    /// `GIF87a` or `GIF89a`.
    var version: String
    /// The logical screen size from the header.
    var screen: Size
    /// The canvas: the screen, grown to hold the first frame.
    var canvas: Size
    var backgroundIndex: Int
    /// Entries in the global colour table; `null` without one.
    @NullWhenAbsent var globalPaletteSize: Int?
    var frameCount: Int
    var loopCount: Loops
    /// The sum of the stored delays, in milliseconds.
    var durationMilliseconds: Int
    /// The sum of the delays browsers show, in milliseconds.
    var browserDurationMilliseconds: Int
    var frames: [Frame]
    var comments: [String]
    var applicationExtensions: [Extension]
    /// The structural problem that ended the scan early, if any.
    @NullWhenAbsent var scanError: Failure?
    /// The first error met decoding every frame in order (a bad LZW code, data
    /// cut short, or the scan's error once the frames before it are done).
    @NullWhenAbsent var decodeError: Failure?
}

extension InfoReport {
    /// Builds the report from the scan and from decoding every frame.
    init(file: String, image: GIFImage, decodeError: GIFError?) {
        let info = image.info
        self.file = file
        version = info.version.description
        screen = Size(width: info.screenSize.width, height: info.screenSize.height)
        canvas = Size(width: info.canvasSize.width, height: info.canvasSize.height)
        backgroundIndex = Int(info.backgroundIndex)
        globalPaletteSize = info.globalPalette?.count
        frameCount = info.frameCount
        loopCount = Loops(stored: info.loopCount.stored, plays: info.loopCount.plays)
        durationMilliseconds = info.totalDuration.milliseconds
        browserDurationMilliseconds = info.browserDuration.milliseconds
        frames = info.frames.map { frame in
            Frame(
                index: frame.index,
                rect: Rect(x: frame.rect.x, y: frame.rect.y, width: frame.rect.width, height: frame.rect.height),
                delayCentiseconds: frame.delayCentiseconds,
                delayMilliseconds: frame.browserDelay.milliseconds,
                disposal: Int(frame.disposal.rawValue),
                disposalName: frame.disposal.description,
                transparentIndex: frame.transparentIndex.map(Int.init),
                interlaced: frame.isInterlaced,
                localPaletteSize: frame.localPalette?.count,
                dataOffset: frame.dataOffset)
        }
        comments = info.comments
        applicationExtensions = info.applicationExtensions.map {
            Extension(identifier: $0.identifier, dataSize: $0.data.count, offset: $0.offset)
        }
        scanError = info.error.map(Failure.init)
        self.decodeError = decodeError.map(Failure.init)
    }
}

extension Duration {
    /// The duration in whole milliseconds, rounded down.
    var milliseconds: Int {
        let (seconds, attoseconds) = components
        return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    }
}
