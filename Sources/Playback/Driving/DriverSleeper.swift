/// What wakes a ``GroupDriver``: its sleeper reaching a deadline, a member
/// whose schedule the host changed, or members added or removed.
enum DriverCommand: Sendable {
    /// The sleep with this generation reached its deadline.
    case timer(Int)
    /// The host changed this member's schedule.
    case member(ObjectIdentifier)
    /// A member was added or removed.
    case membership
}

/// The driver loop's one long-lived sleeper: a task that sleeps until each
/// deadline it is handed and then posts ``DriverCommand/timer(_:)``.
struct DriverSleeper<C: Clock> {
    private let clock: C
    private let inbox: AsyncStream<DriverCommand>.Continuation
    private var task: Task<Void, Never>?
    private var deadlines: AsyncStream<(C.Instant, Int)>.Continuation?
    /// The deadline being slept toward, or `nil` when resting.
    private var target: C.Instant?
    private var generation = 0

    init(clock: C, inbox: AsyncStream<DriverCommand>.Continuation) {
        self.clock = clock
        self.inbox = inbox
    }

    /// Sleeps until `deadline`, or rests for `nil`: a sleep toward another
    /// deadline is cancelled first, and the same deadline again changes
    /// nothing.
    mutating func sleep(until deadline: C.Instant?) {
        guard deadline != target else { return }
        if target != nil { cancelTask() }
        guard let deadline else { return }
        if deadlines == nil { startTask() }
        generation += 1
        target = deadline
        deadlines?.yield((deadline, generation))
    }

    /// The deadline reached when `generation` is the current sleep's (the
    /// sleeper now rests), or `nil` for a sleep cancelled meanwhile.
    mutating func fired(_ generation: Int) -> C.Instant? {
        guard generation == self.generation, let reached = target else { return nil }
        target = nil
        return reached
    }

    /// Cancels the sleeper and waits until it has ended.
    mutating func stop() async {
        let ending = task
        cancelTask()
        await ending?.value
    }

    private mutating func startTask() {
        let (stream, deadlines) = AsyncStream.makeStream(of: (C.Instant, Int).self, bufferingPolicy: .bufferingNewest(1))
        self.deadlines = deadlines
        task = Task { [clock, inbox] in
            for await (deadline, generation) in stream {
                do {
                    try await clock.sleep(until: deadline, tolerance: nil)
                } catch {
                    return  // Cancelled: the deadline moved, or the loop stopped.
                }
                inbox.yield(.timer(generation))
            }
        }
    }

    private mutating func cancelTask() {
        task?.cancel()
        deadlines?.finish()
        task = nil
        deadlines = nil
        target = nil
    }
}
