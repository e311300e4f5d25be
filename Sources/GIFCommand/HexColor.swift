import ArgumentParser
import GIF

/// An opaque colour written `RRGGBB` (a leading `#` is allowed).
struct HexColor: ExpressibleByArgument, Equatable {
    /// The colour, as the PPM writer takes it.
    var background: PNMWriter.Background

    init?(argument: String) {
        let hex = argument.hasPrefix("#") ? argument.dropFirst() : Substring(argument)
        guard hex.count == 6, hex.allSatisfy(\.isHexDigit), let value = UInt32(hex, radix: 16) else { return nil }
        background = PNMWriter.Background(
            red: UInt8(value >> 16), green: UInt8((value >> 8) & 0xFF), blue: UInt8(value & 0xFF))
    }
}
