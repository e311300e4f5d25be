import Foundation

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
///   arrives; the sources queue for them first come, first served.
/// - **One decode per source at a time**, in the order asked: a source's
///   seeker decodes forward, so its requests are served one after another.
/// - **No allocation per frame** once warm: requests and the queue reuse
///   their storage.
///
/// Sources use ``shared`` unless given another executor; a host that wants
/// decoding to use fewer cores makes one with fewer threads and passes it to
/// its sources. An executor's idle threads end when it goes away.
public final class FrameDecodeExecutor: Sendable {
    /// The executor sources use by default: one thread per active
    /// processor.
    public static let shared = FrameDecodeExecutor(threadCount: ProcessInfo.processInfo.activeProcessorCount)

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

    /// Queues `source` to run one of its requests on a thread of this
    /// executor; the source queues itself again while it has more.
    func enqueue(_ source: GIFFrameSource) {
        core.enqueue(source)
    }

    /// The queue and the threads. `@unchecked Sendable`: every stored
    /// property is read and written with `condition` locked.
    private final class Core: @unchecked Sendable {
        private let condition = NSCondition()
        private let limit: Int
        private var queue: [GIFFrameSource] = []
        private var threads = 0
        private var idle = 0
        private var stopping = false

        init(limit: Int) {
            self.limit = limit
            queue.reserveCapacity(64)
        }

        func enqueue(_ source: GIFFrameSource) {
            condition.lock()
            queue.append(source)
            let start = idle == 0 && threads < limit
            if start { threads += 1 }
            condition.signal()
            condition.unlock()
            if start {
                let thread = Thread { [self] in work() }
                thread.name = "GIFPlayback decode"
                thread.start()
            }
        }

        func stop() {
            condition.lock()
            stopping = true
            condition.broadcast()
            condition.unlock()
        }

        private func work() {
            condition.lock()
            while true {
                while queue.isEmpty, !stopping {
                    idle += 1
                    condition.wait()
                    idle -= 1
                }
                guard !queue.isEmpty else { break }
                let source = queue.removeFirst()
                condition.unlock()
                source.runOneRequest()
                condition.lock()
            }
            threads -= 1
            condition.unlock()
        }
    }
}
