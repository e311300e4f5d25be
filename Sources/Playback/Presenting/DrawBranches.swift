/// The ways a ``GIFFrameDrawer``'s draw may write into the host's buffer
/// beyond the plain one (composite the frame on the drawer's canvas, then
/// copy or scale the whole frame from there), each taken where it applies
/// and it is allowed. Every write branch yields the same pixels; a test
/// forces each one by allowing it alone.
package struct DrawBranches: OptionSet, Sendable, Hashable, CustomStringConvertible {
    package let rawValue: Int
    package init(rawValue: Int) { self.rawValue = rawValue }

    /// Copy the frames' recorded changes (full size, or as scaled).
    package static let recordedChanges = DrawBranches(rawValue: 1 << 0)
    /// Composite straight into the host's buffer as well as the canvas
    /// (full size, rows of whole 32-bit words only).
    package static let mirror = DrawBranches(rawValue: 1 << 1)
    /// At a display size, scale each canvas row's changed stretch, not
    /// the box of the change.
    package static let rowByRow = DrawBranches(rawValue: 1 << 2)
    /// Stepping on from the frame shown (or a loop starting again),
    /// write only what the frames changed, not the whole frame.
    package static let changedOnly = DrawBranches(rawValue: 1 << 3)
    /// Every branch: what players use.
    package static let all: DrawBranches = [.recordedChanges, .mirror, .rowByRow, .changedOnly]

    package var description: String {
        let names = [(DrawBranches.recordedChanges, "recorded"), (.mirror, "mirror"), (.rowByRow, "rows"),
                     (.changedOnly, "changed")]
        let on = names.filter { contains($0.0) }.map(\.1)
        return on.isEmpty ? "plain" : on.joined(separator: "+")
    }
}
