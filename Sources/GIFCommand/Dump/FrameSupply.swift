import GIF

/// Where `gif dump` takes its frames from, in order: a whole file's
/// ``FrameIterator``, or standard input read as it arrives
/// (``StandardInputGIF``), whose frame count is known only at its end.
protocol FrameSupply {
    /// The next composited frame, `nil` after the last.
    mutating func next() throws(GIFError) -> CompositedFrame?
    /// The number of frames in the whole input, as the scan counts them,
    /// reading the rest of a stream without decoding it.
    mutating func totalFrameCount() -> Int
}

extension FrameIterator: FrameSupply {
    func totalFrameCount() -> Int { image.info.frameCount }
}

extension StandardInputGIF: FrameSupply {
    mutating func next() throws(GIFError) -> CompositedFrame? { try nextFrame() }

    mutating func totalFrameCount() -> Int {
        readToEnd()
        return gif.availableFrameCount
    }
}
