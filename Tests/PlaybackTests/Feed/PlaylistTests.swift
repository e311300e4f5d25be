import Playback
import Testing

@Suite("Playlist core: order, loops, loads, skips, wrap, pause")
struct PlaylistTests {
    @Test("Autoplay is off: idle, frame 0 of the first item shown, time moves nothing")
    func autoplayOff() throws {
        var h = try SequencerHarness(["A", "B", "C"])
        #expect(h.sequencer.state == .idle)
        #expect(h.key == "A" && h.frame == 0)
        #expect(h.sequencer.nextChangeTime == nil)
        #expect(h.advance(to: 5000) == [])
        #expect(h.frame == 0)
        // The first item and the next one load at once; C waits for its window.
        #expect(h.requested == ["A", "B"])
        #expect(h.sequencer.loadState(of: "A") == .ready)
        #expect(h.sequencer.loadState(of: "C") == .notStarted)
        #expect(h.sequencer.loadState(of: "Z") == nil)
    }

    @Test("Items play in order, the next one loads while the current one plays")
    func order() throws {
        var h = try SequencerHarness(["A", "B", "C"])
        #expect(h.play(at: 0) == [.itemStarted(key: "A")])
        #expect(h.sequencer.nextChangeTime == .milliseconds(100))
        #expect(h.tick(to: 800) == eightFramePass("A") + [.itemStarted(key: "B")])
        #expect(h.requested == ["A", "B", "C"])
        #expect(h.key == "B" && h.frame == 0 && h.sequencer.currentIndex == 1)
        #expect(h.advance(to: 850) == [])
        #expect(h.timeIntoFrame == .milliseconds(50))
    }

    @Test("The list wraps after the last item and laps are counted")
    func wraps() throws {
        var h = try SequencerHarness(["A", "B"])
        h.play(at: 0)
        let events = h.tick(to: 1600)
        #expect(events == eightFramePass("A") + [.itemStarted(key: "B")] + eightFramePass("B")
            + [.playlistWrapped(lapsDone: 1), .itemStarted(key: "A")])
        #expect(h.key == "A" && h.frame == 0 && h.sequencer.lapsDone == 1)
        // A single late tick crosses every boundary at its exact time; within
        // an item, the skip policy reports the frame it lands on.
        #expect(h.advance(to: 3250) == eightFrameJump("A") + [.itemStarted(key: "B")] + eightFrameJump("B")
            + [.playlistWrapped(lapsDone: 2), .itemStarted(key: "A")])
        #expect(h.timeIntoFrame == .milliseconds(50))
    }

    @Test("Per-item loop counts: an item's own count, else the playlist's default")
    func loopCounts() throws {
        let twoFrames = FakeFrameSource.milliseconds(100, 100, loop: 0)  // the file says forever
        var configuration = PlaylistConfiguration()
        configuration.loopsPerItem = 2
        var h = try SequencerHarness(
            ["A", "B"], loops: ["A": 3], sources: ["A": twoFrames, "B": twoFrames], configuration: configuration)
        h.play(at: 0)
        // A: 3 passes of 200 ms; B: the default 2.
        #expect(h.tick(to: 600) == [
            frame("A", 1), loop("A", 1), frame("A", 0), frame("A", 1), loop("A", 2), frame("A", 0),
            frame("A", 1), loop("A", 3), finished("A"), .itemFinished(key: "A"), .itemStarted(key: "B"),
        ])
        #expect(h.tick(to: 1000) == [
            frame("B", 1), loop("B", 1), frame("B", 0), frame("B", 1), loop("B", 2), finished("B"),
            .itemFinished(key: "B"), .playlistWrapped(lapsDone: 1), .itemStarted(key: "A"),
        ])
        #expect(h.sequencer.currentPlayhead?.timeline.plays == 3)
    }

    @Test("A failing loader is skipped with an event naming it and the error")
    func failingItemSkipped() throws {
        var h = try SequencerHarness(["A", "B", "C"], failing: ["B"])
        #expect(h.loadEvents == [
            .loadFinished(key: "A", state: .ready),
            .loadFinished(key: "B", state: .failed(FakeLoadError(key: "B"))),
        ])
        h.play(at: 0)
        // B's failure widened the preload window to C, so C is ready.
        #expect(h.requested == ["A", "B", "C"])
        #expect(h.tick(to: 800) == eightFramePass("A") + [
            .itemSkipped(key: "B", reason: .loadFailed(FakeLoadError(key: "B"))), .itemStarted(key: "C"),
        ])
        #expect(h.key == "C" && h.sequencer.currentIndex == 2)
        // Next lap: skipped again, not loaded again.
        #expect(h.tick(to: 2400) == eightFramePass("C") + [.playlistWrapped(lapsDone: 1), .itemStarted(key: "A")]
            + eightFramePass("A") + [
                .itemSkipped(key: "B", reason: .loadFailed(FakeLoadError(key: "B"))), .itemStarted(key: "C"),
            ])
        #expect(h.requested == ["A", "B", "C"])
    }

    @Test("A failure event says what failed: key and error text")
    func skipReasonText() {
        let reason = PlaylistSkipReason.loadFailed(FakeLoadError(key: "B"))
        #expect(reason.description == "load failed: cannot load B")
        #expect(reason != .loadFailed(FakeLoadError(key: "C")))
        #expect(PlaylistSkipReason.timedOut(after: .seconds(1)).description == "still loading after 1.0 seconds")
    }

    @Test("A slow loader is waited for up to the timeout, then skipped")
    func slowItemTimesOut() throws {
        var configuration = PlaylistConfiguration()
        configuration.loadTimeout = .seconds(1)
        var h = try SequencerHarness(["A", "B", "C"], sources: ["A": SequencerHarness.eightFrames, "C": SequencerHarness.eightFrames],
                                     configuration: configuration)
        h.play(at: 0)
        #expect(h.tick(to: 800) == eightFramePass("A") + [.waitingForItem(key: "B")])
        #expect(h.sequencer.isWaiting && h.key == "B" && h.frame == nil)
        #expect(h.sequencer.nextChangeTime == .milliseconds(1800))
        #expect(h.advance(to: 1799) == [])
        // Skipped at 1800 exactly; C starts then, so at 2050 it is 250 ms in.
        #expect(h.advance(to: 2050) == [
            .itemSkipped(key: "B", reason: .timedOut(after: .seconds(1))), .itemStarted(key: "C"), frame("C", 2),
        ])
        #expect(h.timeIntoFrame == .milliseconds(50))
        // B's load goes on; once it arrives, B plays on the next lap.
        h.release("B")
        #expect(h.sequencer.loadState(of: "B") == .ready)
        h.advance(to: 2600)  // C ends, A starts
        h.advance(to: 3400)  // A ends, B starts
        #expect(h.key == "B" && h.sequencer.state == .playing && h.frame == 0)
    }

    @Test("An item that arrives while waited for starts at the next time passed in")
    func slowItemArrives() throws {
        var h = try SequencerHarness(["A", "B", "C"], sources: ["A": SequencerHarness.eightFrames])
        h.play(at: 0)
        #expect(h.tick(to: 800) == eightFramePass("A") + [.waitingForItem(key: "B")])
        #expect(h.sequencer.nextChangeTime == .milliseconds(5800))  // the default 5 s timeout
        h.release("B")
        #expect(h.loadEvents.last == .loadFinished(key: "B", state: .ready))
        // Due now: the host's next time is the item's start.
        #expect(h.sequencer.nextChangeTime == .milliseconds(800))
        #expect(h.advance(to: 1500) == [.itemStarted(key: "B")])
        #expect(h.sequencer.nextChangeTime == .milliseconds(1600))
    }

    @Test("Pause and resume across an item boundary keep the exact position")
    func pauseAcrossBoundary() throws {
        let twoFrames = FakeFrameSource.milliseconds(100, 100)
        var h = try SequencerHarness(["A", "B"], sources: ["A": twoFrames, "B": twoFrames])
        h.play(at: 0)
        #expect(h.pause(at: 150) == [frame("A", 1)])
        #expect(h.sequencer.nextChangeTime == nil)
        #expect(h.advance(to: 5000) == [])
        #expect(h.play(at: 5000) == [])
        #expect(h.sequencer.nextChangeTime == .milliseconds(5050))
        #expect(h.advance(to: 5050) == [loop("A", 1), finished("A"), .itemFinished(key: "A"), .itemStarted(key: "B")])
        #expect(h.key == "B" && h.timeIntoFrame == .zero)
        // Paused exactly at B's end: the boundary is crossed, the next item
        // is shown, frozen at its start.
        #expect(h.pause(at: 5250) == [frame("B", 1), loop("B", 1), finished("B"), .itemFinished(key: "B"),
                                      .playlistWrapped(lapsDone: 1), .itemStarted(key: "A")])
        #expect(h.advance(to: 9000) == [])
        #expect(h.play(at: 9000) == [])
        #expect(h.advance(to: 9100) == [frame("A", 1)])
    }

    @Test("Paused time does not count towards the load timeout")
    func pauseWhileWaiting() throws {
        var configuration = PlaylistConfiguration()
        configuration.loadTimeout = .seconds(1)
        var h = try SequencerHarness(["A", "B"], sources: ["A": SequencerHarness.eightFrames], configuration: configuration)
        h.play(at: 0)
        h.advance(to: 800)  // waiting for B since 800
        h.pause(at: 1200)   // 400 ms waited
        #expect(h.advance(to: 10_000) == [])
        h.play(at: 10_000)
        #expect(h.sequencer.nextChangeTime == .milliseconds(10_600))
        #expect(h.advance(to: 10_600) == [.itemSkipped(key: "B", reason: .timedOut(after: .seconds(1))),
                                          .playlistWrapped(lapsDone: 1), .itemStarted(key: "A")])
    }

    @Test("When every item fails, the playlist rests instead of spinning")
    func nothingToPlay() throws {
        var h = try SequencerHarness(["A", "B"], failing: ["A", "B"])
        let error = { (key: String) in PlaylistSkipReason.loadFailed(FakeLoadError(key: key)) }
        #expect(h.play(at: 0) == [
            .itemSkipped(key: "A", reason: error("A")), .itemSkipped(key: "B", reason: error("B")),
            .playlistWrapped(lapsDone: 1), .nothingToPlay,
        ])
        #expect(h.key == nil && h.sequencer.nextChangeTime == nil)
        // A new list starts over.
        h.failing = []
        #expect(h.replace(["C"], at: 100) == [.waitingForItem(key: "C")])
        #expect(h.advance(to: 100) == [.itemStarted(key: "C")])
    }
}
