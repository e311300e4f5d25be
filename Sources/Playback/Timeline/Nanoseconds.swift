/// Integer-nanosecond arithmetic shared by the timeline and the playhead.
///
/// The core keeps time as `Int64` nanoseconds so that loop and frame lookups
/// are exact integer divisions; every operation saturates instead of trapping
/// on overflow (about 292 years).
enum Nanoseconds {
    /// `duration` in whole nanoseconds, truncating attoseconds and saturating.
    ///
    /// The attoseconds' magnitude is divided by 10⁹ in two long-division
    /// steps of 64 bits, each by the constant, which the compiler turns
    /// into a multiplication: a 128-bit division (`/` on `Int128`, or
    /// `dividingFullWidth`) is a library call several times that, and a
    /// player converts on every tick. Splitting the duration into seconds
    /// and attoseconds (`components`) costs more again.
    static func of(_ duration: Duration) -> Int64 {
        let attoseconds = duration.attoseconds
        let magnitude = attoseconds.magnitude
        let high = UInt64(truncatingIfNeeded: magnitude >> 64), low = UInt64(truncatingIfNeeded: magnitude)
        // A quotient of 2⁶⁴ or more saturates either way.
        guard high < 1_000_000_000 else { return attoseconds < 0 ? .min : .max }
        // high < 10⁹ < 2³⁰, so each dividend is below 2⁶², and each
        // quotient below 2³².
        let (upper, carried) = (high << 32 | low >> 32).quotientAndRemainder(dividingBy: 1_000_000_000)
        let nanoseconds = upper << 32 | (carried << 32 | low & 0xFFFF_FFFF) / 1_000_000_000
        if attoseconds < 0 {
            return nanoseconds > Int64.min.magnitude ? .min : Int64(truncatingIfNeeded: 0 &- nanoseconds)
        }
        return nanoseconds > UInt64(Int64.max) ? .max : Int64(nanoseconds)
    }

    /// A `Duration` of `nanoseconds`: one 128-bit multiplication, where
    /// `Duration.nanoseconds(_:)` multiplies with overflow checks in calls.
    static func duration(_ nanoseconds: Int64) -> Duration {
        Duration(attoseconds: Int128(nanoseconds) * 1_000_000_000)
    }

    /// `a + b`, saturating.
    static func add(_ a: Int64, _ b: Int64) -> Int64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b > 0 ? .max : .min) : sum
    }

    /// `a - b`, saturating.
    static func subtract(_ a: Int64, _ b: Int64) -> Int64 {
        let (difference, overflow) = a.subtractingReportingOverflow(b)
        return overflow ? (b < 0 ? .max : .min) : difference
    }

    /// `a * b`, saturating.
    static func multiply(_ a: Int64, _ b: Int64) -> Int64 {
        let (product, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? ((a < 0) != (b < 0) ? .min : .max) : product
    }

    /// `Int64(value)` for a `Double`, rounding with `rule` and saturating.
    ///
    /// Saturates exactly at ±2⁶³ so the result never decreases as `value`
    /// grows: ``host(forMedia:rate:)`` steps one nanosecond at a time and
    /// relies on that (a cut-off below 2⁶³ made it walk ~10¹⁵ steps).
    static func fromDouble(_ value: Double, _ rule: FloatingPointRoundingRule) -> Int64 {
        let rounded = value.rounded(rule)
        if rounded.isNaN { return 0 }
        if rounded >= 0x1p63 { return .max }
        if rounded < -0x1p63 { return .min }
        return Int64(rounded)
    }

    /// Media time covered by `host` nanoseconds of host time at `rate`,
    /// rounded down so the animation never runs ahead of the clock.
    ///
    /// Inlined, with ``host(forMedia:rate:)``, so that a tick at rate 1
    /// (each tick converts both ways) does not pay for the rounding rule's
    /// set-up: `FloatingPointRoundingRule` is resilient, a metadata lookup
    /// and a stack allocation on every call that names one.
    @inline(__always)
    static func media(forHost host: Int64, rate: Double) -> Int64 {
        rate == 1 ? host : scaledMedia(forHost: host, rate: rate)
    }

    /// ``media(forHost:rate:)`` at a rate other than 1.
    private static func scaledMedia(forHost host: Int64, rate: Double) -> Int64 {
        fromDouble(Double(host) * rate, .down)
    }

    /// The least host time whose ``media(forHost:rate:)`` reaches `media`.
    @inline(__always)
    static func host(forMedia media: Int64, rate: Double) -> Int64 {
        rate == 1 || media <= 0 ? media : scaledHost(forMedia: media, rate: rate)
    }

    /// ``host(forMedia:rate:)`` at a rate other than 1, of a positive `media`.
    private static func scaledHost(forMedia media: Int64, rate: Double) -> Int64 {
        var host = fromDouble(Double(media) / rate, .up)
        while host < .max, self.media(forHost: host, rate: rate) < media { host += 1 }
        while host > 0, self.media(forHost: host - 1, rate: rate) >= media { host -= 1 }
        return host
    }
}
