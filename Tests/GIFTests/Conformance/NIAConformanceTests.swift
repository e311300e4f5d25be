import Testing
@testable import GIF
@_spi(Benchmarks) import GIF

/// Our NIA output against the CRC-32s published with the blink and go corpora.
@Suite struct NIAConformanceTests {
    @Test func corpusListsTwentyEntries() {
        #expect(Corpus.niaEntries.count == 20)
        #expect(Corpus.niaEntries.filter(\.ok).count == 18)
    }

    @Test(arguments: Corpus.niaEntries)
    func checksumMatches(_ entry: Corpus.NIAEntry) throws {
        let image = try GIFImage(contentsOf: Corpus.path(entry.path))
        let (bytes, error) = NIAWriter.encode(image)
        #expect(CRC32.checksum(bytes) == entry.crc)
        if entry.ok {
            #expect(error == nil)
        } else {
            let error = try #require(error)
            // The frames before the error are kept: every one was written.
            #expect(error.framesDecoded == (bytes.count - 24) / (24 + image.info.canvasSize.area * 4 + (image.info.canvasSize.area % 2) * 4))
        }
    }

    @Test func badEntriesSayWhatAndWhere() throws {
        let sizeFailure = try GIFImage(contentsOf: Corpus.path("blink/size-failure.gif"))
        let (_, lzwError) = NIAWriter.encode(sizeFailure)
        let lzw = try #require(lzwError)
        guard case .badLZWCode = lzw.kind else { Issue.record("expected a bad LZW code, got \(lzw)"); return }
        #expect(lzw.frameIndex == 0)
        #expect(lzw.framesDecoded == 1)
        #expect(lzw.byteOffset.map { $0 > sizeFailure.info.frames[0].dataOffset } == true)

        let wrongLength = try GIFImage(contentsOf: Corpus.path("blink/wrong-block-length.gif"))
        let (_, cutError) = NIAWriter.encode(wrongLength)
        let cut = try #require(cutError)
        #expect(cut.kind == .truncated(block: .extension))
        #expect(cut.framesDecoded == wrongLength.info.frameCount)
    }
}
