/// The budget's books: its members, the frames it holds and the totals,
/// with the changes that keep them consistent. Read and changed only with
/// the budget's lock held; what to give back is ``EvictionPolicy``'s choice.
extension FrameMemoryBudget {
    /// One cache's share. A class, changed in place through the members
    /// table: a struct this large changed through `Dictionary`'s `_modify`
    /// accessor costs a heap-allocated coroutine frame per change, several
    /// per frame shown.
    ///
    /// `@unchecked Sendable`: a member is reached only through the ledger,
    /// with the budget's lock held, and never handed out of it (callers get
    /// copies: its source, a statistics snapshot), so the lock orders every
    /// read and write of its fields.
    final class Member: @unchecked Sendable {
        let source: any FrameSource
        /// The source as one that reports and gives back decoding state, or
        /// `nil` (it then counts as holding none).
        let budgeted: (any BudgetedFrameSource)?
        /// The source's facts, read outside the lock (see ``SourceFacts``).
        var facts: SourceFacts
        var playing = 0
        /// Bytes set aside for the decode running now (0: none).
        var reserved = 0
        /// The bytes of state counted before they were held
        /// (``FrameMemoryBudget/reserveState(_:bytes:)``, `reserveWorkingState`)
        /// since the source's state was last read: the next reading may have
        /// missed them (counted, not held yet), so they stay counted beside it.
        var reservedSinceRead = 0
        var stateBytes = 0
        /// The canvases the players' images are drawn into (see
        /// ``FrameMemoryBudget/addImageBytes(_:_:)``): counted, never trimmed.
        var imageBytes = 0
        var frameBytes = 0
        var frames = 0
        var lastUse: UInt64 = 0
        var counters = FrameCacheStatistics()
        /// The frame bytes this cache may hold while playing without giving
        /// way to another playing cache (see
        /// ``FrameMemoryBudget/assignFairShares(_:)``): set before each
        /// reservation that must make room.
        var share = 0
        /// Scratch for ``FrameMemoryBudget/assignFairShares(_:)``: whether
        /// ``share`` is the whole need, below the common level.
        var shareFixed = false

        init(source: any FrameSource, budgeted: (any BudgetedFrameSource)?, facts: SourceFacts) {
            self.source = source
            self.budgeted = budgeted
            self.facts = facts
        }
    }

    /// What the budget knows of a source, read from it with the budget's
    /// lock released.
    struct SourceFacts {
        /// The bytes of every frame at the cache's size: what the cache
        /// would hold to keep the whole animation.
        var need: Int
        /// The decoding state the source needs to go on
        /// (`BudgetedFrameSource.workingStateByteCount`), at least 0.
        var working: Int
        /// The decoding state it holds (`BudgetedFrameSource.decodingStateByteCount`),
        /// at least 0.
        var state: Int

        /// The facts of `source`, whose decoding state `budgeted` (the same
        /// source, when it is a ``BudgetedFrameSource``) reports.
        init(of source: any FrameSource, budgeted: (any BudgetedFrameSource)?) {
            let frame = FrameSourceError.byteCount(width: source.canvasWidth, height: source.canvasHeight) ?? .max
            let count = max(0, source.frameCount)
            need = count == 0 ? 0 : (frame > .max / count ? .max : frame * count)
            working = max(0, budgeted?.workingStateByteCount ?? 0)
            state = max(0, budgeted?.decodingStateByteCount ?? 0)
        }
    }

    struct FrameKey: Hashable {
        var member: Int
        var index: Int
    }

    struct Held {
        var frame: RenderedFrame
        var lastUse: UInt64
    }

    struct Ledger {
        var limit: Int
        var members: [Int: Member] = [:]
        var frames: [FrameKey: Held] = [:]
        var nextMember = 0
        var tick: UInt64 = 0
        /// frames + reserved + decoding state, over all members: 128 bits,
        /// since each member's state may be up to `Int.max`.
        var total: Int128 = 0
        var frameBytes = 0
        var stateBytes: Int128 = 0
        var reserved = 0
        /// Bytes trims have counted as given back that their sources have
        /// not given back yet (``startTrim(_:)`` to ``finishTrim(_:facts:)``):
        /// not ``room`` until they are, so that nothing new is held beside
        /// what is still held.
        var trimsInFlight: Int128 = 0
        var evictions = 0
        var stateTrims = 0
        /// Bytes of frames and decoding state given back and not reused
        /// since the free pages were last returned (see ``FreedMemory``).
        var givenBack = 0

        /// Evicts frame `key`; its pixels are returned for reuse.
        mutating func evict(_ key: FrameKey) -> [UInt8] {
            evictions += 1
            members[key.member]?.counters.evictions += 1
            return remove(key)
        }

        mutating func remove(_ key: FrameKey) -> [UInt8] {
            guard let held = frames.removeValue(forKey: key) else { return [] }
            let bytes = held.frame.byteCount
            members[key.member]?.frameBytes -= bytes
            members[key.member]?.frames -= 1
            frameBytes -= bytes
            total -= Int128(bytes)
            addGivenBack(bytes)
            return held.frame.pixels
        }

        mutating func dropFrames(of id: Int) {
            guard let member = members[id], member.frames > 0 else { return }
            for key in frames.keys where key.member == id { _ = remove(key) }
        }

        mutating func release(reservationOf id: Int) {
            guard let amount = members[id]?.reserved, amount > 0 else { return }
            members[id]!.reserved = 0
            reserved -= amount
            total -= Int128(amount)
        }

        mutating func setState(of id: Int, to bytes: Int) {
            guard let old = members[id]?.stateBytes else { return }
            let bytes = max(0, bytes)
            members[id]!.stateBytes = bytes
            stateBytes += Int128(bytes) - Int128(old)
            total += Int128(bytes) - Int128(old)
        }

        /// Counts `trim` as done before the source is asked: its state as
        /// the target, the rest as given back.
        mutating func startTrim(_ trim: StateTrim) -> StateTrim {
            trimsInFlight += Int128(max(0, trim.countedBefore - trim.target))
            addGivenBack(trim.countedBefore - trim.target)
            setState(of: trim.id, to: min(trim.target, trim.countedBefore))
            return trim
        }

        /// Counts what the source of `trim` reports after it (`facts`);
        /// returns whether it kept more than it was asked to, which is then
        /// counted (never more than before the trim). A count changed by
        /// another call in between is left as that call set it.
        mutating func finishTrim(_ trim: StateTrim, facts: SourceFacts) -> Bool {
            trimsInFlight -= Int128(max(0, trim.countedBefore - trim.target))
            guard let member = members[trim.id] else { return false }
            stateTrims += 1
            member.facts = facts
            let kept = min(facts.state, trim.countedBefore)
            let counted = min(trim.target, trim.countedBefore)
            guard kept > counted else { return false }
            givenBack -= min(givenBack, kept - counted)
            if member.stateBytes == counted { setState(of: trim.id, to: kept) }
            return true
        }

        /// The bytes left under the limit for something new (negative when
        /// over it), less what trims in flight have yet to give back.
        var room: Int128 { Int128(limit) - total - trimsInFlight }

        /// ``room`` for a call whose own trims in flight are `trims`: they
        /// are given back before the call returns, so before anything is
        /// held in their room.
        func room(besides trims: [StateTrim]) -> Int128 {
            trims.reduce(room) { $0 + Int128(max(0, $1.countedBefore - $1.target)) }
        }

        /// Counts `bytes` (when positive) as given back, saturating: one source
        /// may report `Int.max`.
        mutating func addGivenBack(_ bytes: Int) {
            guard bytes > 0 else { return }
            let (sum, overflow) = givenBack.addingReportingOverflow(bytes)
            givenBack = overflow ? .max : sum
        }
    }

    /// `value` within `Int`'s range: the 128-bit sums as the API reports them.
    static func clamped(_ value: Int128) -> Int { Int(clamping: value) }
}
