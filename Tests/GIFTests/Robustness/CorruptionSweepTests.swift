import Foundation
@_spi(Benchmarks) import GIF
import Testing

/// Damaged copies of every fixture and of every `OK.` corpus file up to
/// 64 KiB: truncated prefixes and single-byte changes decode without a crash,
/// with errors that say where, and a longer prefix never yields fewer frames.
///
/// Which prefixes: every one for files up to ``SweepPlan/everyPrefixUpTo``
/// bytes (every fixture but `demo.gif`, and the small corpus files). For
/// larger files, every prefix within ``SweepPlan/edge`` bytes of the start and
/// of the end, every prefix within ``SweepPlan/nearBoundary`` bytes of each
/// frame's descriptor, data start and data end (for up to
/// ``SweepPlan/boundaryFrames`` frames spread over the file), and a fixed
/// stride elsewhere that keeps the count near ``SweepPlan/strideTarget``: about
/// 69,000 prefixes and 8,000 changed copies in all. Each chosen prefix is
/// decoded in full and exactly. A run takes its ``Sweep`` share of them
/// (`make test`: a rotating sixteenth, at most
/// ``SweepPlan/sampledPrefixesPerFile`` prefixes of a file); a full run
/// (`make test-long`) takes all of them. `everyPrefix` prints the count and
/// the time per file.
/// Serialized: the sweep is synchronous CPU work, and run in parallel it
/// would hold every thread of the shared cooperative pool, starving the
/// asynchronous tests that run in the same process.
@Suite(.serialized) struct CorruptionSweepTests {
    /// One file to damage.
    struct Input: Sendable, CustomTestStringConvertible {
        var name: String
        var path: String
        var testDescription: String { name }
    }

    /// `Fixtures/*.gif` and the `OK.` entries of the NIA checksum lists up
    /// to 64 KiB.
    static let inputs: [Input] = {
        let fixtures = Fixture.names.map { Input(name: "Fixtures/\($0)", path: Fixture.path($0)) }
        let corpus = Corpus.niaEntries.filter(\.ok).compactMap { entry -> Input? in
            let path = Corpus.path(entry.path)
            let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int ?? .max
            return size <= 64 << 10 ? Input(name: entry.path, path: path) : nil
        }
        return fixtures + corpus
    }()

    @Test func theSweepCoversFixturesAndCorpus() {
        // 28 fixtures and 14 corpus files at the time of writing; both sets
        // must be found from #filePath, whatever the working directory.
        #expect(Self.inputs.filter { $0.name.hasPrefix("Fixtures/") }.count >= 28)
        #expect(Self.inputs.filter { !$0.name.hasPrefix("Fixtures/") }.count >= 14)
    }

    @Test(arguments: inputs) func everyPrefix(_ input: Input) throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: input.path)))
        let whole = SweepDecode(bytes)
        if !input.name.hasPrefix("Fixtures/") {
            #expect(whole.error == nil, "\(input.name) is listed OK.: \(String(describing: whole.error))")
        }
        let planned = SweepPlan.prefixLengths(of: bytes, frames: whole.info?.frames ?? [])
        let lengths = Sweep.sample(planned, of: "prefix \(input.name)", atMost: SweepPlan.sampledPrefixesPerFile)
        let started = ContinuousClock.now
        var previous = 0
        for length in lengths {
            let prefix = Array(bytes[..<length])
            let cut = SweepDecode(prefix)
            #expect(cut.frames >= previous, "\(input.name)[..<\(length)]: \(cut.frames) frames after \(previous)")
            #expect(cut.frames <= whole.frames, "\(input.name)[..<\(length)]")
            previous = cut.frames
            checkEvidence(cut, length: length, name: input.name)
            if length < 6 {
                #expect(cut.error?.kind == .notAGIF(.unknown) && cut.error?.byteOffset == 0)
            } else if length < bytes.count, cut.error == nil, let info = cut.info {
                // Only a cut at a block boundary may pass as a whole file (a
                // missing trailer is not an error), or one after the trailer
                // or an unknown block byte (which ends the stream).
                let stop = info.endOffset < length ? prefix[info.endOffset] : nil
                #expect(info.endOffset == length || info.hasTrailer || ![0x21, 0x2C].contains(stop),
                        "\(input.name)[..<\(length)] passed")
            }
            // Whole frames before the cut are the whole file's frames.
            for (index, hash) in cut.completeHashes {
                #expect(hash == whole.completeHashes[index], "\(input.name)[..<\(length)] frame \(index) differs")
            }
        }
        let elapsed = ContinuousClock.now - started
        print("sweep \(input.name): \(lengths.count) of \(planned.count) planned prefixes (\(bytes.count + 1) possible), \(elapsed)")
    }

    @Test(arguments: inputs) func singleByteChanges(_ input: Input) throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: input.path)))
        // The plan is fixed by the file's name; the run takes its share of it.
        var random = SplitMix64(seed: SweepPlan.seed ^ fnv1a(input.name))
        for change in 0..<SweepPlan.changesPerFile {
            let position = Int(random.next() % UInt64(bytes.count))
            // XOR with 1…255, so the byte really changes.
            let flip = UInt8(random.next() % 255 + 1)
            guard Sweep.includes("change \(input.name)", change) else { continue }
            var changed = bytes
            changed[position] ^= flip
            let outcome = SweepDecode(changed)
            checkEvidence(outcome, length: changed.count, name: "\(input.name) with byte \(position) ^ \(flip)")
        }
    }

    /// An error says what was kept and where it happened.
    func checkEvidence(_ outcome: SweepDecode, length: Int, name: String) {
        guard let error = outcome.error else { return }
        #expect(error.framesDecoded == outcome.frames, "\(name): \(error)")
        if let index = error.frameIndex {
            #expect(index <= outcome.frames, "\(name): \(error)")
            #expect(error.description.contains("frame \(index)"), "\(name): \(error)")
        }
        switch error.kind {
        case .truncated, .notEnoughImageData, .badLZWCode, .badLZWCodeSize, .notAGIF:
            let offset = error.byteOffset ?? -1
            #expect((0...length).contains(offset), "\(name): \(error) names no byte in 0…\(length)")
            #expect(error.description.contains("byte \(offset)"), "\(name): \(error)")
        default:
            break
        }
        switch error.kind {
        case .notEnoughImageData, .badLZWCode, .badLZWCodeSize, .giflib, .truncated(block: .imageData):
            #expect(error.frameIndex != nil, "\(name): \(error) names no frame")
        default:
            break
        }
    }
}

/// Opens and decodes every frame of some bytes, keeping the counts, the
/// error, and a hash of each whole frame's canvas.
struct SweepDecode {
    var info: GIFInfo?
    /// Frames the iterator returned, a partial last frame included.
    var frames = 0
    /// Hashes of the frames returned whole, by index.
    var completeHashes: [Int: Int] = [:]
    var error: GIFError?

    init(_ bytes: [UInt8]) {
        do {
            let image = try GIFImage(bytes: bytes)
            info = image.info
            var iterator = image.makeFrameIterator()
            while let frame = try iterator.next() {
                frames += 1
                if frame.isComplete { completeHashes[frame.index] = digest(frame.pixels) }
            }
        } catch {
            self.error = error
        }
    }
}

/// Which damage the sweep applies; every number is fixed so runs repeat.
enum SweepPlan {
    /// Files up to this size get every prefix.
    static let everyPrefixUpTo = 16 << 10
    /// Bytes at each end of a larger file where every prefix is tried.
    static let edge = 1024
    /// Bytes either side of a frame boundary where every prefix is tried.
    static let nearBoundary = 3
    /// Frames whose boundaries get the close look, spread over the file.
    static let boundaryFrames = 12
    /// The stride elsewhere is chosen to give about this many prefixes.
    static let strideTarget = 1024
    /// At most this many prefixes of one file in a sampled run: a prefix of
    /// a long animation decodes hundreds of frames.
    static let sampledPrefixesPerFile = 64
    /// Single-byte changes per file.
    static let changesPerFile = 192
    /// The PRNG seed, mixed with each file's name.
    static let seed: UInt64 = 0x6769_665F_7377_6565  // "gif_swee"

    /// The prefix lengths to decode, ascending, from 0 to `bytes.count - 1`.
    static func prefixLengths(of bytes: [UInt8], frames: [FrameInfo]) -> [Int] {
        let count = bytes.count
        guard count > everyPrefixUpTo else { return Array(0..<count) }
        var lengths = Set(0..<edge)
        lengths.formUnion(count - edge..<count)
        let step = max(1, frames.count / boundaryFrames)
        for frame in stride(from: 0, to: frames.count, by: step).map({ frames[$0] }) {
            for boundary in [frame.descriptorOffset, frame.dataOffset, frame.dataEnd] {
                lengths.formUnion(max(0, boundary - nearBoundary)...min(count - 1, boundary + nearBoundary))
            }
        }
        lengths.formUnion(stride(from: 0, to: count, by: max(1, count / strideTarget)))
        return lengths.sorted()
    }
}
