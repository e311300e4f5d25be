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
/// A feed that plays one cell at a time, each in turn, is a ``Playlist``
/// (with ``VisibilityRule/select(from:in:)``), not a grid.
public actor GridFeed<C: Clock> where C.Duration == Duration {
    /// A cell: what it shows (``FeedItemLayout/key``, which its source
    /// opens by, unique in a grid) and where (``FeedItemLayout/frame``, in
    /// the viewport's coordinates).
    public typealias Cell = FeedItemLayout

    /// Which playable cells play.
    public enum Selection: Sendable, Hashable {
        /// Every playable cell.
        case everyVisible
        /// The first `n` playable cells in the cells' order (`n` below 0 reads as 0).
        case first(Int)
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
        /// the epoch given to ``init(driver:pool:displaySize:configuration:rule:selection:resume:startingAt:source:)``).
        case inStep
    }

    /// What an ``update(cells:viewport:at:)`` changed.
    public struct Change: Sendable, Hashable {
        /// The cells that started or resumed playing, in the cells' order.
        public var started: [String] = []
        /// The cells that stopped playing, in the cells' order before the update.
        public var stopped: [String] = []
        /// The cells whose source could not be opened: they do not play, and
        /// are tried again at each update that selects them.
        public var failed: [String] = []
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
    ///   - source: Opens a cell's GIF from its key; called when a cell first
    ///     plays (or plays again after its player was dropped), and only
    ///     when the pool has no live cache for the key.
    public init(
        driver: GroupDriver<C>,
        pool: FrameCachePool,
        displaySize: DisplaySize? = nil,
        configuration: PlayerConfiguration = .init(),
        rule: VisibilityRule = .halfHeight,
        selection: Selection = .everyVisible,
        resume: Resume = .whereItLeft,
        startingAt now: C.Instant,
        source: @escaping @Sendable (String) throws -> any FrameSource
    ) {
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

    /// The keys of the cells that play in `viewport`: the playable cells
    /// (by `rule`), in the cells' order, all or the first few.
    /// - Parameters:
    ///   - cells: The grid's cells.
    ///   - viewport: What the host shows.
    ///   - rule: When a cell counts as visible.
    ///   - selection: Which visible cells play.
    public static func playingKeys(
        cells: [Cell], viewport: Viewport, rule: VisibilityRule, selection: Selection
    ) -> [String] {
        let visible = cells.filter { rule.isPlayable($0.frame, in: viewport) }.map(\.key)
        switch selection {
        case .everyVisible: return visible
        case .first(let count): return Array(visible.prefix(max(0, count)))
        }
    }

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
        var change = Change()
        let wanted = Self.playingKeys(cells: grid, viewport: viewport, rule: rule, selection: selection)
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
            await driver.add(player)
            await player.play(at: instant)
            change.started.append(key)
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

    /// The player of `key`, made through the pool when it has none; `nil`
    /// when the source cannot be opened or played.
    private func player(opening key: String, at instant: C.Instant) async -> Player<C.Instant>? {
        if let player = players[key] { return player }
        let open = self.open
        do {
            let cache = try await pool.cache(for: key, displaySize: displaySize) { try open(key) }
            let player = try Player(
                source: cache.source, configuration: configuration, startingAt: instant,
                epoch: resume == .inStep ? epoch : nil, cache: cache)
            players[key] = player
            return player
        } catch {
            return nil
        }
    }
}
