import Playback
import Testing

// The README's group driver example, verbatim below the marker, so it must
// compile; the test runs it against fake sources at normal speed.
// README example begin

/// Plays a grid of GIFs in step: one driver for all, at most 30 wake-ups a second.
func playGrid(_ sources: [any FrameSource]) async throws {
    let clock = ContinuousClock()
    let epoch = clock.now  // one epoch: copies of one GIF stay in step
    let group = GroupDriver(clock: clock, maximumFrameRate: 30)
    var players: [Player<ContinuousClock.Instant>] = []
    for source in sources {
        let player = try Player(source: source, startingAt: clock.now, epoch: epoch)
        await group.add(player)
        players.append(player)
    }
    let driving = Task { await group.run() }
    for player in players { await player.play(at: clock.now) }
    try await clock.sleep(for: .seconds(1))

    // Scrolled out of view: nothing drives it any more; it keeps its frame.
    if let first = players.first { await group.remove(first) }
    try await clock.sleep(for: .seconds(1))

    // Frames due between wake-ups were skipped; each player still shows
    // the frame its clock says.
    print("wake-ups: \(await group.statistics.wakeUps)")  // 30 a second at most, plus one
    driving.cancel()
}

// README example end

@Suite("Documentation: group driver")
struct GroupDriverReadmeTests {
    @Test("The README's group driver example runs")
    func example() async throws {
        // 20 ms frames: more changes than a 30/s cap lets the group wake for.
        let sources: [any FrameSource] = (0..<3).map { _ in FakeFrameSource.milliseconds(20, 20, 20, loop: 0) }
        try await playGrid(sources)
    }
}
