import GIF

extension DecodingLimits {
    /// The fuzz targets' limits, smaller than the defaults so that one input
    /// costs milliseconds, not seconds: the fuzzers look for logic errors,
    /// and the default limits' sizes are proven by LimitsTests instead. Same
    /// code paths, smaller numbers (and the draw fuzzer's reference keeps
    /// every frame of a loop).
    static let fuzzing: DecodingLimits = {
        var limits = DecodingLimits()
        limits.maxCanvasPixels = 1 << 20
        limits.maxFramePixels = 1 << 20
        limits.maxFrameCount = 2048
        limits.maxInputBytes = 1 << 17
        limits.maxFrameDataBytes = 1 << 14
        return limits
    }()
}
