import Foundation
import Playback
import PlaybackTestSupport
import Testing

/// What an observer saw and got back from the calls it made.
private final class Probe: @unchecked Sendable {
    private let lock = NSLock()
    /// Read and written with `lock` held.
    private var events: [PlayerEvent] = []
    private var calls = 0
    private var answers: [String: String] = [:]

    /// Records `event`; `true` for the first event only.
    func record(_ event: PlayerEvent) -> Bool {
        lock.withLock {
            events.append(event)
            calls += 1
            return calls == 1
        }
    }

    func answer(_ key: String, _ value: String) { lock.withLock { answers[key] = value } }

    var recorded: [PlayerEvent] { lock.withLock { events } }
    var answered: [String: String] { lock.withLock { answers } }
}

/// Runs `body` on a thread of its own (not one of Swift's pool, which the
/// waits below would block) and returns when it ends.
private func onThread(_ body: @escaping @Sendable () -> Void) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        Thread {
            body()
            continuation.resume()
        }.start()
    }
}

/// Waits for `semaphore` up to the test wait limit: `false` when it timed out.
private func wait(for semaphore: DispatchSemaphore) -> Bool {
    semaphore.wait(timeout: .now() + .seconds(Int(Changes.limit.components.seconds))) == .success
}

/// An observer may call back into its player, and into the driver that
/// ticks it, from inside its callback: events are delivered with the
/// library's locks released. Each observer here makes its calls on another
/// thread and waits for them (up to the test wait limit, so that a call
/// that would wait for a lock held around the callback fails the test
/// instead of hanging it).
@Suite("Observers calling back into the player")
struct ReentrantObserverTests {
    /// Three frames of 100 ms, looping.
    static let source = FakeFrameSource.milliseconds(100, 100, 100, loop: 0)

    @Test("An observer of a host's group tick reads the player, ticks the group, seeks and pauses")
    func fromAGroupTick() async throws {
        let clock = ManualClock()
        let start = clock.now
        let player = try Player(source: Self.source, startingAt: start)
        let group = GroupDriver(clock: clock)
        await group.add(player)
        let probe = Probe()
        let tickTime = start.advanced(by: .milliseconds(150))
        await player.addObserver { event in
            guard probe.record(event) else { return }
            let done = DispatchSemaphore(value: 0)
            Thread {
                probe.answer("next", "\(player.nextChangeInstant.map(start.duration(to:)).map { "\($0)" } ?? "none")")
                probe.answer("tick", "\(group.tickPlayers(at: tickTime).changed.count)")
                Task {
                    let seek = try? await player.seek(toFrame: 2)
                    await player.pause()
                    probe.answer("seek", "\(seek ?? [])")
                    done.signal()
                }
            }.start()
            probe.answer("answered", "\(wait(for: done))")
        }
        await player.play(at: start)
        await onThread { _ = group.tickPlayers(at: tickTime) }

        let answers = probe.answered
        #expect(answers["answered"] == "true", "the observer's calls into the player did not return")
        // Frame 1 runs from 100 to 200 ms; the tick from the callback, at
        // the same time, finds nothing due.
        #expect(answers["next"] == "\(Duration.milliseconds(200))")
        #expect(answers["tick"] == "0")
        #expect(answers["seek"] == "\([PlayerEvent.frameChanged(frame: 2)])")
        // The seek's event reaches the observer after the tick's, once the
        // callback has returned.
        #expect(probe.recorded == [.frameChanged(frame: 1), .frameChanged(frame: 2)])
        #expect(player.state == .paused)
        #expect(player.currentFrame == 2)
    }

    @Test("An observer of a player's own advance reads the player and ticks its group")
    func fromAnAdvance() async throws {
        let clock = ManualClock()
        let start = clock.now
        let player = try Player(source: Self.source, startingAt: start)
        let group = GroupDriver(clock: clock)
        await group.add(player)
        let probe = Probe()
        await player.addObserver { event in
            guard probe.record(event) else { return }
            let done = DispatchSemaphore(value: 0)
            Thread {
                probe.answer("next", "\(player.nextChangeInstant.map(start.duration(to:)).map { "\($0)" } ?? "none")")
                let tick = group.tickPlayers(at: start.advanced(by: .milliseconds(250)))
                probe.answer("tick", "\(tick.changed.count)")
                done.signal()
            }.start()
            probe.answer("answered", "\(wait(for: done))")
        }
        await player.play(at: start)
        let returned = await player.advance(to: start.advanced(by: .milliseconds(150)))

        let answers = probe.answered
        #expect(answers["answered"] == "true", "the observer's calls into the player did not return")
        #expect(returned == [.frameChanged(frame: 1)])
        #expect(answers["next"] == "\(Duration.milliseconds(200))")
        // The group's tick from the callback moves the player on to frame 2.
        #expect(answers["tick"] == "1")
        #expect(probe.recorded == [.frameChanged(frame: 1), .frameChanged(frame: 2)])
        #expect(player.currentFrame == 2)
    }
}
