import BenchmarkSupport
@_spi(Benchmarks) import GIF

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Times ours against the C baseline, interleaved in one run, and prints each
// figure as a ratio.
//
// Usage: BenchmarkReport [--rounds N]
//        BenchmarkReport --decode [--rounds N] [--workload NAME]   (the decode table alone)
//        BenchmarkReport --profile c|gif|parallel|scan|seek|whole|chunks WORKLOAD [--repeat N]
//        BenchmarkReport --player-probe WORKLOAD|playlist|nine-shared W|nine-private W|malloc-check
//        BenchmarkReport --group-probe [WORKLOAD] [SECONDS]
//        BenchmarkReport --lateness [SECONDS]
//        BenchmarkReport --command [--rounds N]
//        BenchmarkReport --progressive [--rounds N]
//        BenchmarkReport --layout [--rounds N]
//        BenchmarkReport --box-filter [--rounds N]
//        BenchmarkReport --png [--rounds N]
//        BenchmarkReport --steady
//        BenchmarkReport --index-read [--rounds N]
//        BenchmarkReport --index-candidates [--rounds N]
//        BenchmarkReport --feed
//        BenchmarkReport --images   (the README's first example: currentImage per frame)
//        BenchmarkReport --realtime-grid [SECONDS [cells|full|full-nopolicy]]
//        BenchmarkReport --nine-grid
//        BenchmarkReport --full-grid   (nine animations at full size under one 24 MiB budget)
// The second form only runs one decoder, for `valgrind --tool=callgrind`.
// The third is what the report spawns for each player figure (a fresh
// process, so that its peak resident memory is the player's alone); see
// PlayerProbe.swift. The fourth prints only the `gif` command's section
// (CommandReport.swift), which the full report prints last; the fifth only
// the progressive decoding section (ProgressiveReport.swift); the sixth only
// drawing into a host buffer in each pixel format (LayoutReport.swift), and
// `--box-filter` only the box filter's figures (BoxFilterReport.swift),
// `--png` only `gif dump --format png` against ImageMagick (PNGReport.swift); the
// seventh only the index tier's steady-loop figures (SteadyLoop.swift), which
// the player section prints too; `--index-read` only the index tier's
// compact reads against giflib's decodes (IndexRead.swift), and
// `--index-candidates` the compact forms it could take side by side
// (IndexCandidates.swift); the eighth only
// the nine-grid memory figure (NineGrid.swift), each grid in its own process,
// which the full report prints before the command's section.
//
// Every section that reads GIFs (the fixtures and the corpus, read from
// ../shared/corpus next to the checkout or from $BENCHMARK_CORPUS) exits
// with status 1 and names each file it cannot read or scan (see
// Workload.requireReadable), rather than measuring fewer files.

if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "--player-probe" {
    exit(await PlayerProbe.main(Array(CommandLine.arguments.dropFirst(2))))
}
if CommandLine.arguments.count > 2, CommandLine.arguments[1] == "--nine-grid-probe" {
    exit(await NineGrid.probe(mode: CommandLine.arguments[2], cutCopy: CommandLine.arguments.dropFirst(3).first))
}
if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "--nine-grid" {
    NineGrid.printSection()
    exit(0)
}
if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "--group-probe" {
    let name = CommandLine.arguments.dropFirst(2).first ?? PlayerReport.nineWorkload
    let seconds = CommandLine.arguments.dropFirst(3).first.flatMap { Double($0) } ?? 3
    let workloads = Workload.all()
    guard workloads.contains(where: { $0.name == name }) else {
        print("no workload \(name); have \(workloads.map(\.name))")
        exit(2)
    }
    await GroupDriverProbe.printSection(workloads: workloads, name: name, seconds: seconds)
    exit(0)
}

if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "--realtime-grid" {
    RealTimeGrid.printSection(
        seconds: CommandLine.arguments.dropFirst(2).first.flatMap { Double($0) } ?? RealTimeGrid.seconds,
        variant: CommandLine.arguments.dropFirst(3).first.flatMap { RealTimeGrid.Variant(rawValue: $0) } ?? .cells)
    exit(0)
}
if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "--full-grid" {
    FullGrid.printSection()
    exit(0)
}
if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "--images" {
    PlayerReport.printImageSection(workloads: Workload.all())
    exit(0)
}
if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "--feed" {
    FeedPath.printSection(preload: PlayerReport.mallocCountingPreload())
    exit(0)
}
if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "--lateness" {
    let seconds = CommandLine.arguments.dropFirst(2).first.flatMap { Double($0) } ?? 10
    await LatenessProbe.printSection(workloads: Workload.all(), seconds: seconds)
    exit(0)
}

var rounds = 7
/// The decode table's rounds: 15 unless `--rounds` says otherwise (its
/// single-frame files take well under a millisecond, and their medians
/// over 7 rounds swung by several per cent on this shared machine).
var decodeRounds = 15
var profile: (decoder: String, workload: String)?
var repeats = 1
var commandOnly = false
var progressiveOnly = false
var layoutOnly = false
var boxFilterOnly = false
var pngOnly = false
var steadyOnly = false
var indexReadOnly = false
var indexCandidatesOnly = false
var decodeOnly = false
/// `--workload NAME`: the decode table for that workload alone.
var onlyWorkload: String?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--rounds":
        rounds = max(1, arguments.popFirst().flatMap { Int($0) } ?? rounds)
        decodeRounds = rounds
    case "--command": commandOnly = true
    case "--progressive": progressiveOnly = true
    case "--layout": layoutOnly = true
    case "--box-filter": boxFilterOnly = true
    case "--png": pngOnly = true
    case "--steady": steadyOnly = true
    case "--index-read": indexReadOnly = true
    case "--index-candidates": indexCandidatesOnly = true
    case "--decode": decodeOnly = true
    case "--workload": onlyWorkload = arguments.popFirst()
    case "--repeat": repeats = max(1, arguments.popFirst().flatMap { Int($0) } ?? repeats)
    case "--profile":
        guard let decoder = arguments.popFirst(), let workload = arguments.popFirst() else { exit(2) }
        profile = (decoder, workload)
    default:
        print("unknown argument \(argument)")
        exit(2)
    }
}

if progressiveOnly {
    ProgressiveReport.printSection(workloads: Workload.all(), rounds: rounds)
    exit(0)
}
if layoutOnly {
    LayoutReport.printSection(workloads: Workload.all(), rounds: rounds)
    exit(0)
}
if boxFilterOnly {
    BoxFilterReport.printSection(rounds: rounds)
    exit(0)
}
if pngOnly {
    PNGReport.printSection(rounds: rounds)
    exit(0)
}
if steadyOnly {
    SteadyLoop.printSection(preload: nil)
    exit(0)
}
if indexReadOnly {
    IndexRead.printSection(rounds: rounds)
    exit(0)
}
if indexCandidatesOnly {
    IndexCandidateReport.printSection(rounds: rounds)
    exit(0)
}
if commandOnly {
    CommandReport.printSection(rounds: rounds)
// At most 5 rounds: sample_big's 259 frames take ImageMagick about 27 s a run.
PNGReport.printSection(rounds: min(rounds, 5))
    exit(0)
}

let workloads = Workload.all().filter { onlyWorkload == nil || $0.name == onlyWorkload }
if let onlyWorkload, workloads.isEmpty {
    print("no workload \(onlyWorkload); have \(Workload.locations().map(\.name))")
    exit(2)
}
if let profile {
    guard let workload = workloads.first(where: { $0.name == profile.workload }) else {
        print("no workload \(profile.workload); have \(workloads.map(\.name))")
        exit(2)
    }
    var sink = 0
    var seeker = profile.decoder == "seek" ? Decoders.preparedSeeker(workload.image) : workload.image.makeSeeker()
    print("parallel iterator decodes ahead: \(workload.image.makeFrameIterator(parallel: true).isParallel)")
    for _ in 0..<repeats {
        switch profile.decoder {
        case "c": sink &+= Decoders.cBaseline(workload.bytes)
        case "gif": sink &+= Decoders.sequential(workload.image)
        case "c+gif":  // both in turn, as the interleaved rounds run them
            sink &+= Decoders.cBaseline(workload.bytes)
            sink &+= Decoders.sequential(workload.image)
        case "scan": sink &+= Decoders.scan(workload.bytes)
        case "parallel": sink &+= Decoders.parallel(workload.image)
        case "whole": sink &+= ProgressiveReport.wholeDecode(workload.bytes)
        case "chunks": sink &+= ProgressiveReport.chunkedDecode(workload.bytes)
        case "seek":
            sink &+= Decoders.seek(&seeker, to: Decoders.shuffledIndices(frameCount: workload.frameCount))
        default: exit(2)
        }
    }
    print(sink)
    // CPU seconds per thread (Linux): with idle cores, a parallel decode's
    // wall time approaches its busiest thread's CPU time.
    print("CPU seconds per thread: " + Timing.threadCPUSeconds().map { Timing.format($0, digits: 3) }.joined(separator: " "))
    exit(0)
}

let mismatches = BaselineCheck.mismatches(in: workloads)
guard mismatches.isEmpty else {
    print("C baseline and GIF disagree:\n" + mismatches.joined(separator: "\n"))
    exit(1)
}
print("C baseline and GIF agree on every workload (CRC-32 of every composited canvas).")
print("Processors online: \(Timing.processorCount); load average before: \(Timing.loadAverage).")
print("\(decodeRounds) interleaved rounds; every decode figure is a ratio to the C baseline of the same run: the median")
print("  of the rounds' ratios (a round times the C baseline, then each variant, back to back, each after one")
print("  untimed call of its own so that it starts from its own memory state, not the previous variant's).")
print()

var rows: [[String]] = []
var cBaselineSeconds: [String: Double] = [:]
var bestRows: [[String]] = []
for workload in workloads {
    let frames = workload.frameCount
    let seekIndices = Decoders.shuffledIndices(frameCount: frames)
    var seeker = Decoders.preparedSeeker(workload.image)
    let samples = Timing.roundSamples(decodeRounds, settling: true, [
        { _ = Decoders.cBaseline(workload.bytes) },
        { _ = Decoders.sequential(workload.image) },
        { _ = Decoders.parallel(workload.image) },
        { _ = Decoders.scan(workload.bytes) },
        { _ = Decoders.seek(&seeker, to: seekIndices) },
    ])
    let (timings, best) = Timing.summary(samples)
    let c = timings[0], ours = timings[1], scan = timings[3]
    cBaselineSeconds[workload.name] = c
    let seek = timings[4] / Double(seekIndices.count)
    let isParallel = workload.image.makeFrameIterator(parallel: true).isParallel
    rows.append([
        workload.name, "\(frames)", "\(workload.image.info.canvasSize)",
        Timing.milliseconds(c),
        Timing.ratio(Timing.pairedRatio(samples, 1, over: 0)),
        frames > 1 ? Timing.ratio(Timing.pairedRatio(samples, 2, over: 0)) + (isParallel ? "" : "*") : "–",
        Timing.ratio(ours / scan, digits: 0),
        frames > 1 ? Timing.ratio(seek / (ours / Double(frames)), digits: 2) : "–",
        frames > 1 ? "\(seeker.checkpointInterval) (\(seeker.checkpointCount) saved)" : "–",
    ])
    bestRows.append([
        workload.name, "\(frames)", "\(workload.image.info.canvasSize)",
        Timing.milliseconds(best[0]),
        Timing.ratio(best[1] / best[0]),
        frames > 1 ? Timing.ratio(best[2] / best[0]) + (isParallel ? "" : "*") : "–",
    ])
}
Timing.printTable(
    header: [
        "workload", "frames", "canvas", "C baseline ms", "GIF 1 thread ×C", "GIF parallel ×C", "decode ÷ scan",
        "seek (frames)", "checkpoint every",
    ],
    rows: rows)
print()
print("Best of the \(decodeRounds) rounds (each variant's fastest round; less sensitive to other load on the machine):")
print()
Timing.printTable(
    header: ["workload", "frames", "canvas", "C baseline ms", "GIF 1 thread ×C", "GIF parallel ×C"],
    rows: bestRows)
print()
print("C baseline ms: giflib + a plain C compositor, whole file, this run (absolute, for scale only).")
print("GIF 1 thread ×C: GIF's time to decode and composite every frame over the C baseline's (target ≤ 1.00).")
print("GIF parallel ×C: the same with makeFrameIterator(parallel: true) (target ≤ 0.65 with ≥ 20 frames);")
print("  * = frames too small on average to hand to another thread, decoded on the calling thread.")
print("decode ÷ scan: how many times faster the scan is than GIF's full one-thread decode (target ≥ 20).")
print("seek (frames): FrameSeeker.frame(at:) to every frame once in shuffled order, checkpoints and indices")
print("  saved (DecodingBudget.default: \(DecodingBudget.default.checkpointBytes >> 20) MiB and \(DecodingBudget.default.indexBytes >> 20) MiB), mean per seek in units of GIF's mean one-thread time per frame (target ≤ 3).")
print("Load average after: \(Timing.loadAverage). Parallel figures need idle cores: on a loaded machine")
print("  they approach the one-thread figures.")

if decodeOnly { exit(0) }
PlayerReport.printSection(workloads: workloads, cBaseline: cBaselineSeconds)
await GroupDriverProbe.printSection(workloads: workloads)
await LatenessProbe.printSection(workloads: workloads)
ProgressiveReport.printSection(workloads: workloads, rounds: rounds)
LayoutReport.printSection(workloads: workloads, rounds: rounds)
BoxFilterReport.printSection(rounds: rounds)

NineGrid.printSection()
FullGrid.printSection()

CommandReport.printSection(rounds: rounds)
// At most 5 rounds: sample_big's 259 frames take ImageMagick about 27 s a run.
PNGReport.printSection(rounds: min(rounds, 5))
