import EngineSupport
import GIF
import Playback

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Threads the library owns that run ``GIFFrameSource`` decodes, so that
/// decoding never occupies a thread of Swift's cooperative pool. Each
/// source's requests wait in a `FrameDecodeScheduler` of its own, which
/// this executor runs.
///
/// A giflib decode is synchronous and can take tens of milliseconds. Run on
/// the cooperative pool (one thread per core), a few of them starve every
/// other task in the process: a driver's wake-up, the host's work. Run here,
/// they are ordinary threads the kernel shares the cores with, and the task
/// that asked for a frame is suspended, holding no thread, until its frame
/// is ready.
///
/// - **Bounded.** At most `threadCount` threads, started when work first
///   arrives.
/// - **Most urgent first.** A source waits in the queue with the priority of
///   its most urgent request (`FrameRequestPriority`): sources with a frame
///   a player needs now are served first, then those with look-ahead
///   prefetches, then the rest (posters, preloads); first come, first
///   served within a priority.
/// - **One decode per source at a time**, its most urgent request first and
///   otherwise in the order asked: a source's seeker decodes forward, so its
///   requests are served one after another.
/// - **Below the threads that keep time.** On Linux the threads run at nice
///   5 (the nice value is per thread there), so a driver's wake-up or the
///   host's own work preempts a decode instead of queueing behind it.
/// - **No allocation per frame** once warm: requests and the queue reuse
///   their storage.
///
/// Sources use ``shared`` unless given another executor; a host that wants
/// decoding to use more or fewer cores makes one with that many threads and
/// passes it to its sources. An executor's idle threads end when it goes
/// away.
public final class FrameDecodeExecutor: Sendable {
    /// The executor sources use by default: `defaultThreadCount` threads.
    public static let shared = FrameDecodeExecutor(threadCount: defaultThreadCount)

    /// Half the active processors, at least one and at most four: one
    /// thread on a two-core machine, two on four cores, four on eight or
    /// more.
    ///
    /// Animation decoding shares the machine with the host's own drawing
    /// and Swift's cooperative pool, and each thread decoding at once costs
    /// memory: a frame in flight, and with glibc a heap of its own that
    /// keeps freed pages. Glide's animation executor makes the same choice
    /// (one thread below four cores, two from four). In the nine-grid
    /// benchmark on two cores, one thread peaks about 3 MiB lower than two
    /// for the same frames (`BenchmarkReport --nine-grid`).
    package static var defaultThreadCount: Int { min(4, max(1, WorkerThread.processorCount / 2)) }

    /// The most threads decoding at once.
    package let threadCount: Int

    private let core: Core

    /// An executor of at most `threadCount` threads (clamped to 1…64).
    /// - Parameter threadCount: The most decodes that run at once.
    public init(threadCount: Int) {
        self.threadCount = min(64, max(1, threadCount))
        self.core = Core(limit: self.threadCount)
    }

    /// Lets the threads end once the queue is empty.
    deinit {
        core.stop()
    }

    /// Queues `scheduler`, as urgent as `priority`, to run one of its
    /// requests with `decoder` on a thread of this executor; the scheduler
    /// queues itself again while it has more. The queue holds `decoder`
    /// (the source) until then.
    func enqueue(_ scheduler: FrameDecodeScheduler, decoder: any FrameRequestDecoder, priority: FrameRequestPriority) {
        core.enqueue(Job(scheduler: scheduler, decoder: decoder), priority: priority)
    }

    /// Moves `scheduler`, if it is waiting in the queue, up to `priority` (a
    /// more urgent request came while it waited).
    func raise(_ scheduler: FrameDecodeScheduler, to priority: FrameRequestPriority) {
        core.raise(scheduler, to: priority)
    }

    /// A scheduler waiting to run one request, with the source that decodes it.
    private struct Job: Sendable {
        let scheduler: FrameDecodeScheduler
        let decoder: any FrameRequestDecoder

        func run() { scheduler.runOneRequest(decoder) }
    }

    /// The position of the first of the most urgent elements of `elements`,
    /// or `nil` when it is empty: how the queue and each scheduler pick.
    static func mostUrgent<C: Collection>(
        _ elements: C, _ priority: (C.Element) -> FrameRequestPriority
    ) -> C.Index? {
        var best: C.Index?
        var bestPriority = FrameRequestPriority.background
        var position = elements.startIndex
        while position != elements.endIndex {
            let candidate = priority(elements[position])
            if best == nil || candidate > bestPriority {
                best = position
                bestPriority = candidate
            }
            position = elements.index(after: position)
        }
        return best
    }

    /// The queue and the threads.
    private final class Core: Sendable {
        private struct State {
            var queue: [(job: Job, priority: FrameRequestPriority)] = []
            /// Threads started and not yet ended.
            var threads = 0
            /// Threads running a request now.
            var busy = 0
            var stopping = false
        }

        private let state: ConditionLock<State>
        private let limit: Int

        init(limit: Int) {
            self.limit = limit
            var initial = State()
            initial.queue.reserveCapacity(64)
            state = ConditionLock(initial)
        }

        func enqueue(_ job: Job, priority: FrameRequestPriority) {
            let start = state.withLock(wakingWaiters: true) { state -> Bool in
                state.queue.append((job, priority))
                // A thread more when the waiting ones cannot take every request.
                guard state.queue.count > state.threads - state.busy, state.threads < limit else { return false }
                state.threads += 1
                return true
            }
            guard start else { return }
            if let thread = WorkerThread({ [self] in work() }) {
                thread.detach()
            } else {
                // No thread to be had: those running (if any) drain the
                // queue; with none, this caller does, once.
                let stranded = state.withLock { state -> Bool in
                    state.threads -= 1
                    return state.threads == 0
                }
                if stranded { drain() }
            }
        }

        func raise(_ scheduler: FrameDecodeScheduler, to priority: FrameRequestPriority) {
            state.withLock { state in
                if let position = state.queue.firstIndex(where: { $0.job.scheduler === scheduler }),
                   state.queue[position].priority < priority {
                    state.queue[position].priority = priority
                }
            }
        }

        func stop() {
            state.withLock(wakingWaiters: true) { $0.stopping = true }
        }

        /// A decode thread: the most urgent request, one at a time, until
        /// the executor stops and the queue is empty.
        private func work() {
            #if canImport(Glibc)
            // `who` 0 is the calling thread on Linux, not the process.
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 5)
            #endif
            while let job = state.withLock(when: { !$0.queue.isEmpty || $0.stopping }, { state -> Job? in
                guard let next = take(&state) else {
                    state.threads -= 1
                    return nil
                }
                state.busy += 1
                return next
            }) {
                job.run()
                state.withLock { $0.busy -= 1 }
            }
        }

        /// Runs what is queued on the calling thread (only when no thread
        /// could be started).
        private func drain() {
            while let job = state.withLock({ take(&$0) }) { job.run() }
        }

        private func take(_ state: inout State) -> Job? {
            guard let next = FrameDecodeExecutor.mostUrgent(state.queue, { $0.priority }) else { return nil }
            return state.queue.remove(at: next).job
        }
    }
}
