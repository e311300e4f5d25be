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

    /// Columns padded to their widest cell; numbers right-aligned.
    private func table(header: [String], rows: [[String]]) -> String {
        let widths = header.indices.map { column in
            ([header] + rows).map { $0[column].count }.max() ?? 0
        }
        let rightAligned: Set<Int> = [0, 2, 3, 8]
        func line(_ cells: [String]) -> String {
            cells.indices.map { column in
                rightAligned.contains(column)
                    ? String(repeating: " ", count: widths[column] - cells[column].count) + cells[column]
                    : pad(cells[column], widths[column])
            }
            .joined(separator: "  ")
            .replacing(/\s+$/, with: "") + "\n"
        }
        return ([header] + rows).map(line).joined()
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }

    private func quoted(_ text: String) -> String {
        "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"")
            .replacing("\n", with: "\\n").replacing("\r", with: "\\r") + "\""
    }
}
