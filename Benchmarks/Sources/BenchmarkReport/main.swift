import BenchmarkSupport
import GIF

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Times ours against the C baseline, interleaved in one run, and prints each
// figure as a ratio.
//
// Usage: BenchmarkReport [--rounds N]
//        BenchmarkReport --profile c|gif|scan|seek WORKLOAD [--repeat N]
// The second form only runs one decoder, for `valgrind --tool=callgrind`.

var rounds = 7
var profile: (decoder: String, workload: String)?
var repeats = 1
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--rounds": rounds = max(1, arguments.popFirst().flatMap { Int($0) } ?? rounds)
    case "--repeat": repeats = max(1, arguments.popFirst().flatMap { Int($0) } ?? repeats)
    case "--profile":
        guard let decoder = arguments.popFirst(), let workload = arguments.popFirst() else { exit(2) }
        profile = (decoder, workload)
    default:
        print("unknown argument \(argument)")
        exit(2)
    }
}

let workloads = Workload.all()
if let profile {
    guard let workload = workloads.first(where: { $0.name == profile.workload }) else {
        print("no workload \(profile.workload); have \(workloads.map(\.name))")
        exit(2)
    }
    var sink = 0
    for _ in 0..<repeats {
        switch profile.decoder {
        case "c": sink &+= Decoders.cBaseline(workload.bytes)
        case "gif": sink &+= Decoders.sequential(workload.image)
        case "scan": sink &+= Decoders.scan(workload.bytes)
        case "seek": sink &+= Decoders.seek(workload.image, to: Decoders.randomIndices(count: 8, frameCount: workload.frameCount))
        default: exit(2)
        }
    }
    print(sink)
    exit(0)
}

let mismatches = BaselineCheck.mismatches(in: workloads)
guard mismatches.isEmpty else {
    print("C baseline and GIF disagree:\n" + mismatches.joined(separator: "\n"))
    exit(1)
}
print("C baseline and GIF agree on every workload (CRC-32 of every composited canvas).")
print("Median of \(rounds) interleaved rounds; every decode figure is a ratio to the C baseline of the same run.")
print()

var rows: [[String]] = []
for workload in workloads {
    let seekIndices = Decoders.randomIndices(count: 8, frameCount: workload.frameCount)
    let timings = Timing.rounds(rounds, [
        { _ = Decoders.cBaseline(workload.bytes) },
        { _ = Decoders.sequential(workload.image) },
        { _ = Decoders.scan(workload.bytes) },
        { _ = Decoders.seek(workload.image, to: seekIndices) },
    ])
    let c = timings[0], ours = timings[1], scan = timings[2]
    let seek = timings[3] / Double(seekIndices.count)
    let frames = workload.frameCount
    rows.append([
        workload.name, "\(frames)", "\(workload.image.info.canvasSize)",
        Timing.milliseconds(c),
        Timing.ratio(ours / c),
        Timing.ratio(ours / scan, digits: 0),
        Timing.ratio(seek / (ours / Double(frames)), digits: 1),
    ])
}
Timing.printTable(
    header: ["workload", "frames", "canvas", "C ms", "GIF 1 thread ×C", "decode ÷ scan", "seek (frames)"],
    rows: rows)
print()
print("GIF 1 thread ×C: time to decode and composite every frame, over the C baseline's (target ≤ 1.00).")
print("decode ÷ scan: how many times faster the scan is than GIF's full decode (target ≥ 20).")
print("seek (frames): one frame(at:) to a random frame, in units of GIF's mean per-frame decode time (target ≤ 3).")
