@_spi(Engine) import EngineSupport

/// The working state a source needs to draw at all (its drawers' canvases,
/// its decoder's buffers), counted by the shared budget before the source
/// holds any of it, and how long a source the budget refused waits before
/// it asks again.
///
/// A source asks for its whole working state at once, before the first
/// draw that would hold it (``room(for:through:)``). Room the budget has
/// free is granted there and then; otherwise the ask goes to the source's
/// decode thread (``ask(_:through:)``), where the budget makes room from
/// frames and from what other sources keep only to be cheaper (their
/// stored indices, checkpoints and recorded changes, and all of a source
/// no player plays), never from another playing source's working state,
/// and refuses without giving anything back when even that would not make
/// room (``FrameMemoryBudget/reserveWorkingState(_:bytes:)``); a draw
/// meanwhile is late, and waits on no other source's drawer. So the
/// sources that hold their working state keep it, and a source refused
/// becomes a still (`FrameDraw.still(frame:shown:)`): it holds no working
/// state and asks for no decodes, and asks again after a number of draws
/// that doubles with each refusal (``firstWait`` to ``longestWait``),
/// instead of growing its state, being trimmed and growing it again.
package final class WorkingRoom: Sendable {
    /// Draws a still waits after its first refusal before asking again.
    package static let firstWait = 4
    /// The most draws a still waits between two asks.
    package static let longestWait = 256

    /// Where a source's working state stands for its drawers.
    package enum Room: Sendable, Equatable {
        /// Counted by the budget: draw, and decode what the draws need.
        case granted
        /// Asked of the budget on the decode thread; `queue` when this
        /// call made the ask, which the caller then queues there.
        case asking(queue: Bool)
        /// Refused: a still, waiting before it asks again.
        case still
    }

    private struct Grant {
        /// The bytes the budget counts for the working state, held or not.
        var granted = 0
        /// Whether an ask is out, to be made on the decode thread.
        var asking = false
        /// Bumped when the grant is given back: an ask that began before
        /// keeps nothing.
        var generation = 0
        /// Draws to wait after a refusal, and those left.
        var wait = 0
        var left = 0
    }

    private let grant = LockedState(Grant())

    /// A source's room, granting nothing yet.
    package init() {}

    /// The bytes counted for the working state before it is held.
    package var grantedBytes: Int { grant.withLock { $0.granted } }

    /// Whether `need` bytes are granted.
    package func covers(_ need: Int) -> Bool { grant.withLock { $0.granted >= need } }

    /// Where `need` bytes of working state stand, for a draw or a tick
    /// (each call a still makes counts one of its wait): granted when they
    /// are, or when `allowance` finds them free now (room made from frames
    /// alone, taking no lock but the budget's, so any thread may ask);
    /// else an ask for the decode thread, or a still waiting.
    package func room(for need: Int, through allowance: StateAllowance) -> Room {
        let tried = grant.withLock { grant -> (room: Room?, bytes: Int, generation: Int) in
            if grant.granted >= need { return (.granted, 0, 0) }
            if grant.asking { return (.asking(queue: false), 0, 0) }
            if grant.left > 0 {
                grant.left -= 1
                return (.still, 0, 0)
            }
            // Reported before the budget counts it (a reading in between
            // counts it early, never late); taken back when refused.
            grant.asking = true
            let bytes = need - grant.granted
            grant.granted = need
            return (nil, bytes, grant.generation)
        }
        if let room = tried.room { return room }
        let free = allowance.reserve(tried.bytes)
        return grant.withLock { grant -> Room in
            if free {
                grant.asking = false
                return .granted
            }
            if grant.generation == tried.generation { grant.granted = max(0, grant.granted - tried.bytes) }
            return .asking(queue: true)
        }
    }

    /// Makes the ask ``room(for:through:)`` left out, when one is out:
    /// asks `allowance` for what `need` lacks, room made from other
    /// sources' state when it must be. The grant counts in the source's report once the budget
    /// has counted it: the source's reports are read on the thread that
    /// asks (its decode thread), so none falls in between. Call with no
    /// lock held: the budget may trim other sources.
    package func ask(_ need: Int, through allowance: StateAllowance) {
        let ask = grant.withLock { grant -> (bytes: Int, generation: Int)? in
            guard grant.asking else { return nil }
            guard grant.granted < need else {
                grant.asking = false
                return nil
            }
            return (need - grant.granted, grant.generation)
        }
        guard let ask else { return }
        let granted = allowance.reserveWorking(ask.bytes)
        grant.withLock { grant in
            grant.asking = false
            guard grant.generation == ask.generation else { return }
            if granted {
                grant.granted += ask.bytes
                grant.wait = 0
            } else {
                Self.refuse(&grant)
            }
        }
    }

    /// Gives the grant back (the source let go of its working state);
    /// `refused` when the budget had no room for what the source had to
    /// add, which starts a still's wait as a refused ask does.
    package func revoke(refused: Bool) {
        grant.withLock { grant in
            grant.granted = 0
            grant.generation += 1
            if refused { Self.refuse(&grant) }
        }
    }

    private static func refuse(_ grant: inout Grant) {
        grant.wait = min(longestWait, max(firstWait, 2 * grant.wait))
        grant.left = grant.wait
    }
}

extension FrameMemoryBudget {
    /// Counts `bytes` more of member `id`'s working state before the source
    /// holds them (``WorkingRoom``), making room from frames and from what
    /// sources keep beyond their working state (all of it for a source no
    /// player plays), never from another playing source's working state;
    /// when even that could not make room, counts nothing, gives nothing
    /// back and returns `false`. Trims are asked of the sources after the
    /// lock is released, so the caller must hold no lock a source's trim
    /// takes. `true` for a member this budget does not hold.
    func reserveWorkingState(_ id: Int, bytes: Int) -> Bool {
        guard countsDecodingState, bytes > 0 else { return true }
        return passes { ledger, trimmed, trims -> Bool in
            guard let member = ledger.members[id] else { return true }
            if trimmed.isEmpty {
                guard Self.fixedBytes(besides: id, in: ledger) + Int128(bytes) <= Int128(ledger.limit) else {
                    return false
                }
                ledger.setState(of: id, to: Self.clamped(Int128(member.stateBytes) + Int128(bytes)))
                member.reservedSinceRead = Self.clamped(Int128(member.reservedSinceRead) + Int128(bytes))
            }
            Self.shed(&ledger, to: ledger.limit, sparing: id, hard: false, trimmed: trimmed, trims: &trims)
            return true
        }
    }

    /// What no shed that spares member `id` and keeps playing sources'
    /// working state can give back: every cache's image canvases and
    /// reservations, each other playing source's working state (as far as
    /// it holds it), and all of `id`'s state.
    private static func fixedBytes(besides id: Int, in ledger: Ledger) -> Int128 {
        var fixed = Int128(ledger.reserved)
        for (key, member) in ledger.members {
            fixed += Int128(member.imageBytes)
            if key == id {
                fixed += Int128(member.stateBytes)
            } else if member.playing > 0 {
                fixed += Int128(min(member.stateBytes, member.facts.working))
            }
        }
        return fixed
    }
}
