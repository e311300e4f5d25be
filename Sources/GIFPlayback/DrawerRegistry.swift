@_spi(Engine) import EngineSupport
import Synchronization

/// What a ``GIFFrameSource`` knows of its drawers: their ids, the callbacks
/// they want called, how they let go of the recorded changes they hold, and
/// their working bytes, read without a lock by the budget's counting.
final class DrawerRegistry: Sendable {
    /// What the drawers want to hear.
    private struct Drawers {
        /// The latest drawer's id.
        var lastID = 0
        /// Called after the decode-ahead stores a frame (see
        /// `GIFFrameSource.makeDrawer(notifying:)`).
        var decodedCallbacks: [Int: @Sendable () -> Void] = [:]
        /// Each drawer's letting go of what it holds, by what it lets go of.
        var releases: [Held: [Int: @Sendable () -> Void]] = [:]
    }

    /// What a drawer holds that the source may have it let go of.
    enum Held: Hashable {
        /// The source's recorded changes.
        case recordedChanges
        /// Its working canvases.
        case workingState
    }

    /// The drawers' callbacks.
    private let drawers = LockedState(Drawers())
    /// The drawers' working bytes (see ``GIFFrameDrawer``), changed by
    /// their draws without a lock.
    private let drawerBytes = Atomic<Int>(0)
    /// How many drawers have a `decoded` callback: a draw asks for no
    /// settling without one.
    private let notifiedDrawers = Atomic<Int>(0)
    /// Whether a draw asked for the drawers' state to be settled with the
    /// budgets and the settling has not started yet.
    private let settleDue = Atomic<Bool>(false)

    /// The most working bytes the drawers hold (see
    /// ``GIFFrameDrawer/workingBound``), summed over the live ones.
    private let drawerBounds = Atomic<Int>(0)

    /// The drawers' working bytes now.
    var bytes: Int { drawerBytes.load(ordering: .relaxed) }

    /// The most working bytes the live drawers hold, all drawn.
    var workingBound: Int { drawerBounds.load(ordering: .relaxed) }

    /// Adds a drawer's most working bytes (negative: one went away).
    func boundChanged(by delta: Int) {
        drawerBounds.add(delta, ordering: .relaxed)
    }


    /// A new drawer's id, with `decoded` kept for it.
    func register(notifying decoded: (@Sendable () -> Void)?) -> Int {
        drawers.withLock { drawers -> Int in
            drawers.lastID += 1
            if let decoded {
                drawers.decodedCallbacks[drawers.lastID] = decoded
                notifiedDrawers.add(1, ordering: .relaxed)
            }
            return drawers.lastID
        }
    }

    /// Forgets drawer `id`'s callback and its canvases' bytes: the drawer
    /// went away.
    func ended(_ id: Int, bytes: Int) {
        drawers.withLock { drawers in
            if drawers.decodedCallbacks.removeValue(forKey: id) != nil {
                notifiedDrawers.subtract(1, ordering: .relaxed)
            }
            for held in drawers.releases.keys { drawers.releases[held]?[id] = nil }
        }
        drawerBytes.subtract(bytes, ordering: .relaxed)
    }

    /// A drawer's canvases grew or shrank by `delta` bytes: an atomic add,
    /// no lock.
    func bytesChanged(by delta: Int) {
        drawerBytes.add(delta, ordering: .relaxed)
    }

    /// Registers drawer `id`'s letting go of what it holds as `held`.
    func onDropped(_ held: Held, for id: Int, _ release: @escaping @Sendable () -> Void) {
        drawers.withLock { $0.releases[held, default: [:]][id] = release }
    }

    /// Has every drawer let go of what it holds as `held` (one waits for a
    /// draw in progress), with the lock released.
    func release(_ held: Held) {
        for release in drawers.withLock({ Array(($0.releases[held] ?? [:]).values) }) { release() }
    }

    /// Calls every drawer's `decoded` callback, with the lock released.
    func notifyDecoded() {
        for callback in drawers.withLock({ $0.decodedCallbacks.values }) { callback() }
    }

    /// Whether a draw's growth should queue a settling: some drawer has a
    /// callback and none is due already (an atomic exchange sets it due).
    func settleNeeded() -> Bool {
        notifiedDrawers.load(ordering: .relaxed) > 0 && !settleDue.exchange(true, ordering: .acquiringAndReleasing)
    }

    /// The settling starts: a draw growing the state from now on asks
    /// again.
    func settleStarted() {
        settleDue.store(false, ordering: .releasing)
    }
}
