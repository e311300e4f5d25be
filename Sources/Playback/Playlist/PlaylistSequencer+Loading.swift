// A sequencer's loads: the requests it hands out, the results handed back,
// the window of items it asks for, and the playhead made for a loaded item.
extension PlaylistSequencer {
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


    /// Asks for the current item and the preload window after it: the next
    /// ``PlaylistConfiguration/preload`` items that have not failed.
    mutating func requestLoads() {
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
    mutating func makeHead(for index: Int) -> Playhead? {
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
}
