import ArgumentParser
import Foundation
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
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw CommandFailure(file: path, message: "No such file or directory")
            }
            if isDirectory.boolValue { throw CommandFailure(file: path, message: "Is a directory") }
            guard let handle = FileHandle(forReadingAtPath: path) else {
                throw CommandFailure(file: path, message: "cannot open the file for reading")
            }
            defer { try? handle.close() }
            do {
                return [UInt8](try handle.read(upToCount: 4096) ?? Data())
            } catch {
                throw CommandFailure(file: path, message: error.localizedDescription)
            }
        }
    }
}
