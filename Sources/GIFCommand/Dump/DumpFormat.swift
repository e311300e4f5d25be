import ArgumentParser

/// The image format `gif dump` writes.
enum DumpFormat: String, CaseIterable, ExpressibleByArgument {
    /// Binary PPM (`P6`): RGB, transparent pixels over a background colour.
    case ppm
    /// PAM (`P7`, `RGB_ALPHA`): RGBA with the alpha channel kept.
    case pam
    /// PNG, written with libpng: RGBA with the alpha channel kept (RGB when
    /// every pixel of the frame is opaque), compressed.
    case png
    /// NIA, the Wuffs project's uncompressed animation dump: one stream for
    /// the whole animation.
    case nia

    /// Whether a dump into a directory writes one file per frame (PPM, PAM,
    /// PNG) rather than one for the animation (NIA).
    var writesFilePerFrame: Bool { self != .nia }

    /// The name in messages: "PPM", "PAM", "PNG", "NIA".
    var name: String { rawValue.uppercased() }
}
