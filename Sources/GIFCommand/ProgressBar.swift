/// A one-line progress bar on standard error, for jobs long enough to want
/// one: it stays hidden unless standard error is a terminal and the job has
/// already run for half a second. Without a total (standard input, still
/// arriving) it shows the count alone: `12 frames`.
struct ProgressBar {
    private let total: Int?
    private let label: String
    private let enabled: Bool
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    private var lastDrawn: ContinuousClock.Instant?
    private var visible = false

    /// A bar for `total` steps of `label` ("frames"); a count alone when
    /// `total` is `nil`.
    init(total: Int?, label: String, enabled: Bool = StandardStreams.errorIsTerminal) {
        self.total = total
        self.label = label
        self.enabled = enabled && (total ?? 2) > 1
        start = clock.now
    }

    /// Redraws the bar for `done` steps, at most ten times a second.
    mutating func update(_ done: Int) {
        guard enabled else { return }
        let now = clock.now
        guard now - start >= .milliseconds(500) else { return }
        if let lastDrawn, now - lastDrawn < .milliseconds(100), done < total ?? Int.max { return }
        lastDrawn = now
        visible = true
        guard let total else {
            StandardStreams.errorText("\r\(done) \(label)\u{1B}[K")
            return
        }
        let width = 30
        let filled = total > 0 ? min(width, done * width / total) : width
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        StandardStreams.errorText("\r[\(bar)] \(done)/\(total) \(label)")
    }

    /// Erases the bar, if it was shown, so the summary starts on a clean line.
    mutating func finish() {
        guard visible else { return }
        StandardStreams.errorText("\r\u{1B}[K")
        visible = false
    }
}
