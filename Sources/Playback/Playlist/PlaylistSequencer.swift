/// The deterministic core of a ``Playlist``: which item plays, its
/// ``Playhead``, load states and the events on the way, with time passed in.
///
/// Like a ``Playhead``, a sequencer never reads a clock and never runs a
/// task. Time is host time (a `Duration` since an origin the host picks)
/// passed to ``advance(to:)`` and the other methods; loads are asked for
/// through ``takeLoadRequests()`` and their results handed back with
/// ``finishLoad(_:result:)``. Equal inputs give equal outputs.
///
/// Rules:
/// - Items play in order, each for its loop count, then the list wraps.
///   The next item starts exactly when the previous one's last frame
///   duration ends, however late the host ticks.
/// - Loading: the current item and the ``PlaylistConfiguration/preload``
///   items after it (failed ones not counted) are asked for as soon as they
///   come into that window.
/// - A late tick crosses item boundaries at their exact times; within an
///   item, frames follow the player's ``CatchUpPolicy`` (by default a late
///   tick reports only the frame it lands on).
/// - A failed item is skipped when its turn comes. An item still loading
///   is waited for up to ``PlaylistConfiguration/loadTimeout`` of playing
///   time, then skipped. A load result for the item being waited for takes
///   effect at the next time passed in (it is then "due":
///   ``nextChangeTime`` is ``now``), so the item starts at the host's real
///   time, not at the time of an earlier tick.
/// - Pause freezes the item's position, or the time spent waiting; play
///   resumes both exactly.
/// - ``replace(items:at:)`` relays playback when the new list is a subset of
///   the old one that still holds the current item; otherwise it starts over
///   at the new first item.
public struct PlaylistSequencer: Sendable {
    /// The rules in force.
    public let configuration: PlaylistConfiguration

    /// The items, in play order, keys unique.
    public private(set) var items: [PlaylistItem]

    /// The life-cycle state: the host's intent.
    public private(set) var state: PlaylistState

    /// Laps completed since the list was made or last started over.
    public private(set) var lapsDone: Int

    var nowNanos: Int64
    private var loads: [String: LoadEntry] = [:]
    private var turn: Turn?
    private var requests: [PlaylistLoadRequest] = []
    private var nextLoadID = 0
    /// Turns entered at one instant, to stop a lap that takes no time.
    private var instantTurns: (at: Int64, count: Int) = (.min, 0)

    private struct LoadEntry {
        var id: Int
        var state: ItemLoadState
        var source: (any FrameSource)?
    }

    private struct Turn {
        var index: Int
        var key: String
        /// The item's playhead, once its source is ready.
        var head: Playhead?
        /// Whether the turn began while playing (item started, or waiting
        /// announced).
        var begun = false
        /// Playing time spent waiting before ``waitAnchor``.
        var waited: Int64 = 0
        /// Host time waiting (re)started while playing; `.min` until the
        /// turn waits.
        var waitAnchor: Int64 = .min
    }

    /// Creates a sequencer on the first item, idle (or playing when
    /// ``PlaylistConfiguration/autoplay`` is on; read the state then), and
    /// asks for the first loads.
    /// - Parameters:
    ///   - items: The items in play order; of items sharing a key only the
    ///     first is kept.
    ///   - configuration: The rules.
    ///   - now: The host time at creation.
    /// - Throws: ``PlayerError/invalidRate(_:)`` for the player configuration's rate.
    public init(
        items: [PlaylistItem], configuration: PlaylistConfiguration = .init(), now: Duration = .zero
    ) throws(PlayerError) {
        try PlayerConfiguration.validate(rate: configuration.player.rate)
        self.configuration = configuration
        self.items = Self.unique(items)
        self.state = .idle
        self.lapsDone = 0
        self.nowNanos = Nanoseconds.of(now)
        var ignored: [PlaylistEvent] = []
        if !self.items.isEmpty { enter(0, &ignored) }
        if configuration.autoplay { play() }
    }

    // MARK: Reading the state

    /// The latest host time passed in.
    public var now: Duration { Nanoseconds.duration(nowNanos) }

    /// The position of the current item in ``items``, or `nil` when there is
    /// none (an empty list, or after ``PlaylistEvent/nothingToPlay``).
    public var currentIndex: Int? { turn?.index }

    /// The key of the current item.
    public var currentKey: String? { turn?.key }

    /// The current item's playhead: `nil` until its source is ready.
    package var currentPlayhead: Playhead? { turn?.head }

    /// The frame of the current item shown now, or `nil` when none is.
    public var currentFrame: Int? { turn?.head?.currentFrame }

    /// The current item's frames, once loaded.
    package var currentSource: (any FrameSource)? { turn.flatMap { loads[$0.key]?.source } }

    /// Whether the current item's turn has come and the playlist waits for
    /// its load (or for the next time passed in, when it has just arrived).
    public var isWaiting: Bool { turn.map { $0.begun && $0.head == nil } ?? false }

    /// The load state of the item with `key`, or `nil` when no item has it.
    /// - Parameter key: An item's key.
    public func loadState(of key: String) -> ItemLoadState? {
        guard items.contains(where: { $0.key == key }) else { return nil }
        return loads[key]?.state ?? .notStarted
    }

    /// The frames of the item with `key`, when loaded.
    /// - Parameter key: An item's key.
    public func source(for key: String) -> (any FrameSource)? { loads[key]?.source }

    /// The host time of the next change (a frame, an item boundary, a load
    /// timeout, or a load result due now), or `nil` when nothing will
    /// happen without a call from the host (idle, paused, nothing to play).
    /// Every wait has a deadline: the load timeout.
    public var nextChangeTime: Duration? {
        guard state == .playing, let turn else { return nil }
        if let head = turn.head { return head.nextChangeTime }
        guard turn.begun, case .loading = loads[turn.key]?.state ?? .notStarted else { return now }
        return Nanoseconds.duration(waitDeadline(turn))
    }

    /// Host time from ``now`` until ``nextChangeTime`` (zero when due), or
    /// `nil` when nothing is scheduled: the host's next wake-up.
    public var timeUntilNextChange: Duration? {
        nextChangeTime.map { max(.zero, $0 - now) }
    }

    // MARK: Control

    /// Starts or resumes at ``now`` (after advancing to `time`, if given):
    /// the current item continues where it was paused, or starts, or is
    /// waited for; a wait resumes with the time already spent kept.
    /// - Returns: The events, in order.
    @discardableResult
    public mutating func play(at time: Duration? = nil) -> [PlaylistEvent] {
        var events = time.map { advance(to: $0) } ?? []
        guard state != .playing else { return events }
        state = .playing
        if var current = turn, current.begun {
            if var head = current.head {
                if head.state == .idle { events.append(.itemStarted(key: current.key)) }
                events += wrap(head.play(at: now), current.key)
                current.head = head
            } else {
                current.waitAnchor = nowNanos
            }
            turn = current
        }
        settle(to: nowNanos, &events)
        return events
    }

    /// Freezes the position at ``now`` (after advancing to `time`, if given):
    /// the current item's exact frame and time into it, or the time spent
    /// waiting for it. Only a playing playlist pauses.
    /// - Returns: The events of the advance, if any.
    @discardableResult
    public mutating func pause(at time: Duration? = nil) -> [PlaylistEvent] {
        let events = time.map { advance(to: $0) } ?? []
        guard state == .playing else { return events }
        state = .paused
        if var current = turn, current.begun {
            if current.head != nil {
                current.head?.pause(at: now)
            } else {
                current.waited = Nanoseconds.add(current.waited, Nanoseconds.subtract(nowNanos, current.waitAnchor))
            }
            turn = current
        }
        return events
    }

    /// Moves host time forward to `time` and plays what happened by then:
    /// frames, item boundaries, skips and timeouts, and a load result that
    /// was due. A `time` before ``now`` is ignored.
    /// - Parameter time: The host time now.
    /// - Returns: The events, in order.
    @discardableResult
    public mutating func advance(to time: Duration) -> [PlaylistEvent] {
        let host = Nanoseconds.of(time)
        guard host >= nowNanos else { return [] }
        var events: [PlaylistEvent] = []
        settle(to: host, &events)
        return events
    }

    /// Moves host time forward by `duration` (ignored when negative).
    /// - Returns: The events, in order.
    @discardableResult
    public mutating func advance(by duration: Duration) -> [PlaylistEvent] {
        guard duration >= .zero else { return [] }
        return advance(to: Nanoseconds.duration(Nanoseconds.add(nowNanos, Nanoseconds.of(duration))))
    }

    /// Hands in a new list at ``now`` (after advancing to `time`, if given).
    ///
    /// - Relay: when every new key was in the old list and the current item
    ///   is among them, the current item goes on at its frame and time (or
    ///   its wait goes on), and the item after it in the *new* list follows.
    /// - Otherwise playback starts over at the new list's first item, in the
    ///   same state (playing, paused or idle), and laps count from zero.
    ///
    /// Items kept keep their load state and frames, except failed ones,
    /// which are loaded again; a load in flight for a removed item is ignored
    /// when it ends. Of new items sharing a key only the first is kept.
    /// - Parameters:
    ///   - newItems: The new list in play order.
    ///   - time: When given, the sequencer first advances to this time.
    /// - Returns: The events, in order.
    @discardableResult
    public mutating func replace(items newItems: [PlaylistItem], at time: Duration? = nil) -> [PlaylistEvent] {
        var events = time.map { advance(to: $0) } ?? []
        let fresh = Self.unique(newItems)
        let newKeys = Set(fresh.map(\.key))
        let oldKeys = Set(items.map(\.key))
        loads = loads.filter { key, entry in
            if case .failed = entry.state { return false }
            return newKeys.contains(key)
        }
        items = fresh
        instantTurns = (.min, 0)
        if var current = turn, newKeys.contains(current.key), newKeys.isSubset(of: oldKeys) {
            current.index = fresh.firstIndex { $0.key == current.key }!
            turn = current
            requestLoads()
        } else {
            turn = nil
            lapsDone = 0
            if fresh.isEmpty {
                events.append(.nothingToPlay)
            } else {
                enter(0, &events)
            }
        }
        settle(to: nowNanos, &events)
        return events
    }

    // MARK: Loads

    /// The loads to start now, in the order they are needed; each is handed
    /// out once. Call after every other method.
    public mutating func takeLoadRequests() -> [PlaylistLoadRequest] {
        defer { requests.removeAll() }
        return requests
    }

    /// Whether the load `id` (a ``PlaylistLoadRequest/id``) is still wanted:
    /// its item is in the list, this is the item's latest load, and no
    /// result has come back for it. A load that is not wanted (its item
    /// removed, or handed in anew) can be cancelled: its result would be
    /// ignored. ``Playlist`` cancels such loads after every change.
    /// - Parameter id: A load request's identifier.
    package func isLoadWanted(_ id: Int) -> Bool {
        loads.values.contains { entry in
            guard entry.id == id, case .loading = entry.state else { return false }
            return true
        }
    }

    /// Records the result of a load asked for by `request`; a result for an
    /// item no longer in the list, or handed in anew since, is ignored.
    ///
    /// A source whose timing no player accepts (no frames, delays that do
    /// not match) counts as a failure with its ``PlayerError``. The result
    /// does not depend on time: if the playlist is waiting for this very
    /// item, it starts (or is skipped) at the next time passed in.
    /// - Parameters:
    ///   - request: The request the load answered.
    ///   - result: The frames, or the loader's error.
    /// - Returns: ``PlaylistEvent/loadFinished(key:state:)``, or nothing
    ///   when the result was ignored.
    @discardableResult
    public mutating func finishLoad(
        _ request: PlaylistLoadRequest, result: Result<any FrameSource, any Error>
    ) -> [PlaylistEvent] {
        let key = request.item.key
        guard var entry = loads[key], entry.id == request.id, case .loading = entry.state else { return [] }
        switch result {
        case .success(let source):
            do throws(PlayerError) {
                _ = try PlaybackTimeline(source: source, configuration: configuration.player)
                entry.state = .ready
                entry.source = source
            } catch {
                entry.state = .failed(error)
            }
        case .failure(let error):
            entry.state = .failed(error)
        }
        loads[key] = entry
        // A failed item does not count towards the preload window.
        if case .failed = entry.state { requestLoads() }
        // Not waiting for it: show its first frame at once, idle.
        if var current = turn, current.key == key, current.head == nil, !current.begun, entry.source != nil {
            current.head = makeHead(for: current.index)
            turn = current
        }
        return [.loadFinished(key: key, state: loads[key]?.state ?? entry.state)]
    }

    /// Takes on the newer timing of the loaded item `key` whose source is a
    /// ``ProgressiveFrameSource`` (more frames, or complete): when it is the
    /// current item, its playhead grows (see ``Playhead/extend(to:)``), and
    /// a wait for its frames ends at the next time passed in. Later turns
    /// read the source's timing when they begin.
    /// - Parameters:
    ///   - key: The item's key.
    ///   - timing: The source's timing now.
    /// - Returns: Whether the current item's schedule changed (a host or
    ///   driver should then pass time in).
    @discardableResult
    package mutating func extendSource(of key: String, to timing: FrameSourceTiming) -> Bool {
        guard var current = turn, current.key == key, var head = current.head else { return false }
        let before = head.timeline
        do {
            try head.extend(to: timing)
        } catch {
            return false
        }
        current.head = head
        turn = current
        return head.timeline != before
    }

    // MARK: Internals

    /// Runs time forward to `host`, crossing item boundaries, skips and
    /// timeouts in order.
    private mutating func settle(to host: Int64, _ events: inout [PlaylistEvent]) {
        var crossed = 0, framesMade = 0, resynced = false
        /// Goes on to the next item, unless this advance has crossed
        /// ``maxBoundariesPerAdvance`` already, or made the timelines of
        /// ``maxFramesPerAdvance`` frames: then it resyncs once.
        func next(_ sequencer: inout PlaylistSequencer) {
            crossed += 1
            if !resynced, crossed > Self.maxBoundariesPerAdvance || framesMade > Self.maxFramesPerAdvance {
                resynced = true
                sequencer.resync(to: host)
            } else {
                sequencer.moveToNext(&events)
                framesMade += sequencer.turn?.head?.timeline.frameCount ?? 0
            }
        }
        while state == .playing, var current = turn {
            if !current.begun {
                begin(&events)
                continue
            }
            if var head = current.head {
                // To the item's finish first, so the next item starts then.
                var reached: Int64
                if case .carryLag = configuration.player.catchUp {
                    reached = host
                } else {
                    reached = min(host, finishNanos(of: head) ?? host)
                }
                events += wrap(head.advance(to: Nanoseconds.duration(reached)), current.key)
                while head.state != .finished, reached < host {
                    // A wait for frames still arriving moved the finish
                    // later: on to it, or to the host's time.
                    let later = min(host, finishNanos(of: head) ?? host)
                    reached = later > reached ? later : host
                    events += wrap(head.advance(to: Nanoseconds.duration(reached)), current.key)
                }
                if head.state == .finished {
                    nowNanos = max(nowNanos, head.nowNanos)
                    current.head = head
                    turn = current
                    events.append(.itemFinished(key: current.key))
                    next(&self)
                    continue
                }
                current.head = head
                turn = current
                break
            }
            switch loads[current.key]?.state ?? .notStarted {
            case .ready:
                nowNanos = max(nowNanos, host)
                start(&events)
            case .failed(let error):
                // Failed while waited for: the result was due at this time.
                // Failed before its turn: skipped when the turn came.
                if current.waitAnchor != .min { nowNanos = max(nowNanos, host) }
                events.append(.itemSkipped(key: current.key, reason: .loadFailed(error)))
                next(&self)
            case .loading, .notStarted:
                let deadline = waitDeadline(current)
                guard deadline <= host else {
                    nowNanos = host
                    return
                }
                nowNanos = max(nowNanos, deadline)
                events.append(.itemSkipped(key: current.key, reason: .timedOut(after: timeout)))
                next(&self)
            }
        }
        nowNanos = max(nowNanos, host)
    }

    /// The most item boundaries (finishes and skips) one advance crosses
    /// one by one. A host later than that (a tick decades after the last)
    /// resyncs instead: the item reached then starts afresh at the host's
    /// time, like ``CatchUpPolicy`` resync, so an advance costs bounded work
    /// however late it is.
    package static let maxBoundariesPerAdvance = 1_000

    /// The most frames whose timelines one advance makes as it crosses
    /// item boundaries one by one (each item entered makes its timeline
    /// afresh, as long as its frames): past that, the advance resyncs as
    /// past ``maxBoundariesPerAdvance``, so that items of thousands of
    /// frames cost an advance no more than a thousand small ones.
    package static let maxFramesPerAdvance = 65_536

    /// Starts the current item afresh at `host`: the late-tick resync.
    private mutating func resync(to host: Int64) {
        nowNanos = max(nowNanos, host)
        guard let current = turn else { return }
        var fresh = Turn(index: current.index, key: current.key)
        if loads[current.key]?.source != nil { fresh.head = makeHead(for: current.index) }
        turn = fresh
    }

    /// Begins the current turn while playing: starts the item, or announces
    /// the wait (a failed item is skipped by ``settle(to:_:)``).
    private mutating func begin(_ events: inout [PlaylistEvent]) {
        guard var current = turn else { return }
        current.begun = true
        turn = current
        switch loads[current.key]?.state ?? .notStarted {
        case .ready:
            start(&events)
        case .failed:
            break
        case .loading, .notStarted:
            current.waited = 0
            current.waitAnchor = nowNanos
            turn = current
            events.append(.waitingForItem(key: current.key))
        }
    }

    /// Plays the current (ready) item from its start at ``now``.
    private mutating func start(_ events: inout [PlaylistEvent]) {
        guard var current = turn else { return }
        // No head: the source changed under us and the load is now failed;
        // the caller's loop skips the item.
        guard var head = current.head ?? makeHead(for: current.index) else { return }
        events.append(.itemStarted(key: current.key))
        events += wrap(head.play(at: now), current.key)
        current.head = head
        turn = current
    }

    /// Goes on to the item after the current one, wrapping.
    private mutating func moveToNext(_ events: inout [PlaylistEvent]) {
        guard let current = turn, !items.isEmpty else { return }
        var next = current.index + 1
        if next >= items.count {
            next = 0
            lapsDone += 1
            events.append(.playlistWrapped(lapsDone: lapsDone))
        }
        enter(next, &events)
    }

    /// Makes item `index` the current one, not yet begun; rests instead when
    /// a whole lap has passed without time moving.
    private mutating func enter(_ index: Int, _ events: inout [PlaylistEvent]) {
        if instantTurns.at == nowNanos {
            instantTurns.count += 1
        } else {
            instantTurns = (nowNanos, 1)
        }
        guard instantTurns.count <= items.count else {
            turn = nil
            events.append(.nothingToPlay)
            return
        }
        let key = items[index].key
        var current = Turn(index: index, key: key)
        if loads[key]?.source != nil { current.head = makeHead(for: index) }
        turn = current
        requestLoads()
    }

    /// Asks for the current item and the preload window after it: the next
    /// ``PlaylistConfiguration/preload`` items that have not failed.
    private mutating func requestLoads() {
        guard let current = turn, !items.isEmpty else { return }
        var ahead = 0
        for offset in 0..<items.count {
            let item = items[(current.index + offset) % items.count]
            if offset > 0 {
                if case .failed = loads[item.key]?.state { continue }
                ahead += 1
                if ahead > max(0, configuration.preload) { break }
            }
            guard loads[item.key] == nil else { continue }
            nextLoadID += 1
            loads[item.key] = LoadEntry(id: nextLoadID, state: .loading)
            requests.append(PlaylistLoadRequest(id: nextLoadID, item: item))
        }
    }

    /// A fresh idle playhead for item `index` at ``now``, or `nil` when the
    /// item has no source or its source's timing no longer makes a timeline
    /// (its frame count or delays changed since ``finishLoad(_:result:)``
    /// checked them): the item's load is then marked failed with the
    /// ``PlayerError``, so its turn is skipped instead of trapping.
    private mutating func makeHead(for index: Int) -> Playhead? {
        let item = items[index]
        guard let source = loads[item.key]?.source else { return nil }
        var player = configuration.player
        player.loop = .count(max(1, item.loops ?? configuration.loopsPerItem))
        player.autoplay = false
        // The playlist moves on when an item finishes: per-item motion
        // policies would leave it stopped on one item.
        player.playTimeLimit = nil
        player.reducedMotion = false
        do throws(PlayerError) {
            let timeline = try PlaybackTimeline(source: source, configuration: player)
            return try Playhead(timeline: timeline, configuration: player, now: now)
        } catch {
            loads[item.key]?.state = .failed(error)
            loads[item.key]?.source = nil
            return nil
        }
    }

    /// The host time a playing head finishes its last loop, if it will.
    private func finishNanos(of head: Playhead) -> Int64? {
        guard head.state == .playing, let total = head.timeline.totalNanos else { return nil }
        return head.hostNanos(whenMediaReaches: total)
    }

    private var timeout: Duration { max(.zero, configuration.loadTimeout) }

    private func waitDeadline(_ turn: Turn) -> Int64 {
        let left = max(0, Nanoseconds.subtract(Nanoseconds.of(timeout), turn.waited))
        return Nanoseconds.add(turn.waitAnchor, left)
    }

    private func wrap(_ events: [PlayerEvent], _ key: String) -> [PlaylistEvent] {
        events.map { .player(key: key, event: $0) }
    }

    private static func unique(_ items: [PlaylistItem]) -> [PlaylistItem] {
        var seen: Set<String> = []
        return items.filter { seen.insert($0.key).inserted }
    }
}
