import Foundation
import Testing
@testable import GIF
#if canImport(Glibc)
import Glibc
#endif

/// Reading from pipes and FIFOs: the input limit holds without a size to
/// stat, the buffer is not grown by doubling, and a FIFO nobody opens for
/// writing fails after the timeout instead of blocking forever.
@Suite struct FileReaderTests {
    /// A FIFO in a fresh temporary directory, removed with it.
    final class FIFO: Sendable {
        let directory: String
        let path: String

        init() throws {
            directory = FileManager.default.temporaryDirectory.appending(path: "gif-fifo-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            path = directory + "/input"
            guard mkfifo(path, 0o600) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        }

        deinit {
            try? FileManager.default.removeItem(atPath: directory)
        }

        /// Writes `bytes` into the FIFO from another thread (opening it
        /// blocks until the reader opens it), then closes it.
        func feed(_ bytes: [UInt8]) -> Thread {
            let path = self.path
            let thread = Thread {
                let fd = open(path, O_WRONLY)
                guard fd >= 0 else { return }
                var done = 0
                while done < bytes.count {
                    let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, $0.count - done) }
                    if n <= 0 { break }
                    done += n
                }
                close(fd)
            }
            thread.start()
            return thread
        }
    }

    @Test func aFIFOIsReadWhole() throws {
        let gif = try Corpus.bytes("go/video-001.gif")
        let fifo = try FIFO()
        _ = fifo.feed(gif)
        // A limit of Int.max is no limit, and no overflow.
        let bytes = try FileReader.contents(of: fifo.path, maxBytes: .max)
        #expect(bytes == gif)
        // Joined into a buffer of the exact size, not a doubled one.
        #expect(bytes.capacity < bytes.count + 4096)
    }

    @Test func aStreamLongerThanAChunkIsJoinedExactly() throws {
        // Three chunks and a bit of a valid GIF followed by junk the scanner
        // never sees; the reader only checks the signature and the limit.
        let size = 3 * FileReader.chunkSize + 12_345
        let head = try Corpus.bytes("go/video-001.gif")
        let input = head + (0..<(size - head.count)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let fifo = try FIFO()
        _ = fifo.feed(input)
        let bytes = try FileReader.contents(of: fifo.path, maxBytes: 1 << 30)
        #expect(bytes == input)
        #expect(bytes.capacity < bytes.count + 4096)
    }

    @Test func aStreamPastTheLimitIsRefused() throws {
        let gif = try Corpus.bytes("go/video-001.gif")
        let fifo = try FIFO()
        _ = fifo.feed(gif)
        let limit = gif.count / 2
        #expect {
            _ = try FileReader.contents(of: fifo.path, maxBytes: limit)
        } throws: { error in
            guard let error = error as? GIFError, case .limitExceeded(.inputBytes, let value, let maximum) = error.kind
            else { return false }
            return maximum == limit && value > limit
        }
    }

    @Test func aStreamThatIsNoGIFIsRefusedFromItsFirstBytes() throws {
        let fifo = try FIFO()
        _ = fifo.feed(Array("this is not a GIF file at all".utf8))
        #expect {
            _ = try FileReader.contents(of: fifo.path, maxBytes: 1 << 30)
        } throws: { error in
            guard let error = error as? GIFError, case .notAGIF = error.kind else { return false }
            return true
        }
    }

    @Test func aFIFOWithoutWriterFailsAfterTheTimeout() throws {
        let fifo = try FIFO()
        let clock = ContinuousClock()
        let start = clock.now
        #expect {
            _ = try FileReader.contents(of: fifo.path, maxBytes: 1 << 30, openTimeout: .milliseconds(200))
        } throws: { error in
            guard let error = error as? GIFError, case .noWriter(let path, let waited) = error.kind else { return false }
            return path == fifo.path && waited == .milliseconds(200)
        }
        // It waited for the timeout, and not for ever.
        #expect(clock.now - start >= .milliseconds(200))
    }

    #if os(Linux)
    /// A writer that opened the FIFO and keeps it open, sending nothing: the
    /// error says so, not that no writer came.
    @Test func aFIFOWhoseWriterSendsNothingSaysSo() throws {
        let fifo = try FIFO()
        // Read and write: opens at once, and holds the FIFO as a writer.
        let writer = open(fifo.path, O_RDWR | O_NONBLOCK)
        try #require(writer >= 0)
        defer { close(writer) }
        let error = #expect(throws: GIFError.self) {
            _ = try FileReader.contents(of: fifo.path, maxBytes: 1 << 30, openTimeout: .milliseconds(200))
        }
        #expect(error?.reason == "a writer opened the FIFO but sent nothing within 0.2 seconds")
    }

    @Test func anAnonymousPipeIsWaitedOnPastTheTimeout() throws {
        let gif = try Corpus.bytes("go/video-001.gif")
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let (readEnd, writeEnd) = (ends[0], ends[1])
        defer { close(readEnd) }
        // The writer exists from the start but sends nothing for longer than
        // the timeout, as a slow `cmd | gif info -` would.
        let writer = Thread {
            usleep(500_000)
            var done = 0
            while done < gif.count {
                let n = gif.withUnsafeBytes { write(writeEnd, $0.baseAddress! + done, $0.count - done) }
                if n <= 0 { break }
                done += n
            }
            close(writeEnd)
        }
        writer.start()
        let bytes = try FileReader.contents(of: "/dev/fd/\(readEnd)", maxBytes: 1 << 30, openTimeout: .milliseconds(100))
        #expect(bytes == gif)
    }
    #endif
}
