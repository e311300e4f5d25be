extension DumpRequest {
    /// The request for `arguments` (the command line after the program name)
    /// when it is a plain `dump` command line that is certainly valid; `nil`
    /// for anything else, which then goes through ArgumentParser, so help,
    /// every usage error and every unusual spelling behave exactly as there.
    ///
    /// Taken here: `dump FILE` with any of `-o DIR`, `--output DIR`,
    /// `--format F`, `--frames LIST`, `--max-size N` and `--background
    /// RRGGBB`, each at most once, in any order, also as `--name=value`.
    /// A value or a file that starts with `-` (other than `-` itself) is
    /// left to ArgumentParser.
    init?(quickArguments arguments: [String]) {
        guard arguments.first == "dump" else { return nil }
        var file: String?
        var seen: UInt8 = 0  // one bit per option: a Set<String> would cost more than the parse
        var position = 1
        self.init(file: "")
        while position < arguments.count {
            let argument = arguments[position]
            position += 1
            guard argument.hasPrefix("-"), argument != "-" else {
                guard file == nil else { return nil }
                file = argument
                continue
            }
            var name = argument
            var value: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                value = String(argument[argument.index(after: equals)...])
            } else if position < arguments.count {
                value = arguments[position]
                position += 1
            }
            if name == "-o" { name = "--output" }
            guard let value, value == "-" || !value.hasPrefix("-"),
                  let bit = Self.quickOptions.firstIndex(of: name), seen & 1 << bit == 0
            else { return nil }
            seen |= 1 << bit
            switch name {
            case "--output": output = value
            case "--format":
                guard let format = DumpFormat(rawValue: value) else { return nil }
                self.format = format
            case "--frames":
                guard let frames = FrameSelection(argument: value) else { return nil }
                self.frames = frames
            case "--max-size":
                guard let maxSize = Int(value) else { return nil }
                self.maxSize = maxSize
            case "--background":
                guard let background = HexColor(argument: value) else { return nil }
                self.background = background
            default:
                return nil
            }
        }
        guard let file, problem == nil else { return nil }
        self.file = file
    }

    /// The options ``init(quickArguments:)`` takes.
    private static let quickOptions = ["--output", "--format", "--frames", "--max-size", "--background"]
}
