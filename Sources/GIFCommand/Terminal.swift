#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The terminal `gif play` draws in: whether there is one, its size, and the
/// escape sequences that take it over and give it back.
enum Terminal {
    /// Whether standard output is a terminal.
    static var outputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    /// The terminal's size in character cells, from `TIOCGWINSZ` on standard
    /// output, or `nil` when it cannot be read (or reads as zero).
    static var size: (columns: Int, rows: Int)? {
        var size = winsize()
        let status = withUnsafeMutablePointer(to: &size) { ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), $0) }
        guard status == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// Switches to the alternate screen, clears it and hides the cursor.
    static let takeOver = "\u{1B}[?1049h\u{1B}[2J\u{1B}[?25l"

    /// Resets colours, shows the cursor and leaves the alternate screen.
    static let giveBack = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"

    /// Moves the cursor to the top left corner.
    static let home = "\u{1B}[H"

    /// Erases from the cursor to the end of the line.
    static let eraseLine = "\u{1B}[K"

    /// Writes `text` to standard output at once, unbuffered.
    static func output(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            bytes = bytes.dropFirst(written)
        }
    }
}
