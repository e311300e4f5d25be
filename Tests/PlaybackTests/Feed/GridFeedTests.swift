import Foundation
import Playback
import Testing

@Suite("GridFeed: the visible cells of a grid play, in step with the viewport")
struct GridFeedTests {
    typealias Feed = GridFeed<ManualClock>

    /// A grid of 100 × 100 cells, `columns` wide, keys "r<row>c<column>".
    static func grid(rows: Int, columns: Int) -> [Feed.Cell] {
        (0..<rows).flatMap { row in
            (0..<columns).map { column in
                Feed.Cell(key: "r\(row)c\(column)",
                          frame: LayoutRect(x: Double(column) * 100, y: Double(row) * 100, width: 100, height: 100))
            }
        }
    }

    static func viewport(y: Double, height: Double = 200, width: Double = 300) -> Viewport {
        Viewport(bounds: LayoutRect(x: 0, y: y, width: width, height: height))
    }

    @Test("Which cells play as a 300 × 200 viewport scrolls a 4 × 3 grid (half-height rule)",
          arguments: [
            // (viewport top, selection, the keys that play: worked out from the cells' rows)
            (0.0, Feed.Selection.everyVisible, ["r0c0", "r0c1", "r0c2", "r1c0", "r1c1", "r1c2"]),
            (50.0, .everyVisible, ["r0c0", "r0c1", "r0c2", "r1c0", "r1c1", "r1c2", "r2c0", "r2c1", "r2c2"]),
            (50.5, .everyVisible, ["r1c0", "r1c1", "r1c2", "r2c0", "r2c1", "r2c2"]),
            (149.5, .everyVisible, ["r1c0", "r1c1", "r1c2", "r2c0", "r2c1", "r2c2"]),
            (150.0, .everyVisible, ["r1c0", "r1c1", "r1c2", "r2c0", "r2c1", "r2c2", "r3c0", "r3c1", "r3c2"]),
            (400.0, .everyVisible, []),
            (50.0, .first(4), ["r0c0", "r0c1", "r0c2", "r1c0"]),
            (150.0, .first(1), ["r1c0"]),
            (0.0, .first(0), []),
            (0.0, .first(-3), []),
            (50.0, .relay(loops: 1), ["r0c0"]),
            (50.5, .relay(loops: 2), ["r1c0"]),
            (400.0, .relay(loops: 1), []),
          ])
    func selection(top: Double, selection: Feed.Selection, expected: [String]) {
        let keys = Feed.playingKeys(
            cells: Self.grid(rows: 4, columns: 3), viewport: Self.viewport(y: top), rule: .halfHeight,
            selection: selection)
        #expect(keys == expected)
    }

    /// One column of six 100-high cells, each a 4-frame loop of 100 ms
    /// frames, in a 200-high viewport.
    static func column() -> [Feed.Cell] { grid(rows: 6, columns: 1) }

    static func makeFeed(
        resume: Feed.Resume, selection: Feed.Selection = .everyVisible, clock: ManualClock,
        group: GroupDriver<ManualClock>
    ) -> Feed {
        GridFeed(
            driver: group, pool: FrameCachePool(byteBudget: 1 << 20),
            configuration: PlayerConfiguration(loop: .forever), selection: selection, resume: resume,
            startingAt: clock.now
        ) { key in
            guard key != "bad" else { throw PlayerError.emptySource }
            return FakeFrameSource.milliseconds(100, 100, 100, 100)
        }
    }

    @Test("Cells leave and join the driver as the viewport moves, and come back where their policy says",
          arguments: [
            // Left at 250 ms on frame 2, back at 550 ms: where it left (frame 2), from its
            // start (frame 0), or in step with the epoch (550 ms into 400 ms loops: frame 1).
            (Feed.Resume.whereItLeft, 2), (.fromStart, 0), (.inStep, 1),
          ])
    func scrollAndResume(resume: Feed.Resume, frameOnReturn: Int) async throws {
        let clock = ManualClock()
        let start = clock.now
        let group = GroupDriver(clock: clock)
        let feed = Self.makeFeed(resume: resume, clock: clock, group: group)
        let first = await feed.update(cells: Self.column(), viewport: Self.viewport(y: 0), at: clock.now)
        #expect(first.started == ["r0c0", "r1c0"])
        #expect(await group.memberCount == 2)

        clock.advance(to: start.advanced(by: .milliseconds(250)))
        let tick = await group.tick(at: clock.now)
        #expect(tick.changed.count == 2, "both playing cells moved on")
        let top = try #require(await feed.player(for: "r0c0"))
        #expect(top.currentFrame == 2)

        let away = await feed.update(viewport: Self.viewport(y: 200), at: clock.now)
        #expect(away.stopped == ["r0c0", "r1c0"])
        #expect(away.started == ["r2c0", "r3c0"])
        #expect(await group.memberCount == 2)
        #expect(top.state == (resume == .whereItLeft ? .paused : .idle))

        clock.advance(to: start.advanced(by: .milliseconds(550)))
        _ = await group.tick(at: clock.now)
        #expect(top.currentFrame == (resume == .whereItLeft ? 2 : 0), "a cell out of view is not advanced")

        let back = await feed.update(viewport: Self.viewport(y: 0), at: clock.now)
        #expect(back.started == ["r0c0", "r1c0"])
        #expect(await feed.player(for: "r0c0") === top, "a cell near the view keeps its player")
        #expect(top.state == .playing)
        #expect(top.currentFrame == frameOnReturn)
    }

    @Test("A paused feed holds every cell, starts the cells a scroll brings paused on their first frame, and plays them all again")
    func pauseAndPlayTheWholeFeed() async throws {
        let clock = ManualClock()
        let start = clock.now
        let group = GroupDriver(clock: clock)
        let feed = Self.makeFeed(resume: .whereItLeft, clock: clock, group: group)
        await feed.update(cells: Self.column(), viewport: Self.viewport(y: 0), at: clock.now)
        clock.advance(to: start.advanced(by: .milliseconds(150)))
        _ = await group.tick(at: clock.now)
        await feed.pause(at: clock.now)
        #expect(await feed.isPaused)
        let top = try #require(await feed.player(for: "r0c0"))
        #expect(top.state == .paused)
        #expect(top.currentFrame == 1)

        // Half a row down, row 2 joins (more than half of it in view), paused.
        clock.advance(to: start.advanced(by: .milliseconds(400)))
        let scrolled = await feed.update(viewport: Self.viewport(y: 50), at: clock.now)
        #expect(scrolled.started == ["r2c0"])
        let joined = try #require(await feed.player(for: "r2c0"))
        _ = await group.tick(at: clock.now)
        #expect(top.currentFrame == 1, "a paused cell does not move on")
        #expect(joined.currentFrame == 0)
        #expect(joined.state != .playing)

        await feed.play(at: clock.now)
        clock.advance(to: start.advanced(by: .milliseconds(500)))
        _ = await group.tick(at: clock.now)
        // 100 ms of playing: the top cell from 50 ms into frame 1 to 50 ms
        // into frame 2, the joined one from the start of frame 0 to frame 1.
        #expect(top.currentFrame == 2)
        #expect(joined.currentFrame == 1)
        #expect(joined.state == .playing)
    }

    @Test("Cells showing one source open it once and share its cache, each with a player of its own")
    func cellsOfOneSourceShareItsCache() async throws {
        let clock = ManualClock()
        let group = GroupDriver(clock: clock)
        let opened = OpenCounter()
        let feed = GridFeed(
            driver: group, pool: FrameCachePool(byteBudget: 1 << 20), configuration: PlayerConfiguration(loop: .forever),
            startingAt: clock.now
        ) { source in
            opened.add(source)
            return FakeFrameSource.milliseconds(100, 100, 100, 100)
        }
        let cells = [
            Feed.Cell(key: "left", frame: LayoutRect(x: 0, y: 0, width: 100, height: 100), source: "a.gif"),
            Feed.Cell(key: "right", frame: LayoutRect(x: 100, y: 0, width: 100, height: 100), source: "a.gif"),
            Feed.Cell(key: "below", frame: LayoutRect(x: 0, y: 100, width: 100, height: 100)),
        ]
        let change = await feed.update(cells: cells, viewport: Self.viewport(y: 0), at: clock.now)
        #expect(change.started == ["left", "right", "below"])
        #expect(opened.sources.sorted() == ["a.gif", "below"])
        let left = try #require(await feed.player(for: "left")), right = try #require(await feed.player(for: "right"))
        #expect(left !== right)
        #expect(left.cache === right.cache)
    }

    final class OpenCounter: @unchecked Sendable {
        private let lock = NSLock()
        private var opened: [String] = []
        func add(_ source: String) { lock.withLock { opened.append(source) } }
        var sources: [String] { lock.withLock { opened } }
    }

    @Test("Players of cells more than a viewport away, or no longer in the grid, are dropped")
    func farCellsDropTheirPlayers() async {
        let clock = ManualClock()
        let group = GroupDriver(clock: clock)
        let feed = Self.makeFeed(resume: .whereItLeft, clock: clock, group: group)
        await feed.update(cells: Self.column(), viewport: Self.viewport(y: 0), at: clock.now)
        await feed.update(viewport: Self.viewport(y: 200), at: clock.now)
        // Near 200…400 is 0…600: rows 0 and 1 keep their (paused) players.
        #expect(await feed.player(for: "r0c0") != nil)
        await feed.update(viewport: Self.viewport(y: 400), at: clock.now)
        // Near 400…600 is 200…800: rows 0 and 1 are past it.
        #expect(await feed.player(for: "r0c0") == nil)
        #expect(await feed.player(for: "r1c0") == nil)
        #expect(await feed.player(for: "r2c0") != nil)
        #expect(await feed.playingKeys == ["r4c0", "r5c0"])
        await feed.update(cells: Array(Self.column().prefix(5)), viewport: Self.viewport(y: 400), at: clock.now)
        #expect(await feed.player(for: "r5c0") == nil, "a cell taken out of the grid drops its player")
        #expect(await feed.playingKeys == ["r4c0"])
        #expect(await group.memberCount == 1)
    }

    @Test("A cell whose source cannot be opened is reported and does not play; the others do")
    func failedSource() async {
        let clock = ManualClock()
        let group = GroupDriver(clock: clock)
        let feed = Self.makeFeed(resume: .whereItLeft, clock: clock, group: group)
        let cells = [
            Feed.Cell(key: "bad", frame: LayoutRect(x: 0, y: 0, width: 100, height: 100)),
            Feed.Cell(key: "good", frame: LayoutRect(x: 100, y: 0, width: 100, height: 100)),
        ]
        let change = await feed.update(cells: cells, viewport: Self.viewport(y: 0), at: clock.now)
        #expect(change.failed == ["bad"])
        #expect(change.started == ["good"])
        #expect(await feed.playingKeys == ["good"])
        #expect(await group.memberCount == 1)
    }

    @Test("A relay plays one visible cell at a time for its loops, then the next, and round again",
          .timeLimit(.minutes(1)))
    func relayTakesTurns() async throws {
        let clock = ManualClock()
        let start = clock.now
        let group = GroupDriver(clock: clock)
        let feed = Self.makeFeed(resume: .whereItLeft, selection: .relay(loops: 2), clock: clock, group: group)
        var moves = await feed.changes().makeAsyncIterator()
        let first = await feed.update(cells: Self.column(), viewport: Self.viewport(y: 0), at: clock.now)
        #expect(first.started == ["r0c0"])
        #expect(await group.memberCount == 1)

        // Two loops of 400 ms (the configuration's `.forever` gives way to the
        // relay's loops): still playing at 799 ms, finished at 800 ms.
        clock.advance(to: start.advanced(by: .milliseconds(799)))
        _ = await group.tick(at: clock.now)
        #expect(await feed.playingKeys == ["r0c0"])
        clock.advance(to: start.advanced(by: .milliseconds(800)))
        _ = await group.tick(at: clock.now)
        let turn = try #require(await moves.next())
        #expect(turn == Feed.Change(started: ["r1c0"], stopped: ["r0c0"]))
        #expect(await feed.playingKeys == ["r1c0"])
        #expect(await group.memberCount == 1)
        let top = try #require(await feed.player(for: "r0c0"))
        #expect(top.state == .finished, "the finished cell keeps its last frame")
        #expect(top.currentFrame == 3)

        // r1c0 started at 800 ms: 250 ms later it shows frame 2.
        clock.advance(to: start.advanced(by: .milliseconds(1050)))
        _ = await group.tick(at: clock.now)
        #expect(await feed.player(for: "r1c0")?.currentFrame == 2)

        // Its turn ends at 1600 ms; r0c0 plays again, from frame 0.
        clock.advance(to: start.advanced(by: .milliseconds(1600)))
        _ = await group.tick(at: clock.now)
        #expect(try #require(await moves.next()) == Feed.Change(started: ["r0c0"], stopped: ["r1c0"]))
        #expect(top.state == .playing)
        #expect(top.currentFrame == 0)
    }

    static func makeRelay() -> (ManualClock, GroupDriver<ManualClock>, Feed) {
        let clock = ManualClock()
        let group = GroupDriver(clock: clock)
        return (clock, group, makeFeed(resume: .whereItLeft, selection: .relay(loops: 1), clock: clock, group: group))
    }

    @Test("A relay's cell plays on while it stays playable; when it leaves, the first playable cell takes over")
    func relayFollowsTheViewport() async {
        let (clock, group, feed) = Self.makeRelay()
        await feed.update(cells: Self.column(), viewport: Self.viewport(y: 0), at: clock.now)
        // Rows 1 and 2 in view: row 0 is out, so row 1 takes the relay.
        let down = await feed.update(viewport: Self.viewport(y: 100), at: clock.now)
        #expect(down == Feed.Change(started: ["r1c0"], stopped: ["r0c0"]))
        // Rows 0 and 1 in view: row 1 still plays (row 0 comes first, but waits its turn).
        let up = await feed.update(viewport: Self.viewport(y: 0), at: clock.now)
        #expect(up == Feed.Change())
        #expect(await feed.playingKeys == ["r1c0"])
        #expect(await group.memberCount == 1)
    }

    @Test("A relay skips a cell whose source cannot be opened")
    func relaySkipsFailures() async {
        let (clock, group, feed) = Self.makeRelay()
        let cells = ["bad", "good", "other"].enumerated().map { index, key in
            Feed.Cell(key: key, frame: LayoutRect(x: Double(index) * 100, y: 0, width: 100, height: 100))
        }
        let change = await feed.update(cells: cells, viewport: Self.viewport(y: 0), at: clock.now)
        #expect(change == Feed.Change(started: ["good"], failed: ["bad"]))
        #expect(await feed.playingKeys == ["good"])
        #expect(await group.memberCount == 1)
    }

    @Test("The stream of a feed's moves ends when the feed goes away", .timeLimit(.minutes(1)))
    func changesEndWithTheFeed() async {
        var feed: Feed? = Self.makeRelay().2
        var moves = await feed!.changes().makeAsyncIterator()
        feed = nil
        #expect(await moves.next() == nil)
    }
}
