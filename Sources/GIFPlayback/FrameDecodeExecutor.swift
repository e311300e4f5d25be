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
/// decoding never occupies a thread of Swift's cooperative pool.
///
/// A giflib decode is synchronous and can take tens of milliseconds. Run on
/// the cooperative pool (one thread per core), a few of them starve every
/// other task in the process: a driver's wake-up, the host's work. Run here,
/// they are ordinary threads the kernel shares the cores with, and the task
/// that asked for a frame is suspended, holding no thread, until its frame
/// is ready.
///
/// - **Bounded.** At most ``threadCount`` threads, started when work first
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
/// decoding to use fewer cores makes one with fewer threads and passes it to
/// its sources. An executor's idle threads end when it goes away.
public final class FrameDecodeExecutor: Sendable {
    /// The executor sources use by default: one thread per active
    /// processor.
    public static let shared = FrameDecodeExecutor(threadCount: WorkerThread.processorCount)

    /// The most threads decoding at once.
    public let threadCount: Int

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

    /// Queues `source`, as urgent as `priority`, to run one of its requests
    /// on a thread of this executor; the source queues itself again while
    /// it has more.
    func enqueue(_ source: GIFFrameSource, priority: FrameRequestPriority) {
        core.enqueue(source, priority: priority)
    }

    /// Moves `source`, if it is waiting in the queue, up to `priority` (a
    /// more urgent request came while it waited).
    func raise(_ source: GIFFrameSource, to priority: FrameRequestPriority) {
        core.raise(source, to: priority)
    }

    /// The position of the first of the most urgent elements of `elements`,
    /// or `nil` when it is empty: how the queue and each source pick.
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

    /// The queue and the threads. `@unchecked Sendable`: every stored
    /// `var` is read and written with `mutex` locked.
    private final class Core: @unchecked Sendable {
        // pthread objects live at fixed addresses, as pthreads requires.
        private let mutex: UnsafeMutablePointer<pthread_mutex_t>
        private let condition: UnsafeMutablePointer<pthread_cond_t>
        private let limit: Int
        private var queue: [(source: GIFFrameSource, priority: FrameRequestPriority)] = []
        private var threads = 0
        private var idle = 0
        private var stopping = false

        init(limit: Int) {
            self.limit = limit
            mutex = .allocate(capacity: 1)
            mutex.initialize(to: pthread_mutex_t())
            pthread_mutex_init(mutex, nil)
            condition = .allocate(capacity: 1)
            condition.initialize(to: pthread_cond_t())
            pthread_cond_init(condition, nil)
            queue.reserveCapacity(64)
        }

        deinit {
            pthread_cond_destroy(condition)
            pthread_mutex_destroy(mutex)
            condition.deallocate()
            mutex.deallocate()
        }

        func enqueue(_ source: GIFFrameSource, priority: FrameRequestPriority) {
            pthread_mutex_lock(mutex)
            queue.append((source, priority))
            let start = idle == 0 && threads < limit
            if start { threads += 1 }
            pthread_cond_signal(condition)
            pthread_mutex_unlock(mutex)
            guard start else { return }
            if let thread = WorkerThread({ [self] in work() }) {
                thread.detach()
            } else {
                // No thread to be had: the ones running (if any) drain the
                // queue; the next enqueue tries again.
                pthread_mutex_lock(mutex)
                threads -= 1
                let stranded = threads == 0
                pthread_mutex_unlock(mutex)
                if stranded { work(nice: false) }
            }
        }

        func raise(_ source: GIFFrameSource, to priority: FrameRequestPriority) {
            pthread_mutex_lock(mutex)
            if let position = queue.firstIndex(where: { $0.source === source }), queue[position].priority < priority {
                queue[position].priority = priority
            }
            pthread_mutex_unlock(mutex)
        }

        func stop() {
            pthread_mutex_lock(mutex)
            stopping = true
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
        }

        /// A decode thread's loop; with `nice: false`, one pass over the
        /// queue on the caller's thread (only when no thread could start).
        private func work(nice: Bool = true) {
            if nice {
                #if canImport(Glibc)
                // `who` 0 is the calling thread on Linux, not the process.
                _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 5)
                #endif
            }
            pthread_mutex_lock(mutex)
            while true {
                while nice, queue.isEmpty, !stopping {
                    idle += 1
                    pthread_cond_wait(condition, mutex)
                    idle -= 1
                }
                guard let next = FrameDecodeExecutor.mostUrgent(queue, { $0.priority }) else { break }
                let source = queue.remove(at: next).source
                pthread_mutex_unlock(mutex)
                source.runOneRequest()
                pthread_mutex_lock(mutex)
            }
            if nice { threads -= 1 }
            pthread_mutex_unlock(mutex)
        }
    }
}
