import Playback

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The nine-grid's set-up, shared by the report (`BenchmarkReport
/// --nine-grid`) and its Foundation-free child (`GridProbe`).
public enum NineGridSetup {
    /// Loops every player plays.
    public static let loops = 3
    /// The shared budget: 24 MiB.
    public static let budgetBytes = 24 << 20
    /// The cell every animation is shown in.
    public static let cell = DisplaySize(maxWidth: 160, maxHeight: 160)

    /// The nine animations: the eight animated corpus files of 10 frames or
    /// more (single-frame files are not animations, and a grid shows
    /// animations), and the generated screen recording; or the paths in
    /// `NINE_GRID_FILES`, colon-separated. The process stops
    /// (``Workload/requireReadable(_:for:)``) when any of them is missing:
    /// a grid of fewer cells is another figure.
    public static func files() -> [String] {
        let paths: [String]
        if let list = getenv("NINE_GRID_FILES") {
            paths = String(cString: list).split(separator: ":").map(String.init)
        } else {
            paths = [
                "image-gif/samples/gifplayer-muybridge.gif", "image-gif/samples/sample_big.gif",
                "blink/count-down-color-test.gif", "blink/quicksort.gif", "pillow/iss634.gif", "pillow/chi.gif",
                "image-gif/samples/moon_impact.gif", "blink/animated-10color.gif",
            ].map { Workload.corpusRoot + "/" + $0 } + [Workload.screenRecordingPath]
        }
        Workload.requireReadable(paths, for: "the nine-grid")
        return paths
    }


    /// The soonest next change among `players`, or `nil` when none has one.
    public static func earliestChange(of players: [Player<ContinuousClock.Instant>]) async -> ContinuousClock.Instant? {
        var next: ContinuousClock.Instant?
        for player in players {
            if let instant = player.nextChangeInstant, next.map({ instant < $0 }) ?? true { next = instant }
        }
        return next
    }
}
