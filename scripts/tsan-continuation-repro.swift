// The smallest program that shows the one ThreadSanitizer report
// scripts/tsan-suppressions.txt suppresses: a task suspends on an
// UnsafeContinuation that a plain thread resumes, which is how
// FrameDecodeExecutor's threads hand GIFFrameSource's frames back. Every
// access is ordered (a lock hands the continuation over; the runtime's
// atomics order resume and wake-up), yet TSan reports the write of the result
// in `UnsafeContinuation.resume` and the resumed task's read of it, because
// those atomics live in libswift_Concurrency, which is not instrumented.
//
//   swiftc -parse-as-library -sanitize=thread -O scripts/tsan-continuation-repro.swift -o /tmp/repro
//   /tmp/repro                                                   # 2 reports
//   TSAN_OPTIONS=suppressions=scripts/tsan-suppressions.txt /tmp/repro   # none
import Foundation

final class Handoff: @unchecked Sendable {
    let lock = NSLock()
    var pending: [UnsafeContinuation<[UInt8], any Error>] = []
}

@main struct Repro {
    static func main() async throws {
        let handoff = Handoff()
        Thread.detachNewThread {
            while true {
                let next = handoff.lock.withLock { handoff.pending.isEmpty ? nil : handoff.pending.removeFirst() }
                if let next { next.resume(returning: [1, 2, 3]) } else { usleep(10) }
            }
        }
        var total = 0
        for _ in 0..<20_000 {
            let value = try await withUnsafeThrowingContinuation { continuation in
                handoff.lock.withLock { handoff.pending.append(continuation) }
            }
            total += value.count
        }
        print("resumed 20000 times, \(total) bytes")
    }
}
