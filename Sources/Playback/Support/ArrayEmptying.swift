extension Array {
    /// Removes every element and keeps the storage, for a list refilled on
    /// every tick (the events of a frame change, the players a tick moved).
    ///
    /// Each removal is the inlined `removeLast()`: a count decremented.
    /// `removeAll(keepingCapacity: true)` replaces the whole range through
    /// the array's generic `replaceSubrange`, which cost a player's tick
    /// more than its events did.
    @inline(__always)
    mutating func removeAllKeepingCapacity() {
        while !isEmpty { removeLast() }
    }
}
