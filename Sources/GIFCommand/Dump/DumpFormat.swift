import ArgumentParser

/// The image format `gif dump` writes.
enum DumpFormat: String, CaseIterable, ExpressibleByArgument {
    /// Binary PPM (`P6`): RGB, transparent pixels over a background colour.
    case ppm
    /// PAM (`P7`, `RGB_ALPHA`): RGBA with the alpha channel kept.
    case pam
    /// NIA, the Wuffs project's uncompressed animation dump: one stream for
    /// the whole animation.
    case nia

    /// Whether a dump into a directory writes one file per frame (PPM, PAM)
    /// rather than one for the animation (NIA).
    var writesFilePerFrame: Bool { self != .nia }

    /// The name in messages: "PPM", "PAM", "NIA".
    var name: String { rawValue.uppercased() }
}
