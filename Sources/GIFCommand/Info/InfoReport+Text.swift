extension InfoReport {
    /// The text output of `gif info`: facts, one per line, then the frame
    /// table.
    var text: String {
        var lines: [(String, String)] = [
            ("file", file),
            ("version", version),
            ("screen", "\(screen.width)x\(screen.height)"),
            ("canvas", "\(canvas.width)x\(canvas.height)"
                + (canvas == screen ? "" : " (grown to hold the first frame)")),
            ("background index", "\(backgroundIndex) (metadata only, never painted)"),
            ("global palette", globalPaletteSize.map { "\($0) colours" } ?? "none"),
            ("frames", "\(frameCount)"),
            ("loop count", loopText),
            ("duration", "\(durationMilliseconds) ms raw, \(browserDurationMilliseconds) ms in browsers"),
        ]
        lines += comments.isEmpty
            ? [("comments", "none")]
            : comments.map { ("comment", quoted($0)) }
        lines += applicationExtensions.isEmpty
            ? [("app extensions", "none")]
            : applicationExtensions.map {
                ("app extension", "\(quoted($0.identifier)), \($0.dataSize) bytes at byte \($0.offset)")
            }
        lines.append(("scan", scanError.map { "error: \($0.message)" } ?? "complete"))
        lines.append(("decode", decodeError.map { "error: \($0.message)" } ?? "all frames OK"))

        var out = lines.map { pad($0.0 + ":", 18) + $0.1 + "\n" }.joined()
        guard !frames.isEmpty else { return out }
        out += "\n"
        let header = ["frame", "rect", "delay", "shown", "disposal", "transparent", "interlaced", "local palette",
                      "data offset"]
        let rows = frames.map { frame in
            [
                "\(frame.index)",
                "\(frame.rect.width)x\(frame.rect.height)+\(frame.rect.x)+\(frame.rect.y)",
                "\(frame.delayCentiseconds) cs",
                "\(frame.delayMilliseconds) ms",
                "\(frame.disposal) \(frame.disposalName)",
                frame.transparentIndex.map { "\($0)" } ?? "-",
                frame.interlaced ? "yes" : "no",
                frame.localPaletteSize.map { "\($0)" } ?? "-",
                "\(frame.dataOffset)",
            ]
        }
        out += table(header: header, rows: rows)
        return out
    }

    private var loopText: String {
        switch (loopCount.stored, loopCount.plays) {
        case (nil, _): "plays once (no loop extension)"
        case (_, nil): "plays forever (stored 0)"
        case (let stored?, let plays?): "plays \(plays) times (stored \(stored))"
        }
    }

    /// Columns padded to their widest cell; numbers right-aligned; no
    /// trailing spaces. Linear in the number of cells: widths are counted in
    /// UTF-8 bytes (the cells are ASCII) and the text is built in one buffer.
    private func table(header: [String], rows: [[String]]) -> String {
        var widths = header.map(\.utf8.count)
        for row in rows {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.utf8.count) }
        }
        let rightAligned: Set<Int> = [0, 2, 3, 8]
        var out: [UInt8] = []
        out.reserveCapacity((rows.count + 1) * (widths.reduce(0, +) + 2 * widths.count))
        func line(_ cells: [String]) {
            let start = out.count
            for (column, cell) in cells.enumerated() {
                if column > 0 { out.append(contentsOf: "  ".utf8) }
                let padding = widths[column] - cell.utf8.count
                if rightAligned.contains(column) {
                    out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: padding))
                    out.append(contentsOf: cell.utf8)
                } else {
                    out.append(contentsOf: cell.utf8)
                    out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: padding))
                }
            }
            while out.count > start, out.last == UInt8(ascii: " ") { out.removeLast() }
            out.append(UInt8(ascii: "\n"))
        }
        line(header)
        for row in rows { line(row) }
        return String(decoding: out, as: UTF8.self)
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }

    private func quoted(_ text: String) -> String {
        "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"")
            .replacing("\n", with: "\\n").replacing("\r", with: "\\r") + "\""
    }
}
