import Playback
import Testing

@Suite("Playlist relay: a refresh does not restart the item being watched")
struct PlaylistRelayTests {
    static let sevenItems = ["A", "B", "C", "D", "E", "F", "G"]

    /// [A…G] playing, C at frame 5 (2150 ms: C started at 1600), 50 ms in.
    static func cAtFrameFive() throws -> SequencerHarness {
        var h = try SequencerHarness(sevenItems)
        h.play(at: 0)
        h.tick(to: 2150, every: 50)
        #expect(h.key == "C" && h.frame == 5 && h.timeIntoFrame == .milliseconds(50))
        return h
    }

    @Test("A subset holding C keeps C at frame 5, then plays D")
    func subsetKeepsPosition() throws {
        var h = try Self.cAtFrameFive()
        #expect(h.replace(["A", "B", "C", "D", "E"], at: 2150) == [])
        #expect(h.key == "C" && h.frame == 5 && h.timeIntoFrame == .milliseconds(50))
        #expect(h.sequencer.currentIndex == 2)
        #expect(h.sequencer.nextChangeTime == .milliseconds(2200))
        #expect(h.tick(to: 2400) == [frame("C", 6), frame("C", 7), loop("C", 1), finished("C"),
                                        .itemFinished(key: "C"), .itemStarted(key: "D")])
        // E is last now: after it the list wraps to A, not on to F.
        h.tick(to: 4000)
        #expect(h.key == "A" && h.sequencer.lapsDone == 1)
    }

    @Test("The item after the playing one is the next in the new list")
    func nextFollowsNewOrder() throws {
        var h = try Self.cAtFrameFive()
        #expect(h.replace(["G", "C", "A"], at: 2150) == [])
        #expect(h.key == "C" && h.frame == 5)
        #expect(h.advance(to: 2400).suffix(2) == [.itemFinished(key: "C"), .itemStarted(key: "A")])
        // A was loaded before; G, first in the new list, loads as A's next.
        #expect(h.sequencer.loadState(of: "A") == .ready)
        #expect(h.requested.last == "G")
    }

    @Test("A list with a new item restarts at its first item: [B, X] starts B")
    func otherListRestarts() throws {
        var h = try Self.cAtFrameFive()
        #expect(h.replace(["B", "X"], at: 2150) == [.itemStarted(key: "B")])
        #expect(h.key == "B" && h.frame == 0 && h.timeIntoFrame == .zero && h.sequencer.lapsDone == 0)
        // B was loaded: kept; X, new, loads as B's next.
        #expect(h.requested.last == "X")
        #expect(h.tick(to: 2950) == eightFramePass("B") + [.itemStarted(key: "X")])
    }

    @Test("A subset without the playing item restarts at its first item")
    func subsetWithoutCurrentRestarts() throws {
        var h = try Self.cAtFrameFive()
        #expect(h.replace(["D", "E"], at: 2150) == [.itemStarted(key: "D")])
        #expect(h.key == "D" && h.frame == 0)
    }

    @Test("Relay while paused stays paused at the same position")
    func relayWhilePaused() throws {
        var h = try Self.cAtFrameFive()
        h.pause(at: 2150)
        #expect(h.replace(["C", "D"], at: 3000) == [])
        #expect(h.sequencer.state == .paused && h.key == "C" && h.frame == 5 && h.timeIntoFrame == .milliseconds(50))
        h.play(at: 4000)
        #expect(h.advance(to: 4250).suffix(2) == [.itemFinished(key: "C"), .itemStarted(key: "D")])
    }
}
