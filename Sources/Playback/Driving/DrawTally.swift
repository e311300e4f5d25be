import Synchronization

/// What a player's draws made of the frames its ticks published: each
/// published frame ends up drawn on time (its first draw got through),
/// drawn late (a draw of it was ``FrameDraw/late(frame:shown:)`` first), or
/// skipped (the next frame was published before any draw of it got
/// through, or its draw was a ``FrameDraw/still(frame:shown:)``: the
/// budget had no room to draw it). A frame still on show and not drawn yet
/// is counted once it is.
///
/// The tick side bumps ``published``; the drawing side reads it before it
/// draws and records the outcome after, with atomics alone, so a draw takes
/// no lock for this. Two draws of one player at the same moment (one of
/// them throws ``PixelBufferError/drawnConcurrently``) may credit a frame to
/// either; the totals stay exact.
final class DrawTally: Sendable {
    /// Frames published since the player was made; the first one shown counts.
    private let publications = Atomic<Int>(1)
    /// The latest publication a draw got through for, or 0 for none.
    private let resolved = Atomic<Int>(0)
    /// The latest publication a draw of was late, or 0 for none.
    private let lateFor = Atomic<Int>(0)
    private let onTime = Atomic<Int>(0)
    private let late = Atomic<Int>(0)
    private let skipped = Atomic<Int>(0)

    /// Notes that a tick published a frame other than the one shown.
    func published() { publications.add(1, ordering: .releasing) }

    /// The publication a draw starting now draws, for ``record(_:of:)``.
    var publication: Int { publications.load(ordering: .acquiring) }

    /// Records a draw of `publication`: late, or through (drawn or
    /// unchanged), or a still (the frame skipped); a draw that failed
    /// counts neither way.
    func record(_ draw: FrameDraw, of publication: Int) {
        switch draw {
        case .late: lateFor.store(publication, ordering: .relaxed)
        case .failed: return
        case .drawn, .unchanged: resolve(publication)
        case .still: resolve(publication, shown: false)
        }
    }

    /// Credits `publication`, drawn on time or late (skipped when not
    /// `shown`), and the ones before it that no draw got through for as
    /// skipped, unless a draw of it or of a later one was credited already.
    private func resolve(_ publication: Int, shown: Bool = true) {
        var previous = resolved.load(ordering: .relaxed)
        while previous < publication {
            let (exchanged, current) = resolved.compareExchange(
                expected: previous, desired: publication, ordering: .relaxed)
            if exchanged {
                if !shown {
                    skipped.add(1, ordering: .relaxed)
                } else if lateFor.load(ordering: .relaxed) == publication {
                    late.add(1, ordering: .relaxed)
                } else {
                    onTime.add(1, ordering: .relaxed)
                }
                if publication - previous > 1 { skipped.add(publication - previous - 1, ordering: .relaxed) }
                return
            }
            previous = current
        }
    }

    /// The totals so far: frames drawn on time, drawn late, and skipped.
    var totals: Totals {
        Totals(
            onTime: onTime.load(ordering: .relaxed), late: late.load(ordering: .relaxed),
            skipped: skipped.load(ordering: .relaxed))
    }

    /// Whether the frame on show was drawn late and no draw has got
    /// through since: the host owes it a draw.
    var owesDraw: Bool {
        let lateFor = lateFor.load(ordering: .relaxed)
        return lateFor > resolved.load(ordering: .relaxed) && lateFor == publication
    }

    /// Frames drawn on time, drawn late, and skipped.
    struct Totals: Sendable, Hashable {
        var onTime = 0
        var late = 0
        var skipped = 0

        /// Frames resolved either way.
        var count: Int { onTime + late + skipped }
        /// Frames that missed: drawn late or skipped.
        var missed: Int { late + skipped }

        static func - (lhs: Totals, rhs: Totals) -> Totals {
            Totals(onTime: lhs.onTime - rhs.onTime, late: lhs.late - rhs.late, skipped: lhs.skipped - rhs.skipped)
        }
    }
}
