import Playback

/// The error fake loaders throw.
struct FakeLoadError: Error, Equatable, CustomStringConvertible {
    var key: String
    var description: String { "cannot load \(key)" }
}

/// A ``PlaylistSequencer`` with fake loads, times in milliseconds: loads of
/// keys in `sources` succeed and of keys in `failing` fail as soon as they
/// are asked for; any other load is held until ``release(_:)``.
struct SequencerHarness {
    var sequencer: PlaylistSequencer
    var sources: [String: any FrameSource]
    var failing: Set<String>
    var held: [PlaylistLoadRequest] = []
    /// Every key the sequencer asked to load, in order.
    var requested: [String] = []
    /// The `loadFinished` events, apart from the playback events.
    var loadEvents: [PlaylistEvent] = []

    /// Eight frames of 100 ms: 800 ms a pass.
    static let eightFrames = FakeFrameSource(frameDelays: Array(repeating: .milliseconds(100), count: 8))

    init(
        _ keys: [String], loops: [String: Int] = [:], sources: [String: any FrameSource]? = nil,
        failing: Set<String> = [], configuration: PlaylistConfiguration = .init()
    ) throws {
        self.sources = sources ?? Dictionary(uniqueKeysWithValues: keys.map { ($0, Self.eightFrames as any FrameSource) })
        self.failing = failing
        sequencer = try PlaylistSequencer(items: Self.items(keys, loops: loops), configuration: configuration)
        pump()
    }

    static func items(_ keys: [String], loops: [String: Int] = [:]) -> [PlaylistItem] {
        keys.map { key in
            PlaylistItem(key: key, loops: loops[key]) { throw FakeLoadError(key: key) }  // never called
        }
    }

    /// Answers the requests whose outcome is known; holds the others.
    mutating func pump() {
        for request in sequencer.takeLoadRequests() {
            let key = request.item.key
            requested.append(key)
            if failing.contains(key) {
                loadEvents += sequencer.finishLoad(request, result: .failure(FakeLoadError(key: key)))
            } else if let source = sources[key] {
                loadEvents += sequencer.finishLoad(request, result: .success(source))
            } else {
                held.append(request)
            }
        }
    }

    /// Lets a held load of `key` succeed with `source`.
    mutating func release(_ key: String, with source: any FrameSource = SequencerHarness.eightFrames) {
        guard let index = held.firstIndex(where: { $0.item.key == key }) else { return }
        loadEvents += sequencer.finishLoad(held.remove(at: index), result: .success(source))
    }

    @discardableResult
    mutating func play(at ms: Int) -> [PlaylistEvent] {
        defer { pump() }
        return sequencer.play(at: .milliseconds(ms))
    }

    @discardableResult
    mutating func pause(at ms: Int) -> [PlaylistEvent] {
        defer { pump() }
        return sequencer.pause(at: .milliseconds(ms))
    }

    @discardableResult
    mutating func advance(to ms: Int) -> [PlaylistEvent] {
        defer { pump() }
        return sequencer.advance(to: .milliseconds(ms))
    }

    /// Advances in `step` ms ticks up to `ms`, answering loads after each,
    /// as a host ticking on a display link would; returns every event.
    @discardableResult
    mutating func tick(to ms: Int, every step: Int = 100) -> [PlaylistEvent] {
        var events: [PlaylistEvent] = []
        var time = Int(sequencer.now / .milliseconds(1))
        while time < ms {
            time = min(ms, time + step)
            events += advance(to: time)
        }
        return events
    }

    @discardableResult
    mutating func replace(_ keys: [String], at ms: Int) -> [PlaylistEvent] {
        for key in keys where sources[key] == nil && !failing.contains(key) {
            sources[key] = Self.eightFrames
        }
        defer { pump() }
        return sequencer.replace(items: Self.items(keys), at: .milliseconds(ms))
    }

    var key: String? { sequencer.currentKey }
    var frame: Int? { sequencer.currentFrame }
    var timeIntoFrame: Duration? { sequencer.currentPlayhead?.timeIntoFrame }
}

/// `.player(key:event:)` shorthands for expected event lists.
func frame(_ key: String, _ index: Int) -> PlaylistEvent { .player(key: key, event: .frameChanged(frame: index)) }
func loop(_ key: String, _ done: Int) -> PlaylistEvent { .player(key: key, event: .loopCompleted(loopsDone: done)) }
func finished(_ key: String) -> PlaylistEvent { .player(key: key, event: .finished) }

/// The events of one item's whole eight-frame pass after its start, ticked
/// every 100 ms: frames 1…7, then loop 1, finished and the item's end.
func eightFramePass(_ key: String) -> [PlaylistEvent] {
    (1...7).map { frame(key, $0) } + [loop(key, 1), finished(key), .itemFinished(key: key)]
}

/// The same pass crossed by one late tick: the catch-up policy (skip)
/// reports only the frame landed on, then loop 1, finished and the item's end.
func eightFrameJump(_ key: String) -> [PlaylistEvent] {
    [frame(key, 7), loop(key, 1), finished(key), .itemFinished(key: key)]
}
