import ArgumentParser

/// A set of frame indices from the command line: `0,3,5-9`.
struct FrameSelection: ExpressibleByArgument, Equatable {
    /// The ranges listed, as written (inclusive).
    var ranges: [ClosedRange<Int>]

    /// Parses comma-separated indices and inclusive ranges `A-B` (A ≤ B),
    /// from 0.
    init?(argument: String) {
        var ranges: [ClosedRange<Int>] = []
        for part in argument.split(separator: ",", omittingEmptySubsequences: false) {
            let bounds = part.split(separator: "-", omittingEmptySubsequences: false)
            guard (1...2).contains(bounds.count),
                  let low = Int(bounds[0]), low >= 0,
                  let high = bounds.count == 2 ? Int(bounds[1]) : low, high >= low
            else { return nil }
            ranges.append(low...high)
        }
        guard !ranges.isEmpty else { return nil }
        self.ranges = ranges
    }

    static var defaultCompletionKind: CompletionKind { .default }

    /// Whether frame `index` is selected.
    func contains(_ index: Int) -> Bool {
        ranges.contains { $0.contains(index) }
    }

    /// The highest index selected.
    var last: Int { ranges.map(\.upperBound).max() ?? 0 }

    /// How many of the frames `0..<count` are selected.
    func count(in count: Int) -> Int {
        (0..<count).count(where: contains)
    }
}
