extension Fixture {
    /// `loop-absent.gif`, `loop-forever.gif` (stored 0) and `loop-2.gif`
    /// (stored 2, played 3 times): 2×2, red then green, 10 cs each.
    static func loop(_ stored: Int?) throws(EncoderError) -> Fixture {
        let name: String
        let meaning: String
        switch stored {
        case nil: (name, meaning) = ("loop-absent.gif", "no loop extension: plays once")
        case 0?: (name, meaning) = ("loop-forever.gif", "NETSCAPE2.0 stored 0: plays forever")
        case let n?: (name, meaning) = ("loop-\(n).gif", "NETSCAPE2.0 stored \(n): plays \(n + 1) times")
        }
        let bytes = try encode(width: 2, height: 2, loop: stored, frames: [
            .fill(Rect(0, 0, 2, 2), Palettes.Index.red),
            .fill(Rect(0, 0, 2, 2), Palettes.Index.green),
        ])
        return Fixture(name: name, summary: "Loop count, \(meaning). 2×2: red, green, 10 cs each.", bytes: bytes)
    }

    /// `loop-latest-wins.gif`: with two loop extensions the latest read wins.
    ///
    /// 2×2: `NETSCAPE2.0` stored 5, red frame, `ANIMEXTS1.0` stored 2, green
    /// frame. Stored 2, 3 plays.
    static func loopLatestWins() throws(EncoderError) -> Fixture {
        let encoder = try GIFEncoder(width: 2, height: 2, palette: Palettes.standard)
        try encoder.putLoop(5)
        try encoder.put(.fill(Rect(0, 0, 2, 2), Palettes.Index.red))
        try encoder.putLoop(2, identifier: "ANIMEXTS1.0")
        try encoder.put(.fill(Rect(0, 0, 2, 2), Palettes.Index.green))
        return Fixture(
            name: "loop-latest-wins.gif",
            summary: "Of several loop extensions the latest wins, ANIMEXTS1.0 counts too: NETSCAPE2.0 stored 5 before frame 0, ANIMEXTS1.0 stored 2 before frame 1 → stored 2, 3 plays. 2×2: red, green.",
            bytes: try encoder.finish())
    }

    /// The comment stored in `delays.gif`.
    static let delaysComment = "delays 0, 1, 2 and 10 centiseconds"

    /// `delays.gif`: raw delays 0, 1, 2 and 10 cs; browsers show 0 and 1 as
    /// 100 ms. 2×2: red, green, blue, yellow; loops forever; one comment.
    static func delays() throws(EncoderError) -> Fixture {
        let i = Palettes.Index.self
        let bytes = try encode(width: 2, height: 2, loop: 0, comment: delaysComment, frames: [
            .fill(Rect(0, 0, 2, 2), i.red, delay: 0),
            .fill(Rect(0, 0, 2, 2), i.green, delay: 1),
            .fill(Rect(0, 0, 2, 2), i.blue, delay: 2),
            .fill(Rect(0, 0, 2, 2), i.yellow, delay: 10),
        ])
        return Fixture(
            name: "delays.gif",
            summary: "Delays 0, 1, 2, 10 cs stored raw; browser delays 100, 100, 20, 100 ms. 2×2: red, green, blue, yellow; loops forever; comment \"\(delaysComment)\".",
            bytes: bytes)
    }
}
