import Foundation
import Testing
@testable import GIF

@Test func probeCorpus() throws {
    for dir in ["blink", "go"] {
        let base = "/work/shared/corpus/\(dir)/"
        let text = try String(contentsOfFile: base + "nia-crc32.txt", encoding: .utf8)
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ")
            let image = try GIFImage(contentsOf: base + parts[2])
            let (bytes, error) = NIAWriter.encode(image)
            let crc = String(CRC32.checksum(bytes), radix: 16)
            print(parts[0], parts[1], crc, crc == parts[1] ? "MATCH" : "DIFF", parts[2], image.info.frameCount, error.map { "\($0)" } ?? "")
        }
    }
}
