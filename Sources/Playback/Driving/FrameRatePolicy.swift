/// How a ``GroupDriver`` lowers a member's frame rate while the host misses
/// its frames, and raises it again once it keeps up: a grid degrades by
/// showing fewer frames on time instead of many frames late.
///
/// Each member's draws are counted (``MemberPlaybackStatistics``) over
/// windows of ``window``. At the end of a window in which more than
/// `missThreshold` of the member's frames missed (drawn late or skipped),
/// its rate drops by ``step``: from the rate its frames came at, then from
/// the rate it has, never below `minimumFrameRate`. After a run of
/// windows in which at most half the threshold missed, a lowered rate rises
/// by the same step; once it reaches the rate the frames first came at, the
/// cap is lifted. A raise never reaches the lowest rate that missed
/// before until four windows in a row kept up (twice as many after each
/// such try that missed again, up to 32; a try that holds forgets that rate),
/// so a member whose host keeps up at one rate and not at the next
/// settles at the one instead of swinging between them. The window after
/// each change of the cap is not judged: it still counts frames published
/// before the change. A window in which the host drew nothing of the member
/// changes nothing: a host that reads images, or draws nothing yet, is not
/// judged.
///
/// A capped member is ticked at most at its rate: frames due in between
/// are passed over, and the member still keeps its timing (which frame it
/// shows when), as under `GroupDriver.maximumFrameRate`. A member owed a
/// draw after a late one is still named at every host tick.
///
/// Peers degrade the same way: Fresco's animation coordinator lowers the
/// frame rate in 20 % steps while more than 10 % of frames miss, the
/// defaults here.
public struct FrameRatePolicy: Sendable, Hashable {
    /// The share by which a lowering cuts the rate, and by which a raising
    /// divides it back (between 0.05 and 0.9).
    public let step: Double
    /// The share of a window's frames that may miss before the rate drops
    /// (between 0 and 1).
    package let missThreshold: Double
    /// How long each judgement's window lasts (at least 100 ms).
    public let window: Duration
    /// The lowest rate a lowering reaches, in frames per second (at least
    /// 0.1).
    package let minimumFrameRate: Double

    /// Creates a policy; values out of range are clamped to the ranges the
    /// properties state, and NaN takes the default.
    /// - Parameters:
    ///   - step: The share a lowering cuts (0.2: 20 %).
    ///   - missThreshold: The share of frames that may miss (0.1: 10 %).
    ///   - window: How long each judgement looks back (1 s).
    ///   - minimumFrameRate: The lowest rate, frames per second (2).
    public init(
        step: Double = 0.2, missThreshold: Double = 0.1, window: Duration = .seconds(1),
        minimumFrameRate: Double = 2
    ) {
        self.step = step.isNaN ? 0.2 : min(max(step, 0.05), 0.9)
        self.missThreshold = missThreshold.isNaN ? 0.1 : min(max(missThreshold, 0), 1)
        self.window = max(window, .milliseconds(100))
        self.minimumFrameRate = minimumFrameRate.isNaN ? 2 : max(minimumFrameRate, 0.1)
    }

    /// 20 % steps while more than 10 % of frames miss, over 1 s windows,
    /// down to 2 frames per second: what a ``GridFeed`` turns on.
    public static let standard = FrameRatePolicy()
}

/// One member's pacing in its group: its counters' window, its rate cap,
/// and when it may be ticked next, all in the member's host time
/// (nanoseconds). Kept under its ``HostTickList``'s lock.
struct MemberPace {
    /// The cap, in frames per second, or `nil` for none.
    private(set) var rate: Double?
    /// The rate the frames came at when the cap was first set: raising the
    /// cap to it lifts the cap.
    private var uncappedRate: Double?
    /// The earliest time a capped member is ticked again.
    private var nextAllowed = Int64.min
    /// The deadline the latest tick reported, held to the cap.
    private(set) var next: Int64?
    /// The publication count at the latest tick, to see a move.
    private var publication = 0
    /// Where the current window started, and the totals then.
    private var windowStart: Int64?
    private var base = DrawTally.Totals()
    /// The share of the last whole window's frames that missed.
    private(set) var recentMissedShare = 0.0
    /// The lowest rate that missed since the cap was set: raises stop short
    /// of it until they have waited ``probeWait`` windows.
    private var ceiling: Double?
    /// Windows in a row that kept up since the cap last changed.
    private var keptUp = 0
    /// How many windows a raise to the ceiling waits for.
    private var probeWait = 4
    /// Whether the last raise reached the ceiling.
    private var probing = false
    /// Whether the cap changed at the last judgement: the window after a
    /// change still counts frames published before it, and is not judged.
    private var settling = false

    /// Whether the member is ticked at `time`: uncapped, owed a draw, or
    /// its interval has passed.
    func mayTick(at time: Int64, owes: Bool) -> Bool { rate == nil || owes || time >= nextAllowed }

    /// Takes in a tick at `time` that reported `next`: starts the interval
    /// when the frame moved, closes the window when it is over and applies
    /// `policy` to it, and returns the deadline held to the cap.
    mutating func ticked(at time: Int64, next: Int64?, tally: DrawTally, policy: FrameRatePolicy?, owes: Bool)
        -> Int64?
    {
        let current = tally.publication
        if let rate, current != publication {
            nextAllowed = Nanoseconds.add(time, Nanoseconds.fromDouble(1e9 / rate, .up))
        }
        publication = current
        judge(at: time, totals: tally.totals, policy: policy)
        self.next = if let next, rate != nil, !owes { max(next, nextAllowed) } else { next }
        return self.next
    }

    /// Lifts the cap and forgets what it learnt (the policy was turned off).
    mutating func uncap() {
        self = MemberPace(next: next, publication: publication, recentMissedShare: recentMissedShare)
    }

    private init(next: Int64?, publication: Int, recentMissedShare: Double) {
        self.next = next
        self.publication = publication
        self.recentMissedShare = recentMissedShare
    }

    init() {}

    /// Closes the window when it is over: its share missed, then the
    /// policy's verdict on it.
    private mutating func judge(at time: Int64, totals: DrawTally.Totals, policy: FrameRatePolicy?) {
        guard let start = windowStart else {
            windowStart = time
            base = totals
            return
        }
        let elapsed = Nanoseconds.subtract(time, start)
        guard elapsed >= Nanoseconds.of(policy?.window ?? FrameRatePolicy.standard.window) else { return }
        let window = totals - base
        windowStart = time
        base = totals
        guard window.count > 0 else { return }
        recentMissedShare = Double(window.missed) / Double(window.count)
        guard let policy, !settling else {
            settling = false
            return
        }
        if recentMissedShare > policy.missThreshold {
            let missedAt = rate ?? Double(window.count) * 1e9 / Double(elapsed)
            if rate == nil { uncappedRate = missedAt }
            if probing { probeWait = min(probeWait * 2, 32) }
            probing = false
            ceiling = min(missedAt, ceiling ?? .infinity)
            capAt(max(policy.minimumFrameRate, missedAt * (1 - policy.step)))
        } else if let capped = rate, recentMissedShare <= policy.missThreshold / 2 {
            if probing { ceiling = nil }
            probing = false
            keptUp += 1
            let higher = capped / (1 - policy.step)
            let reachesCeiling = higher >= (ceiling ?? .infinity) * (1 - 1e-9)
            guard keptUp >= (reachesCeiling ? probeWait : 1) else { return }
            probing = reachesCeiling
            if higher >= (uncappedRate ?? .infinity) * (1 - 1e-9) {
                rate = nil
                nextAllowed = .min
                keptUp = 0
                settling = true
            } else {
                capAt(higher)
            }
        } else {
            keptUp = 0
        }
    }

    /// Sets the cap to `newRate`; the next window settles.
    private mutating func capAt(_ newRate: Double) {
        rate = newRate
        keptUp = 0
        settling = true
    }
}
