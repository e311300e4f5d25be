// A sequencer's turns: time run forward across item boundaries, skips and
// load timeouts, and the item entered, started or moved past.
extension PlaylistSequencer {
    /// Runs time forward to `host`, crossing item boundaries, skips and
    /// timeouts in order.
    mutating func settle(to host: Int64, _ events: inout [PlaylistEvent]) {
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
    mutating func resync(to host: Int64) {
        nowNanos = max(nowNanos, host)
        guard let current = turn else { return }
        var fresh = Turn(index: current.index, key: current.key)
        if loads[current.key]?.source != nil { fresh.head = makeHead(for: current.index) }
        turn = fresh
    }

    /// Begins the current turn while playing: starts the item, or announces
    /// the wait (a failed item is skipped by ``settle(to:_:)``).
    mutating func begin(_ events: inout [PlaylistEvent]) {
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
    mutating func start(_ events: inout [PlaylistEvent]) {
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
    mutating func moveToNext(_ events: inout [PlaylistEvent]) {
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
    mutating func enter(_ index: Int, _ events: inout [PlaylistEvent]) {
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

    /// The host time a playing head finishes its last loop, if it will.
    func finishNanos(of head: Playhead) -> Int64? {
        guard head.state == .playing, let total = head.timeline.totalNanos else { return nil }
        return head.hostNanos(whenMediaReaches: total)
    }

    var timeout: Duration { max(.zero, configuration.loadTimeout) }

    func waitDeadline(_ turn: Turn) -> Int64 {
        let left = max(0, Nanoseconds.subtract(Nanoseconds.of(timeout), turn.waited))
        return Nanoseconds.add(turn.waitAnchor, left)
    }

    func wrap(_ events: [PlayerEvent], _ key: String) -> [PlaylistEvent] {
        events.map { .player(key: key, event: $0) }
    }
}
