extension GIFScanner {
    /// The scanner's loop over the blocks after the header: it owns the
    /// position in the bytes and fills the ``GIFInfo`` it is given, without
    /// calling back into the scanner.
    struct BlockWalker {
        /// The bytes so far, lent for one run: a ``ProgressiveGIF`` hands
        /// in longer ones as they arrive and takes them back between runs.
        var bytes: UnsafeBufferPointer<UInt8>
        var offset: Int
        let limits: DecodingLimits

        /// The graphic control extension waiting for the next image.
        private var control: (disposal: Disposal, transparent: UInt8?, delay: Int)?
        /// Per-file budgets spent so far (see ``DecodingLimits``).
        private var totalPixels = 0
        private var extensionBytes = 0
        private var extensionCount = 0

        init(bytes: UnsafeBufferPointer<UInt8>, offset: Int, limits: DecodingLimits) {
            self.bytes = bytes
            self.offset = offset
            self.limits = limits
        }

        /// Reads blocks into `info` until the stream ends or, when `stop` is
        /// given, until the block starting at or after `stop` (an
        /// ``ProgressiveGIF`` stops before the block still arriving).
        mutating func run(into info: inout GIFInfo, stoppingAt stop: Int? = nil) {
            defer { info.endOffset = offset }
            while offset < (stop ?? bytes.count) {
                switch bytes[offset] {
                case 0x3B:
                    info.hasTrailer = true
                    return
                case 0x21:
                    if let error = readExtension(into: &info) {
                        info.error = error
                        return
                    }
                case 0x2C:
                    if let error = readImage(into: &info) {
                        info.error = error
                        return
                    }
                default:
                    return  // An unknown block byte ends the stream like a trailer.
                }
            }
        }

        /// Follows a chain of data sub-blocks from `start` (a length byte).
        /// Returns the offset just past the zero terminator, or `nil` when the
        /// file ends first.
        func endOfSubBlocks(from start: Int) -> Int? {
            var position = start
            while position < bytes.count {
                let length = Int(bytes[position])
                position += 1
                if length == 0 { return position }
                position += length
            }
            return nil
        }

        /// Where one sub-block's payload lies in the file.
        ///
        /// A plain struct rather than `Range<Int>`: the first array of
        /// `Range<Int>` a process makes has the runtime check `Range`'s
        /// generic requirements against every protocol conformance in the
        /// binary, a tenth of a small GIF's whole dump.
        struct SubBlock {
            /// The payload's first byte.
            var start: Int
            /// The payload's length in bytes.
            var count: Int
            /// The payload's bytes.
            var range: Range<Int> { start..<start + count }
        }

        /// The first sub-block from `start` up to `end`, if there is one.
        func firstSubBlock(from start: Int, to end: Int) -> SubBlock? {
            start < end - 1 ? SubBlock(start: start + 1, count: Int(bytes[start])) : nil
        }

        /// The payloads of the sub-blocks from `start` up to `end`.
        func subBlocks(from start: Int, to end: Int) -> [SubBlock] {
            var blocks: [SubBlock] = []
            var position = start
            while let block = firstSubBlock(from: position, to: end) {
                blocks.append(block)
                position = block.start + block.count
            }
            return blocks
        }

        private mutating func readExtension(into info: inout GIFInfo) -> GIFError? {
            let start = offset
            guard start + 1 < bytes.count, let end = endOfSubBlocks(from: start + 2) else {
                return truncation(.extension, at: start, info)
            }
            // Per-file budgets, checked before the extension's data is copied.
            if let error = extensionLimit(at: start, byteCount: end - start, info) { return error }
            extensionCount += 1
            extensionBytes += end - start
            offset = end
            switch bytes[start + 1] {
            case 0xF9:
                // Only the first sub-block counts; no list is made for the
                // extension every frame has.
                guard let first = firstSubBlock(from: start + 2, to: end), first.count >= 4 else { return nil }
                let packed = bytes[first.start]
                control = (
                    disposal: Disposal(rawValue: (packed >> 2) & 7),
                    transparent: packed & 1 != 0 ? bytes[first.start + 3] : nil,
                    delay: Int(Self.le16(bytes, first.start + 1))
                )
            case 0xFE:
                let text = subBlocks(from: start + 2, to: end).flatMap { bytes[$0.range] }
                info.comments.append(latin1(text))
            case 0xFF:
                let blocks = subBlocks(from: start + 2, to: end)
                guard let first = blocks.first else { return nil }
                let identifier = bytes[first.range]
                let rest = blocks.dropFirst()
                // Compared as bytes: the identifier becomes a String only
                // for the extensions that are kept.
                if identifier.elementsEqual("NETSCAPE2.0".utf8) || identifier.elementsEqual("ANIMEXTS1.0".utf8),
                   let loop = rest.first, loop.count >= 3, bytes[loop.start] == 1 {
                    info.loopCount = LoopCount(stored: Int(Self.le16(bytes, loop.start + 1)))
                } else {
                    info.applicationExtensions.append(
                        ApplicationExtension(
                            identifier: latin1(identifier), data: rest.flatMap { bytes[$0.range] }, offset: start))
                }
            default:
                break  // Plain text and unknown extensions are skipped.
            }
            return nil
        }

        /// The limit that the block arriving at `start` passes already, with
        /// the bytes in so far, or `nil`: an image whose descriptor is in (the
        /// checks ``readImage(into:)`` makes before its data) or whose data
        /// sub-blocks have reached `chainEnd`, or an extension whose
        /// sub-blocks have reached `chainEnd` (its next length byte, not in
        /// yet: the extension takes at least `chainEnd + 1 - start` bytes).
        /// A ``ProgressiveGIF`` asks, so that a block that never ends is
        /// refused at the limit it passes.
        func limitPassed(byBlockArrivingAt start: Int, chainEnd: Int?, _ info: GIFInfo) -> GIFError? {
            guard start < bytes.count else { return nil }
            switch bytes[start] {
            case 0x21:
                return extensionLimit(at: start, byteCount: (chainEnd ?? start + 2) + 1 - start, info)
            case 0x2C:
                guard start + 10 <= bytes.count else { return nil }
                if let error = descriptorLimit(at: start, info) { return error }
                guard let chainEnd else { return nil }
                return frameDataLimit(dataAt: start + 10 + Self.paletteSize(bytes[start + 9]), chainEnd: chainEnd, info)
            default:
                return nil
            }
        }

        /// The bytes of the colour table an image descriptor or logical
        /// screen descriptor with `flags` announces.
        static func paletteSize(_ flags: UInt8) -> Int {
            flags & 0x80 != 0 ? 3 << (Int(flags & 7) + 1) : 0
        }

        /// The limit on one frame's data that the image data at `dataOffset`
        /// (its LZW code size byte) passes with its sub-blocks up to
        /// `chainEnd` (the terminator, or the next length byte not in yet),
        /// or `nil`. The error names the length byte of the sub-block that
        /// passes ``DecodingLimits/maxFrameDataBytes``, so a whole file and
        /// a stream of it are refused alike.
        private func frameDataLimit(dataAt dataOffset: Int, chainEnd: Int, _ info: GIFInfo) -> GIFError? {
            let maximum = limits.maxFrameDataBytes
            guard chainEnd - dataOffset > maximum else { return nil }
            var position = dataOffset + 1
            while position < min(chainEnd, bytes.count), bytes[position] != 0 {
                let next = position + 1 + Int(bytes[position])
                if next - dataOffset > maximum {
                    let index = info.frames.count
                    return GIFError(
                        .limitExceeded(.frameDataBytes, value: next - dataOffset, maximum: maximum),
                        frameIndex: index, byteOffset: position, framesDecoded: index)
                }
                position = next
            }
            return nil
        }

        /// The per-file extension budget an extension of `byteCount` bytes
        /// at `start` would pass, or `nil`.
        private func extensionLimit(at start: Int, byteCount: Int, _ info: GIFInfo) -> GIFError? {
            if extensionCount + 1 > limits.maxExtensionCount {
                return overBudget(.extensionCount, extensionCount + 1, limits.maxExtensionCount, at: start, info)
            }
            let (bytes, overflow) = extensionBytes.addingReportingOverflow(byteCount)
            if overflow || bytes > limits.maxExtensionBytes {
                return overBudget(.extensionBytes, overflow ? .max : bytes, limits.maxExtensionBytes, at: start, info)
            }
            return nil
        }

        /// The frame rectangle of the image descriptor at `start`.
        private func rect(ofDescriptorAt start: Int) -> PixelRect {
            PixelRect(
                x: Int(Self.le16(bytes, start + 1)), y: Int(Self.le16(bytes, start + 3)),
                width: Int(Self.le16(bytes, start + 5)), height: Int(Self.le16(bytes, start + 7)))
        }

        /// The limit the image whose descriptor (all 10 bytes) is at `start`
        /// passes, or `nil`: the frame count, its rectangle, the pixels
        /// decoded in all and the memory decoding it holds.
        private func descriptorLimit(at start: Int, _ info: GIFInfo) -> GIFError? {
            let index = info.frames.count
            guard index < limits.maxFrameCount else {
                return GIFError(
                    .limitExceeded(.frameCount, value: index + 1, maximum: limits.maxFrameCount),
                    frameIndex: index, byteOffset: start, framesDecoded: index)
            }
            let rect = rect(ofDescriptorAt: start)
            guard rect.area <= limits.maxFramePixels else {
                return GIFError(
                    .limitExceeded(.framePixels, value: rect.area, maximum: limits.maxFramePixels),
                    frameIndex: index, byteOffset: start, framesDecoded: index)
            }
            // The per-file budget of decoding work, checked before the frame is listed.
            let totalPixels = totalPixels + rect.area
            guard totalPixels <= limits.maxTotalPixels else {
                return GIFError(
                    .limitExceeded(.totalPixels, value: totalPixels, maximum: limits.maxTotalPixels),
                    frameIndex: index, byteOffset: start, framesDecoded: index)
            }
            // The memory decoding this frame holds: the canvas (the screen grown
            // by the first frame), the saved canvas under it for disposal 3, and
            // its palette indices.
            let first = info.frames.first?.rect ?? rect
            let canvasWidth = max(info.screenSize.width, first.x + first.width)
            let canvasHeight = max(info.screenSize.height, first.y + first.height)
            let restores = control?.disposal.effective == .restorePrevious
            let saved = restores ? rect.clipped(toWidth: canvasWidth, height: canvasHeight).area : 0
            let decodeBytes = 4 * canvasWidth * canvasHeight + 4 * saved + rect.area
            // A canvas past its own limit is refused by the scanner as a whole,
            // naming the canvas limit; this frame must be listed for that.
            let canvasTooLarge = canvasWidth * canvasHeight > limits.maxCanvasPixels
            guard canvasTooLarge || decodeBytes <= limits.maxDecodeBytes else {
                return GIFError(
                    .limitExceeded(.decodeBytes, value: decodeBytes, maximum: limits.maxDecodeBytes),
                    frameIndex: index, byteOffset: start, framesDecoded: index)
            }
            return nil
        }

        private mutating func readImage(into info: inout GIFInfo) -> GIFError? {
            let start = offset
            let index = info.frames.count
            guard start + 10 <= bytes.count else { return truncation(.imageDescriptor, at: start, info) }
            if let error = descriptorLimit(at: start, info) { return error }
            let rect = rect(ofDescriptorAt: start)
            totalPixels += rect.area
            let flags = bytes[start + 9]
            var position = start + 10
            var localPalette: Palette?
            if flags & 0x80 != 0 {
                let size = Self.paletteSize(flags)
                guard position + size <= bytes.count else { return truncation(.localColorTable, at: position, info) }
                localPalette = Palette(rgb: ArraySlice(bytes[position..<position + size]))
                position += size
            }
            guard position < bytes.count else { return truncation(.imageData, at: position, info, frame: index) }
            let end = endOfSubBlocks(from: position + 1)
            // A frame whose data runs past its limit is refused whole, as a
            // stream refuses it while the data arrives.
            if let error = frameDataLimit(dataAt: position, chainEnd: end.map { $0 - 1 } ?? .max, info) { return error }
            info.frames.append(FrameInfo(
                index: index, rect: rect, isInterlaced: flags & 0x40 != 0, localPalette: localPalette,
                disposal: control?.disposal ?? .unspecified, transparentIndex: control?.transparent,
                delayCentiseconds: control?.delay ?? 0, hasControlExtension: control != nil,
                descriptorOffset: start, dataOffset: position, dataEnd: end ?? bytes.count,
                lzwMinimumCodeSize: bytes[position], isTruncated: end == nil, loopCount: info.loopCount))
            control = nil
            offset = end ?? bytes.count
            return end == nil ? truncation(.imageData, at: bytes.count, info, frame: index) : nil
        }

        private func overBudget(
            _ limit: DecodingLimits.Limit, _ value: Int, _ maximum: Int, at position: Int, _ info: GIFInfo
        ) -> GIFError {
            GIFError(.limitExceeded(limit, value: value, maximum: maximum), byteOffset: position,
                     framesDecoded: info.frames.count)
        }

        private func truncation(_ block: GIFError.Block, at position: Int, _ info: GIFInfo, frame: Int? = nil) -> GIFError {
            GIFError(.truncated(block: block), frameIndex: frame, byteOffset: position, framesDecoded: info.frames.count)
        }

        /// The little-endian 16-bit value at `offset`.
        static func le16(_ bytes: some RandomAccessCollection<UInt8>, _ offset: Int) -> UInt16 {
            let offset = bytes.index(bytes.startIndex, offsetBy: offset)
            return UInt16(bytes[offset]) | UInt16(bytes[bytes.index(after: offset)]) << 8
        }
    }
}

/// Decodes bytes as ISO 8859-1, which maps every byte to a character, by
/// writing each as UTF-8 (one byte below 0x80, two above): building the
/// string from scalars goes through the runtime's generic conformance
/// lookup, which on first use costs more than a small file's whole dump.
func latin1(_ bytes: some Sequence<UInt8>) -> String {
    var utf8: [UInt8] = []
    utf8.reserveCapacity(bytes.underestimatedCount)
    for byte in bytes {
        if byte < 0x80 {
            utf8.append(byte)
        } else {
            utf8.append(0xC0 | byte >> 6)
            utf8.append(0x80 | byte & 0x3F)
        }
    }
    return String(decoding: utf8, as: UTF8.self)
}
