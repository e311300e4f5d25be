import Foundation
import GIF
import Testing

/// Every input the fuzzer (`make fuzz`) found a crash or hang with, minimised
/// and kept in `FuzzRegressions/`, decodes without one: frames or a typed
/// error with consistent evidence. `FuzzRegressions/README.md` says what each
/// input found and where it was fixed; player findings also have a test of
/// their own in `PlaybackTests/AbuseTests.swift`.
@Suite struct FuzzRegressionTests {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .appendingPathComponent("FuzzRegressions")

    static let names: [String] = {
        let all = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return all.filter { $0.hasSuffix(".gif") }.sorted()
    }()

    @Test func regressionInputsAreFound() {
        #expect(!Self.names.isEmpty)
    }

    @Test(arguments: names) func decodesWithoutACrash(_ name: String) throws {
        let bytes = try [UInt8](Data(contentsOf: Self.directory.appendingPathComponent(name)))
        let outcome = SweepDecode(bytes)
        if let error = outcome.error {
            #expect(error.framesDecoded == outcome.frames, "\(name): \(error)")
            if let index = error.frameIndex { #expect(index <= outcome.frames, "\(name): \(error)") }
        }
        #expect(outcome.frames <= outcome.info?.frameCount ?? 0)
    }
}
