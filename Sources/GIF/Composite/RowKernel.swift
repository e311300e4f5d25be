import EngineSupport
import GIFKernels

extension Compositor {
    /// The ways of drawing a row of palette indices as pixels of four
    /// bytes. All give the same pixels.
    enum RowKernel: CaseIterable, Sendable {
        /// A word at a time, in Swift: every processor.
        case portable
        /// 8 pixels at a time with AVX2 gathers from the colour table's
        /// words: x86-64 processors with AVX2 (Zen 1 to 3, Intel from
        /// Haswell on).
        case avx2
        /// 64 pixels at a time with AVX-512 F, BW and VBMI byte permutes of
        /// the colour table's planes: Zen 4, Intel from Ice Lake on.
        case avx512VBMI

        /// The fastest kernel this processor runs (the cases go from the
        /// slowest to the fastest).
        static let best = allCases.last { $0.isAvailable } ?? .portable

        /// Whether this processor runs the kernel.
        var isAvailable: Bool {
            switch self {
            case .portable: true
            case .avx2: ProcessorFeatures.hasAVX2
            case .avx512VBMI: ProcessorFeatures.hasAVX512VBMI
            }
        }

        /// The kernels this processor runs.
        static var available: [RowKernel] { allCases.filter(\.isAvailable) }

        /// The shortest row drawn alone with this kernel (a row of a frame
        /// cut short or interlaced and part-decoded): the AVX-512 kernel
        /// loads the colour table's sixteen registers for each, the AVX2
        /// one draws a shorter row a pixel at a time.
        var rowMinimum: Int {
            switch self {
            case .portable: .max
            case .avx2: 8
            case .avx512VBMI: 32
            }
        }

        /// The narrowest rectangle of rows drawn with this kernel as one.
        /// The AVX-512 kernel loads the colour table once for all its rows
        /// and looks up to four narrow rows up at once: from 4 pixels a row
        /// a row costs fewer instructions than a word at a time.
        var rectMinimum: Int {
            switch self {
            case .portable: .max
            case .avx2: 8
            case .avx512VBMI: 4
            }
        }

        #if arch(x86_64)
        /// Draws `rows` rows of `columns` indices at `from` (rows `stride`
        /// apart) at `out` (and `copy`, when set), with this vector kernel
        /// (not ``portable``): `words` is the colour table's words, `planes`
        /// its byte planes.
        func drawRect(
            _ from: UnsafePointer<UInt8>, stride: Int, columns: Int, rows: Int, into out: UnsafeMutablePointer<UInt32>,
            stride outStride: Int, copy: UnsafeMutablePointer<UInt32>?, stride copyStride: Int,
            words: UnsafePointer<UInt32>, planes: UnsafePointer<UInt8>, transparent: Int
        ) {
            if self == .avx512VBMI {
                gif_draw_rect_avx512_vbmi(
                    from, stride, columns, rows, out, outStride, copy, copyStride, planes, Int32(transparent))
            } else {
                gif_draw_rect_avx2(from, stride, columns, rows, out, outStride, copy, copyStride, words, Int32(transparent))
            }
        }
        #endif
    }
}
