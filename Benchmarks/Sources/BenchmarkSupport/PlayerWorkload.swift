import Synchronization
@_spi(Benchmarks) import GIF
@_spi(Benchmarks) import GIFPlayback
@_spi(Benchmarks) import Playback

/// Why a host-driven run stopped short.
public enum PlayerWorkloadError: Error, CustomStringConvertible {
    /// A player had no next change scheduled while it should be playing.
    case nothingScheduled
    /// A loop did not end where one loop of frame changes should end.
    case notOneLoop(expectedLoops: Int, loops: Int, frame: Int)
    /// The playlist skipped an item (the lap would not be the whole list).
    case itemSkipped(String)

    public var description: String {
        switch self {
        case .nothingScheduled: "a player has no next change scheduled"
        case .notOneLoop(let expected, let loops, let frame):
            "after a loop of frame changes: \(loops) loops done (expected \(expected)), frame \(frame) shown"
        case .itemSkipped(let key): "the playlist skipped \(key)"
        }
    }
}

/// Players of one GIF driven by the host as fast as it can go, advancing in
/// step: what a host drawing every frame does, with the clock's waits left
/// out.
///
/// Each frame change is `advance(to: nextChangeInstant)` on every player,
/// then `currentImage()` on every player with one byte of its pixels read,
/// through the public `Playback` API only. Each player's previous image is
/// held until its next one arrives, as a view swapping images holds it. The players loop forever with
/// browser delays, so one loop is exactly `frameCount` changes (frames 1, 2,
/// …, last, then 0 again), which ``playLoop()`` checks.
public struct HostDrivenPlayers: Sendable {
    /// The players, all on one epoch.
    public let players: [Player<ContinuousClock.Instant>]

    /// Frames in one loop of the GIF.
    public let frameCount: Int

    /// The caches behind the players, each once (one when shared).
    public let caches: [FrameCache]

    /// The GIF sources behind the players, each once: their giflib decodes
    /// are the `decodes` of ``statistics()``.
    public let sources: [GIFFrameSource]

    /// The image each player shows, held until the next one arrives.
    private let shown: ShownImages

    private init(players: [Player<ContinuousClock.Instant>], caches: [FrameCache], sources: [GIFFrameSource]) {
        self.players = players
        self.frameCount = players[0].source.frameCount
        self.caches = caches
        self.sources = sources
        shown = ShownImages(count: players.count)
    }

    /// One playing player of the GIF at `path`, with the default cache
    /// budget (``FrameCache/defaultByteBudget``) and the source's default
    /// checkpoint budget, showing frame 0.
    /// - Parameter path: A GIF file.
    public static func single(path: String) async throws -> HostDrivenPlayers {
        try await group(count: 1, path: path, sharingCache: false)
    }

    /// `count` playing players of the GIF at `path` on one shared epoch.
    ///
    /// Shared: one `GIFFrameSource` and one `FrameCache` with the default
    /// budget, passed to every player. Not shared: what a host gets by making
    /// each player on its own, i.e. its own `GIFFrameSource` and the player's
    /// private default cache.
    /// - Parameters:
    ///   - count: How many players (at least 1).
    ///   - path: A GIF file.
    ///   - sharingCache: Whether the players share one source and cache.
    public static func group(count: Int, path: String, sharingCache: Bool) async throws -> HostDrivenPlayers {
        let start = ContinuousClock.now
        var players: [Player<ContinuousClock.Instant>] = []
        var caches: [FrameCache] = []
        var sources: [GIFFrameSource] = []
        if sharingCache {
            let source = try GIFFrameSource(contentsOf: path)
            let cache = FrameCache(source: source, byteBudget: FrameCache.defaultByteBudget)
            caches = [cache]
            sources = [source]
            for _ in 0..<max(1, count) {
                players.append(try makePlayer(source: source, cache: cache, epoch: start))
            }
        } else {
            for _ in 0..<max(1, count) {
                let source = try GIFFrameSource(contentsOf: path)
                let player = try makePlayer(source: source, cache: nil, epoch: start)
                players.append(player)
                caches.append(player.cache)
                sources.append(source)
            }
        }
        for player in players { await player.play(at: start) }
        return HostDrivenPlayers(players: players, caches: caches, sources: sources)
    }

    private static func makePlayer(
        source: GIFFrameSource, cache: FrameCache?, epoch: ContinuousClock.Instant
    ) throws -> Player<ContinuousClock.Instant> {
        try Player(
            source: source, configuration: PlayerConfiguration(loop: .forever),
            startingAt: epoch, epoch: epoch, cache: cache)
    }

    /// One frame change: every player advanced to the next change instant,
    /// then every player's current image fetched and one byte of it read.
    /// - Returns: The bytes read, added up, so nothing is optimised away.
    @inline(never)
    public func showNextFrame() async throws -> Int {
        guard let next = players[0].nextChangeInstant else { throw PlayerWorkloadError.nothingScheduled }
        for player in players { await player.advance(to: next) }
        var touched = 0
        for (n, player) in players.enumerated() {
            let image = try await player.currentImage()
            touched &+= Int(image.pixels[image.pixels.count / 2])
            shown.hold(image, at: n)
        }
        return touched
    }

    /// One whole loop: ``frameCount`` frame changes, then a check that every
    /// player completed exactly one more loop and shows frame 0 again.
    /// - Parameter paced: Whether to wait before each frame change until
    ///   every cache has decoded the frames it was asked to prefetch: a host
    ///   slow enough that `currentImage()` never waits on a decode (the time
    ///   then includes the wait). Default: as fast as possible.
    /// - Returns: The bytes read, added up.
    public func playLoop(paced: Bool = false) async throws -> Int {
        let loopsBefore = players[0].loopsCompleted
        var touched = 0
        for _ in 0..<frameCount {
            if paced { await waitForPrefetch() }
            touched &+= try await showNextFrame()
        }
        for player in players {
            let loops = player.loopsCompleted, frame = player.currentFrame
            guard loops == loopsBefore + 1, frame == 0 else {
                throw PlayerWorkloadError.notOneLoop(expectedLoops: loopsBefore + 1, loops: loops, frame: frame)
            }
        }
        return touched
    }

    /// Waits until every cache has decoded what it was asked to prefetch.
    public func waitForPrefetch() async {
        for cache in caches { await cache.waitForPrefetch() }
    }

    /// The caches' counters added up (each cache once), with `decodes` the
    /// frames giflib decoded for the sources (each source once): a player
    /// drawing its images decodes through its source, not its cache.
    public func statistics() async -> FrameCacheStatistics {
        var total = FrameCacheStatistics()
        total.decodes = sources.reduce(0) { $0 + $1.decodeCount }
        for cache in caches {
            let one = await cache.statistics
            total.hits += one.hits
            total.misses += one.misses
            total.evictions += one.evictions
            total.failures += one.failures
            total.bytesHeld += one.bytesHeld
            total.framesHeld += one.framesHeld
            total.byteBudget += one.byteBudget
        }
        return total
    }
}

/// The images a host shows, one a player, each held until the next.
private final class ShownImages: Sendable {
    private let images: Mutex<[RenderedFrame?]>

    init(count: Int) { images = Mutex(Array(repeating: nil, count: count)) }

    /// Holds `image` for player `index`, letting go of the one before.
    func hold(_ image: RenderedFrame, at index: Int) {
        images.withLock { $0[index] = image }
    }
}

/// A ``Playlist`` of GIF files played host-driven, as fast as it can go:
/// each item once per lap, the next item loading while one plays.
public struct HostDrivenPlaylist: Sendable {
    /// The playlist, playing.
    public let playlist: Playlist<ContinuousClock.Instant>

    /// Frame changes in one lap: the frame counts added up.
    public let framesPerLap: Int

    /// Makes a playing playlist of `files`, each item one pass with the
    /// default configuration (32 MiB cache per item), loading each file with
    /// `GIFFrameSource(contentsOf:)` in its loader, and waits until the first
    /// item shows.
    /// - Parameter files: Names (the items' keys) and paths, in play order.
    public static func start(files: [(name: String, path: String)]) async throws -> HostDrivenPlaylist {
        let items = files.map { file in
            PlaylistItem(key: file.name, loops: 1) { [path = file.path] in try GIFFrameSource(contentsOf: path) }
        }
        var frames = 0
        for file in files { frames += try GIFFrameSource(contentsOf: file.path).frameCount }
        let start = ContinuousClock.now
        let playlist = try Playlist(items: items, configuration: PlaylistConfiguration(), startingAt: start)
        await playlist.play(at: start)
        let running = HostDrivenPlaylist(playlist: playlist, framesPerLap: frames)
        try await running.waitWhileLoading()
        return running
    }

    private init(playlist: Playlist<ContinuousClock.Instant>, framesPerLap: Int) {
        self.playlist = playlist
        self.framesPerLap = framesPerLap
    }

    /// Lets the playlist's load tasks run while it waits for the item whose
    /// turn it is, then passes in the same instant again so that the item
    /// starts (a waited-for item starts at the next time passed in, as a
    /// ``PlaylistDriver`` does on the load's arrival). Host time does not
    /// move meanwhile, so no load times out.
    /// - Throws: ``PlayerWorkloadError/itemSkipped(_:)`` when the item failed.
    func waitWhileLoading() async throws {
        while await playlist.isWaiting {
            if let key = await playlist.currentKey, await playlist.loadState(of: key) != .loading {
                try Self.checkNoneSkipped(await playlist.advance(to: await playlist.now))
            } else {
                await Task.yield()
            }
        }
    }

    /// One frame change (or item boundary): the playlist advanced to its next
    /// change instant, then its current image fetched and one byte read.
    /// - Returns: The byte read.
    @inline(never)
    public func showNextFrame() async throws -> Int {
        guard let next = await playlist.nextChangeInstant else { throw PlayerWorkloadError.nothingScheduled }
        try Self.checkNoneSkipped(await playlist.advance(to: next))
        try await waitWhileLoading()
        guard let image = try await playlist.currentImage() else { return 0 }
        return Int(image.pixels[image.pixels.count / 2])
    }

    private static func checkNoneSkipped(_ events: [PlaylistEvent]) throws {
        for event in events {
            if case .itemSkipped(let key, _) = event { throw PlayerWorkloadError.itemSkipped(key) }
        }
    }

    /// One lap: ``framesPerLap`` changes, ending on the first item's first
    /// frame again; checks that the playlist wrapped exactly once more.
    /// - Returns: The bytes read, added up.
    public func playLap() async throws -> Int {
        let lapsBefore = await playlist.lapsDone
        var touched = 0
        for _ in 0..<framesPerLap { touched &+= try await showNextFrame() }
        let laps = await playlist.lapsDone, index = await playlist.currentIndex ?? -1
        let frame = await playlist.currentFrame ?? -1
        guard laps == lapsBefore + 1, index == 0, frame == 0 else {
            throw PlayerWorkloadError.notOneLoop(expectedLoops: lapsBefore + 1, loops: laps, frame: frame)
        }
        return touched
    }
}

extension DrawingPlayer where Instant == ManualClock.Instant {
    /// A player of `image` with its default budgets, looping forever and
    /// playing from instant zero, and a zeroed host buffer of its canvas's
    /// size (rows `width × 4` bytes apart).
    public static func looping(_ image: GIFImage) throws -> (player: DrawingPlayer, buffer: [UInt8]) {
        let player = try DrawingPlayer(
            image: image, configuration: PlayerConfiguration(loop: .forever), startingAt: ManualClock.Instant(offset: .zero))
        player.play()
        return (player, [UInt8](repeating: 0, count: player.width * 4 * player.height))
    }
}

extension DrawingPlayer {
    /// Advances to each of the next `frames` frame changes and draws each
    /// one into `buffer` (rows `bytesPerRow` apart), as a host drawing
    /// every frame would; returns the sum of the buffer's middle byte after
    /// each draw, so that the draws are not optimised away.
    public func drawFrameChanges(_ frames: Int, into buffer: inout [UInt8], bytesPerRow: Int) throws -> Int {
        var touched = 0
        for _ in 0..<frames {
            guard let next = nextChangeInstant else { throw PlayerWorkloadError.nothingScheduled }
            advance(to: next)
            try buffer.withUnsafeMutableBytes { _ = try draw(into: $0, bytesPerRow: bytesPerRow) }
            touched &+= Int(buffer[buffer.count / 2])
        }
        return touched
    }
}
