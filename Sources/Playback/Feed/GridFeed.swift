/// A grid of GIFs where every visible cell plays (or the first few), kept in
/// step with the viewport: as the host scrolls, cells that come into view
/// get a player (through a ``FrameCachePool`` over the host's shared budget)
/// and join a ``GroupDriver``; cells that leave stop playing and leave the
/// driver, and their frames are the first a shared ``FrameMemoryBudget``
/// gives back; cells far out of view drop their players.
///
/// The DocC article *Playing a feed of GIFs* sets one up, in compiled code.
///
/// The host ticks the driver (``GroupDriver/tick(at:)`` from its display
/// link, or ``GroupDriver/run()``) and draws the players it names with
/// ``Player/draw(into:bytesPerRow:)``; ``player(for:)`` finds a cell's player.
/// With ``Selection/relay(loops:)`` one visible cell plays at a time, each
/// in turn, as a ``Playlist`` plays its items: the feed moves on by itself
/// when the playing cell's turn ends and reports it on ``changes()``.
public actor GridFeed<C: Clock>: EventHubOwner where C.Duration == Duration {
    /// A cell: its key (``FeedItemLayout/key``, unique in a grid), what it
    /// shows (``FeedItemLayout/source``, opened once for every cell that
    /// names it, through the pool) and where (``FeedItemLayout/frame``, in
    /// the viewport's coordinates).
    public typealias Cell = FeedItemLayout

    /// Which playable cells play.
    public enum Selection: Sendable, Hashable {
        /// Every playable cell.
        case everyVisible
        /// The first `n` playable cells in the cells' order (`n` below 0 reads as 0).
        case first(Int)
        /// One playable cell at a time, each in turn for `loops` loops (below
        /// 1 reads as 1), in the cells' order and round again: a relay. A
        /// turn starts from frame 0 (every cell player's loop policy is
        /// replaced by the turn's loops) and ends when the cell's player
        /// finishes, or reaches its ``PlayerConfiguration/playTimeLimit``;
        /// the next playable cell then plays at the driver's clock's instant
        /// (within one tick of the end), and the feed reports the move on
        /// ``GridFeed/changes()``. The finished cell keeps its last frame.
        /// When the viewport moves, the playing cell plays on while it stays
        /// playable; otherwise the first playable cell takes over.
        case relay(loops: Int)
    }

    /// Where a cell that comes back into view plays from.
    public enum Resume: Sendable, Hashable {
        /// From where it left: it pauses when it leaves, and plays on from
        /// the same frame and the same time into it.
        case whereItLeft
        /// From frame 0: it stops when it leaves.
        case fromStart
        /// In step with the feed's epoch: it shows the frame it would show
        /// had it never left, as every cell of the grid does (they share
        /// the epoch given to ``init(driver:pool:displaySize:configuration:rule:selection:resume:startingAt:frameRatePolicy:source:)``).
        case inStep
    }

    /// What an ``update(cells:viewport:at:)`` changed, or a relay's move (``changes()``).
    public struct Change: Sendable, Hashable {
        /// The cells that started or resumed playing, in the cells' order.
        /// Draw each of them once (its player's frame shown, into its cell):
        /// a driver's tick names a member only when its frame changes, so
        /// the frame it starts on reaches the host's buffer only by this
        /// draw.
        public var started: [String] = []
        /// The cells that stopped playing, in the cells' order before the update.
        public var stopped: [String] = []
        /// The cells whose source could not be opened: they do not play, and
        /// are tried again at each update that selects them.
        public var failed: [String] = []

        /// Creates a change.
        /// - Parameters:
        ///   - started: The cells that started or resumed playing.
        ///   - stopped: The cells that stopped playing.
        ///   - failed: The cells whose source could not be opened.
        public init(started: [String] = [], stopped: [String] = [], failed: [String] = []) {
            self.started = started
            self.stopped = stopped
            self.failed = failed
        }
    }

    /// The driver the playing cells' players are members of.
    public nonisolated let driver: GroupDriver<C>
    private let pool: FrameCachePool
    private let displaySize: DisplaySize?
    private let configuration: PlayerConfiguration
    private let rule: VisibilityRule
    private let selection: Selection
    private let resume: Resume
    private let epoch: C.Instant
    private let open: @Sendable (String) throws -> any FrameSource

    /// The grid's cells, as the last update gave them.
    private var grid: [Cell] = []
    private var players: [String: Player<C.Instant>] = [:]
    /// The playing cells' keys, in the cells' order.
    private var playing: [String] = []
    /// The viewport of the last update: where a relay looks for the next cell.
    private var viewport: Viewport?
    /// Listeners of the moves a relay makes by itself.
    package var hub = EventHub<Change>()

    /// Creates a feed with no cells.
    /// - Parameters:
    ///   - driver: The group driver the playing cells join.
    ///   - pool: Where the cells' frame caches come from (share one budget
    ///     between feeds through it).
    ///   - displaySize: The cells' display size, or `nil` for full-size frames.
    ///   - configuration: Every cell player's policies.
    ///   - rule: When a cell counts as visible.
    ///   - selection: Which visible cells play.
    ///   - resume: Where a cell that comes back into view plays from.
    ///   - now: The clock's instant now: the feed's epoch for ``Resume/inStep``.
    ///   - source: Opens a cell's GIF from its ``FeedItemLayout/source``;
    ///     called when a cell first plays (or plays again after its player
    ///     was dropped), and only when the pool has no live cache for that
    ///     source: cells showing one GIF share its cache and its decodes.
    ///   - frameRatePolicy: What the feed sets as the driver's
    ///     `GroupDriver.frameRatePolicy`: by default a cell whose draws
    ///     miss more than 10 % of its frames plays at a rate lowered in 20 %
    ///     steps until it keeps up; `nil` leaves every cell at its own pace.
    public init(
        driver: GroupDriver<C>,
        pool: FrameCachePool,
        displaySize: DisplaySize? = nil,
        configuration: PlayerConfiguration = .init(),
        rule: VisibilityRule = .halfHeight,
        selection: Selection = .everyVisible,
        resume: Resume = .whereItLeft,
        startingAt now: C.Instant,
        frameRatePolicy: FrameRatePolicy? = .standard,
        source: @escaping @Sendable (String) throws -> any FrameSource
    ) {
        driver.setFrameRatePolicy(frameRatePolicy)
        self.driver = driver
        self.pool = pool
        self.displaySize = displaySize
        self.configuration = configuration
        self.rule = rule
        self.selection = selection
        self.resume = resume
        self.epoch = now
        self.open = source
    }

    /// Ends every stream of ``changes()`` still open.
    deinit {
        hub.finishStreams()
    }

    /// The keys of the cells that play in `viewport`: the playable cells
    /// (by `rule`), in the cells' order, all or the first few; for a relay,
    /// the first (where a relay starts).
    /// - Parameters:
    ///   - cells: The grid's cells.
    ///   - viewport: What the host shows.
    ///   - rule: When a cell counts as visible.
    ///   - selection: Which visible cells play.
    package static func playingKeys(
        cells: [Cell], viewport: Viewport, rule: VisibilityRule, selection: Selection
    ) -> [String] {
        select(playable(cells, in: viewport, rule: rule), selection)
    }

    /// The keys of the playable cells, in the cells' order.
    private static func playable(_ cells: [Cell], in viewport: Viewport, rule: VisibilityRule) -> [String] {
        cells.filter { rule.isPlayable($0.frame, in: viewport) }.map(\.key)
    }

    /// The keys `selection` plays of the playable ones.
    private static func select(_ playable: [String], _ selection: Selection) -> [String] {
        switch selection {
        case .everyVisible: playable
        case .first(let count): Array(playable.prefix(max(0, count)))
        case .relay: Array(playable.prefix(1))
        }
    }

    /// The moves the feed makes by itself, from now on: a relay's turn that
    /// ended (its cell in ``Change/stopped``, the next in
    /// ``Change/started``). ``update(cells:viewport:at:)`` returns its own
    /// changes and does not repeat them here. Each call makes an
    /// independent stream, which ends when the consumer stops iterating or
    /// when the feed goes away.
    public func changes() -> AsyncStream<Change> { makeEventStream() }

    /// The cells that play now, in the cells' order.
    public var playingKeys: [String] { playing }

    /// The player of the cell with `key`, while it has one (it plays, or
    /// left the view recently).
    public func player(for key: String) -> Player<C.Instant>? { players[key] }

    /// Moves to `viewport` (and to `cells`, when given: a grid that grew,
    /// shrank or was laid out again) at `instant`: cells that stop being
    /// selected pause (or stop, by ``Resume``) and leave the driver; newly
    /// selected ones get a player when they have none, join the driver and
    /// play. Players of cells more than one viewport height (or width) out
    /// of view, or no longer in the grid, are dropped, so a long grid holds
    /// players only near what is shown.
    /// - Parameters:
    ///   - cells: The grid's cells, or `nil` to keep them.
    ///   - viewport: What the host shows now.
    ///   - instant: The clock's instant now.
    /// - Returns: The cells that started and stopped, and those whose
    ///   source could not be opened.
    @discardableResult
    public func update(cells: [Cell]? = nil, viewport: Viewport, at instant: C.Instant) async -> Change {
        if let cells { grid = cells }
        self.viewport = viewport
        var change = Change()
        let playable = Self.playable(grid, in: viewport, rule: rule)
        var wanted = Self.select(playable, selection)
        if case .relay = selection, let current = playing.first, playable.contains(current) {
            // A relay's cell keeps its turn while it stays playable.
            wanted = [current]
        }
        let wantedSet = Set(wanted)
        for key in playing where !wantedSet.contains(key) {
            guard let player = players[key] else { continue }
            if resume == .whereItLeft { await player.pause(at: instant) } else { await player.stop(at: instant) }
            await driver.remove(player)
            change.stopped.append(key)
        }
        let wasPlaying = Set(playing)
        playing = []
        for key in wanted {
            guard let player = await player(opening: key, at: instant) else {
                change.failed.append(key)
                continue
            }
            playing.append(key)
            guard !wasPlaying.contains(key) else { continue }
            await start(player, at: instant)
            change.started.append(key)
        }
        if case .relay = selection, playing.isEmpty, !change.failed.isEmpty {
            // The first playable cell failed: the relay goes on from the next one.
            await relay(after: change.failed[change.failed.count - 1], at: instant, into: &change)
        }
        // Near the view: within one viewport size of it on every side.
        let visible = viewport.visibleRect
        let near = LayoutRect(
            x: visible.x - visible.width, y: visible.y - visible.height,
            width: 3 * visible.width, height: 3 * visible.height)
        let kept = Set(grid.filter { $0.frame.intersection(near) != nil }.map(\.key)).union(playing)
        for key in players.keys where !kept.contains(key) { players[key] = nil }
        return change
    }

    private func start(_ player: Player<C.Instant>, at instant: C.Instant) async {
        await driver.add(player)
        if !isPaused { await player.play(at: instant) }
    }

    /// Whether the whole feed is paused (``pause(at:)``).
    package private(set) var isPaused = false

    /// Pauses every cell the feed plays at `instant`, where each one is;
    /// cells that start playing after (an ``update(cells:viewport:at:)``
    /// that scrolls) join the driver paused on their first frame, for the
    /// host to draw once. ``play(at:)`` plays them all again.
    /// - Parameter instant: The pause's time on the driver's clock.
    public func pause(at instant: C.Instant) async {
        isPaused = true
        for key in playing { await players[key]?.pause(at: instant) }
    }

    /// Plays every cell the feed plays, from where ``pause(at:)`` left it
    /// (or from its first frame for a cell that started while paused).
    /// - Parameter instant: The time playing goes on from, on the driver's
    ///   clock.
    public func play(at instant: C.Instant) async {
        isPaused = false
        for key in playing { await players[key]?.play(at: instant) }
    }

    /// A relay's turn on `key` ended: the next playable cell after it, in
    /// the cells' order and round again, plays.
    private func turnEnded(_ key: String) async {
        guard case .relay = selection, playing == [key], let player = players[key] else { return }
        let instant = driver.clock.now
        await driver.remove(player)
        playing = []
        var change = Change(stopped: [key])
        await relay(after: key, at: instant, into: &change)
        hub.deliver([change])
    }

    /// Starts the first playable cell after `key` (round again, `key` itself
    /// last) whose player opens, recording what started and failed.
    private func relay(after key: String, at instant: C.Instant, into change: inout Change) async {
        guard let viewport else { return }
        let playable = Self.playable(grid, in: viewport, rule: rule)
        let position = playable.firstIndex(of: key) ?? -1
        let order = playable[(position + 1)...] + playable[..<(position + 1)]
        for next in order where !change.failed.contains(next) {
            guard let player = await player(opening: next, at: instant) else {
                change.failed.append(next)
                continue
            }
            playing = [next]
            await start(player, at: instant)
            change.started.append(next)
            return
        }
    }

    /// The player of `key`, made through the pool when it has none; `nil`
    /// when the source cannot be opened or played.
    private func player(opening key: String, at instant: C.Instant) async -> Player<C.Instant>? {
        if let player = players[key] { return player }
        let open = self.open
        var configuration = self.configuration
        if case .relay(let loops) = selection { configuration.loop = .count(max(1, loops)) }
        let source = grid.first { $0.key == key }?.source ?? key
        do {
            let cache = try await pool.cache(for: source, displaySize: displaySize) { try open(source) }
            let player = try Player(
                source: cache.source, configuration: configuration, startingAt: instant,
                epoch: resume == .inStep ? epoch : nil, cache: cache)
            if case .relay = selection {
                await player.addObserver { [weak self] event in
                    guard event == .finished || event == .timeLimitReached else { return }
                    Task { await self?.turnEnded(key) }
                }
            }
            players[key] = player
            return player
        } catch {
            return nil
        }
    }
}
