import GIF

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
        var stored: Int?
        var plays: Int?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(stored, forKey: .stored)
            try container.encode(plays, forKey: .plays)
        }
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
        var transparentIndex: Int?
        var interlaced: Bool
        /// Entries in the frame's local colour table; `null` without one.
        var localPaletteSize: Int?
        /// Byte offset of the frame's image data (the LZW code size byte).
        var dataOffset: Int

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(index, forKey: .index)
            try container.encode(rect, forKey: .rect)
            try container.encode(delayCentiseconds, forKey: .delayCentiseconds)
            try container.encode(delayMilliseconds, forKey: .delayMilliseconds)
            try container.encode(disposal, forKey: .disposal)
            try container.encode(disposalName, forKey: .disposalName)
            try container.encode(transparentIndex, forKey: .transparentIndex)
            try container.encode(interlaced, forKey: .interlaced)
            try container.encode(localPaletteSize, forKey: .localPaletteSize)
            try container.encode(dataOffset, forKey: .dataOffset)
        }
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
        var frameIndex: Int?
        var byteOffset: Int?
        var framesDecoded: Int

        init(_ error: GIFError) {
            message = error.description
            reason = error.reason
            frameIndex = error.frameIndex
            byteOffset = error.byteOffset
            framesDecoded = error.framesDecoded
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(message, forKey: .message)
            try container.encode(reason, forKey: .reason)
            try container.encode(frameIndex, forKey: .frameIndex)
            try container.encode(byteOffset, forKey: .byteOffset)
            try container.encode(framesDecoded, forKey: .framesDecoded)
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
    var globalPaletteSize: Int?
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
    var scanError: Failure?
    /// The first error met decoding every frame in order (a bad LZW code, data
    /// cut short, or the scan's error once the frames before it are done).
    var decodeError: Failure?

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(file, forKey: .file)
        try container.encode(version, forKey: .version)
        try container.encode(screen, forKey: .screen)
        try container.encode(canvas, forKey: .canvas)
        try container.encode(backgroundIndex, forKey: .backgroundIndex)
        try container.encode(globalPaletteSize, forKey: .globalPaletteSize)
        try container.encode(frameCount, forKey: .frameCount)
        try container.encode(loopCount, forKey: .loopCount)
        try container.encode(durationMilliseconds, forKey: .durationMilliseconds)
        try container.encode(browserDurationMilliseconds, forKey: .browserDurationMilliseconds)
        try container.encode(frames, forKey: .frames)
        try container.encode(comments, forKey: .comments)
        try container.encode(applicationExtensions, forKey: .applicationExtensions)
        try container.encode(scanError, forKey: .scanError)
        try container.encode(decodeError, forKey: .decodeError)
    }
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
