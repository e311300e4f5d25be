/// The memory a decoder keeps so that later frames cost less than decoding
/// them again: seek checkpoints and stored palette indices.
///
/// Every decoder that keeps such state takes one: `FrameSeeker` and
/// ``GIFImage/makeSeeker(budget:pixelFormat:)``, and in GIFPlayback the
/// frame sources and the drawing player. Each keeps at most what the GIF
/// needs: a budget larger than the GIF's indices or checkpoints costs
/// nothing.
///
/// - **Indices** (``indexBytes``) come first: one byte a pixel of each
///   frame's own rectangle, kept in the order frames are first decoded. A
///   frame held there is composited again without giflib, about a tenth of
///   a decode, so a loop over a GIF whose indices fit decodes each frame
///   once, and a seek resumes from a checkpoint by compositing.
/// - **Checkpoints** (``checkpointBytes``): whole canvases (about
///   `width × height × 4` bytes each) saved at even intervals, which bound
///   how far back a seek, or a frame whose indices did not fit, resumes.
///   In GIFPlayback, a source drawn into a host's buffer at full size keeps
///   as many bytes again, at most, of what each frame changes, recorded as
///   its first loop is drawn, so that later loops copy them.
public struct DecodingBudget: Sendable, Hashable {
    /// The most bytes of seek checkpoints. Negative counts as 0.
    public var checkpointBytes: Int
    /// The most bytes of stored palette indices; 0 turns storing them off.
    /// Negative counts as 0.
    public var indexBytes: Int

    /// A budget of `checkpointBytes` of checkpoints and `indexBytes` of
    /// stored indices. To change one of them, start from ``default``:
    /// `var budget = DecodingBudget.default; budget.indexBytes = 0`.
    public init(checkpointBytes: Int, indexBytes: Int) {
        self.checkpointBytes = checkpointBytes
        self.indexBytes = indexBytes
    }

    /// 8 MiB of checkpoints and 16 MiB of indices.
    ///
    /// 16 MiB holds the indices of 16 million frame pixels: every frame of
    /// most GIFs (a 600-frame screen recording of small changes takes
    /// 7.8 MB), so they loop without giflib after the first pass. A GIF whose
    /// indices take more decodes the frames past them each loop
    /// (`sample_big.gif`'s 259 whole 1000 × 175 frames take 43 MiB: 164 of
    /// them); pass a larger ``indexBytes`` to a player of such a GIF that has
    /// the memory. The figure is not larger by default because under a
    /// shared `FrameMemoryBudget` a source's indices grow within one decode
    /// ahead of the budget trimming them, so a larger default lets a grid of
    /// players overshoot a shared budget by more. 8 MiB of checkpoints is a few
    /// canvases of a typical GIF: with the frames on the way stored, a seek
    /// to any frame costs a few frames' decoding.
    public static let `default` = DecodingBudget(checkpointBytes: 8 << 20, indexBytes: 16 << 20)
}
