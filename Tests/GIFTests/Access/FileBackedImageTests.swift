import Foundation
import Testing
@testable import GIF
@_spi(Benchmarks) import GIF

/// `GIFImage(readingFramesFromFileAt:)`: the file stays open and each frame's
/// data is read from it when decoded. The frames must be the ones the
/// published checksums describe, whichever path decodes them, and a file cut
/// short after it was scanned must fail as a truncated file does.
@Suite struct FileBackedImageTests {
    /// The published NIA checksums hold for images that read their frames
    /// from the file, and the errors name the same frame and byte.
    @Test(arguments: Corpus.niaEntries)
    func checksumMatches(_ entry: Corpus.NIAEntry) throws {
        let image = try GIFImage(readingFramesFromFileAt: Corpus.path(entry.path))
        #expect(image.readsFramesFromFile)
        let (bytes, error) = NIAWriter.encode(image)
        #expect(CRC32.checksum(bytes) == entry.crc)
        #expect((error == nil) == entry.ok)
        // Byte offsets are the file's, not the read buffer's.
        let (_, heldError) = NIAWriter.encode(try GIFImage(contentsOf: Corpus.path(entry.path)))
        #expect(error?.kind == heldError?.kind)
        #expect(error?.byteOffset == heldError?.byteOffset)
        #expect(error?.frameIndex == heldError?.frameIndex)
    }

    /// The parallel iterator, a seeker and `rawFrame(at:)` read the file too,
    /// and give what the image held in memory gives (itself checked against
    /// the published checksums).
    @Test func everyAccessPathReadsTheFile() throws {
        let path = Corpus.path("image-gif/samples/moon_impact.gif")
        let held = try GIFImage(contentsOf: path)
        let file = try GIFImage(readingFramesFromFileAt: path)
        #expect(!held.readsFramesFromFile)
        #expect(file.bytes == held.bytes)
        #expect(file.info == held.info)
        var expected = held.makeFrameIterator()
        var parallel = file.makeFrameIterator(parallel: true)
        var count = 0
        while let frame = try expected.next() {
            #expect(try parallel.next()?.pixels == frame.pixels)
            count += 1
        }
        #expect(try parallel.next() == nil)
        #expect(count == held.info.frameCount)
        var seeker = file.makeSeeker()
        for index in [count - 1, 0, count / 2] {
            #expect(try seeker.frame(at: index).pixels == held.frame(at: index).pixels)
            #expect(try file.rawFrame(at: index) == held.rawFrame(at: index))
        }
    }

    /// A file truncated after it was scanned: the frames before the cut are
    /// the ones the whole file gives, the frame the cut falls in shows what
    /// the same cut file shows when read into memory, and the iterator then
    /// throws; nothing is read past what the file still holds.
    @Test func aFileCutAfterItsScanFailsWhereTheCutIs() throws {
        let original = try Array(Data(contentsOf: URL(fileURLWithPath: Fixture.path("demo.gif"))))
        let path = NSTemporaryDirectory() + "file-backed-\(UInt32.random(in: 0...UInt32.max)).gif"
        try Data(original).write(to: URL(fileURLWithPath: path))
        defer { unlink(path) }
        let image = try GIFImage(readingFramesFromFileAt: path)
        // Cut inside the data of a frame in the middle.
        let victim = image.info.frames[image.info.frameCount / 2]
        let cut = (victim.dataOffset + victim.dataEnd) / 2
        #expect(truncate(path, off_t(cut)) == 0)

        let shortened = try GIFImage(bytes: Array(original.prefix(cut)))
        var expected = shortened.makeFrameIterator()
        var frames = image.makeFrameIterator()
        for index in 0...victim.index {
            let want = try #require(try expected.next())
            let got = try #require(try frames.next())
            #expect(got.index == index)
            #expect(got.pixels == want.pixels)
            #expect(got.isComplete == want.isComplete)
        }
        let error = try #require(throws: GIFError.self) { try frames.next() }
        #expect(error.frameIndex == victim.index)
        #expect(error.framesDecoded == victim.index + 1)
    }
}
