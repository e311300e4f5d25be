extension FramePresenter {
    /// How one draw composites its frames: with a mirror, each change the
    /// compositor makes goes to the host's buffer as well (the **mirror**
    /// branch: nothing is copied after); with rows, each canvas row's
    /// changed columns are noted for a display-size draw to scale (the
    /// **row-by-row** branch, ``ScaledRows``). A step that cannot write
    /// its every change to the mirror, or note it, turns the branch off
    /// for the draw, which then writes the changed rectangle.
    struct Steps {
        /// The host's buffer, when the draw mirrors into it.
        let mirror: CanvasMirror?
        /// The rows noted, when the draw notes them.
        let rows: ScaledRows?
        /// Whether every change so far went to the mirror.
        private(set) var mirrored: Bool
        /// Whether every change so far was noted.
        private(set) var noted: Bool

        init(mirror: CanvasMirror?, rows: ScaledRows?) {
            self.mirror = mirror
            self.rows = rows
            mirrored = mirror != nil
            noted = rows != nil
            rows?.clear()
        }

        /// Composites frame `index` on `canvas`, mirroring or noting as the
        /// draw does.
        mutating func step(_ canvas: inout some FrameCompositing, to index: Int) throws -> FrameCopy {
            if let rows {
                let (copy, whole) = try canvas.composite(at: index, notingChangesIn: rows.changes)
                noted = noted && whole
                return copy
            }
            guard let mirror else { return try canvas.composite(at: index) }
            let (copy, whole) = try canvas.composite(at: index, mirroringInto: mirror)
            mirrored = mirrored && whole
            return copy
        }
    }
}
