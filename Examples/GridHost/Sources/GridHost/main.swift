// A grid of animated GIFs in an X11 window, three cells across, scrolled
// with the arrow keys and Page Up/Down or by timed flicks: the players draw premultiplied BGRA
// straight into one XImage the size of the whole grid, and only the
// rectangles that changed go to the server.
import CX11
import GIF
import GIFPlayback
import Glibc
import Playback

let usage = """
    usage: GridHost [options] [FILE.gif ...]   (default: the package's animated fixtures, largest first)
      --seconds N           quit after N seconds
      --paused-at MS        stop the grid's clock at MS milliseconds
      --check-at MS,MS,...  stop at each instant in turn, compare the window with the library's frames, then quit
      --flick MS            every MS milliseconds scroll a row down, in 200 ms, and at the end back to the top
      --screenshot FILE     save the window as a PPM file on quitting
    """

func fail(_ message: String) -> Never { print("GridHost: \(message)"); exit(2) }

// The options.
var paths: [String] = [], seconds: Double?, stops: [Int] = [], checking = false
var screenshotPath: String?, flick = 0
var arguments = CommandLine.arguments.dropFirst()
@MainActor func value(_ name: String) -> String {
    if let next = arguments.popFirst() { next } else { fail("\(name) needs a value\n\(usage)") }
}
while let argument = arguments.popFirst() {
    switch argument {
    case "--seconds": seconds = Double(value(argument))
    case "--paused-at": stops = [Int(value(argument)) ?? -1]
    case "--check-at": stops = value(argument).split(separator: ",").map { Int($0) ?? -1 }; checking = true
    case "--flick": flick = Int(value(argument)) ?? -1
    case "--screenshot": screenshotPath = value(argument)
    case "-h", "--help": print(usage); exit(0)
    default: if argument.hasPrefix("-") { fail("unknown option \(argument)\n\(usage)") } else { paths.append(argument) }
    }
}
guard !stops.contains(where: { $0 < 0 }), stops == stops.sorted(), flick >= 0, seconds.map({ $0 > 0 }) ?? true else {
    fail("times, speeds and seconds must be numbers, the stops in order\n\(usage)")
}
if paths.isEmpty { paths = animatedFixtures() }
guard !paths.isEmpty else { fail("no GIF to show") }

// The grid: 200-pixel cells, three across, three rows in view.
let columns = 3, side = 200
let rows = (paths.count + columns - 1) / columns
let width = columns * side, height = rows * side, windowHeight = min(height, 3 * side), rowBytes = width * 4
let pixels = UnsafeMutableRawBufferPointer.allocate(byteCount: rowBytes * height, alignment: 64)
pixels.initializeMemory(as: UInt8.self, repeating: 0)

// Every cell a player at the cell's display size, as a feed sets them up:
// one pool over one 24 MiB budget, sources reading frames from their files,
// every player on one epoch, all looping. Aspect fill, cropped to the top
// left; the fixtures are pixel art, so enlarged cells repeat pixels.
let size = DisplaySize(width: side, height: side, contentMode: .aspectFill, alignment: .topLeft, upscaling: .nearest)
let clock = ContinuousClock()
let pool = FrameCachePool(budget: FrameMemoryBudget(byteBudget: 24 << 20))
let group = GroupDriver(clock: clock)
struct Cell {
    let path: String, player: Player<ContinuousClock.Instant>, row: Int, frame: PixelRect  // where it draws in the grid
    var inGroup = false, owed = true  // whether it plays now, and its frame is to be drawn
}
var cells: [Cell] = []
let epoch = clock.now
do {
    for (index, path) in paths.enumerated() {
        let image = try GIFImage(readingFramesFromFileAt: path)
        let cache = await pool.cache(for: path, displaySize: size) {
            GIFFrameSource(image: image, pixelFormat: .premultipliedBGRA8)
        }
        let player = try Player(source: cache.source, configuration: PlayerConfiguration(loop: .forever),
                                startingAt: epoch, epoch: epoch, cache: cache)
        let place = size.geometry(width: image.info.canvasSize.width, height: image.info.canvasSize.height)
        let frame = PixelRect(x: index % columns * side + place.x, y: index / columns * side + place.y,
                              width: player.drawer.width, height: player.drawer.height)
        cells.append(Cell(path: path, player: player, row: index / columns, frame: frame))
    }
} catch {
    fail("\(error)")
}

// The window, and the XImage over the grid's pixels (no copy).
guard let display = XOpenDisplay(nil) else { fail("cannot open the X display (is DISPLAY set?)") }
let screen = XDefaultScreen(display)
let visual = XDefaultVisual(display, screen)!
guard XDefaultDepth(display, screen) >= 24, visual.pointee.red_mask == 0xFF0000, visual.pointee.blue_mask == 0xFF else {
    fail("the display is not 24-bit true colour")
}
let window = XCreateSimpleWindow(display, XRootWindow(display, screen), 0, 0, UInt32(width), UInt32(windowHeight),
                                 0, 0, XBlackPixel(display, screen))
XStoreName(display, window, "GridHost")
XSelectInput(display, window, ExposureMask | KeyPressMask)
var closeAtom = XInternAtom(display, "WM_DELETE_WINDOW", 0)
XSetWMProtocols(display, window, &closeAtom, 1)
XMapWindow(display, window)
let gc = XDefaultGC(display, screen)
let image = XCreateImage(display, visual, UInt32(XDefaultDepth(display, screen)), ZPixmap, 0,
                         pixels.baseAddress!.assumingMemoryBound(to: CChar.self), UInt32(width), UInt32(height), 32,
                         Int32(rowBytes))!
guard image.pointee.bits_per_pixel == 32, image.pointee.byte_order == LSBFirst else {
    fail("the display does not take 32-bit little-endian pixels")
}

/// Compares the window with the frames the library makes for the cells in
/// view at `ms`, pixel for pixel; prints what it found and returns the
/// number of pixels that differ.
@MainActor func check(at ms: Int) -> Int {
    let shown = windowPixels(display, window, width: width, height: windowHeight)
    var expected = [UInt8](repeating: 0, count: shown.count)  // black where no cell is
    var checked: [String] = []
    for cell in cells where cell.inGroup {
        let frame: [UInt8]
        do { frame = try expectedFrame(path: cell.path, at: ms, size: size) } catch { fail("\(cell.path): \(error)") }
        for y in 0..<cell.frame.height where (scroll..<scroll + windowHeight).contains(cell.frame.y + y) {
            let row = (cell.frame.y + y - scroll) * rowBytes + cell.frame.x * 4
            expected[row..<row + cell.frame.width * 4] = frame[y * cell.frame.width * 4..<(y + 1) * cell.frame.width * 4]
        }
        checked.append(String(cell.path.split(separator: "/").last ?? ""))
    }
    // The server keeps 24 bits a pixel: blue, green and red are compared.
    var wrong: [Int] = []
    for pixel in stride(from: 0, to: shown.count, by: 4) where shown[pixel..<pixel + 3] != expected[pixel..<pixel + 3] {
        wrong.append(pixel / 4)
    }
    print("check at \(ms) ms, scrolled \(scroll) px: \(checked.count) cells (\(checked.joined(separator: ", "))), "
        + "\(shown.count / 4 - wrong.count) pixels equal, \(wrong.count) differ"
        + (wrong.first.map { ", the first at (\($0 % width), \($0 / width)): BGR \(shown[$0 * 4..<$0 * 4 + 3]) "
            + "where the library's frame has \(expected[$0 * 4..<$0 * 4 + 3])" } ?? ""))
    return wrong.count
}

// The refresh loop: events, the grid's time and scroll, a tick of the
// group, the changed players drawn, the changed rectangles put.
let refresh = Duration.nanoseconds(16_666_667)
let maxScroll = height - windowHeight
var scroll = -1, keyScroll = 0, mapped = false, running = true  // scroll: the grid pixel row at the top (-1: none yet)
var dirty: [PixelRect] = [], redrawAll = false
var paused = Duration.zero  // the time the grid's clock stood still at the stops passed
var draws = 0, lateDraws = 0, failures = 0
var wake = clock.now
for cell in cells { await cell.player.play(at: epoch) }
while running {
    try await clock.sleep(until: wake)
    while XPending(display) > 0 {
        var event = XEvent()
        XNextEvent(display, &event)
        switch event.type {
        case Expose:
            mapped = true
            let area = event.xexpose  // in the window; the grid is scrolled by `scroll`
            dirty.append(PixelRect(x: Int(area.x), y: Int(area.y) + scroll, width: Int(area.width), height: Int(area.height)))
        case KeyPress:
            let key = Int32(truncatingIfNeeded: XLookupKeysym(&event.xkey, 0))
            keyScroll += [XK_Up: -40, XK_Down: 40, XK_Page_Up: -windowHeight, XK_Page_Down: windowHeight][key] ?? 0
            running = running && key != XK_q && key != XK_Escape
        case ClientMessage where event.xclient.data.l.0 == Int(closeAtom):
            running = false
        default: break
        }
    }
    // The grid's time: the clock's, held at the next stop.
    let real = epoch.duration(to: clock.now)
    var now = real - paused
    let stop = stops.first.map { Duration.milliseconds($0) }
    if let stop, now > stop { now = stop }
    let ms = Int(now / .milliseconds(1))
    // The scroll: the flicks' (resting, then moving for the last 200 ms of each), plus the keys'.
    let flicks = flick == 0 ? 0 : ms / flick, positions = maxScroll / side + 1
    let moved = flick == 0 ? 0 : max(0, ms % flick - max(0, flick - 200)) * side / min(200, flick)
    let swept = flicks % positions * side + (flicks % positions == positions - 1 ? -maxScroll * moved / side : moved)
    keyScroll = min(max(keyScroll, -maxScroll), maxScroll)
    let newScroll = min(max(keyScroll + swept, 0), maxScroll)
    if newScroll != scroll {
        scroll = newScroll
        redrawAll = true
        for index in cells.indices {  // the rows in view play; the others leave the group, keeping their pixels
            let visible = cells[index].row * side < scroll + windowHeight && (cells[index].row + 1) * side > scroll
            guard visible != cells[index].inGroup else { continue }
            if visible { await group.add(cells[index].player) } else { await group.remove(cells[index].player) }
            cells[index].inGroup = visible
            cells[index].owed = cells[index].owed || visible
        }
    }
    let tick = await group.tick(at: epoch.advanced(by: now))
    for id in tick.changed { cells.firstIndex { ObjectIdentifier($0.player) == id }.map { cells[$0].owed = true } }
    for index in cells.indices where cells[index].inGroup && cells[index].owed {
        let frame = cells[index].frame, start = frame.y * rowBytes + frame.x * 4
        let drawn = try cells[index].player.draw(into: UnsafeMutableRawBufferPointer(rebasing: pixels[start...]), bytesPerRow: rowBytes)
        if case .drawn(_, let changed, _) = drawn {
            draws += 1
            dirty.append(PixelRect(x: frame.x + changed.x, y: frame.y + changed.y, width: changed.width, height: changed.height))
        } else if case .failed(let shown, _, let reason) = drawn {
            print("GridHost: \(cells[index].path) frame \(shown): \(reason)")
        }
        if case .late = drawn { lateDraws += 1 } else { cells[index].owed = false }  // a late frame is drawn next time
    }
    if redrawAll { dirty = [PixelRect(x: 0, y: scroll, width: width, height: windowHeight)] }
    for rect in dirty {
        let top = max(rect.y, scroll), bottom = min(rect.y + rect.height, scroll + windowHeight)
        let left = max(rect.x, 0), right = min(rect.x + rect.width, width)
        guard top < bottom, left < right else { continue }
        XPutImage(display, window, gc, image, Int32(left), Int32(top), Int32(left), Int32(top - scroll),
                  UInt32(right - left), UInt32(bottom - top))
    }
    dirty.removeAll(keepingCapacity: true)
    redrawAll = false
    XFlush(display)

    // At a stop, once every cell in view shows its frame: the check, then on.
    let settled = mapped && !cells.contains { $0.inGroup && $0.owed }
    if let stop, now == stop, settled, checking {
        XSync(display, 0)
        failures += check(at: ms)
        stops.removeFirst()
        paused = real - stop
        running = !stops.isEmpty
    }
    if let seconds, real >= .milliseconds(Int(seconds * 1000)) { running = false }
    // Next refresh; with nothing owed and nothing scrolling, the display
    // link pauses until the next change (waking at least every 100 ms for
    // events).
    wake = max(wake.advanced(by: refresh), clock.now)
    if settled, now == stop {
        wake = clock.now.advanced(by: .milliseconds(100))
    } else if settled, flick == 0, let change = tick.nextChange {
        wake = max(wake, min(change.advanced(by: paused), clock.now.advanced(by: .milliseconds(100))))
    }
}
if let screenshotPath { writePPM(windowPixels(display, window, width: width, height: windowHeight), width: width, to: screenshotPath) }
print("GridHost: \(cells.count) GIFs, \(draws) draws, \(lateDraws) late, \(clock.now - epoch)")
XCloseDisplay(display)
if checking, !stops.isEmpty { fail("quit before checking at \(stops.map(String.init).joined(separator: ", ")) ms") }
exit(failures == 0 ? 0 : 1)
