import BenchmarkSupport
import GIF
import Testing

/// The C baseline composites what GIF composites, so that a ratio between
/// them compares the same work.
@Suite struct BaselineTests {
    @Test(arguments: Workload.corpusFiles)
    func baselineMatchesGIF(_ file: String) throws {
        let workload = try #require(Workload(name: file, path: Workload.corpusRoot + "/" + file))
        let c = BaselineCheck.cChecksum(workload.bytes)
        let ours = BaselineCheck.swiftChecksum(workload.image)
        #expect(c.frames == workload.frameCount)
        #expect(c.frames == ours.frames)
        #expect(c.crc == ours.crc)
    }

    @Test func largeFixtureMatchesWhenPresent() throws {
        guard let workload = Workload.largeFixture() else { return }
        #expect(BaselineCheck.mismatches(in: [workload]) == [])
    }
}
