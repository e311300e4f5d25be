import Foundation
import Playback
import PlaybackTestSupport

/// Collects events delivered to a callback, in order; each one wakes the
/// tests waiting on ``Changes``.
final class EventRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var records: [(PlayerEvent, Duration)] = []

    func record(_ event: PlayerEvent, at time: Duration = .zero) {
        lock.withLock { records.append((event, time)) }
        Changes.shared.signal()
    }

    var events: [PlayerEvent] { lock.withLock { records.map(\.0) } }
    var timedEvents: [(PlayerEvent, Duration)] { lock.withLock { records } }
}
