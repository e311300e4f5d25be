import BenchmarkSupport
import GIF

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `gif` command's figures, whole process against whole process, in
/// paired runs: each round runs the plain C program `CPlainDump` (giflib's
/// rows composited onto a BGRA canvas, one `fwrite` per frame),
/// `gif dump FILE --format nia -o -` from the `make release` binary and from
/// a plain `swift build -c release` binary, all to /dev/null, in rotating
/// order; then rounds of the C program and `gif dump FILE -o DIR --format
/// ppm`. Each figure is the
/// median over the rounds of the round's ratio to the C program, in wall
/// time and in CPU time (user + system of all threads), which a loaded
/// machine cannot hide. Before timing, the two NIA streams are compared
/// byte for byte. Then the peak resident memory of `gif dump` in every
/// output mode under GNU `time`, and `gif info` on a generated 65,536-frame
/// file.
///
/// It needs `gif` built at the package root by `make release` (or
/// `$GIF_BINARY`), the plain build in `.build-plain` (`swift build -c
/// release --product gif --scratch-path .build-plain`, or
/// `$GIF_PLAIN_BINARY`), and a C compiler, with which it builds
/// `CPlainDump/main.c` first.
enum CommandReport {
    /// The `gif` binary: `$GIF_BINARY`, or the package's release build.
    static var gifBinary: String {
        if let path = getenv("GIF_BINARY") { return String(cString: path) }
        return Workload.packageRoot + "/.build/release/gif"
    }

    /// The plain `swift build -c release` binary: `$GIF_PLAIN_BINARY`, or
    /// the package's `.build-plain` release build.
    static var plainBinary: String {
        if let path = getenv("GIF_PLAIN_BINARY") { return String(cString: path) }
        return Workload.packageRoot + "/.build-plain/release/gif"
    }

    /// The plain C program's source, `CPlainDump/main.c` in the benchmark
    /// package (outside its targets: SwiftPM would link the Swift runtime
    /// into it).
    static var cSource: String { Workload.packageRoot + "/Benchmarks/CPlainDump/main.c" }

    /// The C compiler's command line for ``cSource``: the system `cc`, as a
    /// C programmer builds it, optimised at `-O3`.
    static func cCompile(to binary: String) -> [String] {
        ["/usr/bin/cc", "-O3", "-o", binary, cSource, "-lgif"]
    }

    static let timeBinary = "/usr/bin/time"

    static func printSection(rounds: Int) {
        print()
        print("The gif command: whole process, paired with the plain C program, output to /dev/null.")
        let builds = [
            (gifBinary, "`make release` at the package root"),
            (plainBinary, "`swift build -c release --product gif --scratch-path .build-plain` at the package root"),
        ]
        for (binary, how) in builds where access(binary, X_OK) != 0 {
            print("  skipped: \(binary) is missing; build it with \(how)")
            return
        }
        let scratch = temporaryDirectory()
        defer { removeTree(scratch) }
        let compile = cCompile(to: scratch + "/CPlainDump")
        guard run(compile).status == 0 else {
            print("  skipped: the C program did not compile: \(compile.joined(separator: " "))")
            return
        }
        let cBinary = scratch + "/CPlainDump"
        print("  gif (make release): \(gifBinary)")
        print("  gif (plain build):  \(plainBinary)")
        print("  C:                  \(compile.joined(separator: " "))")
        print("  load average before: \(loadAverage())")
        print()
        let locations = Workload.locationsAndCommandFiles()
        var rows: [[String]] = []
        for location in locations {
            let image = Workload.scanned(location.path, for: "the gif command's section")
            let frames = image.info.frameCount
            let same = sameStream(location.path, c: cBinary)
            let nia = [
                [cBinary, location.path],
                [gifBinary, "dump", location.path, "--format", "nia", "-o", "-"],
                [plainBinary, "dump", location.path, "--format", "nia", "-o", "-"],
            ]
            let ppm = [nia[0], [gifBinary, "dump", location.path, "--format", "ppm", "-o", scratch + "/ppm"]]
            let (wall, cpu) = pairedRounds(nia, rounds: rounds)
            let (ppmWall, ppmCPU) = pairedRounds(ppm, rounds: rounds)
            removeTree(scratch + "/ppm")
            let target = frames >= 20 ? 0.7 : 1.0
            func ratio(_ samples: [[Double]], _ i: Int) -> Double { Timing.pairedRatio(samples, i, over: 0) }
            let met = ratio(wall, 1) <= target && ratio(cpu, 1) <= 1.0
            rows.append([
                location.name, "\(frames)", "\(image.info.canvasSize)",
                Timing.milliseconds(median(wall[0])), Timing.milliseconds(median(cpu[0])),
                Timing.ratio(ratio(wall, 1)), Timing.ratio(ratio(cpu, 1)), "≤ " + Timing.ratio(target),
                met ? "yes" : "NO", Timing.ratio(ratio(wall, 2)), Timing.ratio(ratio(cpu, 2)),
                Timing.ratio(ratio(wall, 2) / ratio(wall, 1)),
                Timing.ratio(ratio(ppmWall, 1)), Timing.ratio(ratio(ppmCPU, 1)), same ? "yes" : "NO",
            ])
        }
        Timing.printTable(
            header: [
                "workload", "frames", "canvas", "C ms", "C CPU ms", "gif ÷ C", "CPU ÷ C", "target", "met",
                "plain ÷ C", "plain CPU ÷ C", "plain ÷ static", "PPM dir ÷ C", "PPM CPU ÷ C", "same bytes",
            ],
            rows: rows)
        print("Paired: each of \(rounds) rounds runs C, gif and the plain build, each round starting with the next")
        print("  of the three; then as many rounds of C and the PPM dump. Each ratio is the median over the rounds")
        print("  of the round's ratio (wall, and CPU = user + system of all threads).")
        print("  Target for gif (make release): wall ≤ 1.0 × C, ≤ 0.7 with 20 frames or more; CPU ≤ 1.0 × C.")
        print("  PPM dir: gif dump FILE -o DIR --format ppm (one file per frame) over the C program's NIA stream.")
        print("  \"same bytes\": both NIA streams compared byte for byte. Load average after: \(loadAverage())")
        print()
        printMemory(locations: locations)
        print()
        printInfo(rounds: rounds)
    }

    /// Runs `commands` once each to warm the page cache, then `rounds`
    /// rounds of each in turn, round `r` starting with command `r % count`
    /// so that each follows every other equally often (a command that
    /// writes much leaves the kernel busy for the next). Each command's wall
    /// and CPU seconds per round: `[command][round]`.
    static func pairedRounds(_ commands: [[String]], rounds: Int) -> (wall: [[Double]], cpu: [[Double]]) {
        for command in commands { _ = run(command) }
        var wall = [[Double]](repeating: [], count: commands.count), cpu = wall
        for round in 0..<rounds {
            for step in 0..<commands.count {
                let i = (round + step) % commands.count
                let result = run(commands[i])
                wall[i].append(result.seconds)
                cpu[i].append(result.cpuSeconds)
            }
        }
        return (wall, cpu)
    }

    /// The 1-, 5- and 15-minute load averages.
    static func loadAverage() -> String {
        var loads = [Double](repeating: 0, count: 3)
        guard getloadavg(&loads, 3) == 3 else { return "unknown" }
        return loads.map { Timing.format($0, digits: 2) }.joined(separator: " ")
    }

    /// Peak RSS of `gif dump` in each output mode, on every workload and on a
    /// generated 65,536-frame file.
    static func printMemory(locations: [(name: String, path: String)]) {
        guard access(timeBinary, X_OK) == 0 else {
            print("Peak memory: skipped, needs GNU time at \(timeBinary).")
            return
        }
        let scratch = temporaryDirectory()
        defer { removeTree(scratch) }
        let many = scratch + "/frames-65536.gif"
        writeManyFrames(to: many, count: 65_536, width: 16, height: 16)
        var rows: [[String]] = []
        var worst = 0
        for location in locations + [("65,536 frames 16x16", many)] {
            var cells = [location.0]
            for (label, arguments) in [
                ("nia stdout", ["--format", "nia", "-o", "-"]), ("nia file", ["--format", "nia", "-o", scratch + "/nia"]),
                ("ppm stdout", ["-o", "-"]), ("ppm files", ["-o", scratch + "/ppm"]),
            ] {
                _ = label
                let peak = peakKiB([gifBinary, "dump", location.1] + arguments)
                worst = max(worst, peak)
                cells.append(Timing.format(Double(peak) / 1024, digits: 1))
                removeTree(scratch + "/ppm")
                removeTree(scratch + "/nia")
            }
            rows.append(cells)
        }
        print("Peak resident memory of gif dump, MiB (GNU time's maximum RSS; target ≤ 64 MB whatever the frames):")
        print()
        Timing.printTable(header: ["workload", "NIA stdout", "NIA file", "PPM stdout", "PPM files"], rows: rows)
        let worstMB = Double(worst) * 1024 / 1e6
        print("Worst: \(Timing.format(worstMB, digits: 1)) MB (target ≤ 64 MB): \(worstMB <= 64 ? "met" : "NOT met").")
    }

    /// `gif info` (text and JSON) on a 65,536-frame file.
    static func printInfo(rounds: Int) {
        let scratch = temporaryDirectory()
        defer { removeTree(scratch) }
        let many = scratch + "/frames-65536.gif"
        writeManyFrames(to: many, count: 65_536, width: 1, height: 1)
        for (label, arguments) in [("text", ["info", many]), ("JSON", ["info", "--json", many])] {
            let times = (0..<max(3, rounds / 2)).map { _ in run([gifBinary] + arguments).seconds }
            let seconds = median(times)
            print("gif info (\(label)) on a 65,536-frame 1x1 file: \(Timing.format(seconds, digits: 3)) s "
                + "(target < 1 s): \(seconds < 1 ? "met" : "NOT met").")
        }
    }

    /// Whether `gif dump --format nia -o -` and the C program `cBinary`
    /// write the same bytes for `path` (`cmp`).
    static func sameStream(_ path: String, c cBinary: String) -> Bool {
        let scratch = temporaryDirectory()
        defer { removeTree(scratch) }
        _ = run([gifBinary, "dump", path, "--format", "nia", "-o", "-"], output: scratch + "/gif.nia")
        _ = run([cBinary, path], output: scratch + "/c.nia")
        return run(["/usr/bin/cmp", "-s", scratch + "/gif.nia", scratch + "/c.nia"]).status == 0
    }

    /// Runs `argv` with standard output to `output` and standard error to
    /// /dev/null; its wall-clock time, CPU time (user + system, all threads)
    /// and exit status.
    static func run(_ argv: [String], output: String = "/dev/null", error: String = "/dev/null")
        -> (seconds: Double, cpuSeconds: Double, status: Int32)
    {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, error, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        let arguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for pointer in arguments { free(pointer) } }
        let start = now()
        var child = pid_t()
        guard posix_spawn(&child, argv[0], &actions, nil, arguments, environ) == 0 else {
            return (.infinity, .infinity, -1)
        }
        var status: Int32 = 0
        var usage = rusage()
        wait4(child, &status, 0, &usage)
        let elapsed = now() - start
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return (elapsed, seconds(usage.ru_utime) + seconds(usage.ru_stime), (status & 0x7f) == 0 ? (status >> 8) & 0xff : -1)
    }

    /// The peak RSS in KiB of `argv`, from GNU `time -f %M` (the command's
    /// own figure, not inherited from this process through `exec`).
    static func peakKiB(_ argv: [String]) -> Int {
        let scratch = temporaryDirectory()
        defer { removeTree(scratch) }
        _ = run([timeBinary, "-f", "%M", "-o", scratch + "/time"] + argv)
        guard let text = readFile(scratch + "/time") else { return 0 }
        return Int(String(decoding: text, as: UTF8.self).split(separator: "\n").last ?? "") ?? 0
    }

    /// A GIF of `count` frames of `width` × `height` (one colour index each,
    /// 9-bit literal codes with a clear code every 250), 5 cs apart, looping
    /// forever: built byte by byte.
    static func writeManyFrames(to path: String, count: Int, width: Int, height: Int) {
        func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
        var bytes = Array("GIF89a".utf8) + le16(width) + le16(height) + [0xF7, 0, 0]
        bytes += (0..<256).flatMap { [UInt8($0), UInt8(255 - $0), UInt8($0 / 2)] }
        bytes += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0, 0]
        var frame: [[UInt8]] = []
        for index in 0..<256 {
            var data: [UInt8] = []
            LiteralLZW.append(pixels: width * height, { _ in index }, to: &data)
            frame.append([0x21, 0xF9, 4, 0, 5, 0, 0, 0, 0x2C, 0, 0, 0, 0] + le16(width) + le16(height) + [0] + data)
        }
        for index in 0..<count { bytes += frame[index % 256] }
        bytes.append(0x3B)
        guard let file = fopen(path, "wb") else { return }
        _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        fclose(file)
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted[sorted.count / 2]
    }

    private static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    private static func temporaryDirectory() -> String {
        var template = Array("/tmp/gif-command-report-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { return "/tmp" }
        return String(cString: made)
    }

    private static func removeTree(_ path: String) {
        guard path != "/tmp" else { return }
        _ = run(["/bin/rm", "-rf", path])
    }

    private static func readFile(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = fread(&chunk, 1, chunk.count, file)
            if n <= 0 { break }
            bytes += chunk[0..<n]
        }
        return bytes
    }
}
