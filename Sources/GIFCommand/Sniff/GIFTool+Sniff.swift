import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import GIF

extension GIFTool {
    /// `gif sniff FILE...`: names each file's format from its first bytes.
    struct Sniff: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Name each file's image format from its first bytes.",
            discussion: """
                Prints one line per file: the format (GIF87a, GIF89a, PNG, APNG, JPEG, \
                WebP, AVIF, HEIC, BMP, ICO, TIFF or unknown) and, for GIF and PNG, the \
                pixel size stored in the header. File names and extensions are ignored.

                Exit status: 0 when every file is a GIF, 1 when any file is not a GIF \
                or cannot be read.

                Example:
                  $ gif sniff cat.gif logo.png
                  cat.gif: GIF89a 100x100
                  logo.png: PNG 10x10 (not a GIF)
                """
        )

        @Argument(help: "The files to sniff.", completion: .file())
        var files: [String]

        func run() throws {
            var allGIF = true
            for file in files {
                let result: Sniffer.Result
                do {
                    result = Sniffer.sniff(try Self.head(of: file))
                } catch {
                    error.report()
                    allGIF = false
                    continue
                }
                var line = "\(file): \(result.format)"
                if let size = result.pixelSize { line += " \(size)" }
                if !result.format.isGIF { line += " (not a GIF)" }
                do {
                    try StandardStreams.output(line + "\n")
                } catch {
                    // Standard output failing fails every file after: stop.
                    error.report()
                    throw ExitCode.failure
                }
                allGIF = allGIF && result.format.isGIF
            }
            if !allGIF { throw ExitCode.failure }
        }

        /// The first 4 KiB of `path`: enough for every signature the sniffer
        /// knows, and for a PNG's `acTL` chunk in practice.
        static func head(of path: String) throws(CommandFailure) -> [UInt8] {
            var status = stat()
            guard stat(path, &status) == 0 else {
                throw CommandFailure(file: path, message: "No such file or directory")
            }
            if status.st_mode & S_IFMT == S_IFDIR { throw CommandFailure(file: path, message: "Is a directory") }
            let file = open(path, O_RDONLY)
            guard file >= 0 else {
                throw CommandFailure(file: path, message: "cannot open the file for reading")
            }
            defer { close(file) }
            var head = [UInt8](repeating: 0, count: 4096)
            var count = 0
            while count < head.count {
                let n = head.withUnsafeMutableBytes { read(file, $0.baseAddress! + count, $0.count - count) }
                if n > 0 {
                    count += n
                } else if n == 0 {
                    break
                } else if errno != EINTR {
                    throw CommandFailure(file: path, message: String(cString: strerror(errno)))
                }
            }
            head.removeSubrange(count...)
            return head
        }
    }
}
