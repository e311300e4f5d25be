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
guard !stops.contains(where: { $0 < 0 }), stops == stops.sorted(), Set(paths).count == paths.count, flick >= 0,
    seconds.map({ $0 > 0 }) ?? true else {
    fail("times and seconds must be numbers, the stops in order, each file once\n\(usage)")
}
if paths.isEmpty { paths = animatedFixtures() }
guard !paths.isEmpty else { fail("no GIF to show") }

// The grid: 200-pixel cells, three across, three rows in view.
let columns = 3, side = 200
let rows = (paths.count + columns - 1) / columns
let width = columns * side, height = rows * side, windowHeight = min(height, 3 * side), rowBytes = width * 4
let pixels = UnsafeMutableRawBufferPointer.allocate(byteCount: rowBytes * height, alignment: 64)
pixels.initializeMemory(as: UInt8.self, repeating: 0)

// The cells, as a feed sets them up: a GridFeed plays every cell in view,
// its players from one pool over one 24 MiB budget, sources reading frames
// from their files, all looping in step with one epoch (a cell back in view
// shows what it would have shown), in one group driver the loop ticks.
// Aspect fill, cropped to the top left; the fixtures are pixel art, so
// enlarged cells repeat pixels.
let size = DisplaySize(width: side, height: side, contentMode: .aspectFill, alignment: .topLeft, upscaling: .nearest)
var cells: [GridFeed<ContinuousClock>.Cell] = [], origins: [String: (x: Int, y: Int)] = [:]  // where frames go
for (index, path) in paths.enumerated() {
    let canvas: PixelSize
    do { canvas = try GIFImage(readingFramesFromFileAt: path).info.canvasSize } catch { fail("\(path): \(error)") }
    let (x, y) = (index % columns * side, index / columns * side)
    let place = size.geometry(width: canvas.width, height: canvas.height)
    cells.append(.init(key: path, frame: LayoutRect(x: Double(x), y: Double(y), width: Double(side), height: Double(side))))
    origins[path] = (x + place.x, y + place.y)
}
let clock = ContinuousClock()
let epoch = clock.now
let feed = GridFeed(
    driver: GroupDriver(clock: clock), pool: FrameCachePool(budget: FrameMemoryBudget(byteBudget: 24 << 20)),
    displaySize: size, configuration: PlayerConfiguration(loop: .forever), rule: .anyOverlap, resume: .inStep,
    startingAt: epoch
) { path in GIFFrameSource(image: try GIFImage(readingFramesFromFileAt: path), pixelFormat: .premultipliedBGRA8) }

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
    for (path, player) in playing {
        let frame: [UInt8], (x, top) = origins[path]!, rowWidth = player.drawer.width * 4
        do { frame = try expectedFrame(path: path, at: ms, size: size) } catch { fail("\(path): \(error)") }
        for y in 0..<player.drawer.height where (scroll..<scroll + windowHeight).contains(top + y) {
            let row = (top + y - scroll) * rowBytes + x * 4
            expected[row..<row + rowWidth] = frame[y * rowWidth..<(y + 1) * rowWidth]
        }
        checked.append(String(path.split(separator: "/").last ?? ""))
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
var playing: [(key: String, player: Player<ContinuousClock.Instant>)] = [], owed: Set<String> = []  // owed: to draw
var paused = Duration.zero  // the time the grid's clock stood still at the stops passed
var draws = 0, lateDraws = 0, failures = 0
var wake = clock.now
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
        // The cells in view play; those that leave keep their pixels in the grid's image.
        let view = Viewport(bounds: LayoutRect(x: 0, y: Double(scroll), width: Double(width), height: Double(windowHeight)))
        let change = await feed.update(cells: cells, viewport: view, at: epoch.advanced(by: now))
        for path in change.failed { print("GridHost: \(path) cannot be played") }
        owed.formUnion(change.started)
        playing = []
        for key in await feed.playingKeys { if let player = await feed.player(for: key) { playing.append((key, player)) } }
    }
    let tick = await feed.driver.tick(at: epoch.advanced(by: now))
    for (key, player) in playing where tick.changed.contains(ObjectIdentifier(player)) { owed.insert(key) }
    for (key, player) in playing where owed.contains(key) {
        let (x, y) = origins[key]!
        let cell = UnsafeMutableRawBufferPointer(rebasing: pixels[(y * rowBytes + x * 4)...])  // rows a whole grid apart
        let drawn = try player.draw(into: cell, bytesPerRow: rowBytes)
        if case .drawn(_, let changed, _) = drawn {
            draws += 1
            dirty.append(PixelRect(x: x + changed.x, y: y + changed.y, width: changed.width, height: changed.height))
        } else if case .failed(let shown, _, let reason) = drawn {
            print("GridHost: \(key) frame \(shown): \(reason)")
        }
        if case .late = drawn { lateDraws += 1 } else { owed.remove(key) }  // a late frame is drawn next time
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
    let settled = mapped && owed.isDisjoint(with: playing.map(\.key))
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
if let screenshotPath {
    writePPM(windowPixels(display, window, width: width, height: windowHeight), width: width, to: screenshotPath)
}
print("GridHost: \(cells.count) GIFs, \(draws) draws, \(lateDraws) late, \(clock.now - epoch)")
XCloseDisplay(display)
if checking, !stops.isEmpty { fail("quit before checking at \(stops.map(String.init).joined(separator: ", ")) ms") }
exit(failures == 0 ? 0 : 1)
