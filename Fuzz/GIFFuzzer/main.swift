// libFuzzer entry point: sniff → scan → decode every frame → a
// Playhead over the result, with ticks, seeks and rate changes taken from the
// input's last bytes → a DrawingPlayer drawing into a strided buffer, each
// draw checked against the serial iterator's frame. Built by
// scripts/build-fuzzer.sh, run by `make fuzz`.
//
// Whatever the bytes, the library must return frames or a typed error and the
// playhead must never trap; a broken invariant below is a crash on purpose, so
// libFuzzer reports it with the input that caused it.
@_spi(Benchmarks) import GIF
import GIFPlayback
import Playback

/// Bytes read from the end of the input, then zeros: the playhead's script.
struct Script {
    let bytes: [UInt8]
    var position = 0

    init(_ input: [UInt8]) {
        bytes = Array(input.suffix(24).reversed())
    }

    mutating func next() -> UInt8 {
        defer { position += 1 }
        return position < bytes.count ? bytes[position] : 0
    }

    var isDone: Bool { position >= bytes.count }
}

/// Awkward rates on purpose: out of range, zero, negative, NaN, infinite.
let rates: [Double] = [1, 0.5, 2, 0.01, 100, 0.333, 0, -1, .nan, .infinity, -.infinity, 1e308, 1e-9, 100.000001]

/// Awkward durations on purpose: zero, tiny, negative, enormous.
func duration(_ b: UInt8) -> Duration {
    switch b % 8 {
    case 0: .zero
    case 1: .nanoseconds(Int(b))
    case 2: .milliseconds(Int(b) * 7)
    case 3: .milliseconds(-Int(b))
    case 4: .seconds(Int64.max / 2)
    case 5: .seconds(Int64.min / 2)
    case 6: .seconds(Int(b) * 3600)
    default: .milliseconds(Int(b) * 113)
    }
}

/// A hash of a canvas, one call over its bytes (`hashValue` goes byte by byte).
func digest(_ pixels: [UInt8]) -> Int {
    var hasher = Hasher()
    pixels.withUnsafeBytes { hasher.combine(bytes: $0) }
    return hasher.finalize()
}

func decode(_ bytes: [UInt8]) -> (image: GIFImage, hashes: [Int])? {
    _ = Sniffer.sniff(bytes)
    let image: GIFImage
    do {
        image = try GIFImage(bytes: bytes, limits: .fuzzing)
    } catch {
        _ = error.description
        return nil
    }
    let info = image.info
    precondition(info.frameCount <= DecodingLimits.fuzzing.maxFrameCount)
    precondition(info.canvasSize.area <= DecodingLimits.fuzzing.maxCanvasPixels)
    // A frame's data (its terminator aside) within its limit.
    precondition(info.frames.allSatisfy { $0.dataEnd - $0.dataOffset <= DecodingLimits.fuzzing.maxFrameDataBytes + 1 })
    var frames = image.makeFrameIterator()
    var hashes: [Int] = []
    var failure: GIFError?
    do {
        while let frame = try frames.next() {
            precondition(frame.index == hashes.count, "frames out of order")
            precondition(frame.pixels.count == info.canvasSize.area * 4, "canvas size")
            hashes.append(digest(frame.pixels))
        }
        precondition(hashes.count == info.frameCount, "frames missing without an error")
    } catch {
        failure = error
        let decoded = hashes.count
        precondition(error.framesDecoded == decoded, "framesDecoded \(error.framesDecoded) != \(decoded): \(error)")
        if let index = error.frameIndex { precondition(index <= decoded, "error names frame \(index) of \(decoded)") }
        _ = error.description
    }
    // Differential checks: the parallel iterator and the seeker give the
    // serial iterator's frames and error, exactly.
    var parallel = image.makeFrameIterator(parallel: true)
    var index = 0
    do {
        while let frame = try parallel.next() {
            precondition(index < hashes.count && digest(frame.pixels) == hashes[index], "parallel frame \(index)")
            index += 1
        }
        precondition(failure == nil, "parallel iterator missed \(String(describing: failure))")
    } catch {
        precondition(error == failure, "parallel error \(error), serial \(String(describing: failure))")
    }
    precondition(index == hashes.count, "parallel gave \(index) frames, serial \(hashes.count)")
    var seeker = image.makeSeeker(
        budget: DecodingBudget(checkpointBytes: 1 << 20, indexBytes: DecodingBudget.default.indexBytes))
    for index in [hashes.count - 1, 0, hashes.count / 2, hashes.count - 2] where index >= 0 {
        if let frame = try? seeker.frame(at: index) {
            precondition(digest(frame.pixels) == hashes[index], "seeker frame \(index)")
        }
    }
    for index in [0, 1, info.frameCount - 1, info.frameCount] where index >= 0 {
        if let raw = try? image.rawFrame(at: index) {
            precondition(raw.indices.count == raw.info.rect.area)
            precondition(raw.decodedPixelCount <= raw.info.rect.area)
            _ = raw.rgba()
        }
    }
    return (image, hashes)
}

func play(_ image: GIFImage, script input: [UInt8]) {
    var script = Script(input)
    let direction: PlaybackDirection = [.forward, .reverse, .bounce][Int(script.next() % 3)]
    let delayByte = script.next()
    let delay: DelayPolicy = [.browser, .raw, .minimum(.milliseconds(Int(delayByte) - 20))][Int(delayByte % 3)]
    let catchByte = script.next()
    let catchUp: CatchUpPolicy = [.skip, .carryLag, .resync(after: duration(catchByte))][Int(catchByte % 3)]
    let loopByte = script.next()
    let loop: LoopPolicy = [.fromSource, .count(Int(loopByte) - 128), .forever][Int(loopByte % 3)]
    let configuration = PlayerConfiguration(
        loop: loop, delay: delay, catchUp: catchUp, direction: direction,
        rate: rates[Int(script.next()) % rates.count], autoplay: script.next() & 1 == 1)
    let timeline: PlaybackTimeline
    do {
        timeline = try PlaybackTimeline(
            frameDelays: image.info.frames.map(\.delay), storedLoopCount: image.info.loopCount.stored,
            loop: loop, delay: delay, direction: direction)
    } catch {
        precondition(image.info.frameCount == 0, "a timeline refused \(image.info.frameCount) frames: \(error)")
        return
    }
    var head: Playhead
    do {
        head = try Playhead(timeline: timeline, configuration: configuration, now: duration(script.next()))
    } catch {
        guard let fallback = try? Playhead(timeline: timeline) else { preconditionFailure("default playhead") }
        head = fallback
    }
    var steps = 0
    while !script.isDone, steps < 32 {
        steps += 1
        let op = script.next(), argument = script.next()
        switch op % 10 {
        case 0: head.play()
        case 1: head.pause()
        case 2: head.stop()
        case 3: head.advance(by: duration(argument))
        case 4: head.advance(to: duration(argument))
        case 5: _ = try? head.seek(toFrame: Int(argument) - 4)
        case 6: _ = try? head.seek(toFrame: Int(argument) % max(1, timeline.frameCount))
        case 7: _ = try? head.seek(toOffset: duration(argument))
        case 8: _ = try? head.setRate(rates[Int(argument) % rates.count])
        default: head.play(at: head.now + duration(argument))
        }
        precondition((0..<timeline.frameCount).contains(head.currentFrame), "frame \(head.currentFrame)")
        precondition(head.upcomingFrames(4).allSatisfy { (0..<timeline.frameCount).contains($0) })
        if let wait = head.timeUntilNextChange { precondition(wait >= .zero) }
        _ = head.elapsed
        _ = head.timeIntoFrame
        _ = head.loopsCompleted
    }
}

/// A DrawingPlayer over `image` driven by the script (advances, seeks,
/// forgetting the buffer, awkward budgets and strides): after every draw
/// that does not throw, the buffer's canvas rows are the serial iterator's
/// frame (`hashes`), and the bytes past each row are untouched.
func draw(_ image: GIFImage, hashes: [Int], script input: [UInt8]) {
    // The 24 bytes that end 12 before the end: overlapping the playhead's
    // script, so short inputs drive both.
    var script = Script(Array(input.dropLast(12)))
    let direction: PlaybackDirection = [.forward, .reverse, .bounce][Int(script.next() % 3)]
    let budgets = script.next()
    guard let player = try? DrawingPlayer(
        image: image, configuration: PlayerConfiguration(loop: .forever, direction: direction),
        budget: DecodingBudget(
            checkpointBytes: [0, 1 << 20, Int.max][Int(budgets / 4 % 3)], indexBytes: [0, 1 << 20, 300, -1][Int(budgets % 4)]),
        startingAt: ManualClock.Instant(offset: .zero))
    else {
        precondition(image.info.frameCount == 0, "no DrawingPlayer for \(image.info.frameCount) frames")
        return
    }
    let rowBytes = player.width * 4, slack = Int(script.next() % 3) * 4
    let bytesPerRow = rowBytes + slack
    var buffer = [UInt8](repeating: 0xA5, count: max(0, bytesPerRow * player.height - slack))
    var packed = [UInt8](repeating: 0, count: rowBytes * player.height)
    player.play()
    var steps = 0
    while !script.isDone, steps < 24 {
        steps += 1
        let op = script.next(), argument = script.next()
        switch op % 5 {
        case 0: player.advance(to: player.nextChangeInstant ?? player.now)
        case 1: player.advance(by: duration(argument))
        case 2: _ = try? player.seek(toFrame: Int(argument) % max(1, image.info.frameCount))
        case 3: player.invalidate()
        default: for _ in 0..<Int(argument % 12) { player.advance(to: player.nextChangeInstant ?? player.now) }
        }
        let drawn: FrameDraw
        let before = (player.drawnFrame, buffer)
        do {
            drawn = try buffer.withUnsafeMutableBytes { try player.draw(into: $0, bytesPerRow: bytesPerRow) }
            if case .failed = drawn { throw player.failure ?? GIFError(.frameOutOfRange(0, count: 0)) }
        } catch {
            // A failed draw writes nothing: the buffer holds what it held,
            // and the player names that frame or none.
            precondition(buffer == before.1, "a failed draw wrote into the buffer")
            precondition(player.drawnFrame == nil || player.drawnFrame == before.0,
                         "a failed draw claims frame \(String(describing: player.drawnFrame))")
            continue
        }
        let frame = player.playhead.currentFrame
        precondition(player.drawnFrame == frame && drawn.shownFrame == frame, "drew the wrong frame")
        if case .drawn(_, let rect, _) = drawn, !rect.isEmpty {
            precondition(rect.x >= 0 && rect.y >= 0 && rect.x + rect.width <= player.width
                && rect.y + rect.height <= player.height, "written rectangle \(rect) outside the canvas")
        }
        guard frame < hashes.count else { continue }
        for row in 0..<player.height {
            packed.replaceSubrange(row * rowBytes..<(row + 1) * rowBytes,
                                   with: buffer[row * bytesPerRow..<row * bytesPerRow + rowBytes])
            if row < player.height - 1 {
                precondition(buffer[row * bytesPerRow + rowBytes..<(row + 1) * bytesPerRow].allSatisfy { $0 == 0xA5 },
                             "row \(row)'s padding written")
            }
        }
        precondition(digest(packed) == hashes[frame], "drawn frame \(frame) differs from the iterator's")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    if let (image, hashes) = decode(bytes) {
        play(image, script: bytes)
        draw(image, hashes: hashes, script: bytes)
    }
    return 0
}
