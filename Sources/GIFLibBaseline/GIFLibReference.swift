import CGIFLib
import GIF

/// giflib's own whole-file decoder, as a baseline for benchmarks.
///
/// `DGifSlurp` parses every block and decodes every frame's LZW data into
/// palette indices, but does not composite: it is the floor any decoder built
/// on giflib can reach. Running it on the same bytes, in the same process, as
/// ``GIFImage`` turns a timing into a ratio that does not depend on the
/// machine.
///
/// It lives in its own module, `GIFLibBaseline`, which is no product of the
/// package: it is a benchmark floor for `gif bench`, not part of the `GIF`
/// library's API.
///
/// ```swift
/// import GIFLibBaseline
///
/// let frameCount = try GIFLibReference.slurp(bytes)   // bytes: the file's contents
/// print(frameCount)
/// ```
public enum GIFLibReference {
    /// Decodes all frames of `bytes` with `DGifSlurp`, reading from memory
    /// through a custom input function (no temporary file), and returns the
    /// frame count giflib found.
    ///
    /// - Throws: ``GIFError`` with ``GIFError/Kind/giflib(_:)`` when giflib
    ///   cannot open or slurp the bytes; `GIFError.framesDecoded` holds the
    ///   number of frames giflib had read by then.
    public static func slurp(_ bytes: [UInt8]) throws(GIFError) -> Int {
        let result: Result<Int, GIFError> = bytes.withUnsafeBufferPointer { buffer in
            var input = SlurpInput(bytes: buffer)
            return withUnsafeMutablePointer(to: &input) { input in
                var code: Int32 = 0
                guard let file = DGifOpen(input, readSlurpInput, &code) else {
                    return .failure(GIFError(.giflib(GIFLibError(rawValue: code))))
                }
                defer {
                    var closeCode: Int32 = 0
                    DGifCloseFile(file, &closeCode)
                }
                guard DGifSlurp(file) == GIF_OK else {
                    return .failure(GIFError(
                        .giflib(GIFLibError(rawValue: file.pointee.Error)),
                        framesDecoded: Int(file.pointee.ImageCount)))
                }
                return .success(Int(file.pointee.ImageCount))
            }
        }
        return try result.get()
    }
}

/// A read position in a whole file held in memory.
private struct SlurpInput {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0
}

/// giflib's input callback for ``GIFLibReference``: copies from the
/// ``SlurpInput`` in `UserData`.
private func readSlurpInput(
    _ file: UnsafeMutablePointer<GifFileType>?, _ buffer: UnsafeMutablePointer<GifByteType>?, _ count: Int32
) -> Int32 {
    guard let file, let buffer, count > 0,
          let input = file.pointee.UserData?.assumingMemoryBound(to: SlurpInput.self)
    else { return 0 }
    let start = input.pointee.position
    let n = min(Int(count), input.pointee.bytes.count - start)
    guard n > 0, let base = input.pointee.bytes.baseAddress else { return 0 }
    assert(start + n <= input.pointee.bytes.count)
    buffer.update(from: base + start, count: n)
    input.pointee.position += n
    return Int32(n)
}
