@_spi(Engine) import EngineSupport

/// Room for more decoding state, asked of the shared budget that counts a
/// source before the source holds it, so that what a decode or a draw
/// adds is counted before it is held rather than after.
///
/// A source that grows its state outside the calls a budget makes (a GIF's
/// stored indices on its decode thread, the changes its drawers record on
/// a host's thread) keeps one of these and asks it first; the ``FrameCache``
/// that registers the source with a ``FrameMemoryBudget`` connects it to
/// that budget, and the cache going away disconnects it. Not connected (a
/// cache's own budget, which counts frames only, or no cache at all) it
/// grants everything.
package final class StateAllowance: Sendable {
    /// The budget asked and the source's member id in it.
    private struct Connection: @unchecked Sendable {
        weak var budget: FrameMemoryBudget?
        var member = 0
    }

    private let connection = LockedState(Connection())

    /// An allowance connected to no budget.
    package init() {}

    /// Connects the allowance to `budget`, where the source is `member`.
    func connect(to budget: FrameMemoryBudget, member: Int) {
        connection.withLock { $0 = Connection(budget: budget, member: member) }
    }

    /// Disconnects it when it is connected to `budget` as `member`.
    func disconnect(from budget: FrameMemoryBudget, member: Int) {
        connection.withLock { if $0.budget === budget, $0.member == member { $0 = Connection() } }
    }

    /// Whether `bytes` more of decoding state may be held: when it returns
    /// `true` the budget has counted them already (room made from its
    /// frames alone: no other source is asked to trim, so a draw never
    /// waits on another source's drawers), and the caller holds them or,
    /// when it cannot after all, leaves them counted until its state is
    /// read again.
    package func reserve(_ bytes: Int) -> Bool {
        guard bytes > 0 else { return true }
        let (budget, member) = connection.withLock { ($0.budget, $0.member) }
        guard let budget else { return true }
        return budget.reserveState(member, bytes: bytes)
    }

    /// Whether `bytes` more of working state may be held: when it returns
    /// `true` the budget has counted them, room made from frames and from
    /// what other sources keep beyond their working state
    /// (``FrameMemoryBudget/reserveWorkingState(_:bytes:)``); `false`
    /// counts nothing. Call with no lock held: other sources may be asked
    /// to trim.
    package func reserveWorking(_ bytes: Int) -> Bool {
        guard bytes > 0 else { return true }
        let (budget, member) = connection.withLock { ($0.budget, $0.member) }
        guard let budget else { return true }
        return budget.reserveWorkingState(member, bytes: bytes)
    }
}

/// A source that asks a ``StateAllowance`` before its decoding state grows.
package protocol StateReservingSource: AnyObject {
    /// The allowance its growth asks; connected by the cache that counts it.
    var stateAllowance: StateAllowance { get }
}
