import BenchmarkSupport
import GIFPlayback
import Playback

/// The group driver figure of nine players of one GIF driven in
/// real time for a few seconds: on one epoch by nine drivers (each a
/// `PlaybackDriver`, i.e. a group of one) and by one `GroupDriver`; out of
/// step (epochs 7 ms apart) the same two ways, and by one `GroupDriver`
/// capped at 30 wake-ups a second.
/// Wake-ups are the drivers' own count of deadline wake-ups
/// (`GroupDriverStatistics.wakeUps`), divided by the real time driven.
///
/// Run alone: `BenchmarkReport --group-probe [WORKLOAD] [SECONDS]`.
enum GroupDriverProbe {
    /// Players in the grid.
    static let players = 9
    /// The cap the issue names.
    static let cap = 30.0
    /// The target for the capped group: wake-ups per second.
    static let target = 31.0

    /// Prints the section for `workload` (the nine-player workload of the
    /// player section when present).
    static func printSection(workloads: [Workload], name: String = PlayerReport.nineWorkload, seconds: Double = 3) async {
        guard let workload = workloads.first(where: { $0.name == name }) ?? workloads.first else { return }
        do {
            let nineInStep = try await measure(workload, seconds: seconds, grouped: false, cap: nil, stagger: 0)
            let groupInStep = try await measure(workload, seconds: seconds, grouped: true, cap: nil, stagger: 0)
            let nine = try await measure(workload, seconds: seconds, grouped: false, cap: nil)
            let group = try await measure(workload, seconds: seconds, grouped: true, cap: nil)
            let capped = try await measure(workload, seconds: seconds, grouped: true, cap: cap)
            print()
            print("Group driver: \(players) players of \(workload.name), real time, "
                + "\(Timing.format(seconds, digits: 1)) s each; deadline wake-ups per second:")
            print("  on one epoch: nine drivers (PlaybackDriver each) \(Timing.format(nineInStep.rate, digits: 1))"
                + ", one GroupDriver \(Timing.format(groupInStep.rate, digits: 1))")
            print("  epochs 7 ms apart: nine drivers \(Timing.format(nine.rate, digits: 1))"
                + ", one GroupDriver \(Timing.format(group.rate, digits: 1))")
            let met = capped.rate <= target ? "met" : "NOT MET"
            print("  one GroupDriver at a \(Int(cap)) fps cap: \(Timing.format(capped.rate, digits: 1)) "
                + "(target ≤ \(Int(target))), \(met); frame timing unchanged (position equals a player advanced "
                + "by hand to the same instant): \(capped.sameAsAlone) of \(players)")
        } catch {
            print("group driver probe failed: \(error)")
        }
    }

    private struct Outcome {
        var rate: Double
        var sameAsAlone: Int
    }

    private static func measure(
        _ workload: Workload, seconds: Double, grouped: Bool, cap: Double?, stagger: Int = 7
    ) async throws -> Outcome {
        let clock = ContinuousClock()
        let start = clock.now
        let source = GIFFrameSource(image: workload.image)
        var members: [Player<ContinuousClock.Instant>] = []
        var twins: [Player<ContinuousClock.Instant>] = []
        for index in 0..<players {
            let epoch = start.advanced(by: .milliseconds(stagger * index))
            members.append(try Player(source: source, startingAt: start, epoch: epoch))
            twins.append(try Player(source: source, startingAt: start, epoch: epoch))
        }
        let drivers = grouped ? [GroupDriver(clock: clock, maximumFrameRate: cap)]
            : (0..<players).map { _ in GroupDriver(clock: clock) }
        for (index, member) in members.enumerated() { await drivers[grouped ? 0 : index].add(member) }
        let tasks = drivers.map { driver in Task { await driver.run() } }
        for player in members + twins { await player.play(at: start) }
        // Let the drivers settle on their first deadlines, then count.
        try await clock.sleep(for: .milliseconds(200))
        var before = 0
        for driver in drivers { before += await driver.statistics.wakeUps }
        let from = clock.now
        try await clock.sleep(for: .seconds(seconds))
        var after = 0
        for driver in drivers { after += await driver.statistics.wakeUps }
        let elapsed = from.duration(to: clock.now)
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
        var same = 0
        for (member, twin) in zip(members, twins) {
            await twin.advance(to: member.now)
            let frames = (member.currentFrame, twin.currentFrame)
            let offsets = (member.timeIntoFrame, twin.timeIntoFrame)
            if frames.0 == frames.1, offsets.0 == offsets.1 { same += 1 }
        }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        return Outcome(rate: Double(after - before) / seconds, sameAsAlone: same)
    }
}
