#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A POSIX thread of our own running one closure, joined by whoever started
/// it: the parallel decoder's workers, which must never sit on Swift's
/// cooperative pool or on Dispatch's shared threads: decoding has threads
/// of its own.
///
/// Join each thread exactly once, or detach it once.
package struct WorkerThread {
    private let handle: pthread_t

    /// Starts a thread running `body`; `nil` when the system refuses one.
    package init?(_ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Body(body)).toOpaque()
        #if canImport(Darwin)
        var handle: pthread_t?
        guard pthread_create(&handle, nil, { WorkerThread.run($0) }, box) == 0, let handle else {
            Unmanaged<Body>.fromOpaque(box).release()
            return nil
        }
        self.handle = handle
        #else
        var handle = pthread_t()
        guard pthread_create(&handle, nil, { WorkerThread.run($0) }, box) == 0 else {
            Unmanaged<Body>.fromOpaque(box).release()
            return nil
        }
        self.handle = handle
        #endif
    }

    /// Waits for the thread's closure to return.
    package func join() {
        pthread_join(handle, nil)
    }

    /// Lets the thread end on its own, with nobody joining it (a pool's
    /// long-lived threads); its resources go back when its closure returns.
    package func detach() {
        pthread_detach(handle)
    }

    /// The closure, boxed to cross into C as one pointer.
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    private static func run(_ box: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
        guard let box else { return nil }
        Unmanaged<Body>.fromOpaque(box).takeRetainedValue().run()
        return nil
    }

    /// The number of processors online, at least 1.
    package static var processorCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
}
