/// The policies a player follows, each defaulting to browser behaviour.
///
/// ```swift
/// var configuration = PlayerConfiguration()   // autoplay off, browser rules
/// configuration.rate = 2
/// configuration.direction = .bounce
/// ```
public struct PlayerConfiguration: Sendable, Hashable {
    /// How many plays in all. Default: ``LoopPolicy/fromSource``.
    public var loop: LoopPolicy

    /// How stored delays become durations. Default: ``DelayPolicy/browser``.
    public var delay: DelayPolicy

    /// What to do when the host ticks late. Default: ``CatchUpPolicy/browser``.
    public var catchUp: CatchUpPolicy

    /// The order frames are shown in. Default: ``PlaybackDirection/forward``.
    public var direction: PlaybackDirection

    /// Playback speed: 2 plays twice as fast, 0.5 at half speed. Default 1.
    /// Must be finite and inside ``rateRange``; the player throws
    /// ``PlayerError/invalidRate(_:)`` otherwise.
    public var rate: Double

    /// Whether the player starts playing as soon as it is made. Default
    /// `false`: a new player shows frame 0 and waits for `play()`, so a feed
    /// never animates before the host decides it should.
    public var autoplay: Bool

    /// What the clock does while the next frame has not arrived (a
    /// ``GrowingFrameSource``). Default: ``WaitPolicy/browser``, the animation
    /// goes on from the frame's arrival.
    public var waiting: WaitPolicy

    /// The rates a player accepts: from 1/100 to 100 times normal speed.
    public static let rateRange: ClosedRange<Double> = 0.01...100

    /// Creates a configuration; every argument defaults to browser behaviour
    /// with autoplay off.
    public init(
        loop: LoopPolicy = .fromSource,
        delay: DelayPolicy = .browser,
        catchUp: CatchUpPolicy = .browser,
        direction: PlaybackDirection = .forward,
        rate: Double = 1,
        autoplay: Bool = false,
        waiting: WaitPolicy = .browser
    ) {
        self.loop = loop
        self.delay = delay
        self.catchUp = catchUp
        self.direction = direction
        self.rate = rate
        self.autoplay = autoplay
        self.waiting = waiting
    }

    /// Throws ``PlayerError/invalidRate(_:)`` unless `rate` is finite and in
    /// ``rateRange``.
    /// - Parameter rate: The candidate rate.
    public static func validate(rate: Double) throws(PlayerError) {
        guard rate.isFinite, rateRange.contains(rate) else {
            throw .invalidRate(rate)
        }
    }
}
