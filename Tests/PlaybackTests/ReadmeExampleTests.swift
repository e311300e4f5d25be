import Playback
import Testing

// The README's "Playing a GIF" example, verbatim below the marker, so it
// must compile; the test runs it against a fake source at normal speed.
// README example begin

/// Plays `source` in real time for two seconds, pausing once.
func playGIF(_ source: some FrameSource) async throws {
    let clock = ContinuousClock()

    // Autoplay is off: the new player shows frame 0 until play().
    let player = try Player(source: source, startingAt: clock.now)

    // A loop callback, called once the last frame's delay has elapsed.
    await player.addObserver { event in
        if case .loopCompleted(let loopsDone) = event {
            print("loop \(loopsDone) done")
        }
    }

    // The driver sleeps until each frame deadline; no polling.
    let driver = PlaybackDriver(player: player, clock: clock)
    let driving = Task { await driver.run() }

    await player.play(at: clock.now)
    try await clock.sleep(for: .seconds(1))

    // Pause and resume keep the exact frame and time into it.
    await player.pause(at: clock.now)
    await player.play(at: clock.now)
    try await clock.sleep(for: .seconds(1))

    // The pixels to draw: RGBA8, the whole canvas.
    let frame = try await player.currentImage()
    print("showing frame \(frame.index), \(frame.width)×\(frame.height)")

    driving.cancel()
}
// README example end

@Suite("Documentation")
struct ReadmeExampleTests {
    @Test("The README example compiles and runs")
    func readmeExample() async throws {
        try await playGIF(FakeFrameSource.milliseconds(100, 200, 300, loop: 0))
    }
}
