import ArgumentParser
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
@_spi(Benchmarks) import GIF
@_spi(Benchmarks) import GIFPlayback
@_spi(Benchmarks) import Playback
import EngineSupport

extension GIFTool {
    /// `gif play FILE... [--loops N] [--speed X] [--reverse | --bounce]
    /// [--width COLUMNS]`: plays in the terminal, several files as a playlist.
    struct Play: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Play GIFs in the terminal with 24-bit colour half blocks.",
            discussion: """
                Each character cell shows two pixels (▀, the upper one in the foreground, \
                the lower one in the background); transparent pixels show the terminal's \
                background. The picture is scaled to --width columns, by default to fit \
                the terminal (never scaled up). A status line shows the file, the frame, \
                the loop and the frame's delay. Frames are timed by the playback driver \
                on the system's monotonic clock.

                One file plays as many times as it says (its loop extension, as browsers \
                read it; "forever" means until Ctrl-C), or --loops times. Several files \
                play as a playlist: each --loops times (default once) in turn, the list \
                starting over until Ctrl-C. A file that fails part-way shows the rows \
                decoded.

                A FILE of - is standard input, played while it arrives (curl -s URL | gif \
                play -): playing starts once frame 0 is in; when the next frame is late, \
                the last one stays on screen until it comes.

                Ctrl-C, or the end, gives the screen and the cursor back. Standard output \
                must be a terminal; otherwise gif play says so and exits with status 1.

                Examples:
                  $ gif play cat.gif
                  $ gif play cat.gif --speed 2 --bounce --width 60
                  $ gif play a.gif b.gif c.gif --loops 2
                """
        )

        @Argument(help: "The GIF files to play, in order (- for standard input).", completion: .file())
        var files: [String]

        @Option(help: ArgumentHelp("How many times each file plays on its turn.", valueName: "N"))
        var loops: Int?

        @Option(help: ArgumentHelp("Playback speed: 2 is twice as fast, 0.5 half (0.01 to 100).", valueName: "X"))
        var speed: Double = 1

        @Flag(help: "Play the frames backwards.")
        var reverse = false

        @Flag(help: "Play forwards then backwards.")
        var bounce = false

        @Option(help: ArgumentHelp(
            "The picture's width in columns, 1 to 4096 (default: fit the terminal).", valueName: "columns"))
        var width: Int?

        func validate() throws {
            if reverse, bounce { throw ValidationError("--reverse and --bounce cannot be used together") }
            if files.count(where: { $0 == "-" }) > 1 { throw ValidationError("- (standard input) can be played once") }
            if let loops, loops < 1 { throw ValidationError("--loops must be at least 1") }
            if let width, !(1...HalfBlockRenderer.maxColumns).contains(width) {
                throw ValidationError("--width must be between 1 and \(HalfBlockRenderer.maxColumns) columns")
            }
            guard speed.isFinite, PlayerConfiguration.rateRange.contains(speed) else {
                throw ValidationError("--speed must be between 0.01 and 100")
            }
        }

        func run() async throws {
            guard Terminal.outputIsTerminal else {
                StandardStreams.error("gif: standard output is not a terminal; gif play draws there (try gif dump)")
                throw ExitCode.failure
            }
            var sources: [any FrameSource] = []
            try reportingFailures { () throws(CommandFailure) in
                for file in files {
                    sources.append(file == "-" ? Self.standardInputSource() : GIFFrameSource(image: try openImage(file)))
                }
            }
            for case let arriving as ProgressiveGIFFrameSource in sources {
                // Playing starts with frame 0; the rest plays as it arrives.
                do {
                    try await arriving.waitUntilPlayable()
                } catch let error as GIFError {
                    CommandFailure(file: "-", error: error).report()
                    throw ExitCode.failure
                } catch {
                    CommandFailure(file: "-", message: "\(error)").report()
                    throw ExitCode.failure
                }
            }
            let playlist = try makePlaylist(sources)
            let screen = Screen(files: files, width: width)

            signal(SIGINT, SIG_IGN)
            let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
            let show = Task { await screen.show(playlist, endAtWrap: files.count == 1) }
            interrupt.setEventHandler { show.cancel() }
            interrupt.resume()
            Terminal.output(Terminal.takeOver)
            await show.value
            Terminal.output(Terminal.giveBack)
            interrupt.cancel()
            if show.isCancelled { throw ExitCode(130) }
        }

        /// Standard input as a source that plays while it arrives: a thread
        /// of its own reads it with `read(2)` calls of at most 64 KiB and
        /// appends them (the source refuses input past its limit).
        private static func standardInputSource() -> ProgressiveGIFFrameSource {
            let source = ProgressiveGIFFrameSource()
            let reader = WorkerThread {
                var chunk = [UInt8](repeating: 0, count: StandardInputGIF.chunkSize)
                while !source.isComplete {
                    let n = chunk.withUnsafeMutableBytes { buffer in
                        var n = read(STDIN_FILENO, buffer.baseAddress, buffer.count)
                        while n < 0, errno == EINTR { n = read(STDIN_FILENO, buffer.baseAddress, buffer.count) }
                        return n
                    }
                    do {
                        if n > 0 { try source.append(chunk[..<n]) } else { try source.finish() }
                    } catch {
                        return  // The source keeps the error and is complete.
                    }
                }
            }
            if let reader {
                reader.detach()
            } else {
                try? source.finish()  // No thread to read with: the source ends, with its error.
            }
            return source
        }

        private func makePlaylist(_ sources: [any FrameSource]) throws -> Playlist<ContinuousClock.Instant> {
            let items = zip(files, sources).map { file, source in
                let plays: Int
                if let loops {
                    plays = loops
                } else if files.count == 1 {
                    plays = LoopPolicy.fromSource.plays(storedLoopCount: source.storedLoopCount) ?? Int.max
                } else {
                    plays = 1
                }
                return PlaylistItem(key: file, loops: plays) { source }
            }
            var configuration = PlaylistConfiguration()
            configuration.player.rate = speed
            configuration.player.direction = reverse ? .reverse : bounce ? .bounce : .forward
            return try Playlist(items: items, configuration: configuration, startingAt: ContinuousClock().now)
        }
    }
}

/// What `gif play` puts on the screen: the current frame and a status line.
private struct Screen: Sendable {
    var files: [String]
    var width: Int?

    /// Plays until cancelled, or until the list wraps when `endAtWrap`.
    func show(_ playlist: Playlist<ContinuousClock.Instant>, endAtWrap: Bool) async {
        let clock = ContinuousClock()
        let events = await playlist.events()
        let driver = Task { await PlaylistDriver(playlist: playlist, clock: clock).run() }
        defer { driver.cancel() }
        var note = ""
        await playlist.play(at: clock.now)
        await draw(playlist, note: note)
        for await event in events {
            switch event {
            case .itemStarted, .player(_, .frameChanged):
                await draw(playlist, note: note)
            case .itemSkipped(let key, let reason):
                note = "skipped \(key): \(reason)"
            case .playlistWrapped where endAtWrap, .nothingToPlay:
                return
            default:
                break
            }
        }
    }

    private func draw(_ playlist: Playlist<ContinuousClock.Instant>, note: String) async {
        guard let key = await playlist.currentKey, let head = await playlist.currentPlayhead else { return }
        let image: RenderedFrame?
        var problem = note
        do {
            image = try await playlist.currentImage()
        } catch {
            image = nil
            problem = "\(error)"
        }
        guard let image else { return }
        let frame = head.currentFrame
        let timeline = head.timeline
        let plays = timeline.plays.map { $0 == Int.max ? "∞" : String($0) } ?? "∞"
        var status = "\(key)  frame \(frame + 1)/\(timeline.frameCount)  loop \(head.loopIndex + 1)/\(plays)"
            + "  delay \(timeline.frameDurations[frame].milliseconds) ms"
        if !problem.isEmpty { status += "  (\(problem))" }
        let text = HalfBlockRenderer.render(
            pixels: image.pixels, width: image.width, height: image.height,
            columns: columns(forWidth: image.width, height: image.height))
        Terminal.output(Terminal.home + text + "\n" + Terminal.eraseLine + status + Terminal.eraseLine)
    }

    /// `--width`, or the most columns that fit the terminal (leaving a line
    /// for the status) without scaling up.
    private func columns(forWidth imageWidth: Int, height imageHeight: Int) -> Int {
        if let width { return width }
        let terminal = Terminal.size ?? (columns: 80, rows: 0)
        var columns = min(terminal.columns, imageWidth)
        if terminal.rows > 1, imageHeight > 0 {
            let fitsHeight = (terminal.rows - 1) * 2 * imageWidth / imageHeight
            columns = min(columns, max(1, fitsHeight))
        }
        return max(1, columns)
    }
}
