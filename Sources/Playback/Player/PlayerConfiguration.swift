/// The policies a player follows, each defaulting to browser behaviour.
///
/// ```swift
/// var configuration = PlayerConfiguration()   // autoplay off, browser rules
/// configuration.rate = 2
/// configuration.direction = .bounce
/// let player = try Player(source: source, configuration: configuration, startingAt: clock.now)
/// await player.play()
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
    /// ``ProgressiveFrameSource``). Default: ``WaitPolicy/browser``, the animation
    /// goes on from the frame's arrival.
    public var waiting: WaitPolicy

    /// The most media time one play runs before the player stops on its
    /// own, or `nil` (the default) for no limit: the cap WCAG 2.2.2 asks
    /// of moving content that starts by itself (5 seconds).
    ///
    /// Measured in media time (timeline time, before the ``rate`` applies)
    /// played since ``Playhead/play(at:)`` started from idle, finished or a
    /// reached limit: pauses do not count, and a seek moves the limit with
    /// the position, so it still falls after the same media time played.
    /// At rate 1 with no stall, the player stops exactly `playTimeLimit`
    /// of host time after `play()`, with ``PlayerState/timeLimitReached``
    /// and ``PlayerEvent/timeLimitReached``, showing the ``stillFrame``.
    /// An animation whose loops end first finishes as usual. `play()` then
    /// starts again from the beginning with a new allowance. Zero or less
    /// stops at once.
    public var playTimeLimit: Duration?

    /// The frame shown when motion stops on a policy: at ``playTimeLimit``
    /// and in reduced-motion mode. Default: ``StillFrame/first``.
    public var stillFrame: StillFrame

    /// Whether the player starts in reduced-motion mode (the host's
    /// accessibility setting); change it later with
    /// ``Player/setReducedMotion(_:)``. Default `false`.
    ///
    /// In reduced-motion mode the player shows the ``stillFrame`` and does
    /// not move on its own: ``autoplay`` is ignored. ``Player/play(at:)``
    /// still plays on demand, from the beginning, as it would otherwise:
    /// until paused or stopped, its loops end, or its ``playTimeLimit``.
    /// ``Player/stop(at:)`` returns to the still frame.
    public var reducedMotion: Bool

    /// The rates a player accepts: from 1/100 to 100 times normal speed.
    public static let rateRange: ClosedRange<Double> = 0.01...100

    /// Creates a configuration; every argument defaults to browser behaviour
    /// with autoplay off, no play-time limit and reduced motion off.
    public init(
        loop: LoopPolicy = .fromSource,
        delay: DelayPolicy = .browser,
        catchUp: CatchUpPolicy = .browser,
        direction: PlaybackDirection = .forward,
        rate: Double = 1,
        autoplay: Bool = false,
        waiting: WaitPolicy = .browser,
        playTimeLimit: Duration? = nil,
        stillFrame: StillFrame = .first,
        reducedMotion: Bool = false
    ) {
        self.loop = loop
        self.delay = delay
        self.catchUp = catchUp
        self.direction = direction
        self.rate = rate
        self.autoplay = autoplay
        self.waiting = waiting
        self.playTimeLimit = playTimeLimit
        self.stillFrame = stillFrame
        self.reducedMotion = reducedMotion
    }

    /// Throws ``PlayerError/invalidRate(_:)`` unless `rate` is finite and in
    /// ``rateRange``.
    /// - Parameter rate: The candidate rate.
    package static func validate(rate: Double) throws(PlayerError) {
        guard rate.isFinite, rateRange.contains(rate) else {
            throw .invalidRate(rate)
        }
    }
}
