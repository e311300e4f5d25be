import Foundation

/// Which share of the long sweeps (damaged copies, 1-byte streaming) a test
/// run covers.
///
/// `make test` runs a rotating sixteenth of each sweep, chosen by a seed:
/// over many runs every case comes up, and each run stays short. The seed
/// comes from `SWEEP_SEED` when it is set (the Makefile picks one per run,
/// prints it, and passes it to every test process, so a failure replays
/// exactly with `make test SWEEP_SEED=…`), else from the clock.
/// `GIF_TEST_FULL=1` (`make test-long`) runs every case.
enum Sweep {
    /// One case in this many is run, unless the run is full.
    static let share: UInt64 = 16

    /// Whether every case runs (`GIF_TEST_FULL=1`).
    static let isFull: Bool = ProcessInfo.processInfo.environment["GIF_TEST_FULL"] == "1"

    /// The seed that picks the sample, printed the first time it is read.
    static let seed: UInt64 = {
        let environment = ProcessInfo.processInfo.environment
        let seed = environment["SWEEP_SEED"].flatMap { UInt64($0) }
            ?? UInt64(Date().timeIntervalSince1970 * 1000) % 1_000_000
        let scope = isFull ? "every case" : "1/\(share) of each sweep"
        print("sweep: SWEEP_SEED=\(seed), \(scope) (GIF_TEST_FULL=1 runs every case)")
        return seed
    }()

    /// Whether the case `index` of the sweep `name` runs: all of them in a
    /// full run, else about one in ``share``, chosen by ``seed``.
    static func includes(_ name: String, _ index: Int) -> Bool {
        guard !isFull else { return true }
        var random = SplitMix64(seed: seed ^ fnv1a(name) ^ UInt64(truncatingIfNeeded: index) &* 0x9E37_79B9)
        return random.next() % share == 0
    }

    /// The elements of `cases` that run, in order: in a sampled run, at
    /// most `limit` of them, spread over the sample.
    static func sample<Case>(_ cases: [Case], of name: String, atMost limit: Int = .max) -> [Case] {
        let chosen = cases.indices.filter { includes(name, $0) }
        guard !isFull, chosen.count > limit, limit > 0 else { return chosen.map { cases[$0] } }
        return (0..<limit).map { cases[chosen[$0 * chosen.count / limit]] }
    }
}

/// SplitMix64: a tiny, fixed PRNG owned by the caller (no global state), so
/// a run's random choices repeat from its seed.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// FNV-1a of a string's UTF-8: a stable per-name seed (`hashValue` is not).
func fnv1a(_ text: String) -> UInt64 {
    text.utf8.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
}
