@_spi(Engine) import EngineSupport

/// One byte budget shared by every ``FrameCache`` made over it: the frames
/// they hold, the decodes they have in flight and their sources' decoding
/// state (seek checkpoints, index tiers; see
/// `BudgetedFrameSource.decodingStateByteCount`) are counted together and never
/// pass ``byteBudget`` once a call returns.
///
/// The host owns it (the library keeps no global state) and hands it to a
/// ``FrameCachePool``, a ``FrameCache`` or a ``PlaylistConfiguration``. When
/// something must go, the budget chooses, across all its caches:
///
/// 1. the decoding state of sources no player is playing;
/// 2. frames of caches no player is playing (paused, stopped, hidden),
///    least recently shown first;
/// 3. frames of playing caches, least recently shown first;
/// 4. the decoding state of playing sources, down to what each needs to
///    go on playing (`BudgetedFrameSource.workingStateByteCount`: a GIF's working
///    canvas and decoder buffers), so that a playing GIF never starts
///    again from frame 0;
/// 5. last, each cache's frame 0 (what a poster shows), not playing first.
///
/// **Playing caches share fairly.** Room for a playing cache's new frame is
/// not taken from another playing cache holding no more than its fair share
/// of the budget: what is left after the decoding state, split evenly, with
/// what a small animation does not need (all its frames) shared among the
/// rest (max-min fairness). A playing cache at its share makes room from
/// caches not playing and from its own frames, least recently shown first;
/// one under its share takes from caches over theirs before its own. So
/// nine looping GIFs whose frames do not all fit do not take turns evicting
/// each other's frames, each a frame just before it is shown again: each
/// keeps its share and draws its next frame into the pixels of its own
/// evicted one, without the allocator churn that costs a feed memory.
/// Trims and a lower limit (``trim(to:)``, `setByteBudget(_:)`) follow the
/// order above alone.
///
/// **What goes back leaves the process.** With glibc, the pages of freed
/// frames stay in the allocator's heaps; after every 256 KiB of frames and
/// decoding state given back and not reused, the budget asks glibc to
/// return its free pages to the system (`malloc_trim`), outside its lock.
/// Darwin's allocator does this by itself.
///
/// A player tells its cache whether it plays (`FrameCache.beginPlaying()`
/// and `FrameCache.endPlaying()`); a prefetch never evicts frames of its
/// own look-ahead list, and a decode sets its frame's bytes aside before it
/// starts, so a frame is kept only when its room was found first.
///
/// Every method is synchronous and takes one lock: ``trim(to:)`` can be
/// called from a memory-pressure handler on any thread, and the caches
/// (actors) never wait on each other. **No source is called under the
/// lock.** What the budget knows of a source (its size, its decoding state
/// and what it needs to go on) is read before the lock is taken, when the
/// source registers and each time its cache notes a decode; a source whose
/// state must shrink is chosen under the lock and asked to trim after it is
/// released. So a source may call back into the budget from any of its
/// methods. Victims are found by a scan of the
/// frames held (hundreds, not pixels), and nothing is allocated per frame
/// once the tables have grown.
///
/// **What a source adds is counted before it is held.** A source whose
/// state grows on threads of its own (a `GIFFrameSource`'s stored indices
/// on its decode thread, the changes its drawers record on the host's
/// thread) asks the budget for the bytes first, through the cache that
/// registered it. With room made from frames alone (a grow never has
/// another source trim under it) or none left, the source holds less
/// instead: a GIF passes the frame on (among a few passing frames, room
/// made by its own last stored frames) and gives up its recorded changes.
/// So what the members really hold stays within ``byteBudget`` whenever
/// what the playing sources need to draw at all (their working state)
/// fits.
///
/// **Any size a source reports is taken.** A source's
/// `decodingStateByteCount` counts as reported, a negative one as 0; the
/// sums over all sources are kept in 128 bits, so sources reporting up to
/// `Int.max` each cannot overflow them, and ``bytesHeld`` and the
/// statistics' totals stop at `Int.max`. A source whose state stays over
/// the limit after it was asked to trim is left as it is: the budget then
/// holds no frames beside it.
///
/// ```swift
/// let budget = FrameMemoryBudget(byteBudget: 24 << 20)
/// let pool = FrameCachePool(budget: budget)       // its caches share the 24 MiB
/// let cache = try await pool.cache(for: path) { try GIFFrameSource(contentsOf: path) }
/// let player = try Player(source: cache.source, startingAt: clock.now, cache: cache)
/// await player.play()
/// // on a memory warning:
/// budget.trim(to: 4 << 20)
/// ```
public final class FrameMemoryBudget: Sendable, Hashable {

    /// A source's decoding state to give back: chosen under the lock and
    /// counted as given back at once (``Ledger/startTrim(_:)``), so the
    /// ledger never shows more than the limit while the lock is free; asked
    /// of the source after the lock is released.
    struct StateTrim {
        let id: Int
        let source: any BudgetedFrameSource
        let keepingWork: Bool
        /// The bytes the source is asked to keep.
        let target: Int
        /// The bytes counted for it when it was chosen.
        let countedBefore: Int
    }

    /// A source already asked to trim during one call, and how far: it is
    /// not chosen again in that call (it may keep what it reports).
    struct Trimmed: Hashable {
        var id: Int
        var keepingWork: Bool
    }

    /// Something the budget can give back.
    enum Victim {
        case frame(FrameKey)
        /// A source's decoding state, down to its working state when
        /// `keepingWork` (see `BudgetedFrameSource.workingStateByteCount`): given
        /// back by the source, outside the lock.
        case state(StateTrim)
    }

    let ledger: LockedState<Ledger>
    /// Whether sources' decoding state counts: not for a cache's own budget,
    /// which (as before budgets were shared) holds frames only.
    let countsDecodingState: Bool

    /// Creates an empty budget.
    /// - Parameter byteBudget: The most bytes counted at once (negative
    ///   means 0). A 160 × 160 frame takes 102,400 bytes.
    public convenience init(byteBudget: Int) {
        self.init(byteBudget: byteBudget, countsDecodingState: true)
    }

    /// A budget, counting the sources' decoding state or (for one cache's
    /// own budget) frames only.
    init(byteBudget: Int, countsDecodingState: Bool) {
        ledger = LockedState(Ledger(limit: max(0, byteBudget)))
        self.countsDecodingState = countsDecodingState
    }

    /// Runs `body` on the ledger with the lock held; once what it has given
    /// back since the last time passes ``FreedMemory/threshold``, returns the
    /// free pages to the system after the lock is released (the frames given
    /// back have been freed by then, unless a player still shows them).
    private func update<Result>(_ body: (inout Ledger) -> Result) -> Result {
        passes { ledger, _, _ in body(&ledger) }
    }

    /// Runs `pass` on the ledger with the lock held. The decoding state a
    /// pass chooses to give back (``Ledger/startTrim(_:)``, appended to the
    /// list it is handed) is asked of the sources once the lock is
    /// released, and what they then report is counted. When a source keeps
    /// more than it was asked to, `pass` runs again, told which sources
    /// this call has trimmed already, so that others give the rest. Free
    /// pages go back to the system as in ``update(_:)``.
    func passes<Result>(_ pass: (inout Ledger, Set<Trimmed>, inout [StateTrim]) -> Result) -> Result {
        var trimmed: Set<Trimmed> = []
        while true {
            var trims: [StateTrim] = []
            let (result, release) = ledger.withLock { ledger -> (Result, Bool) in
                let result = pass(&ledger, trimmed, &trims)
                guard ledger.givenBack >= FreedMemory.threshold else { return (result, false) }
                ledger.givenBack = 0
                return (result, true)
            }
            if release { FreedMemory.returnToSystem() }
            var shortfall = false
            for trim in trims {
                trimmed.insert(Trimmed(id: trim.id, keepingWork: trim.keepingWork))
                trim.source.trimDecodingState(toBytes: trim.target)
                let facts = SourceFacts(of: trim.source, budgeted: trim.source)
                if ledger.withLock({ $0.finishTrim(trim, facts: facts) }) { shortfall = true }
            }
            guard shortfall else { return result }
        }
    }

    /// The most bytes counted at once.
    public var byteBudget: Int { ledger.withLock { $0.limit } }

    /// The bytes counted now (frames, decodes in flight, decoding state).
    /// At most `Int.max`.
    public var bytesHeld: Int { ledger.withLock { Self.clamped($0.total) } }

    /// The totals and every live cache's counters.
    public var statistics: FrameMemoryStatistics {
        ledger.withLock { ledger in
            FrameMemoryStatistics(
                byteBudget: ledger.limit, bytesHeld: Self.clamped(ledger.total), frameBytes: ledger.frameBytes,
                decodingStateBytes: Self.clamped(ledger.stateBytes), reservedBytes: ledger.reserved,
                framesHeld: ledger.frames.count, evictions: ledger.evictions, decodingStateTrims: ledger.stateTrims,
                caches: ledger.members.keys.sorted().map { Self.snapshot(ledger.members[$0]!, limit: ledger.limit) })
        }
    }

    /// Changes the limit, giving back what is over it in the order above.
    /// - Parameter bytes: The new limit (negative means 0).
    package func setByteBudget(_ bytes: Int) {
        passes { ledger, trimmed, trims in
            ledger.limit = max(0, bytes)
            Self.shed(&ledger, to: ledger.limit, sparing: nil, hard: true, trimmed: trimmed, trims: &trims)
        }
    }

    /// Gives back frames and decoding state, in the order above, until at
    /// most `bytes` are counted; decodes in flight lose their room (their
    /// frames are returned but not kept). The limit stays as it was: this is
    /// for a memory warning, after which the caches fill up again as players
    /// ask for frames.
    ///
    /// Synchronous, so that a memory-pressure handler frees the memory
    /// before it returns, without waiting on any actor.
    /// - Parameter bytes: The most bytes to keep (negative means 0).
    public func trim(to bytes: Int) {
        passes { ledger, trimmed, trims in
            Self.shed(&ledger, to: max(0, bytes), sparing: nil, hard: true, trimmed: trimmed, trims: &trims)
            for id in ledger.members.keys where ledger.members[id]!.reserved > 0 {
                guard ledger.total > Int128(max(0, bytes)) else { return }
                ledger.release(reservationOf: id)
            }
        }
    }

    /// Budgets are equal when they are the same object.
    /// - Parameters:
    ///   - lhs: A budget.
    ///   - rhs: Another budget.
    public static func == (lhs: FrameMemoryBudget, rhs: FrameMemoryBudget) -> Bool { lhs === rhs }

    /// Hashes the object's identity.
    /// - Parameter hasher: The hasher.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    // MARK: For FrameCache

    /// Adds a member for `source`; `budgeted` is the same source when it is
    /// a ``BudgetedFrameSource`` (cast once, by the cache).
    func register(source: any FrameSource, budgeted: (any BudgetedFrameSource)?) -> Int {
        let facts = SourceFacts(of: source, budgeted: budgeted)
        return ledger.withLock { ledger in
            ledger.nextMember += 1
            ledger.members[ledger.nextMember] = Member(source: source, budgeted: budgeted, facts: facts)
            return ledger.nextMember
        }
    }

    func unregister(_ id: Int) {
        update { ledger in
            ledger.dropFrames(of: id)
            ledger.release(reservationOf: id)
            if let member = ledger.members.removeValue(forKey: id) {
                ledger.stateBytes -= Int128(member.stateBytes)
                ledger.total -= Int128(member.stateBytes) + Int128(member.imageBytes)
            }
        }
    }

    /// Counts `delta` more bytes of the canvases member `id`'s players draw
    /// their images into (``Player/currentImage(isolation:)``), then gives back from
    /// other members what the total is over the limit: the canvases
    /// themselves are held by their players and never given back. Called
    /// with no drawing lock held.
    func addImageBytes(_ id: Int, _ delta: Int) {
        passes { ledger, trimmed, trims in
            guard let member = ledger.members[id] else { return }
            if trimmed.isEmpty {
                let bytes = max(0, member.imageBytes + delta)
                ledger.total += Int128(bytes) - Int128(member.imageBytes)
                member.imageBytes = bytes
            }
            guard delta > 0 else { return }
            Self.shed(&ledger, to: ledger.limit, sparing: id, hard: false, trimmed: trimmed, trims: &trims)
        }
    }

    /// Frame `index` of member `id` when held, marked as just shown; counts
    /// a hit or a miss when `counting`.
    func lookup(_ id: Int, _ index: Int, counting: Bool) -> RenderedFrame? {
        ledger.withLock { ledger in
            let key = FrameKey(member: id, index: index)
            ledger.tick += 1
            let tick = ledger.tick
            // Get and set, not changed in place: see `Member`.
            let frame: RenderedFrame? = {
                guard var held = ledger.frames[key] else { return nil }
                held.lastUse = tick
                ledger.frames[key] = held
                return held.frame
            }()
            if counting {
                if frame == nil { ledger.members[id]?.counters.misses += 1 } else { ledger.members[id]?.counters.hits += 1 }
            }
            ledger.members[id]?.lastUse = tick
            return frame
        }
    }

    func contains(_ id: Int, _ index: Int) -> Bool {
        ledger.withLock { $0.frames[FrameKey(member: id, index: index)] != nil }
    }

    /// Sets `bytes` aside for member `id`'s next decode, giving back what
    /// must go; returns the pixels of a dropped frame of that size to draw
    /// into (or none). When `protecting` is given (a prefetch), those frames
    /// of the member are spared, and `nil` means no room. A demand decode
    /// always gets an answer: without room, nothing is set aside and the
    /// frame will be returned but not kept.
    func reserve(_ id: Int, bytes: Int, protecting: [Int]?) -> [UInt8]? {
        var storage: [UInt8] = []
        return passes { ledger, trimmed, trims -> [UInt8]? in
            ledger.release(reservationOf: id)
            guard bytes <= ledger.limit, ledger.members[id] != nil else { return protecting == nil ? [] : nil }
            let atShare = ledger.room < bytes ? EvictionPolicy.atFairShare(id, adding: bytes, in: ledger) : nil
            while ledger.room(besides: trims) < bytes {
                switch EvictionPolicy.victim(
                    in: ledger, requester: id, protecting: protecting, keepingWork: true, atShare: atShare,
                    trimmed: trimmed)
                {
                case nil:
                    return protecting == nil ? storage : nil
                case .state(let trim):
                    trims.append(ledger.startTrim(trim))
                case .frame(let key):
                    let pixels = ledger.evict(key)
                    if storage.isEmpty, pixels.count == bytes {
                        storage = pixels
                        ledger.givenBack -= bytes
                    }
                }
            }
            ledger.members[id]!.reserved = bytes
            ledger.reserved += bytes
            ledger.total += Int128(bytes)
            return storage
        }
    }

    /// Keeps `frame` for member `id` in the room set aside for it; without
    /// that room (none found, or taken back by a trim or a purge) the frame
    /// is not kept.
    func commit(_ id: Int, _ frame: RenderedFrame) {
        ledger.withLock { ledger in
            guard let member = ledger.members[id] else { return }
            let reserved = member.reserved
            ledger.release(reservationOf: id)
            let key = FrameKey(member: id, index: frame.index)
            if ledger.frames[key] != nil { _ = ledger.remove(key) }
            // The room set aside is the frame's, trims in flight or not.
            guard reserved > 0, frame.byteCount <= reserved, Int128(ledger.limit) - ledger.total >= frame.byteCount
            else { return }
            ledger.tick += 1
            ledger.frames[key] = Held(frame: frame, lastUse: ledger.tick)
            ledger.members[id]!.frameBytes += frame.byteCount
            ledger.members[id]!.frames += 1
            ledger.frameBytes += frame.byteCount
            ledger.total += Int128(frame.byteCount)
        }
    }

    func cancelReservation(_ id: Int) {
        ledger.withLock { $0.release(reservationOf: id) }
    }

    /// Counts `bytes` more of member `id`'s decoding state before the source
    /// holds them (``StateAllowance/reserve(_:)``), making room from frames
    /// alone: no source is asked to trim, so a draw growing its source's
    /// state never waits on another source's drawers. Returns whether they
    /// were counted; `true` for a member this budget does not hold.
    func reserveState(_ id: Int, bytes: Int) -> Bool {
        guard countsDecodingState else { return true }
        return update { ledger in
            guard let member = ledger.members[id] else { return true }
            while ledger.room < Int128(bytes) {
                guard case .frame(let key)? = EvictionPolicy.victim(
                    in: ledger, requester: id, protecting: nil, keepingWork: true, atShare: nil, trimmed: [])
                else { return false }
                _ = ledger.evict(key)
            }
            ledger.setState(of: id, to: member.stateBytes + bytes)
            member.reservedSinceRead = Self.clamped(Int128(member.reservedSinceRead) + Int128(bytes))
            return true
        }
    }

    /// Reads member `id`'s source's decoding state, then gives back what is
    /// over the limit (that source's own state last). What was counted
    /// before it was held since the last reading stays counted beside this
    /// one (up to the count before it), which may have missed it.
    func noteDecodingState(_ id: Int) {
        guard countsDecodingState, let source = ledger.withLock({ $0.members[id]?.budgeted }) else { return }
        let facts = SourceFacts(of: source, budgeted: source)
        passes { ledger, trimmed, trims in
            guard let member = ledger.members[id] else { return }
            if trimmed.isEmpty {
                member.facts = facts
                let unread = Int128(facts.state) + Int128(member.reservedSinceRead)
                member.reservedSinceRead = 0
                ledger.setState(of: id, to: max(facts.state, Self.clamped(min(Int128(member.stateBytes), unread))))
            }
            Self.shed(&ledger, to: ledger.limit, sparing: id, hard: false, trimmed: trimmed, trims: &trims)
            let own = Trimmed(id: id, keepingWork: false)
            if ledger.total > Int128(ledger.limit), !trimmed.contains(own) {
                // Only this source's own state is left to give.
                let keep = Self.clamped(max(0, Int128(member.stateBytes) - (ledger.total - Int128(ledger.limit))))
                trims.append(ledger.startTrim(StateTrim(
                    id: id, source: source, keepingWork: false, target: keep, countedBefore: member.stateBytes)))
            }
        }
    }

    func count(_ id: Int, decodes: Int = 0, failures: Int = 0) {
        ledger.withLock { ledger in
            ledger.members[id]?.counters.decodes += decodes
            ledger.members[id]?.counters.failures += failures
        }
    }

    func setPlaying(_ id: Int, delta: Int) {
        ledger.withLock { ledger in
            guard ledger.members[id] != nil else { return }
            ledger.members[id]!.playing = max(0, ledger.members[id]!.playing + delta)
        }
    }

    /// Drops member `id`'s frames and the room set aside for its decode.
    func purge(_ id: Int) {
        update { ledger in
            ledger.dropFrames(of: id)
            ledger.release(reservationOf: id)
        }
    }

    func statistics(of id: Int) -> FrameCacheStatistics {
        ledger.withLock { ledger in
            Self.snapshot(ledger.members[id], limit: ledger.limit)
        }
    }

    // MARK: Internals (under the lock)

    /// The statistics of `member`, or of an id with no member (`nil`): all
    /// zero but the byte budget.
    private static func snapshot(_ member: Member?, limit: Int) -> FrameCacheStatistics {
        var snapshot = member?.counters ?? FrameCacheStatistics()
        snapshot.byteBudget = limit
        guard let member else { return snapshot }
        snapshot.bytesHeld = member.frameBytes
        snapshot.framesHeld = member.frames
        snapshot.decodingStateBytes = member.stateBytes
        snapshot.imageBytes = member.imageBytes
        snapshot.isPlaying = member.playing > 0
        return snapshot
    }

    /// Gives back victims until at most `bytes` are counted or nothing is
    /// left to give (reservations are not touched), or until a source's
    /// decoding state is next: that trim is returned, for the caller to ask
    /// of the source with the lock released. `sparing`'s own decoding state
    /// is not a victim, nor any source in `trimmed`. Playing sources keep
    /// their working state unless `hard` (a trim or a lower limit), which
    /// takes it after everything else.
    static func shed(
        _ ledger: inout Ledger, to bytes: Int, sparing: Int?, hard: Bool, trimmed: Set<Trimmed>,
        trims: inout [StateTrim]
    ) {
        for pass in 0..<(hard ? 2 : 1) {
            let keepingWork = pass == 0
            shedding: while ledger.total > Int128(bytes) {
                switch EvictionPolicy.victim(
                    in: ledger, requester: sparing, protecting: nil, keepingWork: keepingWork, atShare: nil,
                    trimmed: trimmed)
                {
                case nil: break shedding
                case .state(let trim): trims.append(ledger.startTrim(trim))
                case .frame(let key): _ = ledger.evict(key)
                }
            }
        }
    }

}

