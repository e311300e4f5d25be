/// Runs a ``Player`` in real time on any `Clock`: it sleeps until the next
/// frame deadline, advances the player to the clock's time, and repeats.
///
/// - No polling: it wakes only at deadlines, or when the host changes the
///   schedule (play, pause, stop, seek, rate).
/// - No task per frame: one sleeper task, kept while the player plays on,
///   sleeps until each deadline in turn.
/// - No work while the player is idle, paused or finished: it just waits for
///   the host.
/// - No accumulated error: each deadline comes from the player's anchor
///   (its epoch, or its last play, seek or rate change), not from the sum of
///   past sleeps, and each tick advances to the clock's real time, so a late
///   wake-up is absorbed by the ``CatchUpPolicy`` instead of shifting every
///   later frame.
///
/// ```swift
/// let driver = PlaybackDriver(player: player, clock: ContinuousClock())
/// let task = Task { await driver.run() }
/// // …
/// task.cancel()
/// ```
///
/// It is a ``GroupDriver`` of one member; to run several players (a grid of
/// GIFs), put them in one group driver instead of giving each a driver.
///
/// In tests, give it a clock whose `sleep(until:)` returns when the test
/// moves time, and every wake-up happens exactly at a deadline.
public struct PlaybackDriver<C: Clock>: Sendable where C.Duration == Duration {
    /// The player being driven.
    package let player: Player<C.Instant>

    /// The clock that supplies time and sleeps.
    package let clock: C

    /// Creates a driver; nothing runs until ``run()``.
    /// - Parameters:
    ///   - player: The player to drive; it must measure time on `clock`.
    ///   - clock: The clock to read and sleep on.
    public init(player: Player<C.Instant>, clock: C) {
        self.player = player
        self.clock = clock
    }

    /// Drives the player until the calling task is cancelled. Events reach
    /// the player's observers and streams as usual.
    public func run() async {
        await GroupDriver.drive(player, on: clock)
    }
}
