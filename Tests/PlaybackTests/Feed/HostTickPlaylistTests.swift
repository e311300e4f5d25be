import Foundation
@_spi(Benchmarks) import Playback
import PlaybackTestSupport
import Testing

/// A group ticked by its host on the calling thread holds players and
/// playlists alike: over generated lists and scripts, a playlist it ticks
/// plays as the same playlist advanced through its own actor does.
@Suite("Group driver: a host's tick on its own thread ticks playlists too")
struct HostTickPlaylistTests {
    /// xorshift64*: the generated cases are the same from run to run.
    struct Generator: RandomNumberGenerator {
        /// Never zero.
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            return state &* 0x2545_F491_4F6C_DD1D
        }
    }

    /// One item of a generated list: its frame delays and its loop count.
    struct ItemSpec {
        let key: String
        let delays: [Int]
        let loops: Int?

        var item: PlaylistItem {
            let delays = delays.map { Duration.milliseconds($0) }
            return PlaylistItem(key: key, loops: loops) { FakeFrameSource(frameDelays: delays) }
        }
    }

    /// One step of a generated script: time passes by `milliseconds`, then
    /// the host acts.
    enum Step {
        case tick(milliseconds: Int)
        case pause(milliseconds: Int)
        case play(milliseconds: Int)
        /// A refresh to these keys of the generated list, in its order.
        case replace(milliseconds: Int, keys: [String])
    }

    static func items(_ generator: inout Generator) -> [ItemSpec] {
        (0..<Int.random(in: 1...4, using: &generator)).map { index in
            ItemSpec(
                key: "item\(index)",
                delays: (0..<Int.random(in: 1...4, using: &generator)).map { _ in
                    Int.random(in: 20...150, using: &generator)
                },
                loops: Bool.random(using: &generator) ? nil : Int.random(in: 1...3, using: &generator))
        }
    }

    /// Random steps, then four seconds played in 100 ms ticks: longer than
    /// any generated item's turn (4 frames of 150 ms, 3 loops), so that a
    /// list left with more than one item changes items.
    static func script(_ generator: inout Generator, keys: [String]) -> [Step] {
        var paused = false
        let random = (0..<Int.random(in: 40...80, using: &generator)).map { _ -> Step in
            // Mostly a refresh's worth of time; now and then seconds, to
            // cross several items in one tick.
            let milliseconds =
                Int.random(in: 0..<10, using: &generator) == 0
                ? Int.random(in: 500...3000, using: &generator) : Int.random(in: 1...120, using: &generator)
            switch Int.random(in: 0..<20, using: &generator) {
            case 0:
                paused.toggle()
                return paused ? .pause(milliseconds: milliseconds) : .play(milliseconds: milliseconds)
            case 1 where keys.count > 1:
                // A subset of the generated list, in its order: the current
                // item is relayed when the new list is a subset of the one
                // playing that holds it, else the list starts over.
                let kept = keys.filter { _ in Bool.random(using: &generator) }
                return .replace(milliseconds: milliseconds, keys: kept.isEmpty ? [keys[0]] : kept)
            default:
                return .tick(milliseconds: milliseconds)
            }
        }
        return random + [.play(milliseconds: 0)] + Array(repeating: .tick(milliseconds: 100), count: 40)
    }

    @Test("A playlist and a player in a group ticked with tickPlayers(at:) play as each does advanced through its actor",
          arguments: 0..<24)
    func generated(seed: Int) async throws {
        var generator = Generator(state: UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 | 1)
        let specs = Self.items(&generator)
        let playerDelays = (0..<Int.random(in: 1...3, using: &generator)).map { _ in
            Int.random(in: 30...110, using: &generator)
        }
        let steps = Self.script(&generator, keys: specs.map(\.key))
        // Every item loaded ahead, and the loads waited for before playing,
        // so that the loaders' real-time arrival cannot change what the
        // manual clock sees.
        let configuration = PlaylistConfiguration(preload: specs.count)

        let clock = ManualClock()
        let start = clock.now
        let reference = try Playlist(items: specs.map(\.item), configuration: configuration, startingAt: start)
        let referencePlayer = try Player(
            source: FakeFrameSource(frameDelays: playerDelays.map { .milliseconds($0) }),
            configuration: PlayerConfiguration(loop: .forever), startingAt: start)
        let subject = try Playlist(items: specs.map(\.item), configuration: configuration, startingAt: start)
        let subjectPlayer = try Player(
            source: FakeFrameSource(frameDelays: playerDelays.map { .milliseconds($0) }),
            configuration: PlayerConfiguration(loop: .forever), startingAt: start)
        let (referenceEvents, subjectEvents) = (PlaylistRecorder(), PlaylistRecorder())
        await reference.addObserver { referenceEvents.record($0) }
        await subject.addObserver { subjectEvents.record($0) }
        // The driver counts host time from the clock's time when it is
        // made, not from the members' origin: made later, its members'
        // time starts before its own.
        let groupStart = start.advanced(by: .nanoseconds(Int64.random(in: 0...500_000_000, using: &generator)))
        clock.advance(to: groupStart)
        let group = GroupDriver(clock: clock)
        await group.add(subjectPlayer)
        await group.add(subject)
        @Sendable func allReady(_ playlist: Playlist<ManualClock.Instant>) async -> Bool {
            for key in await playlist.keys where await playlist.loadState(of: key) != .ready { return false }
            return true
        }
        #expect(await eventually(watching: [reference, subject]) {
            let ready = (await allReady(reference), await allReady(subject))
            return ready.0 && ready.1
        })
        _ = await reference.play(at: start)
        _ = await subject.play(at: start)
        await referencePlayer.play(at: start)
        await subjectPlayer.play(at: start)
        let subjectID = ObjectIdentifier(subject), playerID = ObjectIdentifier(subjectPlayer)

        var now = groupStart
        for (number, step) in steps.enumerated() {
            let note: Comment = "seed \(seed), step \(number): \(step)"
            let milliseconds: Int
            switch step {
            case .tick(let ms), .pause(let ms), .play(let ms), .replace(let ms, _): milliseconds = ms
            }
            now = now.advanced(by: .milliseconds(milliseconds))
            clock.advance(to: now)
            let movedAlone = !(await reference.advance(to: now)).isEmpty
            let playerFrame = referencePlayer.currentFrame
            await referencePlayer.advance(to: now)
            // A player counts as changed when its frame shown did.
            let playerMovedAlone = referencePlayer.currentFrame != playerFrame
            let tick = group.tickPlayers(at: now)
            #expect(tick.changed.contains(subjectID) == movedAlone, note)
            #expect(tick.changed.contains(playerID) == playerMovedAlone, note)
            let dues = [await reference.nextChangeInstant, referencePlayer.nextChangeInstant].compactMap { $0 }
            #expect(tick.nextChange == dues.min(), note)

            switch step {
            case .tick: break
            case .pause:
                _ = await reference.pause()
                _ = await subject.pause()
            case .play:
                _ = await reference.play()
                _ = await subject.play()
            case .replace(_, let keys):
                let kept = specs.filter { keys.contains($0.key) }.map(\.item)
                _ = await reference.replace(items: kept)
                _ = await subject.replace(items: kept)
                // Keys the list had dropped load again: waited for with
                // the clock still, so both playlists see them arrive at
                // the same time.
                #expect(await eventually(watching: [reference, subject]) {
                    let ready = (await allReady(reference), await allReady(subject))
                    return ready.0 && ready.1
                })
            }

            #expect(await subject.currentKey == reference.currentKey, note)
            #expect(await subject.currentFrame == reference.currentFrame, note)
            #expect(await subject.state == reference.state, note)
            #expect(await subject.lapsDone == reference.lapsDone, note)
            #expect(subjectPlayer.currentFrame == referencePlayer.currentFrame, note)
            #expect(subjectEvents.playback == referenceEvents.playback, note)
        }
        // The scripts reach item changes (see ``script(_:keys:)``): the
        // property is not vacuous.
        let started = subjectEvents.playback.filter { if case .itemStarted = $0 { true } else { false } }
        #expect(await subject.keys.count == 1 || started.count > 1, "seed \(seed)")
    }
}
