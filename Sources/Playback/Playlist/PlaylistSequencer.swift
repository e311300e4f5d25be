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
    package let configuration: PlaylistConfiguration

    /// The items, in play order, keys unique.
    package internal(set) var items: [PlaylistItem]

    /// The life-cycle state: the host's intent.
    public internal(set) var state: PlaylistState

    /// Laps completed since the list was made or last started over.
    package internal(set) var lapsDone: Int

    var nowNanos: Int64
    var loads: [String: LoadEntry] = [:]
    var turn: Turn?
    var requests: [PlaylistLoadRequest] = []
    var nextLoadID = 0
    /// Turns entered at one instant, to stop a lap that takes no time.
    var instantTurns: (at: Int64, count: Int) = (.min, 0)

    struct LoadEntry {
        var id: Int
        var state: ItemLoadState
        var source: (any FrameSource)?
    }

    struct Turn {
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
    package var currentIndex: Int? { turn?.index }

    /// The key of the current item.
    package var currentKey: String? { turn?.key }

    /// The current item's playhead: `nil` until its source is ready.
    package var currentPlayhead: Playhead? { turn?.head }

    /// The frame of the current item shown now, or `nil` when none is.
    package var currentFrame: Int? { turn?.head?.currentFrame }

    /// The current item's frames, once loaded.
    package var currentSource: (any FrameSource)? { turn.flatMap { loads[$0.key]?.source } }

    /// Whether the current item's turn has come and the playlist waits for
    /// its load (or for the next time passed in, when it has just arrived).
    package var isWaiting: Bool { turn.map { $0.begun && $0.head == nil } ?? false }

    /// The load state of the item with `key`, or `nil` when no item has it.
    /// - Parameter key: An item's key.
    package func loadState(of key: String) -> ItemLoadState? {
        guard items.contains(where: { $0.key == key }) else { return nil }
        return loads[key]?.state ?? .notStarted
    }

    /// The frames of the item with `key`, when loaded.
    /// - Parameter key: An item's key.
    package func source(for key: String) -> (any FrameSource)? { loads[key]?.source }

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
    package var timeUntilNextChange: Duration? {
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
    package mutating func advance(by duration: Duration) -> [PlaylistEvent] {
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

    static func unique(_ items: [PlaylistItem]) -> [PlaylistItem] {
        var seen: Set<String> = []
        return items.filter { seen.insert($0.key).inserted }
    }
}
