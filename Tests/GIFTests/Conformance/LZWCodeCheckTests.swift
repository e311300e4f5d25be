import Testing
@testable import GIF

/// The quick code walk (`LZWCodeCheck.isSound`), which tests several codes
/// at once, against a walk written here one code at a time from the rules in
/// its documentation and the browsers' behaviour: a stream is
/// sound when, up to its end code or the end of its data, no code lies past
/// the next free table entry and no code after a clear is a non-literal.
@Suite struct LZWCodeCheckTests {
    /// The reference: one code at a time, with the GIF specification's width
    /// rules (the width grows once entry `2^width − 1` is added, up to 12
    /// bits; a full table of 4096 entries adds nothing until a clear).
    static func referenceIsSound(_ bytes: [UInt8], codeSize: Int) -> Bool {
        let clear = 1 << codeSize
        var width = codeSize + 1, next = clear + 2, afterClear = true
        var bit = 0
        while bit + width <= bytes.count * 8 {
            var code = 0
            for i in 0..<width where bytes[(bit + i) / 8] >> ((bit + i) % 8) & 1 == 1 { code |= 1 << i }
            bit += width
            if code == clear + 1 { return true }
            if code == clear {
                (width, next, afterClear) = (codeSize + 1, clear + 2, true)
                continue
            }
            if afterClear {
                if code >= clear { return false }
                afterClear = false
                continue
            }
            if code > next { return false }
            if next < 4096 {
                next += 1
                if next == 1 << width, width < 12 { width += 1 }
            }
        }
        return true
    }

    /// A code stream of `codes` codes built with the same width rules, so
    /// that it stays in step with a decoder: literals after clears, then
    /// codes up to the next free entry (often the next free entry itself,
    /// as runs make them), a clear now and then when `clears`, and at code
    /// `badAt` (when given) a code past the next free entry, or a
    /// non-literal when that code follows a clear; after an end code
    /// (`endCode`), bytes of ones.
    static func stream(
        codeSize: Int, codes: Int, clears: Bool, badAt: Int?, endCode: Bool, random: inout SplitMix64
    ) -> [UInt8] {
        let clear = 1 << codeSize
        var width = codeSize + 1, next = clear + 2, afterClear = true
        var bytes: [UInt8] = [], buffer = 0, held = 0
        func put(_ code: Int) {
            // Code sizes 0 and 1 start with a width too narrow for every
            // code the rules allow; the reference reads what is written.
            buffer |= (code & (1 << width - 1)) << held
            held += width
            while held >= 8 {
                bytes.append(UInt8(buffer & 0xFF))
                buffer >>= 8
                held -= 8
            }
        }
        put(clear)
        for i in 0..<codes {
            if i == badAt {
                let past = afterClear ? clear : next + 1
                if past < 1 << width {
                    // Just past it half the time, the hardest case to tell.
                    put(random.below(2) == 0 ? past : past + random.below((1 << width) - past))
                    break
                }
            }
            if clears, random.below(1500) == 0 {
                put(clear)
                (width, next, afterClear) = (codeSize + 1, clear + 2, true)
                continue
            }
            if afterClear {
                put(random.below(clear))
                afterClear = false
                continue
            }
            let code: Int
            switch random.below(8) {
            case 0: code = min(next, 4095)
            case 1: code = random.below(clear)
            default:
                // Anything up to the next free entry but the clear and end codes.
                var c = random.below(min(next, 4095) + 1)
                if c == clear || c == clear + 1 { c = 0 }
                code = c
            }
            put(code)
            if next < 4096 {
                next += 1
                if next == 1 << width, width < 12 { width += 1 }
            }
        }
        if endCode { put(clear + 1) }
        if held > 0 { bytes.append(UInt8(buffer & 0xFF)) }
        // Junk after an end code, which a walk must not read.
        if endCode { bytes += [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF] }
        return bytes
    }

    /// The quick walk, with its 32-code vector groups first when `vector`
    /// and the processor has them (`ProcessorFeatures.hasAVX512VBMI`).
    static func quickWalk(_ bytes: [UInt8], codeSize: Int, vector: Bool = false) -> Bool {
        let padded = bytes + [UInt8](repeating: 0, count: 8)
        return padded.withUnsafeBufferPointer {
            LZWCodeCheck.isSound(codes: $0.baseAddress!, bits: bytes.count * 8, codeSize: codeSize, vector: vector)
        }
    }

    /// 400 streams a code size in a full run (``Sweep``); 100 in a sampled
    /// one, drawn from the run's seed, so runs cover different streams.
    @Test(arguments: 0...8, [false, true])
    func quickWalkAgreesWithOneCodeAtATime(codeSize: Int, vector: Bool) {
        let trials = Sweep.isFull ? 400 : 100
        var random = SplitMix64(seed: UInt64(codeSize) &+ 0x5EED &+ (Sweep.isFull ? 0 : Sweep.seed))
        var sound = 0, unsound = 0
        for trial in 0..<trials {
            let codes = [3, 40, 700, 5000, 12000][trial % 5] + random.below(50)
            let bad = trial % 3 == 0 ? nil : random.below(codes)
            let bytes = Self.stream(
                codeSize: codeSize, codes: codes, clears: trial % 4 != 1, badAt: bad, endCode: trial % 2 == 0,
                random: &random)
            let expected = Self.referenceIsSound(bytes, codeSize: codeSize)
            if expected { sound += 1 } else { unsound += 1 }
            #expect(
                Self.quickWalk(bytes, codeSize: codeSize, vector: vector) == expected,
                "trial \(trial), \(codes) codes")
        }
        // Both answers are exercised, except that code sizes 0 and 1 never
        // widen (see `put`), so no code can lie past the next free entry.
        #expect(sound > trials / 4)
        #expect(codeSize < 2 || unsound > trials / 8)
    }

    @Test(arguments: [false, true])
    func quickWalkAgreesOnNoise(vector: Bool) {
        var random = SplitMix64(seed: 77)
        for trial in 0..<3000 {
            let codeSize = 2 + trial % 7
            let bytes = (0..<(1 + random.below(300))).map { _ in UInt8(random.below(256)) }
            #expect(
                Self.quickWalk(bytes, codeSize: codeSize, vector: vector)
                    == Self.referenceIsSound(bytes, codeSize: codeSize))
        }
    }

    /// One long sound run, with a single bad code (one past the next free
    /// entry, the hardest to tell) at every position of a 32-code group in
    /// turn, then a clear code and an end code there: the rules say the
    /// first is unsound, the others sound.
    @Test(arguments: [false, true])
    func everyLaneOfAGroupIsTested(vector: Bool) {
        for codeSize in [2, 5, 8] {
            let clear = 1 << codeSize
            for position in 600..<(600 + 33) {
                for kind in 0..<3 {
                    var width = codeSize + 1, next = clear + 2
                    var codes: [(code: Int, width: Int)] = [(clear, width), (0, width)]
                    for i in 0..<2000 {
                        if i == position {
                            codes.append(([min(next, 4095) + 1, clear, clear + 1][kind], width))
                            if kind == 1 { (width, next) = (codeSize + 1, clear + 2); codes.append((1, width)) }
                            // After a bad code the stream goes on, so that the
                            // code can fall in any lane of a whole group.
                            if kind != 0 { continue }
                        } else {
                            codes.append((i % 5 == 0 ? min(next, 4095) : i % clear, width))
                        }
                        if next < 4096 {
                            next += 1
                            if next == 1 << width, width < 12 { width += 1 }
                        }
                    }
                    var bytes: [UInt8] = [], buffer = 0, held = 0
                    for (code, width) in codes {
                        buffer |= code << held
                        held += width
                        while held >= 8 {
                            bytes.append(UInt8(buffer & 0xFF))
                            (buffer, held) = (buffer >> 8, held - 8)
                        }
                    }
                    if held > 0 { bytes.append(UInt8(buffer)) }
                    let unsound = kind == 0
                    #expect(Self.referenceIsSound(bytes, codeSize: codeSize) == !unsound)
                    #expect(
                        Self.quickWalk(bytes, codeSize: codeSize, vector: vector) == !unsound,
                        "code size \(codeSize), position \(position), kind \(kind)")
                }
            }
        }
    }
}

extension SplitMix64 {
    /// A number in `0..<bound`.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
