import Foundation
import Testing
@testable import GIF
@_spi(Benchmarks) import GIF

/// Each frame's own rectangle against the CRC-32s published with the Rust
/// `gif` crate's samples (`image-gif/results.txt`).
@Suite struct RawFrameConformanceTests {
    struct Sample: Sendable, CustomStringConvertible {
        var name: String
        var crc: UInt32
        var description: String { name }
    }

    static let samples: [Sample] = {
        let text = (try? String(contentsOfFile: Corpus.path("image-gif/results.txt"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: ":")
            guard parts.count == 2, let crc = UInt32(parts[1].trimmingCharacters(in: .whitespaces)) else { return nil }
            return Sample(name: String(parts[0].split(separator: "/").last!), crc: crc)
        }
    }()

    @Test func resultsListTwelveSamples() {
        #expect(Self.samples.count == 12)
    }

    @Test(arguments: samples)
    func frameRectanglesMatch(_ sample: Sample) throws {
        let image = try GIFImage(contentsOf: Corpus.path("image-gif/samples/\(sample.name)"))
        var crc = CRC32()
        for index in 0..<image.info.frameCount {
            crc.update(try image.rawFrame(at: index).rgba())
        }
        #expect(crc.value == sample.crc)
    }
}
