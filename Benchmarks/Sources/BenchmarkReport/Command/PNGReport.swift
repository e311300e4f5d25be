import BenchmarkSupport
import GIF

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `gif dump FILE --format png -o DIR` against ImageMagick's
/// `convert FILE -coalesce png:DIR/f-%d.png`, whole process against whole
/// process in paired rounds (each round starting with the other command
/// than the last), on the benchmark files: the median per frame of each,
/// in wall and CPU time (user + system, all threads), the median of the
/// rounds' ratios, and the bytes each writes.
///
/// Run alone: `BenchmarkReport --png [--rounds N]`. It needs the `make
/// release` `gif` (or `$GIF_BINARY`) and ImageMagick's `convert` at
/// `/usr/bin/convert` (or `$CONVERT`).
enum PNGReport {
    static var convertBinary: String {
        if let path = getenv("CONVERT") { return String(cString: path) }
        return "/usr/bin/convert"
    }

    static func printSection(rounds: Int) {
        print()
        print("PNG frames: gif dump FILE --format png -o DIR against convert FILE -coalesce png:DIR/f-%d.png.")
        for binary in [CommandReport.gifBinary, convertBinary] where access(binary, X_OK) != 0 {
            print("  skipped: \(binary) is missing (`make release`; ImageMagick's convert, or $CONVERT)")
            return
        }
        print("  load average before: \(CommandReport.loadAverage())")
        print()
        let scratch = temporaryDirectory()
        defer { _ = CommandReport.run(["/bin/rm", "-rf", scratch]) }
        var rows: [[String]] = []
        for location in Workload.locationsAndCommandFiles() {
            let image = Workload.scanned(location.path, for: "the PNG section")
            let frames = Double(image.info.frameCount)
            let ours = scratch + "/gif", theirs = scratch + "/convert"
            for directory in [ours, theirs] {
                _ = CommandReport.run(["/bin/rm", "-rf", directory])
                mkdir(directory, 0o755)
            }
            let commands = [
                [CommandReport.gifBinary, "dump", location.path, "--format", "png", "-o", ours],
                [convertBinary, location.path, "-coalesce", "png:" + theirs + "/f-%d.png"],
            ]
            let (wall, cpu) = CommandReport.pairedRounds(commands, rounds: rounds)
            func perFrame(_ samples: [Double]) -> String { Timing.milliseconds(median(samples) / frames) }
            rows.append([
                location.name, "\(image.info.frameCount)", "\(image.info.canvasSize)",
                perFrame(wall[0]), perFrame(wall[1]), Timing.ratio(Timing.pairedRatio(wall, 0, over: 1)),
                perFrame(cpu[0]), perFrame(cpu[1]), Timing.ratio(Timing.pairedRatio(cpu, 0, over: 1)),
                "\(directoryBytes(ours) / 1024)", "\(directoryBytes(theirs) / 1024)",
            ])
        }
        Timing.printTable(
            header: [
                "workload", "frames", "canvas", "gif ms/frame", "convert ms/frame", "gif ÷ convert",
                "gif CPU ms/frame", "convert CPU ms/frame", "CPU ÷", "gif KiB", "convert KiB",
            ],
            rows: rows)
        print("Paired: \(rounds) rounds of both, alternating which goes first; times per frame are medians over")
        print("  the rounds, ratios the median of the rounds' ratios. Load average after: \(CommandReport.loadAverage())")
    }

    /// The bytes of the regular files directly in `path`.
    static func directoryBytes(_ path: String) -> Int {
        guard let directory = opendir(path) else { return 0 }
        defer { closedir(directory) }
        var total = 0
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            var status = stat()
            if stat(path + "/" + name, &status) == 0, status.st_mode & S_IFMT == S_IFREG { total += Int(status.st_size) }
        }
        return total
    }

    private static func median(_ values: [Double]) -> Double {
        values.sorted()[values.count / 2]
    }

    private static func temporaryDirectory() -> String {
        var template = Array("/tmp/gif-png-report-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { return "/tmp/gif-png-report" }
        return String(cString: made)
    }
}
