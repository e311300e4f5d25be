import CX11
import GIF
import Glibc
import Playback

/// The package's fixtures that animate and decode whole, largest file first.
func animatedFixtures() -> [String] {
    let root = #filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast(5).joined(separator: "/")
    var found = glob_t()
    defer { globfree(&found) }
    guard glob(root + "/Fixtures/*.gif", 0, nil, &found) == 0 else { return [] }
    let files = (0..<Int(found.gl_pathc)).compactMap { found.gl_pathv[$0].map { String(cString: $0) } }
        .compactMap { path in (try? GIFImage(contentsOf: path)).map { (path: path, image: $0) } }
        .filter { $0.image.info.frameCount > 1 && $0.image.info.error == nil }
    return files.sorted { $0.image.bytes.count != $1.image.bytes.count
        ? $0.image.bytes.count > $1.image.bytes.count : $0.path < $1.path }.map(\.path)
}

/// The frame a looping player of `path` shows `ms` milliseconds after it
/// started, worked out apart from the player: the frame index from the
/// browser delays, the frame composited in RGBA as `gif dump` writes it,
/// premultiplied into BGRA here and scaled by the display size's filter.
func expectedFrame(path: String, at ms: Int, size: DisplaySize) throws -> [UInt8] {
    let image = try GIFImage(contentsOf: path)
    let delays = image.info.frames.map { Int(($0.browserDelay / .milliseconds(1)).rounded()) }
    var rest = ms % delays.reduce(0, +), index = 0
    while rest >= delays[index] { (rest, index) = (rest - delays[index], index + 1) }
    let rgba = try image.frame(at: index).pixels
    var bgra = [UInt8](repeating: 0, count: rgba.count)
    for pixel in stride(from: 0, to: rgba.count, by: 4) {
        let alpha = UInt16(rgba[pixel + 3])
        for (to, from) in [(0, 2), (1, 1), (2, 0)] { bgra[pixel + to] = UInt8((UInt16(rgba[pixel + from]) * alpha + 127) / 255) }
        bgra[pixel + 3] = rgba[pixel + 3]
    }
    var scaled: [UInt8] = []
    let canvas = image.info.canvasSize
    BoxFilter(sourceWidth: canvas.width, sourceHeight: canvas.height, displaySize: size)
        .apply(bgra, into: &scaled, premultiplied: true)
    return scaled
}

/// The window's pixels as the server has them (`XGetImage`), in rows of
/// `width` 4-byte pixels: blue, green, red and a byte the server ignores.
func windowPixels(_ display: OpaquePointer, _ window: Window, width: Int, height: Int) -> [UInt8] {
    guard let shot = XGetImage(display, window, 0, 0, UInt32(width), UInt32(height), XAllPlanes(), ZPixmap) else {
        return []
    }
    defer { cx11_destroy_image(shot) }
    let rowBytes = Int(shot.pointee.bytes_per_line)
    return shot.pointee.data.withMemoryRebound(to: UInt8.self, capacity: rowBytes * height) { data in
        (0..<height).flatMap { y in UnsafeBufferPointer(start: data + y * rowBytes, count: width * 4) }
    }
}

/// Writes BGRX pixels `width` wide as a binary PPM.
func writePPM(_ pixels: [UInt8], width: Int, to path: String) {
    let height = pixels.count / 4 / max(width, 1)
    let bytes = Array("P6\n\(width) \(height)\n255\n".utf8)
        + stride(from: 0, to: pixels.count, by: 4).flatMap { [pixels[$0 + 2], pixels[$0 + 1], pixels[$0]] }
    guard let file = fopen(path, "wb") else { return print("GridHost: cannot write \(path)") }
    fwrite(bytes, 1, bytes.count, file)
    fclose(file)
}
